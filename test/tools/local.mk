# test/tools: the .cubex reader/writer and the analysis tools, checked against the
# reference profiles and dumps in test/tools/golden; the wrapper's argument handling;
# the commands and entry points of the pompprof_tools package.
TESTS += \
	test/tools/test_cubex_reader.py \
	test/tools/test_cubex_writer.py \
	test/tools/test_report.py \
	test/tools/test_diff.py \
	test/tools/test_scaling.py \
	test/tools/test_vocabulary.py \
	test/tools/test_bad_input.py \
	test/tools/test_deep_tree.py \
	test/tools/test_wrapper_args.py \
	test/tools/test_wrapper_rewrite.py \
	test/tools/test_entry_points.py \
	test/tools/test_sanity_rule.py \
	test/tools/test_counters_tools.py \
	test/tools/test_readability.py \
	test/tools/test_tools_scale.py \
	test/tools/test_parameters_tools.py \
	test/tools/test_wrapper_depend.py \
	test/tools/test_wrapper_adjacent.py \
	test/tools/test_wrapper_noopenmp.py
EXTRA_DIST += \
	test/tools/test_cubex_reader.py \
	test/tools/test_cubex_writer.py \
	test/tools/test_report.py \
	test/tools/test_diff.py \
	test/tools/test_scaling.py \
	test/tools/test_vocabulary.py \
	test/tools/test_bad_input.py \
	test/tools/test_deep_tree.py \
	test/tools/test_wrapper_args.py \
	test/tools/test_wrapper_rewrite.py \
	test/tools/test_entry_points.py \
	test/tools/test_wrapper_depend.py \
	test/tools/test_wrapper_adjacent.py \
	test/tools/test_wrapper_noopenmp.py \
	test/tools/test_sanity_rule.py \
	test/tools/test_counters_tools.py \
	test/tools/test_readability.py \
	test/tools/test_tools_scale.py \
	test/tools/test_parameters_tools.py \
	test/tools/sanity_rule.py \
	test/tools/toolstest.py \
	test/tools/golden/README.md \
	test/tools/golden/tasks.c \
	test/tools/golden/worksharing.c \
	test/tools/golden/tasks_t1.cubex \
	test/tools/golden/tasks_t1.structure.txt \
	test/tools/golden/tasks_t1.values-stored.csv \
	test/tools/golden/tasks_t1.visits-time-exclusive.txt \
	test/tools/golden/tasks_t2.cubex \
	test/tools/golden/tasks_t2.structure.txt \
	test/tools/golden/tasks_t2.values-stored.csv \
	test/tools/golden/tasks_t2.visits-time-exclusive.txt \
	test/tools/golden/worksharing_t1.cubex \
	test/tools/golden/worksharing_t1.structure.txt \
	test/tools/golden/worksharing_t1.values-stored.csv \
	test/tools/golden/worksharing_t1.visits-time-exclusive.txt \
	test/tools/golden/worksharing_t2.cubex \
	test/tools/golden/worksharing_t2.structure.txt \
	test/tools/golden/worksharing_t2.values-stored.csv \
	test/tools/golden/worksharing_t2.visits-time-exclusive.txt
