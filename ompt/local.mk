# ompt/: the OMPT event source (libpompprof_ompt.so): measuring a program
# without rebuilding it, on an OpenMP runtime with OMPT (libomp).  It holds
# its own copy of the engine and exports ompt_start_tool only, so it never
# mixes with a libpompprof that an OPARI2-built program links.
if HAVE_OMPT
noinst_LTLIBRARIES += ompt/libpp_ompt.la
ompt_libpp_ompt_la_SOURCES = \
	ompt/pp_ompt_internal.h ompt/pp_ompt_handle.h \
	ompt/pp_ompt_start.c \
	ompt/pp_ompt_thread.c \
	ompt/pp_ompt_parallel.c \
	ompt/pp_ompt_task.c \
	ompt/pp_ompt_taskloop.c \
	ompt/pp_ompt_callsite.c \
	ompt/pp_ompt_mutex.c \
	ompt/pp_ompt_depend.c
ompt_libpp_ompt_la_CPPFLAGS = $(AM_CPPFLAGS) $(OMPT_CPPFLAGS)
ompt_libpp_ompt_la_CFLAGS = $(AM_CFLAGS) -O2
# the tool with its engine: what every library of it holds
PP_OMPT_LIBADD = ompt/libpp_ompt.la callsite/libpp_callsite.la profile/libpp_profile.la \
	cube-writer/libpp_cube.la lib/libpp_util.la $(PAPI_LIBS) -ldl -lpthread -lm

lib_LTLIBRARIES += libpompprof_ompt.la
libpompprof_ompt_la_SOURCES =
nodist_EXTRA_libpompprof_ompt_la_SOURCES = dummy.c
libpompprof_ompt_la_LIBADD = $(PP_OMPT_LIBADD)
libpompprof_ompt_la_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version -shared \
	-export-symbols-regex '^ompt_start_tool$$'
endif
