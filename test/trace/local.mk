# test/trace: traces of real programs (POMPPROF_TRACE=1), read back with
# otf2-print and pompprof-timeline: events against the programs and their
# profiles, the breakdown and task-graph ground truth, flushes, full disks,
# the pompprof-timeline command, and OTF2 loaded only when a trace starts.
TRACE_TESTS = \
	test/trace/test_trace_events.py \
	test/trace/test_trace_ground_truth.py \
	test/trace/test_trace_depend.py \
	test/trace/test_trace_depend_items.py \
	test/trace/test_trace_ompt.py \
	test/trace/test_trace_flush.py \
	test/trace/test_trace_disk.py \
	test/trace/test_timeline_tool.py \
	test/trace/test_trace_salvage.py \
	test/trace/test_replay_levels.py \
	test/trace/test_trace_otf2_loading.py
if HAVE_OTF2
if HAVE_OTF2_PRINT
TESTS += $(TRACE_TESTS)
endif
endif
EXTRA_DIST += $(TRACE_TESTS) test/trace/trace_common.py \
	test/trace/progs/spin.h test/trace/progs/gt_idle.c test/trace/progs/gt_critical.c \
	test/trace/progs/gt_tree.c test/trace/progs/gt_chain.c test/trace/progs/depend.c \
	test/trace/progs/fdepend.f90 test/trace/progs/params.c test/e2e/progs/depend_graphs.c \
	test/e2e/progs/fdepend_graphs.f90 test/trace/progs/depend_items.c test/trace/progs/depend_members.cpp \
	test/trace/progs/fdepend_items.f test/trace/progs/ompt_deps.c test/trace/progs/killed.c
