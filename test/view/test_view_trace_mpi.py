"""pompprof-view of a hybrid job's trace in headless Chromium (doc/trace.md, "One
timeline"): test/mpi/progs/trace_msgs.c traced at 2 ranks x 2 threads.  The trace tab
names its rows by rank and thread and draws the messages; its ranks' table is the ranks'
rows of pompprof-timeline's result (number by number), its breakdown has the MPI time,
and the messages line counts them.  Skips (exit 77, one line) without MPI support,
without OTF2 or without chromium, chromium-driver or python3-selenium."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.environ.get("top_srcdir", "."), "test", "mpi"))
import mpi_common as mc  # noqa: E402
import browser as B  # noqa: E402

mc.require_mpi()
if B.missing():
    print("SKIP: %s" % B.missing())
    sys.exit(77)
from view_browser import REPLAY, TIMELINE, PageTest, number, view  # noqa: E402

if not os.path.isfile(REPLAY):
    print("SKIP: built without OTF2: no traces")
    sys.exit(77)


class HybridTrace(PageTest):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pp-view-trace-mpi-")
        exe = mc.build("mpicc", os.path.join(mc.PROGS, "trace_msgs.c"),
                       os.path.join(cls.tmp, "trace_msgs"), True)
        cls.out = os.path.join(cls.tmp, "run")
        status, _, err = mc.mpirun(2, 2, exe, output=cls.out, env={"POMPPROF_TRACE": "1"})
        if status != 0:
            raise AssertionError(err)
        cls.page = os.path.join(cls.tmp, "trace.html")
        view(cls.out, "-o", cls.page)
        cls.data = json.loads(subprocess.run([TIMELINE, cls.out, "--format", "json"],
                                             stdout=subprocess.PIPE, check=True).stdout)
        cls.start_browser()

    def test_ranks(self):
        self.open(self.page)
        self.b.find("#tab-trace").click()
        names = self.b.js("return PP.PAGE.trace.names")
        self.assertEqual(names, ["rank %d thread %d" % (r, t) for r in range(2) for t in range(2)])
        # every message is in the window at first: each is drawn
        drawn = int(self.b.find("#timeline").get_attribute("data-messages-drawn"))
        self.assertEqual(drawn, self.data["mpi"]["matched"])
        self.assertGreater(drawn, 0)
        rows = self.b.finds("#t-ranks tbody tr")
        self.assertEqual(len(rows), 2)
        cols = [c.text for c in self.b.finds("#t-ranks thead th")]
        for row, want in zip(rows, self.data["ranks"]):
            cells = [c.text for c in row.find_elements(B.By.CSS_SELECTOR, "td")]
            self.assertEqual(cells[0], "rank %d" % want["rank"])
            for key, label in (("time", "time"), ("mpi", "mpi"), ("mpi_wait", "wait")):
                self.assertClose(number(cells[cols.index(label)]), want[key], key)
            self.assertEqual(cells[-1], want["pot"]["quadrant"])
        head = [c.text for c in self.b.finds("#t-breakdown thead th")]
        self.assertIn("mpi", head)
        total = self.b.finds("#t-breakdown tbody tr:last-child td")
        self.assertClose(number(total[head.index("mpi")].text), self.data["total"]["mpi"])
        self.assertIn("%d messages matched" % self.data["mpi"]["matched"],
                      self.b.find("#messages").text)
        self.shot("view-trace-mpi")


if __name__ == "__main__":
    sys.exit(unittest.main())
