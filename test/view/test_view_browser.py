"""pompprof-view in a real browser (headless Chromium through Selenium), one session for
all checks: pages of real runs (examples/treewalk.c traced, examples/nqueens_depth.c
with a parameter, two runs of it compared), built with the build tree's wrapper, and of
a synthetic profile with a counter pair (rates, min/max per visit).

Checked by clicking, as a user would: metrics, call paths (expand, select), locations;
the numbers the page shows against the .cubex values the project's reader reads
(inclusive and exclusive time, visits, per location, min/mean/max); search by name,
file:line and parameter; the flame graph; the report's tables against the report's
data; the comparison against pompprof-diff's values and colours; the trace view and its
zoom; and that the page asks for nothing but itself (the browser's network log).
Screenshots go to the scratch directory, and to $POMPPROF_VIEW_SHOTS when set (the
README's pictures in doc/ come from there).

Skips (exit 77, one line) without chromium, chromium-driver or python3-selenium."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import browser as B  # noqa: E402
from view_browser import (REPLAY, TIMELINE, TOP_BUILDDIR, TOP_SRCDIR,  # noqa: E402
                          PageTest, build, number, run, view)

WHY = B.missing()
if WHY:
    print("SKIP: %s" % WHY)
    sys.exit(77)
sys.path.insert(0, os.path.join(TOP_SRCDIR, "scripts"))
sys.path.insert(1, os.path.join(TOP_BUILDDIR, "scripts"))
from pompprof_tools.analysis.diff import Diff  # noqa: E402
from pompprof_tools.analysis.profile_model import Profile  # noqa: E402
from pompprof_tools.analysis.report import Report  # noqa: E402

HAVE_REPLAY = os.path.isfile(REPLAY)


class ViewInBrowser(PageTest):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pp-view-")
        t = cls.tmp
        tw = build(t, "treewalk")
        cls.tw = run(tw, os.path.join(t, "tw"), [9], trace=HAVE_REPLAY)
        nq = build(t, "nqueens_depth")
        cls.nq7 = run(nq, os.path.join(t, "nq7"), [7])
        cls.nq8 = run(nq, os.path.join(t, "nq8"), [8])
        cls.page_tw = os.path.join(t, "tw.html")
        cls.page_nq = os.path.join(t, "nq.html")
        cls.page_cmp = os.path.join(t, "cmp.html")
        view(cls.tw, "-o", cls.page_tw)
        view(cls.nq8, "-o", cls.page_nq)
        view(cls.nq7, cls.nq8, "-o", cls.page_cmp)
        cls.start_browser()

    def rows(self):
        return {int(r.get_attribute("data-node")): number(r.find_element(
            B.By.CSS_SELECTOR, ".val").text) for r in self.b.finds("#tree .row[data-node]")}

    # ---- the three panes -------------------------------------------------------------
    def test_1_panes_against_the_cubex(self):
        self.open(self.page_tw)
        prof = Profile(self.tw)
        cube = prof.cube
        nodes = prof.main_nodes + prof.task_nodes
        b = self.b
        b.find('#metrics [data-metric="time"]').click()
        # expand the main tree by clicking the triangles until a stub (tasks run at a
        # scheduling point) shows
        for _ in range(12):
            if any(nodes[i].kind == "stub" for i in self.rows()):
                break
            closed = [t for t in b.finds("#tree .row .tog") if t.text == "\u25b8"]
            closed[0].click()
        shown = self.rows()
        self.assertGreater(len(shown), 5)
        for i, v in shown.items():
            self.assertClose(v, sum(cube.inclusive_row("time", nodes[i].cnode)),
                             "inclusive time of %s" % nodes[i].label)
        # the metric pane's total: the measured time (all roots, not TASKS)
        total = number(b.find('#metrics [data-metric="time"] .val').text)
        self.assertClose(total, sum(prof.root_incl(t) for t in prof.threads))
        # % of root: of the measured time, as the report's % columns
        b.find("#percent").click()
        measured = sum(prof.root_incl(t) for t in prof.threads)
        for r in b.finds("#tree .row[data-node]"):
            i = int(r.get_attribute("data-node"))
            text = r.find_element(B.By.CSS_SELECTOR, ".val").text
            self.assertTrue(text.endswith(" %"), text)
            self.assertAlmostEqual(float(text[:-2]), 100 * sum(nodes[i].incl) / measured,
                                   delta=0.051)
        b.find("#percent").click()
        # exclusive
        b.find('input[name="flavour"][value="excl"]').click()
        for i, v in self.rows().items():
            self.assertClose(v, sum(cube.exclusive_row("time", nodes[i].cnode)))
        # a task construct's stub below a taskwait or barrier: select it, the system tree
        # shows each thread's value, with min, mean and max
        b.find('input[name="flavour"][value="incl"]').click()
        stub = next(i for i in self.rows() if nodes[i].kind == "stub")
        b.find('#tree .row[data-node="%d"] .name' % stub).click()
        per_loc = [float(v) for v in cube.inclusive_row("time", nodes[stub].cnode)]
        bars = {int(e.get_attribute("data-loc")): number(e.find_element(B.By.CSS_SELECTOR,
                ".val").text) for e in b.finds("#system .loc")}
        self.assertEqual(sorted(bars), list(range(prof.nthreads)))
        for t, v in bars.items():
            self.assertClose(v, per_loc[t])
        self.assertClose(number(b.find("#sys-min").text), min(per_loc))
        self.assertClose(number(b.find("#sys-max").text), max(per_loc))
        self.assertClose(number(b.find("#sys-mean").text), sum(per_loc) / len(per_loc))
        self.shot("view-panes")
        # visits; then one thread only (click its bar): the tree shows that thread's values
        b.find('#metrics [data-metric="visits"]').click()
        for i, v in self.rows().items():
            self.assertEqual(v, sum(cube.inclusive_row("visits", nodes[i].cnode)))
        b.find('input[name="flavour"][value="excl"]').click()
        for i, v in self.rows().items():
            self.assertEqual(v, sum(nodes[i].visits))
        b.find('#system .loc[data-loc="1"]').click()
        for i, v in self.rows().items():
            self.assertEqual(v, nodes[i].visits[1])
        b.find('input[name="flavour"][value="incl"]').click()
        b.find('#system .loc[data-loc="1"]').click()     # back to all locations
        b.find('#metrics [data-metric="time"]').click()

    def test_2_search(self):
        self.open(self.page_tw)
        prof = Profile(self.tw)
        nodes = prof.main_nodes + prof.task_nodes
        task = next(n for n in prof.task_roots)
        where = "%s:%d" % (os.path.basename(task.region.mod), task.region.begin)
        box = self.b.find("#search")
        box.send_keys(where, B.Keys.ENTER)
        hits = self.b.finds("#search-results li")
        expected = [i for i, n in enumerate(nodes) if n.region.begin == task.region.begin
                    and os.path.basename(n.region.mod) == where.split(":")[0]]
        self.assertEqual(sorted(int(h.get_attribute("data-node")) for h in hits), expected)
        self.assertIn("%d found" % len(expected), self.b.find("#search-count").text)
        target = int(hits[-1].get_attribute("data-node"))
        hits[-1].click()
        sel = self.b.find("#tree .row.on")
        self.assertEqual(int(sel.get_attribute("data-node")), target)
        self.assertClose(number(sel.find_element(B.By.CSS_SELECTOR, ".val").text),
                         sum(nodes[target].incl))
        box.clear()

    def test_3_flame_and_tables(self):
        self.open(self.page_tw)
        self.b.find("#tab-flame").click()
        self.assertGreater(int(self.b.find("#flame").get_attribute("data-boxes")), 3)
        # a task construct's merged tree
        opts = self.b.finds("#flame-root option")
        self.assertGreater(len(opts), 1)
        opts[1].click()
        self.assertIn("task", self.b.find("#flame-path").text)
        self.b.find("#tab-tables").click()
        rep = Report(Profile(self.tw), paths=False).build()
        rows = self.b.finds("#t-tasks tbody tr")
        self.assertEqual(len(rows), len(rep["tasks"]))
        shown = sorted(int(r.find_elements(B.By.TAG_NAME, "td")[2].text) for r in rows)
        self.assertEqual(shown, sorted(t["instances"] for t in rep["tasks"]))
        # sort by total of the overhead table: descending on the first click
        self.b.find('#t-overhead th[data-col="1"]').click()
        col = [number(r.find_elements(B.By.TAG_NAME, "td")[1].text)
               for r in self.b.finds("#t-overhead tbody tr")]
        self.assertEqual(col, sorted(col, reverse=True))
        self.assertClose(col[0], rep["overhead"]["program"]["total"])

    def test_4_parameters(self):
        self.open(self.page_nq)
        prof = Profile(self.nq8)
        nodes = prof.main_nodes + prof.task_nodes
        self.b.find("#search").send_keys("depth=3", B.Keys.ENTER)
        hits = self.b.finds("#search-results li")
        self.assertTrue(hits)
        for h in hits:
            self.assertIn("(depth=3)", h.text)
            self.assertIn("(depth=3)", nodes[int(h.get_attribute("data-node"))].label)
        hits[0].click()
        self.assertIn("(depth=3)", self.b.find("#tree .row.on .name").text)
        # the task construct's merged tree: a box per depth below one for the construct
        self.b.find("#tab-flame").click()
        self.b.finds("#flame-root option")[1].click()
        boxes = int(self.b.find("#flame").get_attribute("data-boxes"))
        depths = {r.name for r in prof.task_roots}
        self.assertGreaterEqual(boxes, len(prof.task_roots) + 1)
        self.assertEqual(len(depths), 1)
        self.shot("view-flame-depth")
        self.b.find("#tab-tables").click()
        tables = self.b.finds("table[id^='t-param-']")
        self.assertTrue(tables)
        rep = Report(prof, paths=False).build()
        e = rep["by_parameter"][0]
        vals = [r.find_elements(B.By.TAG_NAME, "td")[0].text
                for r in self.b.finds("#t-param-%s-%s tbody tr" % (e["id"], e["parameter"]))]
        self.assertEqual(vals[:len(e["rows"])], [r["value"] for r in e["rows"]])

    def test_5_comparison(self):
        self.open(self.page_cmp)
        d = Diff(Profile(self.nq7), Profile(self.nq8))
        keys = d.keys_in_order()
        rows = self.b.finds("#cmp-tree .row[data-node]")
        self.assertTrue(rows)
        # open everything (click the closed triangles until none is left, within reason)
        for _ in range(40):
            closed = [t for t in self.b.finds("#cmp-tree .tog") if t.text == "\u25b8"]
            if not closed:
                break
            closed[0].click()
        seen = 0
        for r in self.b.finds("#cmp-tree .row[data-node]"):
            u = d.union[keys[int(r.get_attribute("data-node"))]]
            va = d._values(d.a, d.ma["time"], u["a"], False)
            vb = d._values(d.b, d.mb["time"], u["b"], False)
            cell = lambda c: number(r.find_element(B.By.CSS_SELECTOR, c).text)  # noqa: E731
            if va is not None:
                self.assertClose(cell(".va"), sum(va))
            if vb is not None:
                self.assertClose(cell(".vb"), sum(vb))
            delta = float(r.get_attribute("data-delta"))
            colour = r.value_of_css_property("background-color")
            if delta > 0:
                self.assertIn("224, 96, 96", colour)
            elif delta < 0:
                self.assertIn("80, 168, 96", colour)
            seen += 1
        self.assertGreater(seen, 5)
        labels = [e.text for e in self.b.finds("#cmp-tree .name")]
        self.assertTrue(any("(depth=" in t for t in labels))
        self.shot("view-compare")

    @unittest.skipUnless(HAVE_REPLAY, "built without OTF2: no traces")
    def test_6_trace(self):
        self.open(self.page_tw)
        self.b.find("#tab-trace").click()
        w = self.b.find("#trace-window")
        f0, t0 = float(w.get_attribute("data-from")), float(w.get_attribute("data-to"))
        level0 = int(self.b.find("#trace-level").get_attribute("data-level"))
        self.b.find("#zoom-in").click()
        self.b.find("#zoom-in").click()
        f1, t1 = float(w.get_attribute("data-from")), float(w.get_attribute("data-to"))
        self.assertAlmostEqual((t1 - f1) / (t0 - f0), 0.25, places=6)
        self.assertGreater(int(self.b.find("#trace-level").get_attribute("data-level")), level0)
        data = json.loads(subprocess.run([TIMELINE, self.tw, "--format", "json"],
                                         stdout=subprocess.PIPE, check=True).stdout)
        total = [number(c.text) for c in
                 self.b.finds("#t-breakdown tbody tr:last-child td")[1:3]]
        self.assertClose(total[0], data["total"]["time"])
        self.assertClose(total[1], data["total"]["work"])
        self.assertTrue(self.b.finds("#t-span tbody tr"))
        # hover a task instance (zoomed to a window around one that began on another
        # thread than the one that created it): its tooltip names its creator, and
        # the creation link is drawn
        pos = self.b.js("""
            const tr = PP.PAGE.trace, c = document.getElementById('timeline');
            // the instance whose first fragment is widest beside its wait, preferring
            // one begun on another thread than its creator's
            let inst = null, best = -1;
            for (const i of tr.instances) {
              const f = i.fragments.find((x) => x[3]), w = i.fragments[0][0];
              if (!f) continue;
              const score = (f[1] - f[0]) / (f[1] - w + 1e-12) + (f[2] !== i.creator ? 1 : 0);
              if (score > best) { best = score; inst = i; }
            }
            const k = tr.instances.indexOf(inst), f = inst.fragments.find((x) => x[3]);
            const w0 = inst.fragments[0][0], d = (f[1] - f[0]) / 2;
            tr.setWindow(Math.min(w0, f[0]) - d, f[1] + d);
            const h = c.clientHeight, rh = (h - 8) / tr.nthreads, strip = Math.min(8, rh / 4);
            const x = (((f[0] + f[1]) / 2) - tr.v0) / (tr.v1 - tr.v0) * c.clientWidth;
            const y = tr.rowY(f[2], h) + rh - strip - 1 + strip / 2;
            return [x - c.clientWidth / 2, y - h / 2, k, inst.creator];""")
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(self.b.d).move_to_element_with_offset(
            self.b.find("#timeline"), int(pos[0]), int(pos[1])).perform()
        tip = self.b.find("#trace-tip")
        self.assertTrue(tip.is_displayed())
        self.assertIn("(instance %d)" % pos[2], tip.text)
        self.assertIn("created on thread %d" % pos[3], tip.text)
        self.shot("view-timeline")
        self.b.find("#zoom-reset").click()

    def test_7_counters_rates_min_max(self):
        """Counters, their rate (IPC) and min/max per visit, on a synthetic profile with
        a counter pair (examples/bench/synth_profile.py, pompprof's own writer)."""
        sys.path.insert(0, os.path.join(TOP_SRCDIR, "examples", "bench"))
        import synth_profile
        tmp = os.path.join(self.tmp, "counters")
        os.mkdir(tmp)
        b = self.b
        prof_path = os.path.join(tmp, "c.cubex")
        synth_profile.write_profile(prof_path, 10, 3, counters=True)
        page = os.path.join(tmp, "c.html")
        view(prof_path, "-o", page)
        prof = Profile(prof_path)
        cube = prof.cube
        nodes = prof.main_nodes + prof.task_nodes
        self.open(page)
        ids = [e.get_attribute("data-metric") for e in b.finds("#metrics li")]
        for m in ("time", "visits", "PAPI_TOT_INS", "PAPI_TOT_CYC", "min_time", "max_time",
                  "time_per_visit", "rate:IPC"):
            self.assertIn(m, ids)
        for _ in range(3):
            closed = [t for t in b.finds("#tree .row .tog") if t.text == "\u25b8"]
            if closed:
                closed[0].click()

        def shown():
            return {int(r.get_attribute("data-node")): number(r.find_element(
                B.By.CSS_SELECTOR, ".val").text) for r in b.finds("#tree .row[data-node]")}
        b.find('#metrics [data-metric="rate:IPC"]').click()
        rows = shown()
        self.assertGreater(len(rows), 3)
        for i, v in rows.items():
            ins = sum(cube.inclusive_row("PAPI_TOT_INS", nodes[i].cnode))
            cyc = sum(cube.inclusive_row("PAPI_TOT_CYC", nodes[i].cnode))
            if cyc:
                self.assertAlmostEqual(v, ins / cyc, delta=ins / cyc * 5e-4)
        b.find('#metrics [data-metric="max_time"]').click()
        for i, v in shown().items():
            mm = prof.min_max_rows(nodes[i])
            if mm:
                self.assertAlmostEqual(v, max(m[2] for m in mm), delta=1e-12 + v * 5e-4)
        b.find('#metrics [data-metric="min_time"]').click()
        for i, v in shown().items():
            mm = prof.min_max_rows(nodes[i])
            if mm:
                self.assertAlmostEqual(v, min(m[1] for m in mm), delta=1e-12 + v * 5e-4)
        self.assertEqual(b.console_errors(), [])


if __name__ == "__main__":
    sys.exit(unittest.main())
