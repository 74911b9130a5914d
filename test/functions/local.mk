# test/functions: pompprof --functions (gcc -finstrument-functions) on real
# programs, read back with the tools' reader (doc/functions.md).
FUNCTIONS_TESTS = \
	test/functions/test_functions_fig2.py
TESTS += $(FUNCTIONS_TESTS)
EXTRA_DIST += $(FUNCTIONS_TESTS) test/functions/functions_common.py \
	test/functions/progs/fig2.c
