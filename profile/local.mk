# profile/: the task-aware call-tree engine (owner: profiling issue).
noinst_LTLIBRARIES += profile/libpp_profile.la
profile_libpp_profile_la_SOURCES = profile/pp_profile.h
