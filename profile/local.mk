# profile/: the task-aware call-tree engine.  The files form one chain of
# layers, listed in profile/pp_profile_internal.h; the event path is
# pp_profile_events.c and pp_profile_task.c with the inline parts of the
# headers, everything else runs once per thread, construct or program.
noinst_LTLIBRARIES += profile/libpp_profile.la
profile_libpp_profile_la_SOURCES = \
	profile/pp_profile.h profile/pp_profile_node.h profile/pp_profile_internal.h \
	profile/pp_profile_unify.h profile/pp_profile_metrics.h profile/pp_profile_output.h \
	profile/pp_profile_test.h profile/pp_profile_job.h profile/pp_profile_runfacts.h \
	profile/pp_profile_depend.h profile/pp_profile_names.h profile/pp_profile_migrate.h \
	profile/pp_profile_message.h profile/pp_profile_message.c \
	profile/pp_profile_source.h \
	profile/pp_profile_state.c \
	profile/pp_profile_regions.c profile/pp_profile_path.c profile/pp_profile_params.c \
	profile/pp_profile_tree.c profile/pp_profile_location.c profile/pp_profile_extra.c profile/pp_profile_depend.c \
	profile/pp_profile_counters.c profile/pp_profile_instance.c \
	profile/pp_profile_task.c profile/pp_profile_split.c profile/pp_profile_events.c \
	profile/pp_profile_close.c profile/pp_profile_unify.c profile/pp_profile_system.c \
	profile/pp_profile_metrics.c profile/pp_profile_output.c profile/pp_profile_trace.c \
	profile/pp_profile_runfacts.c profile/pp_profile_quiesce.c \
	profile/pp_profile_lifecycle.c profile/pp_profile_exit.c \
	profile/pp_profile_test.c profile/pp_profile_ctor.c
# -O2 for the event path when CFLAGS names no optimisation level (e.g.
# CFLAGS=-g).  Automake puts the user's CFLAGS after this, so an explicit
# -O0 (a debugging build) still wins, as it should.
profile_libpp_profile_la_CFLAGS = $(AM_CFLAGS) -O2
# The engine records trace events through trace/ (the layer below it).
profile_libpp_profile_la_LIBADD = trace/libpp_trace.la
# the metrics' documentation links point into the installed README
profile_libpp_profile_la_CPPFLAGS = $(AM_CPPFLAGS) -DPP_DOCDIR='"$(docdir)"'

# The engine once more, with its assertions compiled in (PP_ASSERT,
# lib/pp_assert.h), for the unit tests; the library keeps the release
# objects (./configure --enable-debug puts them in everywhere).
check_LTLIBRARIES += profile/libpp_profile_debug.la
profile_libpp_profile_debug_la_SOURCES = $(profile_libpp_profile_la_SOURCES)
profile_libpp_profile_debug_la_CFLAGS = $(profile_libpp_profile_la_CFLAGS)
profile_libpp_profile_debug_la_CPPFLAGS = $(profile_libpp_profile_la_CPPFLAGS) -DPP_DEBUG=1
profile_libpp_profile_debug_la_LIBADD = $(profile_libpp_profile_la_LIBADD)
