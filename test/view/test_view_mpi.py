"""pompprof-view of the README's hybrid MPI + OpenMP example (examples/hybrid.c, 2 ranks x
2 threads) in headless Chromium: the system tree groups the locations by process
(rank), the bars of an MPI call path are each location's value read by the project's
reader, and the report's MPI table is there.  A screenshot goes where the other view
tests put theirs.  Skips (exit 77, one line) without MPI support or without chromium,
chromium-driver or python3-selenium."""

import os
import shutil
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
sys.path.insert(1, os.path.join(mc.TOP_BUILDDIR, "scripts"))
from pompprof_tools.analysis.profile_model import Profile  # noqa: E402
from view_browser import number, view  # noqa: E402


class HybridPage(unittest.TestCase):
    def test_ranks_in_the_system_tree(self):
        work = tempfile.mkdtemp(prefix="pp-view-mpi-")
        b = None
        try:
            exe = mc.build("mpicc", os.path.join(mc.TOP_SRCDIR, "examples", "hybrid.c"),
                           os.path.join(work, "hybrid"), True)
            out = os.path.join(work, "run")
            status, _, err = mc.mpirun(2, 2, exe, ["4096", "20", "16"], output=out)
            self.assertEqual(status, 0, err)
            page = os.path.join(work, "hybrid.html")
            view(out, "-o", page)
            prof = Profile(out)
            nodes = prof.main_nodes + prof.task_nodes
            b = B.Browser()
            self.assertEqual(b.open(page), "1", b.console_errors())
            self.assertEqual(b.console_errors(), [])
            # node (the host), then a process per rank
            hosts = {loc.node_name for loc in prof.cube.locations}
            self.assertEqual([e.text for e in b.finds("#system .node")], sorted(hosts))
            procs = [e.text for e in b.finds("#system .proc")]
            self.assertEqual(len(procs), 2, procs)
            self.assertIn("rank 0", procs[0])
            self.assertIn("rank 1", procs[1])
            send = max((i for i, n in enumerate(nodes) if n.name == "MPI_Sendrecv"),
                       key=lambda i: sum(nodes[i].incl))
            b.find("#search").send_keys("MPI_Sendrecv", B.Keys.ENTER)
            hit = b.find('#search-results li[data-node="%d"]' % send)
            hit.click()
            b.find('#metrics [data-metric="time"]').click()
            want = prof.cube.inclusive_row("time", nodes[send].cnode)
            bars = {int(e.get_attribute("data-loc")): number(e.find_element(
                B.By.CSS_SELECTOR, ".val").text) for e in b.finds("#system .loc")}
            self.assertEqual(sorted(bars), list(range(prof.nthreads)))
            for t, v in bars.items():
                self.assertAlmostEqual(v, float(want[t]), delta=abs(float(want[t])) * 5e-4 + 1e-12)
            shots = os.environ.get("POMPPROF_VIEW_SHOTS")
            path = os.path.join(work, "view-hybrid.png")
            b.shot(path)
            if shots:
                shutil.copy(path, shots)
            b.find("#tab-tables").click()
            rows = b.finds("#t-mpi tbody tr")
            self.assertTrue(any("MPI_Sendrecv" in r.text for r in rows))
        finally:
            if b:
                b.quit()
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(unittest.main())
