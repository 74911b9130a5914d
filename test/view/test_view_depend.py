"""pompprof-view of dependent tasks and of functions, in a real browser (headless
Chromium through Selenium), one session for all checks:

- examples/wavefront.c (every task has depend clauses) traced: the critical path drawn
  on the timeline is pompprof-timeline's span path (construct by construct, and the
  canvas is black where the page says it drew a stretch); each task stretch of the path
  lies within its instance's run on its thread; the ready wait per construct, the
  dependences per pair of constructs and the POT quadrant are pompprof-timeline
  --format json's; the task graph's SVG has pompprof-replay --graph's nodes and edges,
  the critical ones bold;
- examples/sparselu.c in depend mode traced, with more dependent tasks than
  --graph-instances: the graph collapsed to its task constructs, their task counts and
  the dependences between them as pompprof-replay --graph counts them;
- examples/sparselu.c built with pompprof --functions: its functions are nodes of the
  call tree (found by the search, values as the .cubex has them) and boxes of their
  task construct's flame graph;
- the pages ask for nothing but themselves (the browser's network log).

The screenshot of the timeline with its critical path goes to $POMPPROF_VIEW_SHOTS
when set (doc/view-critical-path.png comes from there).

Skips (exit 77, one line) without chromium, chromium-driver, python3-selenium, or
without OTF2 (no pompprof-replay)."""

import glob
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import browser as B  # noqa: E402
from view_browser import (REPLAY, TIMELINE, TOP_BUILDDIR, TOP_SRCDIR, VIEW,  # noqa: E402
                          PageTest, build, number, run, view)

WHY = B.missing() or (None if os.path.isfile(REPLAY) else "no pompprof-replay (built without OTF2)")
if WHY:
    print("SKIP: %s" % WHY)
    sys.exit(77)
sys.path.insert(0, os.path.join(TOP_SRCDIR, "scripts"))
sys.path.insert(1, os.path.join(TOP_BUILDDIR, "scripts"))
from pompprof_tools.analysis.profile_model import Profile  # noqa: E402
from pompprof_tools.view.trace_data import GRAPH_INSTANCES  # noqa: E402


def merged(seq):
    """[(construct, seconds)] with neighbours of one construct added up"""
    out = []
    for name, s in seq:
        if out and out[-1][0] == name:
            out[-1][1] += s
        else:
            out.append([name, s])
    return out


class DependInBrowser(PageTest):
    @classmethod
    def setUpClass(cls):
        cls.tmp = t = tempfile.mkdtemp(prefix="pp-view-depend-")
        wf = build(t, "wavefront")
        cls.wf = run(wf, os.path.join(t, "wf"), [6, 200000], trace=True)
        cls.page_wf = os.path.join(t, "wf.html")
        view(cls.wf, "-o", cls.page_wf)
        cls.timeline = json.loads(subprocess.run([TIMELINE, cls.wf, "--format", "json"],
                                                 stdout=subprocess.PIPE, check=True).stdout)
        archive = glob.glob(os.path.join(cls.wf, "*.otf2"))[0]
        cls.replay = json.loads(subprocess.run([REPLAY, "--graph", str(GRAPH_INSTANCES), archive],
                                               stdout=subprocess.PIPE, check=True).stdout)
        lu = build(t, "sparselu")
        cls.lu = run(lu, os.path.join(t, "lu"), [6, 8, "depend"], trace=True)
        cls.page_lu = os.path.join(t, "lu.html")
        view(cls.lu, "--graph-instances", "20", "-o", cls.page_lu)
        archive = glob.glob(os.path.join(cls.lu, "*.otf2"))[0]
        cls.replay_lu = json.loads(subprocess.run([REPLAY, "--graph", "20", archive],
                                                  stdout=subprocess.PIPE, check=True).stdout)
        lu = build(t, "sparselu", ["--functions"])
        cls.fn = run(lu, os.path.join(t, "fn"), [6, 16])
        cls.page_fn = os.path.join(t, "fn.html")
        view(cls.fn, "-o", cls.page_fn)
        cls.start_browser()

    def test_1_critical_path_on_the_timeline(self):
        self.open(self.page_wf)
        self.b.find("#tab-trace").click()
        drawn = self.b.js("""
            const tr = PP.PAGE.trace;
            return tr.drawnPath.map((i) => tr.path[i].concat([tr.pathNames[tr.path[i][3]]]));""")
        tl = self.timeline["graph"]
        self.assertGreater(tl["dependent_tasks"], 0)
        # the whole trace is shown: every stretch of the path is drawn, and construct by
        # construct they are pompprof-timeline's span path
        self.assertEqual(len(drawn), int(self.b.find("#timeline").get_attribute("data-path-drawn")))
        want = merged((p["construct"], p["seconds"]) for p in tl["span_path"])
        got = merged((d[6], d[4]) for d in drawn)
        self.assertEqual([g[0] for g in got], [w[0] for w in want])
        for g, w in zip(got, want):
            self.assertClose(g[1], w[1], g[0], rel=1e-6)
        self.assertClose(sum(d[4] for d in drawn), tl["span"], rel=1e-6)
        self.assertIn("span %s," % self.b.js("return PP.time(arguments[0])", tl["span"]),
                      self.b.find("#graph").text)
        # where: a task's stretches lie within its instance's run on its thread
        nodes = self.replay["task_graph"]["dependences"]["nodes"]
        tasks = [d for d in drawn if d[5] >= 0]
        self.assertGreater(len(tasks), 5)
        for a, b, loc, _, work, inst, _name in tasks:
            n = nodes[inst]
            self.assertEqual(loc, n[1])
            self.assertLessEqual(n[4] - 1e-9, a)
            self.assertLessEqual(b, n[5] + 1e-9)
            self.assertLessEqual(work, b - a + 1e-9)
        # the canvas is the path's black in the middle of the longest task stretch,
        # and not there once the path is switched off
        probe = """
            const tr = PP.PAGE.trace, c = document.getElementById('timeline');
            const s = tr.path[arguments[0]], w = c.clientWidth, h = c.clientHeight;
            const rh = (h - 8) / tr.nthreads, strip = Math.min(8, rh / 4);
            const x = ((s[0] + s[1]) / 2 - tr.v0) / (tr.v1 - tr.v0) * w;
            const y = tr.rowY(s[2], h) + (rh - strip - 2) / 2;
            const r = window.devicePixelRatio || 1;
            return Array.from(c.getContext('2d').getImageData(Math.round(x * r), Math.round(y * r), 1, 1).data);"""
        longest = max(range(len(drawn)), key=lambda k: drawn[k][1] - drawn[k][0] if drawn[k][5] >= 0 else -1)
        index = self.b.js("return PP.PAGE.trace.drawnPath[arguments[0]]", longest)
        self.assertEqual(self.b.js(probe, index), [0, 0, 0, 255])
        # hovering it names it
        at = self.b.js(probe.replace("return Array.from(c.getContext('2d').getImageData("
                                     "Math.round(x * r), Math.round(y * r), 1, 1).data);",
                                     "return [x - w / 2, y - h / 2];"), index)
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(self.b.d).move_to_element_with_offset(
            self.b.find("#timeline"), int(at[0]), int(at[1])).perform()
        s = drawn[longest]
        self.assertIn("critical path, stretch %d of %d: %s #%d" % (index + 1, len(drawn), s[6], s[5]),
                      self.b.find("#trace-tip").text)
        ActionChains(self.b.d).move_by_offset(0, 400).perform()     # off the timeline
        self.shot("view-critical-path")
        self.b.find("#show-path").click()
        self.assertNotEqual(self.b.js(probe, index), [0, 0, 0, 255])
        self.b.find("#show-path").click()
        # zoomed in, fewer stretches are drawn, and each reaches into the window
        self.b.find("#zoom-in").click()
        self.b.find("#zoom-in").click()
        inside = self.b.js("""
            const tr = PP.PAGE.trace;
            return [tr.drawnPath.length, tr.drawnPath.every((i) => tr.path[i][1] >= tr.v0 && tr.path[i][0] <= tr.v1)];""")
        self.assertLess(inside[0], len(drawn))
        self.assertTrue(inside[1])
        self.b.find("#zoom-reset").click()

    def test_2_ready_wait_dependences_pot(self):
        self.open(self.page_wf)
        self.b.find("#tab-trace").click()
        rows = self.b.finds("#t-ready-wait tbody tr")
        want = {w["construct"]: w for w in self.timeline["ready_wait"]}
        self.assertEqual(len(rows), len(want))
        self.assertTrue(want)
        for r in rows:
            td = [c.text for c in r.find_elements(B.By.TAG_NAME, "td")]
            w = want[td[0]]
            self.assertEqual(int(td[1]), w["tasks"])
            for k, key in ((2, "total"), (3, "mean"), (4, "max")):
                self.assertClose(number(td[k]), w[key], "%s %s" % (td[0], key))
        # dependences per pair of constructs: wavefront has one task construct
        pairs = [[c.text for c in r.find_elements(B.By.TAG_NAME, "td")]
                 for r in self.b.finds("#t-depend tbody tr")]
        self.assertEqual(sum(int(p[2]) for p in pairs), self.timeline["graph"]["dependence_edges"])
        self.assertEqual(sum(int(p[2]) for p in pairs), self.timeline["depend"]["edges"])
        pot = self.timeline["pot"]
        text = self.b.find("#pot").text
        self.assertIn("POT quadrant: " + pot["quadrant"], text)
        self.assertIn(pot["advice"], text)
        self.assertIn("= %.1f %%" % (100 * pot["idleness_share"]), text)

    def test_3_task_graph(self):
        self.open(self.page_wf)
        self.b.find("#tab-graph").click()
        g = self.replay["task_graph"]["dependences"]
        self.assertFalse(g["collapsed"])
        self.assertEqual(len(g["nodes"]), 36)         # 6 x 6 blocks
        nodes = self.b.finds("#task-graph-svg g.gnode")
        self.assertEqual(len(nodes), len(g["nodes"]))
        crit = sorted(int(n.get_attribute("data-node")) for n in
                      self.b.finds("#task-graph-svg g.gnode.critical"))
        self.assertEqual(crit, [i for i, n in enumerate(g["nodes"]) if n[-1]])
        # the longest chain crosses 2N - 1 blocks; it is the critical path of a wavefront
        # with equal blocks only on an idle machine, so only its length is bounded here
        self.assertGreaterEqual(len(crit), 1)
        edges = self.b.js("""return Array.from(document.querySelectorAll('#task-graph-svg .edge'))
            .map((l) => [+l.dataset.from, +l.dataset.to, l.classList.contains('critical') ? 1 : 0]);""")
        self.assertEqual(sorted(edges), sorted(map(list, g["edges"])))
        # each block waits for its upper and left neighbours: 2 N (N - 1) edges
        self.assertEqual(len(edges), 2 * 6 * 5)
        self.assertEqual(len(edges), self.timeline["graph"]["dependence_edges"])
        self.assertEqual(sum(e[2] for e in edges), max(0, len(crit) - 1))
        self.shot("view-task-graph")
        # a click on a task shows it on the timeline
        last = crit[-1] if crit else 0
        self.b.find('#task-graph-svg g.gnode[data-node="%d"]' % last).click()
        self.assertTrue(self.b.find("#timeline").is_displayed())
        w = self.b.find("#trace-window")
        f, t = float(w.get_attribute("data-from")), float(w.get_attribute("data-to"))
        began, ended = g["nodes"][last][4], g["nodes"][last][5]
        self.assertLessEqual(f, began)
        self.assertGreaterEqual(t, ended)
        self.assertLess(t - f, 0.5 * self.replay["trace"]["seconds"])
        self.b.find("#zoom-reset").click()

    def test_4_functions(self):
        self.open(self.page_fn)
        prof = Profile(self.fn)
        nodes = prof.main_nodes + prof.task_nodes
        funcs = {i for i, n in enumerate(nodes) if n.region.role == "function"}
        names = {nodes[i].region.name for i in funcs}
        self.assertTrue({"main", "lu0", "fwd", "bdiv", "bmod"} <= names, names)
        box = self.b.find("#search")
        box.send_keys("bmod", B.Keys.ENTER)
        hits = [int(h.get_attribute("data-node")) for h in self.b.finds("#search-results li")]
        self.assertEqual(sorted(hits), sorted(i for i in funcs if nodes[i].region.name == "bmod"))
        self.b.finds("#search-results li")[-1].click()
        sel = self.b.find("#tree .row.on")
        i = int(sel.get_attribute("data-node"))
        self.assertClose(number(sel.find_element(B.By.CSS_SELECTOR, ".val").text), sum(nodes[i].incl))
        box.clear()
        # the flame graph of the task construct that calls bmod: a box for it
        self.b.find("#tab-flame").click()
        construct = next(t.label for t in prof.task_roots
                         if any(nodes[k].region.name == "bmod" for k in self.subtree(prof, t)))
        opt = next(o for o in self.b.finds("#flame-root option") if o.text == "task " + construct)
        opt.click()
        labels = self.b.js("return PP.PAGE.flame.boxes.map((b) => b.label)")
        self.assertIn("bmod", labels)
        self.shot("view-functions-flame")

    def test_5_collapsed_graph(self):
        # sparselu's 4 task constructs, more dependent tasks than --graph-instances 20
        self.open(self.page_lu)
        self.b.find("#tab-graph").click()
        tg = self.replay_lu["task_graph"]
        g = tg["dependences"]
        self.assertTrue(g["collapsed"])
        self.assertEqual(len(g["nodes"]), 4)
        nodes = self.b.finds("#task-graph-svg g.gnode")
        self.assertEqual(len(nodes), 4)
        for el, (name, count, _work, _crit) in zip(nodes, g["nodes"]):
            title = el.find_element(B.By.TAG_NAME, "title").get_attribute("textContent")
            self.assertTrue(title.startswith("%s: %d tasks" % (tg["constructs"][name], count)), title)
        self.assertEqual(sum(n[1] for n in g["nodes"]), self.replay_lu["graph"]["dependent_tasks"])
        shown = self.b.js("""return Array.from(document.querySelectorAll('#task-graph-svg text.elabel'))
            .map((t) => [+t.dataset.from, +t.dataset.to, parseInt(t.textContent)]);""")
        self.assertEqual(sorted(shown), sorted(e[:3] for e in g["edges"]))
        self.assertEqual(sum(e[2] for e in shown), self.replay_lu["graph"]["dependence_edges"])
        # the dependences table of the trace view: the same pairs by name
        self.b.find("#tab-trace").click()
        pairs = sorted((r.find_elements(B.By.TAG_NAME, "td")[0].text,
                        r.find_elements(B.By.TAG_NAME, "td")[1].text,
                        int(r.find_elements(B.By.TAG_NAME, "td")[2].text))
                       for r in self.b.finds("#t-depend tbody tr"))
        names = tg["constructs"]
        self.assertEqual(pairs, sorted((names[g["nodes"][a][0]], names[g["nodes"][b][0]], c)
                                       for a, b, c, _w, _n, _p in g["edges"]))
        # the option is checked
        p = subprocess.run([VIEW, self.lu, "--graph-instances", "0", "-o",
                            os.path.join(self.tmp, "no.html")], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("--graph-instances needs a number from 1 to 100000", p.stderr)

    @staticmethod
    def subtree(prof, root):
        nodes = prof.main_nodes + prof.task_nodes
        index = {id(n): k for k, n in enumerate(nodes)}
        todo, out = [root], []
        while todo:
            n = todo.pop()
            out.append(index[id(n)])
            todo.extend(n.children)
        return out


if __name__ == "__main__":
    unittest.main(verbosity=2)
