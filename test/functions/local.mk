# test/functions: pompprof --functions (gcc -finstrument-functions) on real
# programs, read back with the tools' reader (doc/functions.md).
FUNCTIONS_TESTS = \
	test/functions/test_functions_fig2.py \
	test/functions/test_functions_names.py \
	test/functions/test_functions_filter.py \
	test/functions/test_functions_score.py \
	test/functions/test_calibrate.py \
	test/functions/test_functions_filterfile.py \
	test/functions/test_functions_safe.py \
	test/functions/test_functions_plugin.py \
	test/functions/test_functions_clang.py
TESTS += $(FUNCTIONS_TESTS)
EXTRA_DIST += $(FUNCTIONS_TESTS) test/functions/functions_common.py \
	test/functions/progs/fig2.c test/functions/progs/names.cpp test/functions/progs/names.f90 \
	test/functions/progs/filter.c test/functions/progs/filter_lib.c \
	test/functions/progs/recursive.c test/functions/progs/taskshape.c test/functions/progs/safe.c \
	test/functions/progs/safe_lib.c test/functions/progs/exact.cpp
check_SCRIPTS += scripts/pompprof-score
# the library's filter reader alone (test_functions_filterfile)
check_PROGRAMS += test/functions/filter_read
test_functions_filter_read_SOURCES = test/functions/filter_read.c functions/pp_filter.c \
	functions/pp_filter.h

# make check-timing: the upper time bounds of the functions tests too, which
# a busy machine breaks (never part of make check)
.PHONY: check-timing check-timing-functions
check-timing: check-timing-functions
check-timing-functions: all
	CHECK_TIMING=1 $(MAKE) $(AM_MAKEFLAGS) check TESTS='test/functions/test_functions_fig2.py'
