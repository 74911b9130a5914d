# test/ompt: programs measured through the OMPT tool (libpompprof_ompt.so),
# built by clang (libomp) and by gcc (run with libomp preloaded), compared
# with OPARI2 mode of the same sources.
OMPT_TESTS = test/ompt/test_ompt_profiles.py test/ompt/test_ompt_run.py \
	test/ompt/test_ompt_untied.py test/ompt/test_ompt_depend.py \
	test/ompt/test_ompt_sched_gaps.py test/ompt/test_ompt_rebuild.py \
	test/ompt/test_ompt_static_tls.py test/ompt/test_ompt_exit.py
TESTS += $(OMPT_TESTS)
EXTRA_DIST += $(OMPT_TESTS) test/ompt/ompt_env.py test/ompt/progs/taskloop.c \
	test/ompt/progs/task_counter.c test/ompt/progs/untied.c test/ompt/progs/gaps.c \
	test/ompt/progs/twosites.c test/ompt/progs/sched_gaps.c \
	test/ompt/progs/if0_depend.c test/ompt/progs/two_singles.c test/ompt/progs/taskloops.c \
	test/ompt/progs/nested_singles.c test/ompt/progs/host_teams.c test/ompt/progs/scope.c \
	test/ompt/progs/if0_chain.c test/ompt/progs/if0_held.c test/ompt/progs/target_fallback.c
