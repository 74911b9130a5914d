#!/usr/bin/env python3
"""synth_profile.py: large profiles of a made-up task program, written with pompprof's
own writer (scripts/pompprof_tools/cube/cubex_write.py), for the tools' scaling figures in
`make bench`.

The program: `constructs` task constructs in `constructs / 5` functions of one file
(`big.c`), each function called from a `single` in one parallel region, creating its
five tasks and waiting for them; on every thread the tasks run as stubs below the
taskwaits and the implicit barrier, and below TASKS each construct's tree holds a
call of a helper function.  Values are made up but consistent (inclusive >= the
children's, visits, min/max per visit, max_active_tasks, optionally a counter pair).

    synth_profile.py OUT.cubex CONSTRUCTS [--threads N] [--counters] [--seed S]
"""

import argparse
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
from pompprof_tools.cube.cubex_write import CubeWriter  # noqa: E402

PER_FUNCTION = 5
DBL_MAX = sys.float_info.max


class Tree:
    """Call tree with per-thread values, built bottom-up from own (exclusive) times."""

    def __init__(self, w, nthreads):
        self.w = w
        self.n = nthreads
        self.regions = {}   # (name, role) -> region id
        self.nodes = []     # (cnode id, parent cnode id or None)
        self.own = {}       # cnode -> exclusive time per thread
        self.visits = {}
        self.ctr = {}       # cnode -> (instructions, cycles) per thread, exclusive

    def region(self, name, begin, end, role, paradigm="openmp", mod="big.c"):
        """The region of that name and role, defined when first asked for."""
        key = (name, role)
        if key not in self.regions:
            self.regions[key] = self.w.add_region(name, mod, begin, end, paradigm, role)
        return self.regions[key]

    def add(self, region, parent, own, visits, ctr=None):
        c = self.w.add_cnode(region, parent)
        self.nodes.append((c, parent))
        self.own[c] = own
        self.visits[c] = visits
        self.ctr[c] = ctr or ([0] * self.n, [0] * self.n)
        return c

    def inclusive(self):
        incl = {c: list(v) for c, v in self.own.items()}
        for c, p in reversed(self.nodes):       # children were added after parents
            if p is not None and not self.is_tasks(c):
                for t in range(self.n):
                    incl[p][t] += incl[c][t]
        return incl

    tasks_cnode = None

    def is_tasks(self, c):
        return c == self.tasks_cnode


def write_profile(path, constructs, nthreads=4, counters=False, seed=1):
    """Write the profile of `constructs` task constructs on nthreads threads; returns the
    number of call paths."""
    rnd = random.Random(seed)
    w = CubeWriter()
    w.add_attr("Creator", "synth_profile.py")
    w.add_attr("pompprof::program", "big")
    w.set_locations(["Master thread"] + ["OMP thread %d" % i for i in range(1, nthreads)])
    mid = _metrics(w, counters)
    tree = Tree(w, nthreads)
    root, barrier, task_regions = _main_tree(tree, constructs, rnd)
    construct_cnodes = _task_trees(tree, root, barrier, task_regions)
    _write_values(w, tree, mid, construct_cnodes, counters)
    w.write(path)
    return len(tree.nodes)


def _metrics(w, counters):
    """The metrics' ids by name: pompprof's, and optionally a counter pair."""
    mid = {"visits": w.add_metric("visits", "Visits", "UINT64", "EXCLUSIVE", "occ"),
           "time": w.add_metric("time", "Time", "DOUBLE", "INCLUSIVE", "sec"),
           "min_time": w.add_metric("min_time", "Minimum Inclusive Time", "MINDOUBLE",
                                    "EXCLUSIVE", "sec"),
           "max_time": w.add_metric("max_time", "Maximum Inclusive Time", "MAXDOUBLE",
                                    "EXCLUSIVE", "sec"),
           "max_active_tasks": w.add_metric("max_active_tasks", "Max active tasks", "MAXDOUBLE",
                                            "EXCLUSIVE", "occ")}
    if counters:
        mid["PAPI_TOT_INS"] = w.add_metric("PAPI_TOT_INS", "PAPI_TOT_INS", "UINT64",
                                           "EXCLUSIVE", "#")
        mid["PAPI_TOT_CYC"] = w.add_metric("PAPI_TOT_CYC", "PAPI_TOT_CYC", "UINT64",
                                           "EXCLUSIVE", "#")
    return mid


def _main_tree(tree, constructs, rnd):
    """The program, its parallel region and single, and the functions called in the
    single that create the tasks; returns the root, the implicit barrier and the task
    regions with their numbers of instances."""
    n = tree.n
    region = tree.region
    one_master = [1] + [0] * (n - 1)
    everyone = [1] * n
    prog = region("big", -1, -1, "artificial", "measurement", "")
    root = tree.add(prog, None, [1e-3] + [0.0] * (n - 1), one_master)
    par = tree.add(region("!$omp parallel @big.c:1", 1, 9, "parallel"), root, [1e-5] * n,
                   everyone)
    single = tree.add(region("!$omp single @big.c:2", 2, 8, "single"), par,
                      [1e-6] + [0.0] * (n - 1), one_master)
    sblock = tree.add(region("!$omp single sblock @big.c:2", 2, 8, "single sblock"), single,
                      [1e-6] + [0.0] * (n - 1), one_master)
    barrier = tree.add(region("!$omp implicit barrier @big.c:9", 9, 9, "implicit barrier"), par,
                       [2e-6] * n, everyone)
    task_regions = []
    line = 10
    for f in range(max(1, constructs // PER_FUNCTION)):
        _function(tree, sblock, f, line, constructs, task_regions, rnd)
        line += 50
    return root, barrier, task_regions


def _function(tree, sblock, f, line, constructs, task_regions, rnd):
    """Function f (at line), called in the single: it creates its tasks (appended to
    task_regions) and waits for them, the master running some of them there."""
    n = tree.n
    region = tree.region
    one_master = [1] + [0] * (n - 1)
    fr = region("func_%d" % f, line, line + 40, "function", "user")
    fc = tree.add(fr, sblock, [2e-6] + [0.0] * (n - 1), one_master)
    for k in range(PER_FUNCTION):
        if len(task_regions) == constructs:
            break
        tl = line + 1 + 6 * k
        tr = region("!$omp task @big.c:%d" % tl, tl, tl + 4, "task")
        cr = region("!$omp create task @big.c:%d" % tl, tl, tl + 4, "task create")
        inst = rnd.randint(1, 50)
        tree.add(cr, fc, [inst * 2e-7] + [0.0] * (n - 1), [inst] + [0] * (n - 1))
        task_regions.append((tr, inst))
    wr = region("!$omp taskwait @big.c:%d" % (line + 39), line + 39, line + 39, "taskwait")
    wc = tree.add(wr, fc, [1e-6] + [0.0] * (n - 1), one_master)
    # the master runs some of the function's tasks in its taskwait
    for tr, inst in task_regions[-PER_FUNCTION:]:
        if inst % 3 == 0:
            tree.add(tr, wc, [inst * 1e-6] + [0.0] * (n - 1), [inst] + [0] * (n - 1))


def _task_trees(tree, root, barrier, task_regions):
    """The tasks the other threads run in the barrier, and TASKS: per construct its tree
    with a call of a helper function.  Returns the constructs' cnodes."""
    n = tree.n
    helper = tree.region("helper", 2000000, 2000010, "function", "user")
    spread = {}
    for tr, inst in task_regions:
        per = [0] * n
        if inst % 3 != 0:
            for i in range(inst):
                per[1 + i % (n - 1) if n > 1 else 0] += 1
            tree.add(tr, barrier, [v * 1e-6 for v in per], per)
        else:
            per[0] = inst
        spread[tr] = per
    tasks = tree.add(tree.region("TASKS", -1, -1, "artificial", "openmp", ""), root,
                     [0.0] * n, [0] * n)
    tree.tasks_cnode = tasks
    construct_cnodes = []
    for tr, _ in task_regions:
        per = spread[tr]
        tc = tree.add(tr, tasks, [v * 9e-7 for v in per], per)
        tree.add(helper, tc, [v * 1e-7 for v in per], per)
        construct_cnodes.append(tc)
    return construct_cnodes


def _write_values(w, tree, mid, construct_cnodes, counters):
    n = tree.n
    incl = tree.inclusive()
    # TASKS: the sum of its children
    incl[tree.tasks_cnode] = [sum(incl[tc][t] for tc in construct_cnodes) for t in range(n)]
    for c, _ in tree.nodes:
        w.set_row(mid["time"], c, incl[c])
        w.set_row(mid["visits"], c, tree.visits[c])
        vis = tree.visits[c]
        mn = [incl[c][t] / vis[t] * 0.5 if vis[t] else DBL_MAX for t in range(n)]
        mx = [incl[c][t] / vis[t] * 1.5 if vis[t] else 0.0 for t in range(n)]
        w.set_row(mid["min_time"], c, mn)
        w.set_row(mid["max_time"], c, mx)
        w.set_row(mid["max_active_tasks"], c, [float(3 + t) for t in range(n)])
        if counters:
            w.set_row(mid["PAPI_TOT_INS"], c, [int(v * 4e9) for v in tree.own[c]])
            w.set_row(mid["PAPI_TOT_CYC"], c, [int(v * 2.5e9) for v in tree.own[c]])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("constructs", type=int)
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--counters", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    nodes = write_profile(args.out, args.constructs, args.threads, args.counters, args.seed)
    print("%s: %d task constructs, %d call paths, %d threads"
          % (args.out, args.constructs, nodes, args.threads))
    return 0


if __name__ == "__main__":
    sys.exit(main())
