# test/robust: the profiler never breaks the program it measures and never
# lies.  Fault injection, bad configuration and input, sanitizers, fuzzing,
# randomized ground truth (see test/robust/README.md and the docstring at the
# top of each test).

ROBUST_TESTS = \
	test/robust/faults.py \
	test/robust/signals.py \
	test/robust/exit_race.py \
	test/robust/crash.py \
	test/robust/bad_config.py \
	test/robust/output_dir.py \
	test/robust/bad_instrumentation.py \
	test/robust/ground_truth.py \
	test/robust/valgrind.py \
	test/robust/fuzz_region_string.py \
	test/robust/fuzz_cubex.py \
	test/robust/regressions.py \
	test/robust/sanitize.sh

TESTS += $(ROBUST_TESTS)

# Replays fuzzer inputs through the region-string harness without libFuzzer.
check_PROGRAMS += test/robust/replay_region_string
test_robust_replay_region_string_SOURCES = test/robust/fuzz_replay_main.c \
	test/robust/fuzz_region_string.c pomp2/pp_pomp2_region_string.c
test_robust_replay_region_string_CFLAGS = $(AM_CFLAGS)

if HAVE_CHECK
check_PROGRAMS += test/robust/test_signals
TESTS += test/robust/test_signals
test_robust_test_signals_SOURCES = $(CHECK_MAIN) test/robust/test_signals.c
test_robust_test_signals_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_robust_test_signals_LDADD = lib/libpp_util.la $(CHECK_LIBS) -lpthread
endif

EXTRA_DIST += $(ROBUST_TESTS) test/robust/README.md test/robust/robust_util.py \
	test/robust/gen_task_program.py \
	test/robust/progs/faults.c test/robust/progs/bad_pomp2.c \
	test/robust/progs/tasks_small.c test/robust/progs/signal_in_write.c \
	test/robust/progs/exit_race.c test/robust/progs/crash.c \
	test/robust/corpus test/robust/regressions

# ---- longer runs ---------------------------------------------------------------
# make check-long: 50 random ground-truth seeds and 5 minutes per fuzzer.
ROBUST_LONG_TESTS = test/robust/ground_truth.py test/robust/fuzz_region_string.py \
	test/robust/fuzz_cubex.py test/robust/regressions.py
check-long: all
	GT_SEEDS=$${GT_SEEDS:-50} FUZZ_SECONDS=$${FUZZ_SECONDS:-300} \
	  $(MAKE) $(AM_MAKEFLAGS) check TESTS='$(ROBUST_LONG_TESTS)'

# ---- sanitizers ------------------------------------------------------------------
# sanitize.sh builds a clean copy of the sources with --enable-sanitizers in
# _sanitize/ and runs there, under ASan + UBSan: every unit test, the
# robustness tests (except valgrind, which does not mix with ASan, and the
# fuzzers, which have their own sanitizers) and the e2e tests that run
# profiled programs.  It is a test of 'make check' (about a minute on 2
# cores); 'make check-sanitize' runs it alone.  The nested build asks for
# its list with 'make print-sanitize-tests'.
# (crash.py neither: the sanitizers catch the crash signals first, each
# in its own way)
SANITIZE_TESTS = $(filter test/unit/% test/robust/%,$(filter-out \
	test/robust/sanitize.sh test/robust/valgrind.py test/robust/fuzz_% \
	test/robust/crash.py,$(TESTS))) \
	$(filter test/e2e/test_e2e_programs.sh test/e2e/test_e2e_profile_tasks.py,$(TESTS))
print-sanitize-tests:
	@echo $(SANITIZE_TESTS)
check-sanitize: all
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' CC='$(CC)' \
	  $(SHELL) $(srcdir)/test/robust/sanitize.sh

clean-robust:
	rm -rf _sanitize test/robust/work-*

.PHONY: check-long check-sanitize clean-robust print-sanitize-tests
