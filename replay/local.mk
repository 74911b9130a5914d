# replay/: pompprof-replay, the C program behind pompprof-timeline
# (doc/trace.md): reads an OTF2 trace, replays it in time order and prints
# the breakdown, the task graph analysis and the pictures' data as JSON.
# Installed where the tools find it (pkglibexecdir); needs OTF2.
if HAVE_OTF2
pkglibexec_PROGRAMS = replay/pompprof-replay
replay_pompprof_replay_SOURCES = replay/pp_replay.h replay/pp_replay_main.c \
	replay/pp_replay_read.h replay/pp_replay_read.c replay/pp_replay_events.c \
	replay/pp_replay_print.c replay/pp_replay_fail.h replay/pp_replay_fail.c \
	replay/pp_replay_model.h replay/pp_replay_model.c replay/pp_replay_task.c \
	replay/pp_replay_team.c replay/pp_replay_span.c replay/pp_replay_view.c replay/pp_replay_mpi.c \
	replay/pp_replay_chrome.c replay/pp_replay_json.c \
	replay/pp_replay_depend.c replay/pp_replay_dot.c replay/pp_replay_graph.c \
	replay/pp_replay_class.c
replay_pompprof_replay_CPPFLAGS = $(AM_CPPFLAGS) $(OTF2_CFLAGS)
replay_pompprof_replay_CFLAGS = $(AM_CFLAGS) -O2
replay_pompprof_replay_LDADD = $(OTF2_LIBS) -lm
endif
