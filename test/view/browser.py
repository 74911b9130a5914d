"""One headless Chromium through Selenium for the view tests (not a test itself): finds
Debian's chromium, chromedriver and python3-selenium, or says why not (missing());
collects the browser's console and network log (goog:loggingPrefs)."""

import json
import os
import shutil
import sys
import time

CHROMIUM = next((p for p in (shutil.which("chromium"), "/usr/bin/chromium") if p
                 and os.path.isfile(p)), None)
DRIVER = next((p for p in (shutil.which("chromedriver"), "/usr/bin/chromedriver") if p
               and os.path.isfile(p)), None)

try:
    import selenium  # noqa: F401
except ImportError:
    # Debian's python3-selenium, when the configured interpreter is another Python 3
    if os.path.isdir("/usr/lib/python3/dist-packages"):
        sys.path.append("/usr/lib/python3/dist-packages")
try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError:
    webdriver = None


def missing():
    """Why the browser tests cannot run here, or None."""
    if not CHROMIUM:
        return "no chromium (Debian package chromium)"
    if not DRIVER:
        return "no chromedriver (Debian package chromium-driver)"
    if webdriver is None:
        return "no selenium (Debian package python3-selenium)"
    return None


class Browser:
    def __init__(self, width=1400, height=900):
        o = webdriver.ChromeOptions()
        o.binary_location = CHROMIUM
        for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--window-size=%d,%d" % (width, height), "--force-device-scale-factor=1"):
            o.add_argument(a)
        o.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
        self.d = webdriver.Chrome(service=Service(DRIVER), options=o)

    def open(self, path, timeout=30):
        """Load a page and wait until its script says it is ready; its console errors."""
        self.d.get("file://" + os.path.abspath(path))
        end = time.time() + timeout
        while time.time() < end:
            state = self.d.execute_script("return document.body.dataset.ready || ''")
            if state:
                break
            time.sleep(0.05)
        return state

    def console_errors(self):
        return [e for e in self.d.get_log("browser") if e.get("level") == "SEVERE"]

    def requests(self):
        """URLs the page asked for since the last call (DevTools' Network domain)."""
        urls = []
        for e in self.d.get_log("performance"):
            msg = json.loads(e["message"])["message"]
            if msg.get("method") == "Network.requestWillBeSent":
                urls.append(msg["params"]["request"]["url"])
        return urls

    def js(self, code, *args):
        return self.d.execute_script(code, *args)

    def find(self, css):
        return self.d.find_element(By.CSS_SELECTOR, css)

    def finds(self, css):
        return self.d.find_elements(By.CSS_SELECTOR, css)

    def shot(self, path):
        self.d.save_screenshot(path)

    def quit(self):
        self.d.quit()
