# callsite/: OpenMP constructs known by the code address of a call into the
# runtime, named at the end after their source position.  Shared by the event
# sources that see no source position on the event path (ompt/, gomp/); each
# links its own copy, beside its own copy of the engine.
noinst_LTLIBRARIES += callsite/libpp_callsite.la
callsite_libpp_callsite_la_SOURCES = \
	callsite/pp_callsite.h \
	callsite/pp_callsite_registry.c \
	callsite/pp_callsite_names.c \
	callsite/pp_callsite_lines.c callsite/pp_callsite_lines.h \
	callsite/pp_callsite_tail.c \
	callsite/pp_callsite_source.c callsite/pp_callsite_source.h \
	callsite/pp_callsite_directives.c \
	callsite/pp_callsite_unmeasured.c
callsite_libpp_callsite_la_CFLAGS = $(AM_CFLAGS) -O2
