# functions/: the function event source (doc/functions.md): the calls that
# pompprof's GCC plugin (gcc-plugin/) or -finstrument-functions insert into
# the engine's enter/exit.
noinst_LTLIBRARIES += functions/libpp_functions.la
functions_libpp_functions_la_SOURCES = functions/pp_functions.h functions/pp_func_desc.h \
	functions/pp_functions_internal.h functions/pp_functions_common.c \
	functions/pp_functions_plugin.c functions/pp_functions_address.c \
	functions/pp_filter.c functions/pp_filter.h
# the event path, as the engine's: optimised unless CFLAGS asks otherwise
functions_libpp_functions_la_CFLAGS = $(AM_CFLAGS) -O2
