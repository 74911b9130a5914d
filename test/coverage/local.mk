# test/coverage: one small program per OpenMP construct and clause gcc 12 accepts
# (C, C++, Fortran), each built plainly and through the wrapper and compared:
# build messages, output and exit status at 1, 2 and 4 threads, the profile and
# its regions (run_coverage.py says how; the header line of each program says
# what it expects).  make check-long adds -O0 and -O2 builds at more thread counts.
TESTS += test/coverage/run_coverage.py
EXTRA_DIST += test/coverage/run_coverage.py \
	test/coverage/c/allocate_clause.c \
	test/coverage/c/atomic.c \
	test/coverage/c/atomic_compare.c \
	test/coverage/c/barrier.c \
	test/coverage/c/cancel.c \
	test/coverage/c/critical.c \
	test/coverage/c/declare_reduction.c \
	test/coverage/c/declare_simd.c \
	test/coverage/c/declare_target.c \
	test/coverage/c/declare_variant.c \
	test/coverage/c/error_directive.c \
	test/coverage/c/flush.c \
	test/coverage/c/for_doacross.c \
	test/coverage/c/for_lastprivate_conditional.c \
	test/coverage/c/for_linear.c \
	test/coverage/c/for_order_concurrent.c \
	test/coverage/c/for_schedules.c \
	test/coverage/c/for_simd.c \
	test/coverage/c/header_constructs.c \
	test/coverage/c/header_constructs.h \
	test/coverage/c/line_and_file.c \
	test/coverage/c/locks.c \
	test/coverage/c/loop.c \
	test/coverage/c/masked.c \
	test/coverage/c/masked_taskloop.c \
	test/coverage/c/master.c \
	test/coverage/c/master_taskloop.c \
	test/coverage/c/nested_parallel.c \
	test/coverage/c/nothing_requires.c \
	test/coverage/c/omp_api.c \
	test/coverage/c/parallel_clauses.c \
	test/coverage/c/parallel_for.c \
	test/coverage/c/parallel_for_new_clauses.c \
	test/coverage/c/parallel_for_simd.c \
	test/coverage/c/parallel_if_modifier.c \
	test/coverage/c/parallel_loop.c \
	test/coverage/c/parallel_masked.c \
	test/coverage/c/parallel_master.c \
	test/coverage/c/parallel_master_taskloop.c \
	test/coverage/c/parallel_sections.c \
	test/coverage/c/pragma_macros.c \
	test/coverage/c/reduction_task_modifier.c \
	test/coverage/c/scan.c \
	test/coverage/c/scope.c \
	test/coverage/c/sections.c \
	test/coverage/c/simd.c \
	test/coverage/c/single.c \
	test/coverage/c/target.c \
	test/coverage/c/task.c \
	test/coverage/c/task_affinity.c \
	test/coverage/c/task_depend.c \
	test/coverage/c/task_detach.c \
	test/coverage/c/task_final_mergeable.c \
	test/coverage/c/task_priority.c \
	test/coverage/c/task_undeferred.c \
	test/coverage/c/task_untied.c \
	test/coverage/c/taskgroup.c \
	test/coverage/c/taskloop.c \
	test/coverage/c/taskloop_simd.c \
	test/coverage/c/taskyield.c \
	test/coverage/c/teams_host.c \
	test/coverage/c/threadprivate.c \
	test/coverage/cxx/attribute_syntax.cpp \
	test/coverage/cxx/declare_reduction.cpp \
	test/coverage/cxx/exceptions.cpp \
	test/coverage/cxx/iterator_loops.cpp \
	test/coverage/cxx/lambdas_members.cpp \
	test/coverage/cxx/parallel_master_cxx.cpp \
	test/coverage/cxx/raw_strings.cpp \
	test/coverage/cxx/taskloop_tasks.cpp \
	test/coverage/cxx/template_parallel.cpp \
	test/coverage/fortran/cancel.f90 \
	test/coverage/fortran/critical_atomic.f90 \
	test/coverage/fortran/declare_reduction.f90 \
	test/coverage/fortran/do_schedules.f90 \
	test/coverage/fortran/doacross.f90 \
	test/coverage/fortran/error_scope.f90 \
	test/coverage/fortran/fixed_form.f \
	test/coverage/fortran/flush_barrier.f90 \
	test/coverage/fortran/locks.f90 \
	test/coverage/fortran/loop.f90 \
	test/coverage/fortran/master_masked.f90 \
	test/coverage/fortran/master_taskloop.f90 \
	test/coverage/fortran/order_conditional.f90 \
	test/coverage/fortran/parallel.f90 \
	test/coverage/fortran/preprocessed.F90 \
	test/coverage/fortran/preprocessed.h \
	test/coverage/fortran/scan.f90 \
	test/coverage/fortran/sections.f90 \
	test/coverage/fortran/simd.f90 \
	test/coverage/fortran/single.f90 \
	test/coverage/fortran/target_teams.f90 \
	test/coverage/fortran/task_undeferred.f90 \
	test/coverage/fortran/task_untied.f90 \
	test/coverage/fortran/taskgroup.f90 \
	test/coverage/fortran/taskloop.f90 \
	test/coverage/fortran/tasks.f90 \
	test/coverage/fortran/workshare.f90

check-long: check-coverage-long
check-coverage-long: all
	for opt in -O0 -O2; do \
	  COVERAGE_OPT=$$opt COVERAGE_THREADS="1 2 3 4 8" \
	    $(MAKE) $(AM_MAKEFLAGS) check TESTS=test/coverage/run_coverage.py || exit 1; \
	done
.PHONY: check-coverage-long
