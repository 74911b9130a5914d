#!/usr/bin/env python3
"""view_bench.py: the 'make bench' figures of pompprof-view.

1. A profile of 200,000 call paths and more (synth_profile.py, 50,000 task constructs,
   4 threads): time to write the page, its size, and in headless Chromium the time to
   open it (the page's own measure, data-open-ms: inflating and laying out the data) and
   to expand a call path, change the metric and search (round trips of the browser
   driver included).
2. A trace of more than 10 million events (examples/prof/fib BIG_FIB, 2 threads, as in
   trace_bench.py): time to write the page (pompprof-replay --levels included), its
   size, the time to open it and to zoom in.
3. A trace of dependent tasks (examples/prof/sparselu 28 32 depend): the same, with the
   critical path drawn on the timeline and the dependence graph collapsed to constructs.

Prints a table; timing never fails the run.  Without chromium, chromium-driver or
python3-selenium the browser columns say why they are missing."""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import synth_profile  # noqa: E402

BIG_FIB = "29"
LU_DEPEND = ["28", "32", "depend"]   # sparselu with depend clauses: about 4,800 tasks
CONSTRUCTS = 50000


def write_page(builddir, args):
    start = time.perf_counter()
    subprocess.run([os.path.join(builddir, "scripts", "pompprof-view")] + args, check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def browse(page, actions):
    """Open page in headless Chromium; (open ms measured by the page, wall s to ready,
    {action: seconds}) or a reason string."""
    sys.path.insert(0, os.path.join(HERE, "..", "..", "test", "view"))
    import browser as B
    why = B.missing()
    if why:
        return why
    b = B.Browser()
    try:
        start = time.perf_counter()
        state = b.open(page, timeout=120)
        wall = time.perf_counter() - start
        if state != "1":
            return "the page did not open: %s" % b.console_errors()
        own = float(b.js("return document.body.dataset.openMs"))
        times = {}
        for name, fn in actions:
            t = time.perf_counter()
            fn(b, B)
            times[name] = time.perf_counter() - t
        return own, wall, times
    finally:
        b.quit()


def expand(b, B):
    for _ in range(4):
        b.js("const t=[...document.querySelectorAll('#tree .row .tog')].find(e=>e.textContent"
             "==='\\u25b8'); if (t) t.click();")


def metric(b, B):
    b.find('#metrics [data-metric="visits"]').click()


def search(b, B):
    b.find("#search").send_keys("big.c:1234", B.Keys.ENTER)


def zoom(b, B):
    b.find("#tab-trace").click()
    for _ in range(4):
        b.find("#zoom-in").click()


def report(label, write, page, result):
    size = os.path.getsize(page) / 1e6
    if isinstance(result, str):
        print("%-34s write %7.2f s  file %6.1f MB  browser: %s" % (label, write, size, result))
        return
    own, wall, times = result
    print("%-34s write %7.2f s  file %6.1f MB  open %5.2f s (page's own %5.2f s)  %s" % (
        label, write, size, wall, own / 1000.0,
        "  ".join("%s %.2f s" % kv for kv in times.items())))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--builddir", required=True)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="pompprof-view-bench.")
    try:
        print("== pompprof-view: pages of large runs (write, file size, open in headless "
              "Chromium)")
        prof = os.path.join(tmp, "big.cubex")
        synth_profile.write_profile(prof, CONSTRUCTS, 4)
        page = os.path.join(tmp, "big.html")
        w = write_page(args.builddir, [prof, "-o", page])
        from pompprof_tools.cube.cubex import load
        n = len(load(prof).cnodes_in_order())
        report("profile: %d call paths, 4 thr" % n, w, page,
               browse(page, [("expand", expand), ("metric", metric), ("search", search)]))
        fib = os.path.join(args.builddir, "examples", "prof", "fib")
        replay = os.path.join(args.builddir, "replay", "pompprof-replay")
        if not os.path.isfile(replay):
            print("trace: this build has no OTF2")
            return 0
        run = os.path.join(tmp, "fib")
        env = dict(os.environ, OMP_NUM_THREADS="2", POMPPROF_OUTPUT=run, POMPPROF_TRACE="1",
                   LD_LIBRARY_PATH=os.path.join(args.builddir, ".libs"))
        subprocess.run([fib, BIG_FIB], env=env, check=True, stdout=subprocess.DEVNULL)
        page = os.path.join(tmp, "fib.html")
        w = write_page(args.builddir, [run, "-o", page])
        import json
        events = json.loads(subprocess.run([replay, os.path.join(run, "traces.otf2")],
                                           stdout=subprocess.PIPE, check=True).stdout)
        report("trace: %.1fM events, 2 threads" % (events["trace"]["events"] / 1e6), w, page,
               browse(page, [("zoom x16", zoom)]))
        # dependent tasks: the critical path on the timeline, the graph collapsed
        run = os.path.join(tmp, "lu")
        env["POMPPROF_OUTPUT"] = run
        subprocess.run([os.path.join(args.builddir, "examples", "prof", "sparselu")] + LU_DEPEND,
                       env=env, check=True, stdout=subprocess.DEVNULL)
        page = os.path.join(tmp, "lu.html")
        w = write_page(args.builddir, [run, "-o", page])
        lu = json.loads(subprocess.run([replay, "--graph", "400", os.path.join(run, "traces.otf2")],
                                       stdout=subprocess.PIPE, check=True).stdout)
        report("depend: %d tasks, %d edges" % (
            lu["graph"]["dependent_tasks"], lu["graph"]["dependence_edges"]), w, page,
            browse(page, [("zoom x16", zoom)]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
