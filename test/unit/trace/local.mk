# test/unit/trace: the trace layer and the replay, on synthetic event streams
# with a fake clock (exact figures), and the layer rule of trace/.
if HAVE_OTF2
check_PROGRAMS += test/unit/trace/trace_scenarios
test_unit_trace_trace_scenarios_SOURCES = test/unit/trace/trace_scenarios.c
test_unit_trace_trace_scenarios_LDADD = profile/libpp_profile_debug.la cube-writer/libpp_cube.la \
	lib/libpp_util.la $(PAPI_LIBS) -lpthread -lm
TESTS += test/unit/trace/test_replay_scenarios.py
# The event path's cost with tracing (prints, never fails on timing).
check_PROGRAMS += test/unit/trace/bench_trace
test_unit_trace_bench_trace_SOURCES = test/unit/trace/bench_trace.c
test_unit_trace_bench_trace_CFLAGS = $(AM_CFLAGS) -O2
test_unit_trace_bench_trace_LDADD = profile/libpp_profile.la cube-writer/libpp_cube.la \
	lib/libpp_util.la $(PAPI_LIBS) -lpthread -lm
endif
TESTS += test/unit/trace/test_trace_layers.py
# A job's definitions: packed, unified, the clock correction (no MPI needed).
if HAVE_CHECK
check_PROGRAMS += test/unit/trace/test_trace_unify
TESTS += test/unit/trace/test_trace_unify
test_unit_trace_test_trace_unify_SOURCES = $(CHECK_MAIN) test/unit/trace/test_trace_unify.c
test_unit_trace_test_trace_unify_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_trace_test_trace_unify_LDADD = trace/libpp_trace.la lib/libpp_util.la $(PAPI_LIBS) \
	$(CHECK_LIBS) -lpthread -lm
endif
EXTRA_DIST += test/unit/trace/test_replay_scenarios.py test/unit/trace/test_trace_layers.py
