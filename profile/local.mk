# profile/: the task-aware call-tree engine (owner: profiling issue).
# Hot path: pp_profile_events.c, pp_profile_task.c (+ inline helpers in
# pp_profile_internal.h); everything at the end: unify, output.
noinst_LTLIBRARIES += profile/libpp_profile.la
profile_libpp_profile_la_SOURCES = profile/pp_profile.h \
	profile/pp_profile_internal.h profile/pp_profile_test.h \
	profile/pp_profile_regions.c profile/pp_profile_path.c \
	profile/pp_profile_tree.c profile/pp_profile_instance.c \
	profile/pp_profile_location.c \
	profile/pp_profile_events.c profile/pp_profile_task.c \
	profile/pp_profile_counters.c profile/pp_profile_unify.c \
	profile/pp_profile_output.c profile/pp_profile_ctor.c
# the event path is worth optimising even in -O0 debug builds
profile_libpp_profile_la_CFLAGS = $(AM_CFLAGS) -O2
