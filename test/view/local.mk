# test/view: pompprof-view.  test_view_cli.py checks the command and the page's data
# without a browser; the others open the pages in a real headless browser (Debian
# chromium, chromium-driver, python3-selenium) and skip with one line when one is
# missing (test_view_mpi.py also without MPI support, test_view_depend.py without OTF2,
# test_view_trace_mpi.py without either).
TESTS += test/view/test_view_cli.py test/view/test_view_browser.py test/view/test_view_mpi.py \
	test/view/test_view_depend.py test/view/test_view_trace_mpi.py
EXTRA_DIST += test/view/test_view_cli.py test/view/test_view_browser.py \
	test/view/test_view_mpi.py test/view/test_view_depend.py test/view/test_view_trace_mpi.py \
	test/view/browser.py \
	test/view/view_browser.py
