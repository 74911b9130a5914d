# test/lint: checks on the repository's own text.
LINT_TESTS = test/lint/test_file_references.py test/lint/test_merge_markers.py \
	test/lint/test_settings_known.py test/lint/test_function_length.py \
	test/lint/test_c_function_length.py test/lint/test_lock_map.py
TESTS += $(LINT_TESTS)
EXTRA_DIST += $(LINT_TESTS)
