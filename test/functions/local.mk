# test/functions: pompprof --functions (gcc -finstrument-functions) on real
# programs, read back with the tools' reader (doc/functions.md).
FUNCTIONS_TESTS = \
	test/functions/test_functions_fig2.py \
	test/functions/test_functions_names.py \
	test/functions/test_functions_filter.py \
	test/functions/test_functions_score.py \
	test/functions/test_functions_filterfile.py
TESTS += $(FUNCTIONS_TESTS)
EXTRA_DIST += $(FUNCTIONS_TESTS) test/functions/functions_common.py \
	test/functions/progs/fig2.c test/functions/progs/names.cpp test/functions/progs/names.f90 \
	test/functions/progs/filter.c test/functions/progs/filter_lib.c \
	test/functions/progs/recursive.c
check_SCRIPTS += scripts/pompprof-score
