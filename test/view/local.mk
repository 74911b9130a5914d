# test/view: pompprof-view's pages, opened in a real headless browser (Debian chromium,
# chromium-driver, python3-selenium); skipped with one line when they are missing.
TESTS += test/view/test_view_browser.py
EXTRA_DIST += test/view/test_view_browser.py test/view/browser.py
