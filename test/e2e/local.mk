# test/e2e: real programs built with OPARI2 + gcc through the build-tree
# pompprof wrapper, compared with plain builds.
E2E_TESTS = \
	test/e2e/test_e2e_programs.sh \
	test/e2e/test_e2e_symbols.sh \
	test/e2e/test_e2e_wrapper.sh \
	test/e2e/test_e2e_make.sh \
	test/e2e/test_e2e_fortran.sh \
	test/e2e/test_e2e_profile_tasks.py \
	test/e2e/test_e2e_diagnostics.sh \
	test/e2e/test_e2e_instances.py \
	test/e2e/test_e2e_buildsys.py \
	test/e2e/test_e2e_fork.py \
	test/e2e/test_e2e_cube_conventions.py \
	test/e2e/test_e2e_counters.py \
	test/e2e/test_e2e_parameters.py \
	test/e2e/test_e2e_run_facts.py \
	test/e2e/test_e2e_install.sh \
	test/e2e/test_e2e_exit_all.py \
	test/e2e/test_e2e_fortran_refused.py \
	test/e2e/test_e2e_lock_hints.py \
	test/e2e/test_e2e_onoff.py \
	test/e2e/test_e2e_merge_calls.py \
	test/e2e/test_e2e_opari2_layout.py
TESTS += $(E2E_TESTS)
check_SCRIPTS += scripts/pompprof
EXTRA_DIST += $(E2E_TESTS) test/e2e/e2e_common.sh test/e2e/reformat_opari2.py \
	test/e2e/progs/worksharing.c test/e2e/progs/tasks.c test/e2e/progs/locks.c \
	test/e2e/progs/user.c test/e2e/progs/nested.c test/e2e/progs/noomp.c \
	test/e2e/progs/workshare.f90 test/e2e/progs/fconstructs.f90 test/e2e/progs/fnested.f90 \
	test/e2e/progs/ffixed.f test/e2e/progs/fmixed.F90 test/e2e/progs/fmixed_c.c test/e2e/progs/fapi.f90 \
	test/e2e/progs/fcalls.f90 \
	test/e2e/progs/prof_fib.c test/e2e/progs/prof_onoff.c test/e2e/progs/prof_spin.c test/e2e/progs/prof_many.c \
	test/e2e/progs/prof_macro_tasks.c test/e2e/e2e_env.py \
	test/e2e/progs/prof_macro_tasks.h test/e2e/progs/fork.c \
	test/e2e/progs/prof_pagefaults.c \
	test/e2e/progs/prof_depth.c test/e2e/progs/fdepth.F90 test/e2e/progs/run_facts.c \
	test/e2e/progs/exit_all.c test/e2e/progs/exit_all.f90 \
	test/e2e/progs/fortran_unrepairable.f90 test/e2e/progs/lock_hints.cpp \
	test/e2e/progs/merge_calls.c test/e2e/progs/opari2_layout.c \
	test/e2e/progs/opari2_layout.f90 test/e2e/progs/opari2_layout_fixed.f
