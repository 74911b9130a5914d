# test/view: pompprof-view's pages, opened in a real headless browser (Debian chromium,
# chromium-driver, python3-selenium); skipped with one line when they are missing.
TESTS += test/view/test_view_browser.py test/view/test_view_mpi.py
EXTRA_DIST += test/view/test_view_browser.py test/view/test_view_mpi.py test/view/browser.py
