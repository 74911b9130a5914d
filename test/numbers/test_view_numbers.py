#!/usr/bin/env python3
"""The browser view earns its numbers (issue 34, points 2 and 7): pages of real runs in
headless Chromium (test/view/browser.py), against the terminal tools.

* A traced tiled Cholesky and a C++ particle code, both built with `pompprof --functions`:
  the first rendering, before any click, shows the hottest path of the call tree open down
  to the tasks it waits on and the hottest task construct's tree open (named and expanded);
* the flame graph draws, below each scheduling point, the trees of the tasks that ran
  there, functions included (hovering `gemm` or `System::forces` names it), and its toggle
  gives the plain call tree (no task's function in it);
* every number of the Tables tab is pompprof-report --format csv's, parallel coverage
  included (it showed a hundredth of it), every number of the trace's tables
  pompprof-timeline --format json's, each within the precision it is shown with;
* numbers carry units (s, ms, us, ns) with 4 significant digits, never -0, no raw
  exponent; the Visits total includes the task trees' visits;
* every tab where colour carries meaning has a legend (the task graph had none).

Screenshots go to $POMPPROF_VIEW_SHOTS when set (view-first-screen.png, view-flame.png: the
README's pictures).  Skips (exit 77) without chromium, chromedriver, selenium or OTF2."""
import os
import re
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import numbers_env as E  # noqa: E402

sys.path.insert(0, os.path.join(E.TOP_SRCDIR, "test", "view"))
import browser as B  # noqa: E402

WHY = B.missing() or (None if E.have_replay() else "built without OTF2: no traces")
if WHY:
    print("SKIP: %s" % WHY)
    sys.exit(77)
from view_browser import PageTest, number, shown_tolerance  # noqa: E402
from pompprof_tools.analysis.profile_model import Profile  # noqa: E402


def cells(row):
    return [c.text for c in row.find_elements(B.By.TAG_NAME, "td")]


class ViewNumbers(PageTest):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pp_view_numbers_")
        t = cls.tmp
        ch = E.build(t, "cholesky.c", functions=True)
        cls.ch = os.path.join(t, "ch.run")
        E.run(ch, cls.ch, [6, 64], trace=True)
        cls.ch2 = os.path.join(t, "ch2.run")
        E.run(ch, cls.ch2, [6, 64])
        pa = E.build(t, "particles.cpp", functions=True)
        cls.pa = os.path.join(t, "pa.run")
        E.run(pa, cls.pa, [2048, 256, 2])
        cls.page_ch, cls.page_pa = os.path.join(t, "ch.html"), os.path.join(t, "pa.html")
        cls.page_cmp = os.path.join(t, "cmp.html")
        E.tool("view", cls.ch, "-o", cls.page_ch)
        E.tool("view", cls.pa, "-o", cls.page_pa)
        E.tool("view", cls.ch, cls.ch2, "-o", cls.page_cmp)
        cls.start_browser()

    def shown(self, text, expected, what):
        self.assertShown(text, expected, what)

    # ---- the first screen --------------------------------------------------------------
    def test_1_first_screen_names_the_hottest_task_construct(self):
        for run, page in ((self.ch, self.page_ch), (self.pa, self.page_pa)):
            self.open(page)
            rep = E.report(run)
            hottest = max(rep["tasks"], key=lambda t: t["time"])
            # (Cholesky's gemm or syrk: close, the machine's load decides)
            function = hottest["callees"][0]["name"]
            rows = self.b.finds("#tree .row[data-node]")
            names = [r.find_element(B.By.CSS_SELECTOR, ".name") for r in rows]
            # the hottest construct's tree, open: its row (a task root, green) and its
            # functions below it
            roots = [n for n in names if n.text == hottest["name"] and "task" in n.get_attribute("class")]
            self.assertEqual(len(roots), 1, [n.text for n in names])
            self.assertIn(function, [n.text for n in names])
            # the hottest path, open down to the tasks it waits on: a stub selected
            sel = self.b.find("#tree .row.on .name")
            self.assertIn("stub", sel.get_attribute("class"))
            self.assertTrue(any(sel.text == t["name"] for t in rep["tasks"]), sel.text)
            # no click was needed: the page is as it opened
            self.assertEqual(self.b.js("return document.querySelectorAll('#tree .row').length"),
                             len(rows))
            if page == self.page_ch:
                self.shot("view-first-screen")

    # ---- the flame graph ---------------------------------------------------------------
    def box_of(self, label):
        return self.b.js("""
            const b = PP.PAGE.flame.boxes.filter((x) => x.label === arguments[0] && x.below)
              .sort((x, y) => y.w - x.w)[0];
            const c = document.getElementById('flame');
            return b ? [b.x + b.w / 2 - c.clientWidth / 2, b.y + b.h / 2 - c.clientHeight / 2, b.w] : null;""",
                         label)

    def test_2_flame_graph_shows_the_tasks_where_they_ran(self):
        from selenium.webdriver.common.action_chains import ActionChains
        for page, function in ((self.page_pa, "System::forces(int, int)"), (self.page_ch, "gemm")):
            self.open(page)
            self.b.find("#tab-flame").click()
            at = self.box_of(function)
            self.assertIsNotNone(at, "no box of %s below a scheduling point" % function)
            if at[2] < 40:
                # narrow on a busy machine (the waiting grows, the tasks do not): zoom into
                # the scheduling point above it, as a user would
                stub = self.b.js("""
                    const bs = PP.PAGE.flame.boxes, f = bs.filter((x) => x.label === arguments[0] && x.below)
                      .sort((x, y) => y.w - x.w)[0];
                    const s = bs.filter((x) => x.cls === 'stub' && x.d < f.d && x.x <= f.x + 1e-6 &&
                                         f.x + f.w <= x.x + x.w + 1e-6).sort((x, y) => y.d - x.d)[0];
                    const c = document.getElementById('flame');
                    return [s.x + s.w / 2 - c.clientWidth / 2, s.y + s.h / 2 - c.clientHeight / 2];""",
                                 function)
                ActionChains(self.b.d).move_to_element_with_offset(
                    self.b.find("#flame"), int(stub[0]), int(stub[1])).click().perform()
                at = self.box_of(function)
            self.assertGreater(at[2], 40)
            ActionChains(self.b.d).move_to_element_with_offset(
                self.b.find("#flame"), int(at[0]), int(at[1])).perform()
            tip = self.b.find("#flame-tip")
            self.assertTrue(tip.is_displayed())
            self.assertIn(function, tip.text)
            self.b.find("#flame-up").click()
            # below each stub, its construct's task trees fill the stub's width
            filled = self.b.js("""
                const bs = PP.PAGE.flame.boxes, out = [];
                for (const s of bs) if (s.cls === 'stub' && s.w > 2) {
                  const kids = bs.filter((k) => k.d === s.d + 1 && k.x >= s.x - 1e-6 && k.x < s.x + s.w - 1e-6);
                  out.push([s.w, kids.reduce((a, k) => a + k.w, 0), kids.every((k) => k.cls === 'task')]);
                }
                return out;""")
            self.assertTrue(filled)
            for w, kids, tasks in filled:
                self.assertAlmostEqual(kids, w, delta=1e-6 * w)
                self.assertTrue(tasks)
            if page == self.page_ch:
                ActionChains(self.b.d).move_to_element(self.b.find("#flame-legend")).perform()
                self.shot("view-flame")
            # the plain call tree: the tasks' functions are not in it
            self.b.find("#flame-tasks").click()
            labels = self.b.js("return PP.PAGE.flame.boxes.map((b) => b.label)")
            self.assertNotIn(function, labels)
            self.assertTrue(any(lab.startswith("!$omp task") for lab in labels))
            self.b.find("#flame-tasks").click()

    # ---- the tables: pompprof-report's numbers -----------------------------------------
    def test_3_tables_are_the_reports(self):
        self.open(self.page_ch)
        self.b.find("#tab-tables").click()
        csv = E.report_csv(self.ch)
        head = [h.text for h in self.b.finds("#t-tasks thead th")]
        rows = self.b.finds("#t-tasks tbody tr")
        self.assertEqual(len(rows), 4)                  # potrf, trsm, syrk, gemm
        fields = {"inst": "instances", "mean": "mean", "min": "min", "max": "max",
                  "work": "mean_work", "create": "mean_create", "taskT": "task_time_at_sync",
                  "Dependences/i": "Dependences/i"}
        for r in rows:
            c = dict(zip(head, cells(r)))
            key = c["id"]
            for col, field in fields.items():
                self.shown(c[col], float(csv[("tasks", key, "", field)]), "%s %s" % (key, col))
            self.assertEqual(c["verdict"], csv[("tasks", key, "", "granularity")])
            self.assertAlmostEqual(number(c["work/create"]),
                                   float(csv[("tasks", key, "", "ratio")]), delta=0.051)
        # the verdicts state their numbers
        for v in self.b.finds("#t-advice .verdict"):
            self.assertRegex(v.text, r": work [\d.]+ (s|ms|\u00b5s|ns) per instance = [\d.]+x "
                                     r"creation \([\d.]+ (s|ms|\u00b5s|ns)\): (fine|coarsen)$")
        # the overhead analysis, every category of every scope
        head = [h.text for h in self.b.finds("#t-overhead thead th")]
        scopes = {}
        for (section, key, _row, field), value in csv.items():
            if section == "overhead":
                scopes.setdefault(key, {})[field] = value
        rows = self.b.finds("#t-overhead tbody tr")
        self.assertEqual(len(rows), len(scopes))
        names = {v.get("_name") for v in scopes.values()}
        del names
        by_total = sorted(scopes.values(), key=lambda v: -float(v["total"]))
        for r, want in zip(sorted(rows, key=lambda r: -number(cells(r)[1])), by_total):
            c = dict(zip(head, cells(r)))
            for col in head[1:-1]:
                self.shown(c[col], float(want[col if col != "total" else "total"]), col)
            self.assertAlmostEqual(number(c["ovhd %"]), float(want["overhead_pct"]), delta=0.051)
        # parallel coverage: a share of the wall time, not a hundredth of it
        cov = 100 * float(csv[("header", "", "", "parallel_coverage")])
        text = self.b.find("#t-coverage").text
        self.assertEqual(text, "parallel coverage: %.1f %% of wall time" % cov)
        self.assertGreater(cov, 1.0)

    # ---- the trace's tables: pompprof-timeline's numbers --------------------------------
    def test_4_trace_tables_are_the_timelines(self):
        self.open(self.page_ch)
        self.b.find("#tab-trace").click()
        tl = E.timeline(self.ch)
        head = [h.get_attribute("title") or h.text for h in self.b.finds("#t-breakdown thead th")]
        keys = self.b.js("return PP.PAGE.trace.d.columns.map((c) => c.key)")
        from pompprof_tools.analysis import overhead
        self.assertEqual(keys, list(overhead.BREAKDOWN_KEYS))
        rows = self.b.finds("#t-breakdown tbody tr")
        want = tl["threads"] + [tl["total"]]
        self.assertEqual(len(rows), len(want))
        for r, w in zip(rows, want):
            c = cells(r)[1:1 + len(keys)]
            for text, key in zip(c, keys):
                self.shown(text, w[key], "breakdown %s" % key)
        del head
        g, reg = tl["graph"], tl["task_region"]
        graph = self.b.find("#graph").text
        for v in (g["work"], g["work_creation"], g["work_serial"], g["span"]):
            self.assertIn(self.b.js("return PP.time(arguments[0])", v), graph)
        region = self.b.find("#task-region").text
        for v in (reg["work"], reg["span"], reg["from"], reg["to"]):
            self.assertIn(self.b.js("return PP.time(arguments[0])", v), region)
        self.assertIn("parallelism " + self.b.js("return PP.fmt(arguments[0])", reg["parallelism"]),
                      region)
        pot = self.b.find("#pot").text
        self.assertIn("of the team's " + self.b.js("return PP.time(arguments[0])",
                                                   tl["pot"]["team_time"]), pot)

    # ---- numbers as shown, totals, legends ----------------------------------------------
    def test_5_units_and_no_negative_zero(self):
        bad = re.compile(r"^[-+]0(\.0+)?( |$)|[0-9]e[-+]?[0-9]")
        for page, tabs in ((self.page_ch, ("profile", "tables", "trace")), (self.page_cmp, ("compare",))):
            self.open(page)
            for tab in tabs:
                self.b.find("#tab-" + tab).click()
                texts = self.b.js("""return Array.from(document.querySelectorAll(
                    'td.num, .row .val, #metrics .val, #system .val'))
                    .filter((e) => e.offsetParent !== null).map((e) => e.textContent);""")
                self.assertTrue(texts, tab)
                odd = [t for t in texts if bad.search(t.strip())]
                self.assertEqual(odd, [], "%s: %s" % (tab, odd))
        # times with their unit and 4 significant digits
        self.assertEqual(self.b.js("return [PP.time(6.25076e-4), PP.time(-1.73e-18), PP.time(0.99997),"
                                   " PP.time(2.5e-9), PP.pct(-0.01)]"),
                         ["625.1 \u00b5s", "0", "1.000 s", "2.500 ns", "0.0 %"])
        self.assertLessEqual(shown_tolerance("625.1 \u00b5s"), 0.051e-6)

    def test_6_visits_include_the_task_trees(self):
        self.open(self.page_ch)
        prof = Profile(self.ch)
        cube = prof.cube
        everything = sum(sum(cube.exclusive_row("visits", c)) for c in cube.cnodes_in_order())
        in_tasks = sum(sum(n.visits) for n in prof.task_nodes)
        self.assertGreater(in_tasks, 0)
        self.assertEqual(number(self.b.find('#metrics [data-metric="visits"] .val').text), everything)

    def test_7_legends_wherever_colour_means_something(self):
        self.open(self.page_ch)
        self.assertIn("stub", self.b.find("#tree-legend").text)
        self.b.find("#tab-flame").click()
        self.assertEqual(len(self.b.finds("#flame-legend .sw")), 8)
        self.b.find("#tab-graph").click()
        legend = self.b.find("#task-graph-legend")
        constructs = {e.get_attribute("data-construct") for e in
                      legend.find_elements(B.By.CSS_SELECTOR, "[data-construct]")}
        self.assertEqual(len(constructs), 4, constructs)        # potrf, trsm, syrk, gemm
        self.assertIn("critical path", legend.text)
        # each swatch is the colour of its construct's boxes
        colours = self.b.js("""
            const out = {};
            for (const s of document.querySelectorAll('#task-graph-legend [data-construct]'))
              out[s.dataset.construct] = s.querySelector('.sw').style.background;
            return out;""")
        self.assertEqual(len(set(colours.values())), 4)
        self.b.find("#tab-trace").click()
        labels = self.b.js("return Object.values(PP.PAGE.trace.labels)")
        self.assertEqual(len(self.b.finds("#trace-legend .sw")), len(labels))

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()


if __name__ == "__main__":
    unittest.main(verbosity=2)
