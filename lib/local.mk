# lib/: shared utilities (messages, configuration, timer, PAPI counters, libraries
# loaded when needed).
noinst_LTLIBRARIES += lib/libpp_util.la
lib_libpp_util_la_SOURCES = \
	lib/pp_message.c lib/pp_message.h \
	lib/pp_config.c lib/pp_config.h \
	lib/pp_timer.c lib/pp_timer.h \
	lib/pp_counters.c lib/pp_counters.h \
	lib/pp_nearest.c lib/pp_nearest.h \
	lib/pp_dlload.c lib/pp_dlload.h
# Assertions of debug builds, and the heavy side of the events' bracket at the end.
lib_libpp_util_la_SOURCES += lib/pp_assert.c lib/pp_assert.h lib/pp_membarrier.c lib/pp_membarrier.h \
	lib/pp_tsan.h
# Signals: write the profile on SIGINT/SIGTERM.
lib_libpp_util_la_SOURCES += lib/pp_signals.c lib/pp_signals.h
# DWARF: code addresses to function names, files and lines, at start and end.
lib_libpp_util_la_SOURCES += lib/pp_dwarf.c lib/pp_dwarf.h
# The loaded modules, from the dynamic linker's memory.
lib_libpp_util_la_SOURCES += lib/pp_modules.c lib/pp_modules.h
lib_libpp_util_la_CPPFLAGS = $(AM_CPPFLAGS) $(LIBDW_CFLAGS)
lib_libpp_util_la_LIBADD = $(LIBDW_LIBS) -ldl
