# functions/: the function event source (gcc -finstrument-functions,
# doc/functions.md): __cyg_profile_func_enter/exit into the engine.
noinst_LTLIBRARIES += functions/libpp_functions.la
functions_libpp_functions_la_SOURCES = functions/pp_functions.c functions/pp_functions.h \
	functions/pp_filter.c functions/pp_filter.h
# the event path, as the engine's: optimised unless CFLAGS asks otherwise
functions_libpp_functions_la_CFLAGS = $(AM_CFLAGS) -O2
