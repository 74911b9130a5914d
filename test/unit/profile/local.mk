# test/unit/profile: the engine (scenarios with a fake clock, memory,
# handles, limits) and its output (file naming, .cubex read back).
if HAVE_CHECK
check_PROGRAMS += test/unit/profile/test_profile_engine test/unit/profile/test_profile_output \
	test/unit/profile/test_profile_deep test/unit/profile/test_profile_params \
	test/unit/profile/test_profile_job test/unit/profile/test_profile_late \
	test/unit/profile/test_profile_quiesce
TESTS += test/unit/profile/test_profile_engine test/unit/profile/test_profile_output \
	test/unit/profile/test_profile_deep test/unit/profile/test_profile_params \
	test/unit/profile/test_profile_job test/unit/profile/test_profile_late \
	test/unit/profile/test_profile_quiesce
test_unit_profile_test_profile_engine_SOURCES = $(CHECK_MAIN) test/unit/profile/test_profile_engine.c \
	test/unit/profile/engine_check.h
test_unit_profile_test_profile_engine_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_profile_test_profile_engine_LDADD = profile/libpp_profile_debug.la cube-writer/libpp_cube.la \
	lib/libpp_util.la $(PAPI_LIBS) $(CHECK_LIBS) -lpthread -lm
test_unit_profile_test_profile_output_SOURCES = $(CHECK_MAIN) test/unit/profile/test_profile_output.c \
	$(STDERR_CAPTURE)
test_unit_profile_test_profile_output_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_profile_test_profile_output_CPPFLAGS = $(AM_CPPFLAGS) -DPP_DOCDIR='"$(docdir)"'
test_unit_profile_test_profile_output_LDADD = profile/libpp_profile_debug.la cube-writer/libpp_cube.la \
	lib/libpp_util.la $(PAPI_LIBS) $(CHECK_LIBS) -lpthread -lm
test_unit_profile_test_profile_deep_SOURCES = $(CHECK_MAIN) test/unit/profile/test_profile_deep.c
test_unit_profile_test_profile_deep_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_profile_test_profile_deep_LDADD = profile/libpp_profile_debug.la cube-writer/libpp_cube.la \
	lib/libpp_util.la $(PAPI_LIBS) $(CHECK_LIBS) -lpthread -lm
# parameters: scenarios, and the written file through the CUBE tests' reader
test_unit_profile_test_profile_params_SOURCES = $(CHECK_MAIN) $(STDERR_CAPTURE) \
	test/unit/profile/test_profile_params.c test/unit/profile/engine_check.h $(CUBE_TEST_HELPERS)
test_unit_profile_test_profile_params_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_profile_test_profile_params_LDADD = profile/libpp_profile_debug.la cube-writer/libpp_cube.la \
	lib/libpp_util.la $(PAPI_LIBS) $(CHECK_LIBS) -lpthread -lm
# regions named late, locations closed early, tasks that move (the OMPT layer's needs)
test_unit_profile_test_profile_late_SOURCES = $(CHECK_MAIN) test/unit/profile/test_profile_late.c \
	test/unit/profile/engine_check.h
test_unit_profile_test_profile_late_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_profile_test_profile_late_LDADD = profile/libpp_profile_debug.la cube-writer/libpp_cube.la \
	lib/libpp_util.la $(PAPI_LIBS) $(CHECK_LIBS) -lpthread -lm
test_unit_profile_test_profile_job_SOURCES = $(CHECK_MAIN) test/unit/profile/test_profile_job.c \
	$(STDERR_CAPTURE)
test_unit_profile_test_profile_job_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_profile_test_profile_job_LDADD = profile/libpp_profile_debug.la cube-writer/libpp_cube.la \
	lib/libpp_util.la $(PAPI_LIBS) $(CHECK_LIBS) -lpthread -lm
# the end and the events in flight; the engine's assertions
test_unit_profile_test_profile_quiesce_SOURCES = $(CHECK_MAIN) \
	test/unit/profile/test_profile_quiesce.c test/unit/profile/engine_check.h
test_unit_profile_test_profile_quiesce_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_profile_test_profile_quiesce_LDADD = profile/libpp_profile_debug.la \
	cube-writer/libpp_cube.la lib/libpp_util.la $(PAPI_LIBS) $(CHECK_LIBS) -lpthread -lm
endif

# The enter+exit cost benchmark: prints figures, never fails on timing.
check_PROGRAMS += test/unit/profile/bench_profile
test_unit_profile_bench_profile_SOURCES = test/unit/profile/bench_profile.c
test_unit_profile_bench_profile_CFLAGS = $(AM_CFLAGS) -O2
test_unit_profile_bench_profile_LDADD = profile/libpp_profile.la cube-writer/libpp_cube.la \
	lib/libpp_util.la $(PAPI_LIBS) -lpthread -lm
.PHONY: bench-profile
bench-profile: test/unit/profile/bench_profile$(EXEEXT)
	$(builddir)/test/unit/profile/bench_profile$(EXEEXT)

# The engine's files form a one-way chain (index in pp_profile_internal.h).
TESTS += test/unit/profile/test_profile_layers.py
EXTRA_DIST += test/unit/profile/test_profile_layers.py
