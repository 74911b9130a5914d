# test/numbers: every number right, every verdict earned (issue 34): real programs of
# test/numbers/progs (a tiled Cholesky with depend, a C++ particle code built with
# --functions, a quicksort with untied tasks and a taskloop) through pompprof-report,
# pompprof-scaling, pompprof-timeline and pompprof-view: the verdicts and the numbers
# they rest on, one classification of a thread's time in every tool, and the browser
# view's numbers against the terminal tools' (skipped without chromium, or OTF2).
NUMBERS_TESTS = test/numbers/test_verdicts.py test/numbers/test_classes_agree.py \
	test/numbers/test_view_numbers.py
TESTS += $(NUMBERS_TESTS)
EXTRA_DIST += $(NUMBERS_TESTS) test/numbers/numbers_env.py test/numbers/progs/cholesky.c \
	test/numbers/progs/particles.cpp test/numbers/progs/quicksort.c
