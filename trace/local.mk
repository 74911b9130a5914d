# trace/: the event trace of POMPPROF_TRACE=1 (doc/trace.md), a layer below
# profile/: per-thread buffers and raw files while the program runs, one OTF2
# archive at the end.  Without OTF2 only the buffer part is built, and
# POMPPROF_TRACE=1 says once that there is no tracing.  OTF2 is not linked:
# pp_trace_otf2_api.c loads it with dlopen when a trace starts, so the
# libraries holding this layer (libpompprof, libpompprof_ompt) take only
# OTF2's headers.
noinst_LTLIBRARIES += trace/libpp_trace.la
trace_libpp_trace_la_SOURCES = \
	trace/pp_trace.h trace/pp_trace_record.h trace/pp_trace_resume.h trace/pp_trace_internal.h \
	trace/pp_trace_buffer.c trace/pp_trace_crash.c trace/pp_trace_save.c trace/pp_trace_source.c \
	trace/pp_trace_finish.c \
	trace/pp_trace_job.h trace/pp_trace_job.c trace/pp_trace_rankdefs.h trace/pp_trace_rankdefs.c \
	trace/pp_trace_unify.c
if HAVE_OTF2
trace_libpp_trace_la_SOURCES += trace/pp_trace_otf2.h \
	trace/pp_trace_otf2_api.h trace/pp_trace_otf2_api.c \
	trace/pp_trace_otf2_defs.c trace/pp_trace_otf2_events.c trace/pp_trace_otf2_mpi.c \
	trace/pp_trace_otf2_job.c trace/pp_trace_otf2_jobdefs.c
endif
trace_libpp_trace_la_CPPFLAGS = $(AM_CPPFLAGS) $(OTF2_CFLAGS)
trace_libpp_trace_la_CFLAGS = $(AM_CFLAGS) -O2
trace_libpp_trace_la_LIBADD = -ldl -lm

# Resuming from the raw files a run left (pp_trace_resume.h): for
# pompprof-salvage only, so the libraries of the runtime do not carry it.
if HAVE_OTF2
noinst_LTLIBRARIES += trace/libpp_trace_resume.la
trace_libpp_trace_resume_la_SOURCES = trace/pp_trace_resume.h trace/pp_trace_resume.c \
	trace/pp_trace_resume_job.c
trace_libpp_trace_resume_la_CPPFLAGS = $(AM_CPPFLAGS) $(OTF2_CFLAGS)
endif
