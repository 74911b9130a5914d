# examples/: task programs for users and for 'make bench'.
#
#   make examples   builds every example twice: examples/plain/<name> (the
#                   compiler alone) and examples/prof/<name> (through the
#                   build-tree pompprof wrapper and the uninstalled library)
#   make bench      overhead, memory and micro-benchmarks (never part of
#                   'make check'; prints figures, never fails on timing)
#
# Neither is part of 'make all'.  examples/Makefile is a separate, small
# makefile for users building the examples with an INSTALLED pompprof.

EXAMPLES_NAMES = fib fib_cutoff nqueens nqueens_cutoff nqueens_depth mergesort sparselu \
	treewalk prodcons worksharing wavefront uts floorplan
EXAMPLES_PLAIN = $(EXAMPLES_NAMES:%=examples/plain/%)
EXAMPLES_PROF = $(EXAMPLES_NAMES:%=examples/prof/%)
# the hybrid MPI + OpenMP example, built with $(MPICC) when configure found MPI
EXAMPLES_MPI =
if HAVE_MPI
EXAMPLES_MPI += examples/plain/hybrid examples/prof/hybrid
endif
# -falign-loops=64: without it, whether a hot inner loop happens to cross a
# 64-byte boundary (which shifts with every change of the code around it,
# e.g. OPARI2's inserted calls) changed sparselu's run time by up to 50 % on
# the AMD EPYC test machine -- noise that would swamp the overhead figures.
EXAMPLES_CFLAGS = -O2 -falign-loops=64
EXAMPLES_LIBS = -lm

# The build-tree wrapper, pointed at the uninstalled library and headers.
EXAMPLES_POMPPROF = POMPPROF_LIBDIR='$(abs_top_builddir)/.libs' \
	POMPPROF_INCDIR='$(abs_top_srcdir)/pomp2' \
	$(abs_top_builddir)/scripts/pompprof

TESTS += examples/test_examples.sh
EXTRA_DIST += $(EXAMPLES_NAMES:%=examples/%.c) examples/work.h examples/nqueens.h examples/Makefile \
	examples/demo.sh examples/test_examples.sh \
	examples/bench/run_bench.py examples/bench/pomp2_overhead.c \
	examples/bench/manytasks.c examples/bench/rss_run.c examples/bench/trace_bench.py \
	examples/bench/bench_tools.py examples/bench/synth_profile.py examples/bench/view_bench.py \
	examples/bench/depend_bench.c examples/bench/depend_bench.py \
	examples/hybrid.c examples/bench/mpi_bench.py examples/bench/unify_ranks.c \
	examples/bench/trace_mpi_bench.py \
	examples/bench/function_bench.py examples/health.c examples/bench/task_cost.py \
	examples/bench/corpus.py \
	examples/bench/ompt_bench.py examples/bench/ompt_empty_tool.c \
	examples/particles.cpp
CLEANFILES += $(EXAMPLES_PLAIN) $(EXAMPLES_PROF) \
	examples/bench/pomp2_overhead examples/bench/manytasks \
	examples/bench/manytasks_plain examples/bench/rss_run examples/bench/depend_bench \
	examples/plain/hybrid examples/prof/hybrid examples/bench/unify_ranks

.PHONY: examples bench bench-examples bench-tools

examples: $(EXAMPLES_PLAIN) $(EXAMPLES_PROF) $(EXAMPLES_MPI)

examples/plain/%: $(srcdir)/examples/%.c $(srcdir)/examples/work.h $(srcdir)/examples/nqueens.h
	@$(MKDIR_P) examples/plain
	$(AM_V_CC)$(CC) -std=gnu11 $(OPENMP_CFLAGS) $(EXAMPLES_CFLAGS) $< -o $@ $(EXAMPLES_LIBS)

# The wrapper and the library are prerequisites, so 'make examples' builds
# them first in a tree where 'make' has not run yet.
examples/prof/%: $(srcdir)/examples/%.c $(srcdir)/examples/work.h $(srcdir)/examples/nqueens.h \
		scripts/pompprof libpompprof.la
	@$(MKDIR_P) examples/prof
	$(AM_V_CC)$(EXAMPLES_POMPPROF) $(CC) -std=gnu11 $(OPENMP_CFLAGS) $(EXAMPLES_CFLAGS) \
		$< -o $@ $(EXAMPLES_LIBS)

# The hybrid example: the MPI compiler wrapper instead of $(CC); through
# pompprof it also gets libpompprof_mpi (scripts/pompprof_tools/wrapper/mpi.py).
if HAVE_MPI
examples/plain/hybrid: $(srcdir)/examples/hybrid.c
	@$(MKDIR_P) examples/plain
	$(AM_V_CC)$(MPICC) -std=gnu11 $(OPENMP_CFLAGS) $(EXAMPLES_CFLAGS) $< -o $@

examples/prof/hybrid: $(srcdir)/examples/hybrid.c scripts/pompprof libpompprof.la \
		libpompprof_mpi.la
	@$(MKDIR_P) examples/prof
	$(AM_V_CC)$(EXAMPLES_POMPPROF) $(MPICC) -std=gnu11 $(OPENMP_CFLAGS) $(EXAMPLES_CFLAGS) \
		$< -o $@
endif

# ---- make bench ----------------------------------------------------------
# Every module's benchmark: the writer (100k cnodes x 16 threads x 4
# metrics), the engine's event costs, the tools against the profile size,
# and the examples' overheads.
bench: bench-cube bench-profile bench-task-cost bench-tools bench-examples bench-trace bench-mpi \
	bench-trace-mpi bench-view bench-functions bench-depend bench-ompt

# The OMPT event source beside OPARI2 mode (examples/bench/ompt_bench.py): the
# same examples plain, with OPARI2, and through OMPT (gcc on libomp, clang).
.PHONY: bench-ompt
bench-ompt: scripts/pompprof libpompprof.la
	$(PYTHON) $(srcdir)/examples/bench/ompt_bench.py --builddir '$(abs_top_builddir)' \
		--srcdir '$(abs_top_srcdir)'

# pompprof-report, -diff and -scaling on profiles of 500, 5,000 and 50,000
# task constructs (BENCH_TOOL_SIZES to choose others).
BENCH_TOOL_SIZES = 500,5000,50000
bench-tools: scripts/pompprof-report scripts/pompprof-diff scripts/pompprof-scaling
	$(PYTHON) $(srcdir)/examples/bench/bench_tools.py --builddir '$(abs_top_builddir)' \
		--sizes '$(BENCH_TOOL_SIZES)'

# Functions (pompprof --functions, examples/bench/function_bench.py): the
# instructions one measured call adds (callgrind, fib at 1 thread: GCC
# plugin, gcc's and clang's -finstrument-functions), the event costs
# pompprof-score reads (event-costs.txt), and fib, nqueens, health and the
# C++ particle code side by side: plain, constructs only, functions,
# functions with pompprof-score -g's filter, with pompprof-score's estimates.
.PHONY: bench-functions
bench-functions: scripts/pompprof scripts/pompprof-score libpompprof.la event-costs.txt
	OPENMP_CFLAGS='$(OPENMP_CFLAGS)' CC='$(CC)' CXX='$(CXX)' $(PYTHON) \
		$(srcdir)/examples/bench/function_bench.py \
		--builddir '$(abs_top_builddir)' --srcdir '$(abs_top_srcdir)'

# Micro-benchmark of the hot path: calls the POMP2 entry points directly;
# pp_timer_now() comes from the (static, convenience) utility library.
examples/bench/pomp2_overhead: $(srcdir)/examples/bench/pomp2_overhead.c \
		scripts/pompprof libpompprof.la lib/libpp_util.la
	@$(MKDIR_P) examples/bench
	$(AM_V_CC)$(EXAMPLES_POMPPROF) $(CC) -std=gnu11 $(OPENMP_CFLAGS) -O2 \
		-I$(top_srcdir) -I$(top_builddir) $< lib/.libs/libpp_util.a -o $@

# Memory test: n trivial tasks, instrumented and plain.
examples/bench/manytasks: $(srcdir)/examples/bench/manytasks.c \
		scripts/pompprof libpompprof.la
	@$(MKDIR_P) examples/bench
	$(AM_V_CC)$(EXAMPLES_POMPPROF) $(CC) -std=gnu11 $(OPENMP_CFLAGS) -O2 $< -o $@

examples/bench/manytasks_plain: $(srcdir)/examples/bench/manytasks.c
	@$(MKDIR_P) examples/bench
	$(AM_V_CC)$(CC) -std=gnu11 $(OPENMP_CFLAGS) -O2 $< -o $@

# Runs a program and reports its own peak RSS (see rss_run.c for why).
examples/bench/rss_run: $(srcdir)/examples/bench/rss_run.c
	@$(MKDIR_P) examples/bench
	$(AM_V_CC)$(CC) -std=gnu11 -O2 $< -o $@

# BENCH_REPS (default 5) sets the number of runs per configuration; the
# results are also appended to bench-results.csv in the build directory.
bench-examples: examples examples/bench/pomp2_overhead examples/bench/manytasks \
		examples/bench/manytasks_plain examples/bench/rss_run
	$(PYTHON) $(srcdir)/examples/bench/run_bench.py --builddir '$(abs_top_builddir)' \
		--csv '$(abs_top_builddir)/bench-results.csv'

# make view-examples: pages of the examples (pompprof-view) in examples/pages/:
# fib_cutoff traced (tasks, timeline), nqueens_depth (parameters), the two
# compared at two sizes, wavefront traced (dependent tasks: critical path on
# the timeline, task graph), sparselu built with --functions (function nodes
# in the tree and the flame graph), and the hybrid MPI example (2 ranks x 2
# threads) when configure found MPI.
.PHONY: view-examples
VIEW_EXAMPLES_RUN = LD_LIBRARY_PATH='$(abs_top_builddir)/.libs' OMP_NUM_THREADS=2
view-examples: examples scripts/pompprof-view
	rm -rf examples/pages && $(MKDIR_P) examples/pages
	$(VIEW_EXAMPLES_RUN) POMPPROF_TRACE=1 POMPPROF_OUTPUT=examples/pages/fib_cutoff \
	  examples/prof/fib_cutoff 30 8 >/dev/null
	scripts/pompprof-view examples/pages/fib_cutoff -o examples/pages/tasks.html
	$(VIEW_EXAMPLES_RUN) POMPPROF_OUTPUT=examples/pages/nq9 examples/prof/nqueens_depth 9 >/dev/null
	$(VIEW_EXAMPLES_RUN) POMPPROF_OUTPUT=examples/pages/nq10 examples/prof/nqueens_depth 10 >/dev/null
	scripts/pompprof-view examples/pages/nq10 -o examples/pages/parameters.html
	scripts/pompprof-view examples/pages/nq9 examples/pages/nq10 -o examples/pages/compare.html
	$(VIEW_EXAMPLES_RUN) POMPPROF_TRACE=1 POMPPROF_OUTPUT=examples/pages/wavefront \
	  examples/prof/wavefront 8 100000 >/dev/null
	scripts/pompprof-view examples/pages/wavefront -o examples/pages/depend.html
	$(EXAMPLES_POMPPROF) --functions $(CC) $(OPENMP_CFLAGS) $(EXAMPLES_CFLAGS) -g \
	  $(srcdir)/examples/sparselu.c -o examples/pages/sparselu_functions $(EXAMPLES_LIBS) >/dev/null
	$(VIEW_EXAMPLES_RUN) POMPPROF_OUTPUT=examples/pages/functions \
	  examples/pages/sparselu_functions 12 32 >/dev/null
	scripts/pompprof-view examples/pages/functions -o examples/pages/functions.html
if HAVE_MPI
	$(VIEW_EXAMPLES_RUN) OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
	  POMPPROF_OUTPUT=examples/pages/hybrid $(MPIRUN) --oversubscribe -np 2 \
	  examples/prof/hybrid >/dev/null
	scripts/pompprof-view examples/pages/hybrid -o examples/pages/hybrid.html
endif
	@ls -l examples/pages/*.html

clean-local:
	rm -rf examples/pages

# pompprof-view (view_bench.py): time to write and to open (headless Chromium)
# pages of 200,000 call paths and of a trace of more than 10 million events,
# and their sizes.
.PHONY: bench-view
bench-view: examples scripts/pompprof-view
	$(PYTHON) $(srcdir)/examples/bench/view_bench.py --builddir '$(abs_top_builddir)'
# What pompprof adds per task (examples/bench/task_cost.py): callgrind's
# instructions, data accesses and cache misses per task of fib without
# cut-off at 1 thread, by group (inserted code, pomp2/, profile/, clock,
# start and end, libgomp); peak RSS per task; wall time of fib, nqueens and
# treewalk (no cut-off) at 1 and 2 threads, paired medians against plain.
.PHONY: bench-task-cost
bench-task-cost: examples/plain/fib examples/prof/fib examples/plain/nqueens \
		examples/prof/nqueens examples/plain/treewalk examples/prof/treewalk \
		examples/bench/rss_run examples/bench/pomp2_overhead
	$(PYTHON) $(srcdir)/examples/bench/task_cost.py --builddir '$(abs_top_builddir)'

# pompprof run over a corpus of OpenMP programs the user fetched (e.g. the
# public OpenMP Examples): make bench-corpus CORPUS=/path/to/Examples
# [CORPUS_COMPILER=clang]
# (examples/bench/corpus.py: same exit status and output as plain, profiles
# written, pompprof's lines, at 1 and 2 threads).
.PHONY: bench-corpus
bench-corpus: all
	@test -n "$(CORPUS)" || { echo "bench-corpus: set CORPUS=DIR (a corpus of OpenMP sources)"; exit 2; }
	$(PYTHON) $(srcdir)/examples/bench/corpus.py --builddir '$(abs_top_builddir)' --corpus '$(CORPUS)' \
		--compiler '$(or $(CORPUS_COMPILER),gcc)'

# Tracing: the event path with POMPPROF_TRACE=1, the examples traced, and
# the analysis of a trace of more than 10 million events (trace_bench.py).
.PHONY: bench-trace
if HAVE_OTF2
bench-trace: examples examples/bench/rss_run test/unit/trace/bench_trace$(EXEEXT) \
		replay/pompprof-replay$(EXEEXT)
	$(PYTHON) $(srcdir)/examples/bench/trace_bench.py --builddir '$(abs_top_builddir)'
else
bench-trace:
	@echo "bench-trace: this build has no OTF2 (install libotf2-trace-dev and reconfigure)"
endif

# MPI (examples/bench/mpi_bench.py): the hybrid example's overhead at 1, 2, 4
# and 8 ranks x 2 threads, and the cost of combining the ranks' profiles at
# MPI_Finalize (time, peak memory, profile size) at 8, 32 and 64 ranks, all
# oversubscribed on this machine's cores.
.PHONY: bench-mpi
if HAVE_MPI
examples/bench/unify_ranks: $(srcdir)/examples/bench/unify_ranks.c scripts/pompprof \
		libpompprof.la libpompprof_mpi.la
	@$(MKDIR_P) examples/bench
	$(AM_V_CC)$(EXAMPLES_POMPPROF) $(MPICC) -std=gnu11 $(OPENMP_CFLAGS) -O2 $< -o $@

bench-mpi: examples/plain/hybrid examples/prof/hybrid examples/bench/unify_ranks
	$(PYTHON) $(srcdir)/examples/bench/mpi_bench.py --builddir '$(abs_top_builddir)' \
		--mpirun '$(MPIRUN)'
else
bench-mpi:
	@echo "bench-mpi: this build has no MPI support (install libopenmpi-dev and openmpi-bin and reconfigure)"
endif

# A hybrid job's one trace (examples/bench/trace_mpi_bench.py): the hybrid example
# traced at 2, 8 and 32 ranks x 2 threads, oversubscribed: the time to write the
# archive at MPI_Finalize, its size, and pompprof-timeline's time to analyse and draw it.
.PHONY: bench-trace-mpi
if HAVE_MPI
if HAVE_OTF2
bench-trace-mpi: examples/prof/hybrid replay/pompprof-replay$(EXEEXT)
	$(PYTHON) $(srcdir)/examples/bench/trace_mpi_bench.py --builddir '$(abs_top_builddir)' \
		--mpirun '$(MPIRUN)'
else
bench-trace-mpi:
	@echo "bench-trace-mpi: this build has no OTF2 (install libotf2-trace-dev and reconfigure)"
endif
else
bench-trace-mpi:
	@echo "bench-trace-mpi: this build has no MPI support (install libopenmpi-dev and openmpi-bin and reconfigure)"
endif
