# salvage/: pompprof-salvage, which converts what an interrupted traced run
# left (DIR/traces.raw: raw thread files and the definitions saved while it
# ran) into an OTF2 archive with the trace layer's own conversion
# (doc/trace.md).  pompprof-timeline runs it; installed beside
# pompprof-replay (pkglibexecdir).  Built where OTF2 is; the trace layer
# loads the library itself when it converts (dlopen), so no -lotf2 here.
if HAVE_OTF2
pkglibexec_PROGRAMS += salvage/pompprof-salvage
salvage_pompprof_salvage_SOURCES = salvage/pp_salvage.h salvage/pp_salvage_main.c \
	salvage/pp_salvage_job.c salvage/pp_salvage_defs.c salvage/pp_salvage_say.c \
	salvage/pp_salvage_util.c
salvage_pompprof_salvage_CPPFLAGS = $(AM_CPPFLAGS) $(OTF2_CFLAGS)
salvage_pompprof_salvage_LDADD = trace/libpp_trace_resume.la trace/libpp_trace.la \
	lib/libpp_util.la -lpthread -lm
endif
