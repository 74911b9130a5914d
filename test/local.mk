# test/: one fragment per concern.
include test/unit/local.mk
include test/e2e/local.mk
include test/functions/local.mk
include test/mpi/local.mk
include test/trace/local.mk
include test/coverage/local.mk
include test/tools/local.mk
include test/robust/local.mk
include test/lint/local.mk
include test/ompt/local.mk
include test/gomp/local.mk
include test/view/local.mk
include test/numbers/local.mk
include test/tsan/local.mk

# a copy of the sources without build products, for nested builds
EXTRA_DIST += test/clean_copy.sh
# the tests' runners: in CI a skip is a failure (but for hardware counters)
EXTRA_DIST += test/ci_policy.py test/ci_policy.sh

# make check-timing: the tests whose upper wall-clock bounds a busy machine can break
# (PP_TEST_TIMING=1 turns those bounds on; make check asserts only counts, structure,
# exact ground truth and lower time bounds).  Run it on a quiet machine.
TIMING_TESTS = test/e2e/test_e2e_profile_tasks.py test/trace/test_trace_ground_truth.py \
	test/trace/test_trace_depend.py test/ompt/test_ompt_untied.py \
	test/ompt/test_ompt_profiles.py test/ompt/test_ompt_sched_gaps.py
check-timing: all
	PP_TEST_TIMING=1 $(MAKE) $(AM_MAKEFLAGS) check TESTS='$(TIMING_TESTS)'
.PHONY: check-timing
