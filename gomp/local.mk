# gomp/: the libgomp event source (libpompprof_gomp.so): measuring a program
# built by gcc or gfortran for libgomp without rebuilding it.  Preloaded, it
# defines libgomp's GOMP_* entry points and the omp_*_lock routines, forwards
# each to libgomp and feeds its own copy of the engine; it exports those
# entry points and exit() (as libpompprof does) only, and links no libgomp:
# the program brings its own.
noinst_LTLIBRARIES += gomp/libpp_gomp.la
gomp_libpp_gomp_la_SOURCES = \
	gomp/pp_gomp_internal.h gomp/pp_gomp_entries.h gomp/pp_gomp_task.h \
	gomp/pp_gomp_start.c \
	gomp/pp_gomp_thread.c \
	gomp/pp_gomp_parallel.c \
	gomp/pp_gomp_off.c \
	gomp/pp_gomp_task.c \
	gomp/pp_gomp_taskloop.c \
	gomp/pp_gomp_depend.c \
	gomp/pp_gomp_loop.c \
	gomp/pp_gomp_worksharing.c \
	gomp/pp_gomp_mutex.c \
	gomp/pp_gomp_lock.c
gomp_libpp_gomp_la_CFLAGS = $(AM_CFLAGS) -O2
# the interposer with its engine: what every library of it holds
PP_GOMP_LIBADD = gomp/libpp_gomp.la callsite/libpp_callsite.la profile/libpp_profile.la \
	cube-writer/libpp_cube.la lib/libpp_util.la $(PAPI_LIBS) -ldl -lpthread -lm
PP_GOMP_EXPORTS = GOMP_|omp_(init|destroy|set|unset|test)_(nest_)?lock_?$$|exit$$

lib_LTLIBRARIES += libpompprof_gomp.la
libpompprof_gomp_la_SOURCES =
nodist_EXTRA_libpompprof_gomp_la_SOURCES = dummy.c
libpompprof_gomp_la_LIBADD = $(PP_GOMP_LIBADD)
libpompprof_gomp_la_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version -shared \
	-export-symbols-regex '^($(PP_GOMP_EXPORTS))'
