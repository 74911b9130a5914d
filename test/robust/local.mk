# test/robust: the profiler never breaks the program it measures and never
# lies.  Fault injection, bad configuration and input, sanitizers, fuzzing,
# randomized ground truth (see the docstring at the top of each test).

ROBUST_TESTS = \
	test/robust/faults.py \
	test/robust/signals.py \
	test/robust/bad_config.py \
	test/robust/output_dir.py \
	test/robust/bad_instrumentation.py \
	test/robust/ground_truth.py \
	test/robust/valgrind.py \
	test/robust/fuzz_region_string.py \
	test/robust/fuzz_cubex.py \
	test/robust/regressions.py

TESTS += $(ROBUST_TESTS)

# Replays fuzzer inputs through the region-string harness without libFuzzer.
check_PROGRAMS += test/robust/replay_region_string
test_robust_replay_region_string_SOURCES = test/robust/fuzz_replay_main.c \
	test/robust/fuzz_region_string.c pomp2/pp_pomp2_region_string.c
test_robust_replay_region_string_CFLAGS = $(AM_CFLAGS)

if HAVE_CHECK
check_PROGRAMS += test/robust/test_signals
TESTS += test/robust/test_signals
test_robust_test_signals_SOURCES = test/robust/test_signals.c
test_robust_test_signals_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_robust_test_signals_LDADD = lib/libpp_util.la $(CHECK_LIBS) -lpthread
endif

EXTRA_DIST += $(ROBUST_TESTS) test/robust/robust_util.py test/robust/gen_task_program.py \
	test/robust/progs/faults.c test/robust/progs/bad_pomp2.c test/robust/progs/tasks_small.c \
	test/robust/corpus test/robust/regressions test/robust/README.md

# ---- longer runs ---------------------------------------------------------------
# make check-long: 50 random ground-truth seeds and 5 minutes per fuzzer.
ROBUST_LONG_TESTS = test/robust/ground_truth.py test/robust/fuzz_region_string.py \
	test/robust/fuzz_cubex.py test/robust/regressions.py
check-long: all
	GT_SEEDS=$${GT_SEEDS:-50} FUZZ_SECONDS=$${FUZZ_SECONDS:-300} \
	  $(MAKE) $(AM_MAKEFLAGS) check TESTS='$(ROBUST_LONG_TESTS)'

# ---- sanitizers ------------------------------------------------------------------
# make check-sanitize: a nested out-of-tree build with --enable-sanitizers
# (AddressSanitizer + UBSan in the library), then the unit tests and the
# robustness end-to-end tests, whose programs are also compiled and linked
# with the sanitizers.  Any report fails the run: UBSan halts on the first
# error, ASan always does.  Leak checking is off: libgomp keeps its thread
# pool until exit by design.  handle_segv=0 keeps the program's own crash
# (the fault tests check that SIGSEGV stays SIGSEGV).
SANITIZE_DIR = $(abs_top_builddir)/_sanitize
SANITIZE_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
SANITIZE_TESTS = test/robust/test_signals test/robust/faults.py test/robust/signals.py \
	test/robust/bad_config.py test/robust/output_dir.py \
	test/robust/bad_instrumentation.py test/robust/ground_truth.py
check-sanitize:
	rm -rf '$(SANITIZE_DIR)' && $(MKDIR_P) '$(SANITIZE_DIR)'
	cd '$(SANITIZE_DIR)' && '$(abs_top_srcdir)/configure' --enable-sanitizers \
	  CC='$(CC)' CFLAGS='-g -O1' >configure.log
	cd '$(SANITIZE_DIR)' && $(MAKE) $(AM_MAKEFLAGS)
	cd '$(SANITIZE_DIR)' && \
	  ASAN_OPTIONS=detect_leaks=0:handle_segv=0:abort_on_error=0:verify_asan_link_order=0 \
	  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  ROBUST_EXTRA_CFLAGS='$(SANITIZE_FLAGS)' GT_SEEDS=$${GT_SEEDS:-2} \
	  $(MAKE) $(AM_MAKEFLAGS) check \
	    TESTS='$(SANITIZE_TESTS) $(SANITIZE_EXTRA_TESTS)'

clean-robust:
	rm -rf '$(SANITIZE_DIR)' test/robust/work-*

.PHONY: check-long check-sanitize clean-robust
