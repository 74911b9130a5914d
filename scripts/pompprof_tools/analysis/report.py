"""pompprof-report: ompP-style text report of one profile.

Sections: header, region overview, flat profile (one row per thread + SUM; for a profile of
several MPI ranks one row per rank), call tree (main tree and task trees), task statistics
with granularity advice, MPI (report_mpi.py: time per MPI function, imbalance across
ranks, bytes), overhead analysis.
All times are seconds.  Definitions (per thread t; sums over all call paths of a region,
a call path nested in a call path of the same region is not counted twice):

  execT      inclusive time;  execC: visits
  exitBarT   self time of the implicit barrier ending a loop/sections/workshare/single/
             parallel region (waiting, without time executing tasks there)
  taskT      time executing tasks at that point: inclusive time of the stub children
             (task-region nodes below a barrier, taskwait, create, ...)
  enterT     critical/ordered: construct time minus its sblock child (enter + release;
             the profile cannot separate them, so exitT is part of enterT);
             locks: time in omp_set_lock/omp_set_nest_lock/omp_test_lock
  bodyT      critical/ordered/single: time in the sblock child
  exitT      locks: time in omp_unset_lock/omp_unset_nest_lock
  forkJoinT  parallel: startupT + shutdownT, see overhead.py (team window minus the
             thread's time in the region; the two cannot be separated)
  tasks      instances = visits of the task root below TASKS; mean = execT/instances;
             min/max = min_time/max_time of the task root; createT = time in the
             `create task` regions of the same source location (main and task trees);
             taskT = time in stubs of the task region (where tasks ran); frags = stub visits
  work       a task's work: the time its instances spent in their own code and the
             functions they call (overhead.classify: work), not in child tasks run inside
             them, not creating tasks or waiting (never suspended time: pompprof does not
             count it); per instance
  granularity verdict per task construct, on the numbers it states: "coarsen" when the
             mean work per instance is below 10 x the mean time of one creation, "fine"
             at or above; "not measured" when the creation took no measured time
             (pompprof run measures through OMPT, which reports no end of a creation)
  dependences (the metric of depend clauses) is counted where the items are recorded,
             at the tasks' creation: per instance it is the construct's creations'
             count / instances
  parameters a call path split by parameters (pompprof_parameter_*) is shown as
             `name (depth=3)`; each task construct lists a row per combination of
             values (instances, mean, min, max, mean exclusive); "by parameter"
             (Table IV of the Score-P task paper) gives per construct and parameter:
             value, instances, mean and total time, % of the construct's time and the
             cumulative %; the cut-off advice names, for a numeric parameter that
             follows the recursion (a depth), the value from which on a task together
             with the tasks below it (the time at that value and beyond, per instance
             at that value) takes less than 10 x the mean creation time: the depth
             below which tasks do not pay (params.cutoff).
  counters   every other additive metric (POMPPROF_METRICS events): a column per counter
             in the flat profile (inclusive counts, like execT) and the call trees
             (inclusive counts, summed over threads), and rates of two counters
             (profile_model.RATES, e.g. IPC = instructions / cycles).

Text output: counts from a million up carry a unit (1.23M, textfmt.UNIT_LEGEND), names
too long for their column are shortened in the middle so that their file and line stay;
the text is at most 100 columns wide plus the counter columns.

Overhead analysis: see overhead.py for the exact split.  Categories (ompP):
synchronization, imbalance, limited parallelism, thread management, and beside them MPI
communication (time in MPI calls); percentages are of the scope's total thread time T
(team size x region time for a parallel region).
"""

from __future__ import annotations

import argparse
import sys

from ..cube import params
from . import report_mpi
from . import textfmt as tf
from ..cli import main_guard
from . import runfacts
from .overhead import (MPI, Analysis, COMPONENTS, OVERHEAD_CATEGORIES, REPORT_CATEGORIES, SHORT,
                       classify, legend as overhead_legend)
from ..cube.cubex import Region
from .profile_model import (LOCK_ENTER, LOCK_EXIT, Node, Profile, counter_label,
                            is_lock_region, region_label)

GRANULARITY_FACTOR = 10.0
# the metric of depend clauses (profile/pp_profile_depend.c): counted at the creation
DEPENDENCES = "dependences"
# the granularity verdicts
COARSEN, FINE, NOT_MEASURED = "coarsen", "fine", "not measured"
# the text report lists every verdict up to this many task constructs, beyond only the
# constructs to coarsen and the closest call among the others
VERDICT_LINES = 12
# the text report's flat profile shows this many regions per thread, the others in one
# line each (the JSON and CSV reports hold every region per thread)
FLAT_DETAIL = 100

EPILOG = """\
definitions (seconds, per thread; SUM row = over threads):
  execT/execC  inclusive time / visits of the region (all call paths)
  exitBarT     waiting in the implicit barrier at the end of a worksharing construct or
               parallel region, without time executing tasks there
  taskT        time executing tasks at a scheduling point (stub nodes)
  enterT       critical: construct minus sblock time; locks: omp_set_lock time
  bodyT/exitT  critical: sblock time; locks: omp_unset_lock time
  forkJoinT    startup+shutdown: parallel region time of the slowest team thread minus
               this thread's
  task stats   instances = task-root visits, mean/min/max per instance, work = mean time
               in the task's own code and the functions it calls (not child tasks, creating
               or waiting), create = mean time of one creation; verdict per construct:
               coarsen when work < 10 x create, fine else, not measured when creation
               took no measured time (pompprof run); one row per parameter value below
  by parameter per construct and parameter: instances, mean, total time, % and cumulative
               % per value; cut-off advice: the depth from which on a task with all
               the tasks it spawns takes < 10 x the mean creation time
categories (of total thread time T = sum over threads of measured time + fork/join):
""" + overhead_legend() + """
MPI section (hybrid programs): per MPI function calls, time, mean per call, the ranks
  with least and most time in it, imbalance = (max - mean) / max over ranks, bytes sent and
  received; the MPI time of every rank; the flat profile has one row per rank
"""


def _region_ids(profile: Profile) -> list[Region]:
    used = {}
    for n in profile.main_nodes + profile.task_nodes:
        used.setdefault(n.region.id, n.region)
    return [used[k] for k in sorted(used)]


def _rid(region: Region) -> str:
    return "R%04d" % region.id


def _per_thread(rows, nthreads):
    """Per-thread sums of a list of per-thread value lists."""
    if not rows:
        return [0] * nthreads
    return [sum(col) for col in zip(*rows)]


def _top_nodes(nodes: list[Node]) -> list[Node]:
    """Drop nodes that have an ancestor of the same region (recursion: count once)."""
    return [n for n in nodes if not n.nested]


def _kind(region: Region) -> str:
    if report_mpi.is_mpi(region):
        return "plain"
    if region.role in ("task", "untied task"):
        return "task"
    if region.role == "parallel":
        return "parallel"
    if region.role in ("loop", "sections", "workshare"):
        return "worksharing"
    if region.role == "single":
        return "single"
    if region.role in ("critical", "ordered"):
        return "critical"
    if region.role in ("barrier", "implicit barrier", "taskwait", "task create"):
        return "sync"
    return "plain"


# per kind: (column, additive) after execT/execC
_COLUMNS = {
    "task": [("instances", True), ("mean", False), ("min", False), ("max", False),
             ("createT", True), ("taskT", True), ("frags", True)],
    "parallel": [("exitBarT", True), ("taskT", True), ("forkJoinT", True)],
    "worksharing": [("exitBarT", True), ("taskT", True)],
    "single": [("bodyT", True), ("exitBarT", True), ("taskT", True)],
    "critical": [("enterT", True), ("bodyT", True)],
    "sync": [("taskT", True), ("waitT", True)],
    "plain": [],
    "locks": [("enterT", True), ("bodyT", False), ("exitT", True)],
}


class _Lazy:
    """A section produced while it is read: iterating calls make(); truthy when the
    section has entries."""

    def __init__(self, make, nonempty):
        self.make = make
        self.nonempty = nonempty

    def __iter__(self):
        return iter(self.make())

    def __bool__(self):
        return self.nonempty


class _Once:
    """A section computed when it is first read (after the ones printed before it)."""

    def __init__(self, make):
        self.make = make
        self.items = None

    def _get(self):
        if self.items is None:
            self.items = self.make()
        return self.items

    def __iter__(self):
        return iter(self._get())

    def __bool__(self):
        return bool(self._get())


def _parameter_order(nodes: list[Node]) -> list[Node]:
    """nodes (a pre-order) again in pre-order, with the siblings that differ only by
    their parameters sorted by the values (params.order); other siblings keep their
    order.  Unchanged (the same list) when no node has parameters."""
    if not any(n.cnode.parameters for n in nodes):
        return nodes
    inset = {id(n) for n in nodes}
    position = {id(n): i for i, n in enumerate(nodes)}

    def arranged(siblings):
        first = {}
        for n in siblings:
            first.setdefault(n.region.id, position[id(n)])
        return sorted(siblings, key=lambda n: (
            first[n.region.id], [(k, params.order(v)) for k, v in params.items(n.cnode)],
            position[id(n)]))

    roots = [n for n in nodes if n.parent is None or id(n.parent) not in inset]
    out, stack = [], list(reversed(arranged(roots)))
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(reversed(arranged([c for c in n.children if id(c) in inset])))
    return out


class Report:
    """The report's sections as data (build()); paths=False leaves out the call paths'
    region-name lists (the text report needs none, and their size is quadratic in the
    depth of the call tree)."""

    def __init__(self, profile: Profile, top: int | None = None, paths: bool = True,
                 analysis: Analysis | None = None):
        self.p = profile
        self.a = analysis or Analysis(profile)
        self.top = top
        self.paths = paths
        self.total = self.a.program.total()
        # several processes: the flat profile shows one row per rank
        self.loc_rank = report_mpi.rank_of_locations(profile)
        self.ranks = report_mpi.ranks(profile)
        # call-tree percentages: of the measured time (fork/join gaps of workers excluded)
        self.measured = sum(profile.root_incl(t) for t in profile.threads)

    # ---- sections as data --------------------------------------------------------------
    def header(self):
        p = self.p
        f = runfacts.facts(p.cube)
        return {
            "file": p.path,
            "program": p.program,
            "date": p.date,
            "creator": p.cube.attrs.get("Creator", ""),
            "threads": p.nthreads,
            "ranks": len(self.ranks),
            "rank_ids": self.ranks,
            "thread_names": p.thread_names,
            "wall_time": p.wall_time,
            "total_thread_time": self.total,
            "metrics": p.metric_names,
            "parallel_coverage": self.a.coverage(),
            "run_facts": f,
            "interrupted": runfacts.interrupted(f),
            "incomplete": runfacts.incomplete(f),
            "oversubscribed": runfacts.oversubscribed(f, p.nthreads),
        }

    def regions(self):
        return [{"id": _rid(r), "region_id": r.id, "name": r.name, "label": region_label(r),
                 "file": r.mod, "begin": r.begin, "end": r.end, "paradigm": r.paradigm,
                 "role": r.role} for r in _region_ids(self.p)
                if not (r.name == "TASKS" and r.role == "artificial")]

    def _counter_columns(self):
        p = self.p
        return [p.counter_name(m) for m in p.counters] + [r.label for r in p.rates]

    def _add_counters(self, cols, nodes):
        """Per-thread inclusive counts of nodes (recursion not counted twice), and rates."""
        p = self.p
        n = p.nthreads
        for m in p.counters:
            cols[p.counter_name(m)] = _per_thread([p.counter_incl(x, m) for x in nodes], n)
        for r in p.rates:
            cols[r.label] = [r.value({r.numerator: num, r.denominator: den})
                             for num, den in zip(cols[r.numerator], cols[r.denominator])]

    def _thread_rows(self, kind, nodes, task_info=None):
        """One row per thread: the region's columns (the definitions in the module doc)."""
        p = self.p
        n = p.nthreads
        tops = _top_nodes(nodes)
        cols = {"execT": _per_thread([x.incl for x in tops], n),
                "execC": _per_thread([x.visits for x in nodes], n)}
        if kind == "task":
            stubs, creates = task_info
            cols["instances"] = cols["execC"]
            cols["mean"] = [e / i if i else None for e, i in zip(cols["execT"], cols["execC"])]
            mins, maxs = [None] * n, [None] * n
            for node in nodes:
                for t, mn, mx in p.min_max_rows(node):
                    mins[t] = mn if mins[t] is None else min(mins[t], mn)
                    maxs[t] = mx if maxs[t] is None else max(maxs[t], mx)
            cols["min"], cols["max"] = mins, maxs
            cols["createT"] = _per_thread([x.incl for x in creates], n)
            cols["taskT"] = _per_thread([x.incl for x in stubs], n)
            cols["frags"] = _per_thread([x.visits for x in stubs], n)
        elif kind in ("parallel", "worksharing", "single"):
            bars = [c for x in tops for c in x.children if c.role == "implicit barrier"]
            cols["exitBarT"] = _per_thread([b.excl for b in bars], n)
            cols["taskT"] = _per_thread([c.incl for b in bars for c in b.children
                                         if c.kind == "stub"], n)
            if kind == "single":
                cols["bodyT"] = _per_thread([c.incl for x in tops for c in x.children
                                             if c.role == "single sblock"], n)
            if kind == "parallel":
                cols["forkJoinT"] = _per_thread([self.a.fj[id(x)] for x in tops
                                                 if id(x) in self.a.fj], n)
        elif kind == "critical":
            cols["bodyT"] = _per_thread([c.incl for x in tops for c in x.children
                                         if c.role.endswith("sblock")], n)
            cols["enterT"] = [e - b for e, b in zip(cols["execT"], cols["bodyT"])]
        elif kind == "sync":
            cols["taskT"] = _per_thread([c.incl for x in tops for c in x.children
                                         if c.kind == "stub"], n)
            cols["waitT"] = [e - b for e, b in zip(cols["execT"], cols["taskT"])]
        self._add_counters(cols, tops)
        return [{k: v[t] for k, v in cols.items()} for t in p.threads]

    def _sum_row(self, kind, rows):
        out = {"execT": sum(r["execT"] for r in rows), "execC": sum(r["execC"] for r in rows)}
        for m in self.p.counters:
            name = self.p.counter_name(m)
            out[name] = sum(r[name] for r in rows)
        for rate in self.p.rates:
            out[rate.label] = rate.value(out)
        for col, additive in _COLUMNS[kind]:
            vals = [r.get(col) for r in rows if r.get(col) is not None]
            if additive:
                out[col] = sum(vals) if vals else (None if col == "bodyT" else 0)
            elif col == "min":
                out[col] = min(vals) if vals else None
            elif col == "max":
                out[col] = max(vals) if vals else None
        if kind == "task":
            out["mean"] = out["execT"] / out["instances"] if out["instances"] else None
        return out

    def _flat_items(self):
        """Per region (and the lock API): (inclusive time summed over threads, region, kind,
        nodes, task info), most expensive first.  Cheap: the entries' columns are computed
        by _flat_entry, one at a time, when they are wanted."""
        p = self.p
        items = []
        for r in _region_ids(p):
            if r.name == "TASKS" and r.role == "artificial":
                continue
            kind = _kind(r)
            nodes = p.nodes_of_region(r.id)
            info = None
            if kind == "task":
                nodes = [n for n in nodes if n.kind == "taskroot"]
                stubs = [n for n in p.nodes_of_region(r.id, include_stubs=True)
                         if n.kind == "stub"]
                info = (stubs, p.creates_of(r))
            items.append((sum(sum(n.incl) for n in _top_nodes(nodes)), r, kind, nodes, info))
        enter, leave = self._lock_nodes()
        if enter or leave:
            items.append((sum(sum(n.incl) for n in enter + leave), None, "locks",
                          (enter, leave), None))
        items.sort(key=lambda i: -i[0])
        return items

    def _flat_entry(self, item):
        _, r, kind, nodes, info = item
        if kind == "locks":
            return self._locks(*nodes)
        p = self.p
        rows = self._thread_rows(kind, nodes, info)
        counters = [p.counter_name(m) for m in p.counters]
        return self._with_ranks({"id": _rid(r), "region_id": r.id, "name": r.name,
                                 "label": region_label(r), "kind": kind,
                                 "columns": ["execT", "execC"] + [c for c, _ in _COLUMNS[kind]]
                                 + self._counter_columns(),
                                 "additive": ["execT", "execC"]
                                 + [c for c, a in _COLUMNS[kind] if a] + counters,
                                 "threads": rows, "sum": self._sum_row(kind, rows)})

    def _with_ranks(self, entry):
        if len(self.ranks) > 1:
            entry["ranks"] = report_mpi.rank_rows(entry, self.loc_rank, self.ranks, self.p.rates)
        return entry

    def flat(self):
        return [self._flat_entry(i) for i in self._flat_items()]

    def _flat_summary(self, item):
        """A region's line in the text report's list of the less expensive regions: time,
        visits (instances) and counts, summed over threads."""
        execT, r, kind, nodes, _ = item
        p = self.p
        if kind == "locks":
            enter, leave = nodes
            e = self._locks(enter, leave)
            row = dict(e["sum"], id=e["id"], name=e["name"], label=e["label"])
            return row
        tops = _top_nodes(nodes)
        row = {"id": _rid(r), "name": r.name, "label": region_label(r), "execT": execT,
               "execC": sum(sum(n.visits) for n in nodes)}
        for m in p.counters:
            row[p.counter_name(m)] = sum(sum(p.counter_incl(n, m)) for n in tops)
        for rate in p.rates:
            row[rate.label] = rate.value(row)
        return row

    def _lock_nodes(self):
        p = self.p
        nodes = [n for n in p.main_nodes + p.task_nodes if is_lock_region(n.region)]
        return ([n for n in nodes if n.name in LOCK_ENTER],
                [n for n in nodes if n.name in LOCK_EXIT])

    def _locks(self, enter, leave):
        p = self.p
        n = p.nthreads
        e, x = _per_thread([v.incl for v in enter], n), _per_thread([v.incl for v in leave], n)
        cols = {"execT": [a + b for a, b in zip(e, x)],
                "execC": _per_thread([v.visits for v in enter], n),
                "enterT": e, "bodyT": [None] * n, "exitT": x}
        self._add_counters(cols, enter + leave)
        rows = [{k: v[t] for k, v in cols.items()} for t in p.threads]
        return self._with_ranks({"id": "LOCKS", "region_id": None,
                                 "name": "OpenMP locks (set/unset)",
                                 "label": "OMP LOCKS", "kind": "locks",
                                 "columns": ["execT", "execC", "enterT", "bodyT", "exitT"]
                                 + self._counter_columns(),
                                 "additive": ["execT", "execC", "enterT", "exitT"]
                                 + [p.counter_name(m) for m in p.counters],
                                 "threads": rows, "sum": self._sum_row("locks", rows)})

    def _tree_rows(self, nodes: list[Node]):
        """The rows of a call tree, one at a time."""
        p = self.p
        for n in nodes:
            incl, excl = sum(n.incl), sum(n.excl)
            row = {"cnode": n.cnode.id, "name": n.name, "depth": n.depth}
            if n.cnode.parameters:
                row["params"] = params.text(n.cnode)
            if self.paths:
                row["path"] = list(n.path)
            row.update({"kind": n.kind,
                        "visits": sum(n.visits), "incl": incl, "excl": excl,
                        "incl_pct": 100.0 * incl / self.measured if self.measured else 0.0,
                        "excl_pct": 100.0 * excl / self.measured if self.measured else 0.0})
            if p.counters:
                counts = {p.counter_name(m): sum(p.counter_incl(n, m)) for m in p.counters}
                row["counters"] = counts
                row["rates"] = {r.label: r.value(counts) for r in p.rates}
            yield row

    def _tree_nodes(self, nodes: list[Node]) -> list[Node]:
        """A tree's nodes in pre-order, siblings of one region in the order of their
        parameter values (numbers ascending: depth 0, 1, 2, ... for every construct,
        whatever order the program first reached them in); with --top N only the N call
        paths of most inclusive time and their ancestors (so the tree stays a tree)."""
        if self.top and len(nodes) > self.top:
            keep = set()
            for n in sorted(nodes, key=lambda x: -sum(x.incl))[:self.top]:
                while n is not None and id(n) not in keep:
                    keep.add(id(n))
                    n = n.parent
            nodes = [n for n in nodes if id(n) in keep]
        return _parameter_order(nodes)

    def calltree(self):
        return list(self._tree_rows(self._tree_nodes(self.p.main_nodes)))

    def tasktree(self):
        return list(self._tree_rows(self._tree_nodes(self.p.task_nodes)))

    def tasks(self, items=None, sums=None):
        """Statistics per task construct; items: _flat_items() when already computed, sums:
        the SUM rows of the flat entries already computed, by region id."""
        p = self.p
        out = []
        sums = sums or {}
        flat = {i[1].id: {"sum": sums.get(i[1].id) or self._flat_entry(i)["sum"]}
                for i in (items or self._flat_items()) if i[2] == "task"}
        seen = set()
        for tr in p.task_roots:
            r = tr.region
            if r.id in seen:
                continue
            seen.add(r.id)
            if r.id not in flat or "instances" not in flat[r.id]["sum"]:
                continue  # a TASKS child that is no task region: nothing to say about it
            e = flat[r.id]["sum"]
            roots = [n for n in p.nodes_of_region(r.id) if n.kind == "taskroot"]
            excl = sum(sum(n.excl) for n in roots)
            work = sum(task_work(n) for n in roots)
            creates = p.creates_of(r)
            ccount = sum(sum(n.visits) for n in creates)
            inst = e["instances"]
            mean_excl = excl / inst if inst else None
            mean_work = work / inst if inst else None
            mean_create = e["createT"] / ccount if ccount else None
            ratio = mean_work / mean_create if mean_work is not None and mean_create else None
            if not inst:
                verdict = None          # no verdict about constructs that never ran a task
            elif not mean_create:
                verdict = NOT_MEASURED  # no creation measured: nothing to compare with
            else:
                verdict = COARSEN if ratio < GRANULARITY_FACTOR else FINE
            out.append({"id": _rid(r), "region_id": r.id, "name": r.name,
                        "label": region_label(r), "instances": inst, "time": e["execT"],
                        "values": self._task_values(roots),
                        "mean": e["mean"], "min": e["min"], "max": e["max"],
                        "mean_excl": mean_excl, "mean_work": mean_work,
                        "create_time": e["createT"],
                        "create_count": ccount, "mean_create": mean_create,
                        "task_time_at_sync": e["taskT"], "fragments": e["frags"],
                        "ratio": ratio, "granularity": verdict,
                        "too_fine": verdict == COARSEN,
                        "callees": self._callees(roots, e["execT"])})
            if p.counters:
                counts = {p.counter_name(m): e[p.counter_name(m)] for m in p.counters}
                for m in p.counters:
                    if m.uniq_name == DEPENDENCES:      # recorded at the creation
                        counts[p.counter_name(m)] = sum(sum(p.counter_incl(n, m))
                                                        for n in _top_nodes(creates))
                out[-1]["counters"] = counts
                out[-1]["counters_per_instance"] = {k: v / inst if inst else None
                                                    for k, v in counts.items()}
                out[-1]["rates"] = {r.label: e[r.label] for r in p.rates}
        return out

    CALLEES_SHOWN = 8

    def _callees(self, roots, construct_time):
        """Where a task construct's time goes by function (pompprof --functions):
        every function in its task tree, with visits, inclusive time (a recursion
        counted once), exclusive time and the share of the construct's time; the
        CALLEES_SHOWN largest, largest first."""
        acc = {}
        for root in roots:
            for n in root.walk():
                if n is root or n.region.paradigm != "compiler":
                    continue
                a = acc.setdefault(n.region.id, {"name": n.name, "visits": 0, "incl": 0.0,
                                                 "excl": 0.0})
                a["visits"] += sum(n.visits)
                a["excl"] += sum(n.excl)
                if not n.nested:
                    a["incl"] += sum(n.incl)
        out = sorted(acc.values(), key=lambda a: (-a["incl"], a["name"]))
        for a in out:
            a["pct"] = 100.0 * a["incl"] / construct_time if construct_time else None
        return out[:self.CALLEES_SHOWN]

    def _task_values(self, roots):
        """A task construct's rows per combination of parameter values (none when no
        parameter splits it): instances, time, mean, min, max, mean exclusive."""
        p = self.p
        groups = {}
        for n in roots:
            groups.setdefault(params.items(n.cnode), []).append(n)
        if len(groups) == 1 and () in groups:
            return []
        out = []
        for key in sorted(groups, key=lambda k: [(k_, params.order(v)) for k_, v in k]):
            nodes = groups[key]
            inst = sum(sum(n.visits) for n in nodes)
            time = sum(sum(n.incl) for n in nodes if not n.nested)
            if not inst and not time:
                continue    # a call path a parameter passed through: nothing measured
            excl = sum(sum(n.excl) for n in nodes)
            work = sum(task_work(n) for n in nodes)
            mm = [m for n in nodes for m in p.min_max_rows(n)]
            out.append({"params": params.text(nodes[0].cnode) or "(none)",
                        "instances": inst, "time": time,
                        "mean": time / inst if inst else None,
                        "min": min((m[1] for m in mm), default=None),
                        "max": max((m[2] for m in mm), default=None),
                        "mean_excl": excl / inst if inst else None,
                        "mean_work": work / inst if inst else None})
        return out

    def by_parameter(self, tasks=None):
        """Table IV per construct and parameter (params.by_parameter): the task
        constructs' task roots and the other regions' call paths split by parameters; for
        a task construct with a numeric parameter also the cut-off: the value from which
        on instances work less than GRANULARITY_FACTOR x the mean creation time."""
        p = self.p
        create = {t["region_id"]: t["mean_create"] for t in (tasks or [])}
        groups, ids = {}, {}
        for r in _region_ids(p):
            nodes = [n for n in p.nodes_of_region(r.id)
                     if n.kind == "taskroot" or (n.kind == "node" and _kind(r) != "task")]
            if any(n.cnode.parameters for n in nodes):
                groups[r.id] = nodes
                ids[r.id] = r
        out = []
        for e in params.by_parameter(groups):
            r = ids[e.pop("region")]
            e.update({"id": _rid(r), "region_id": r.id, "name": r.name,
                      "task": _kind(r) == "task"})
            mc = create.get(r.id)
            if e["task"] and mc:
                cut = params.cutoff(e["rows"], GRANULARITY_FACTOR * mc)
                if cut is not None:
                    cut["mean_create"] = mc
                    cut["instances"] = (sum(x["instances"] for x in e["rows"])
                                        + e.get("without", {}).get("instances", 0))
                    e["cutoff"] = cut
            out.append(e)
        return out

    @staticmethod
    def _cutoff_advice(e):
        """Two lines: where the cut-off belongs, and what it leaves."""
        c, key = e["cutoff"], e["parameter"]
        return ("%s %s: cut off at %s=%s (tasks down to %s=%s: %s of %s);\n"
                "    from %s=%s on, a task with all it spawns takes %s s < %gx its creation (%s s)"
                % (e["id"], tf.shorten(tf.short_name(e["name"]), 30), key, c["value"], key,
                   c["above"], tf.fmt_count(c["kept"]), tf.fmt_count(c["instances"]), key,
                   c["value"], tf.fmt_time(c["granularity"]), GRANULARITY_FACTOR,
                   tf.fmt_time(c["mean_create"])))

    def _scope_data(self, b):
        total = b.total()
        cats = {}
        for name, comps in REPORT_CATEGORIES:
            v = b.category(comps)
            cats[name] = {"time": v, "pct": 100.0 * v / total if total else 0.0,
                          "threads": [b.category(comps, t) for t in self.p.threads]}
        return {"name": b.name, "id": _rid(b.node.region) if b.node else "program",
                "cnode": b.node.cnode.id if b.node else None,
                "total": total, "overhead": b.overhead(),
                "overhead_pct": 100.0 * b.overhead() / total if total else 0.0,
                "categories": cats,
                "components": {c: b.component(c) for c in COMPONENTS}}

    def overhead(self):
        regions = sorted((self._scope_data(b) for b in self.a.regions),
                         key=lambda d: -d["overhead"])
        sources = []
        names = {}
        for (rid, comp), v in self.a.sources.items():
            r = self.p.cube.regions[rid]
            names[rid] = r
            cat = next(name for name, comps in OVERHEAD_CATEGORIES if comp in comps)
            sources.append({"id": _rid(r), "name": r.name, "category": cat, "component": comp,
                            "time": v, "pct": 100.0 * v / self.total if self.total else 0.0})
        sources.sort(key=lambda s: -s["time"])
        if self.top:
            regions, sources = regions[:self.top], sources[:self.top]
        return {"program": self._scope_data(self.a.program), "parallel_regions": regions,
                "sources": sources, "parallel_coverage": self.a.coverage()}

    def build(self, lazy=False):
        """The report as data.  lazy: the flat profile and the call trees are iterables
        whose entries are computed as they are read (once), so that a large profile's
        text report never holds them all (the text renderer reads each once)."""
        p = self.p
        items = self._flat_items()
        shown = items[:self.top] if self.top else items
        sums = {}
        if lazy:
            detailed, rest = shown[:FLAT_DETAIL], shown[FLAT_DETAIL:]

            def flat_entries():
                for i in detailed:
                    e = self._flat_entry(i)
                    if i[2] == "task":      # kept for the task statistics (read later)
                        sums[i[1].id] = e["sum"]
                    yield e
            flat = _Lazy(flat_entries, bool(detailed))
            flat_rest = _Lazy(lambda: (self._flat_summary(i) for i in rest), bool(rest))
            calltree = _Lazy(lambda: self._tree_rows(self._tree_nodes(p.main_nodes)),
                             bool(p.main_nodes))
            tasktree = _Lazy(lambda: self._tree_rows(self._tree_nodes(p.task_nodes)),
                             bool(p.task_nodes))
            tasks = _Once(lambda: self.tasks(items, sums))
            by_param = _Once(lambda: self.by_parameter(tasks))
            advice = _Once(lambda: [self._advice(t) for t in tasks if t["too_fine"]]
                           + [self._cutoff_advice(e) for e in by_param if "cutoff" in e])
            granularity = _Once(lambda: granularity_lines(tasks))
        else:
            flat, flat_rest = [self._flat_entry(i) for i in shown], []
            calltree, tasktree = self.calltree(), self.tasktree()
            sums = {e["region_id"]: e["sum"] for e in flat if e["kind"] == "task"}
            tasks = self.tasks(items, sums)
            by_param = self.by_parameter(tasks)
            advice = ([self._advice(t) for t in tasks if t["too_fine"]]
                      + [self._cutoff_advice(e) for e in by_param if "cutoff" in e])
            granularity = granularity_lines(tasks)
        data = {"header": self.header(), "regions": self.regions(), "flat": flat,
                "flat_rest": flat_rest, "calltree": calltree, "tasktree": tasktree,
                "tasks": tasks, "by_parameter": by_param, "advice": advice,
                "granularity": granularity,
                "mpi": report_mpi.section(p),
                "overhead": self.overhead()}
        mat = self.p.max_active_tasks()
        if mat is not None:
            data["header"]["max_active_tasks"] = mat
        data["header"]["counters"] = [
            {"name": self.p.counter_name(m), "label": counter_label(self.p.counter_name(m)),
             "description": m.descr} for m in self.p.counters]
        data["header"]["rates"] = [
            {"label": r.label, "description": r.description, "numerator": r.numerator,
             "denominator": r.denominator} for r in self.p.rates]
        return data

    @staticmethod
    def _advice(t):
        return verdict_line(t)


def task_work(root: Node) -> float:
    """A task root's work summed over threads: the self time of the nodes of its tree
    that are work (its own code and the functions it calls; overhead.classify), not of
    the child tasks run inside it (stubs), their creation or any waiting."""
    return sum(sum(n.excl) for n in root.walk() if n.kind != "stub" and classify(n) == "work")


def verdict_line(t) -> str:
    """A task construct's granularity verdict with the numbers it rests on."""
    head = "%s %s: " % (t["id"], tf.shorten(tf.short_name(t["name"]), 36))
    if t["granularity"] == NOT_MEASURED:
        return (head + "work %s s/instance; creation not measured: no verdict"
                % tf.fmt_time(t["mean_work"]))
    return (head + "work %s s/instance = %.1fx creation (%s s); %s"
            % (tf.fmt_time(t["mean_work"]), t["ratio"], tf.fmt_time(t["mean_create"]),
               t["granularity"]))


def granularity_lines(tasks) -> list[str]:
    """The granularity verdicts, with their numbers: every construct's up to
    VERDICT_LINES constructs; beyond, the ones to coarsen and not measured, and the
    closest call among the fine ones."""
    judged = [t for t in tasks if t["granularity"]]
    if len(judged) <= VERDICT_LINES:
        return [verdict_line(t) for t in judged]
    lines = [verdict_line(t) for t in judged if t["granularity"] != FINE]
    fine = [t for t in judged if t["granularity"] == FINE]
    if fine:
        low = min(fine, key=lambda t: t["ratio"])
        lines.append("%d more task constructs are fine (>= %gx), the closest: %s"
                     % (len(fine), GRANULARITY_FACTOR, verdict_line(low)))
    return lines


# --------------------------------------------------------------------------- rendering

COUNT_COLUMNS = ("execC", "instances", "frags")


class _Columns:
    """Titles, widths and number formats of the report's columns, counters included."""

    def __init__(self, header):
        self.counters = {c["name"]: c["label"] for c in header.get("counters", [])}
        self.rates = {r["label"] for r in header.get("rates", [])}

    def title(self, col):
        return tf.shorten(self.counters.get(col, col), 12)

    def width(self, col, default):
        if col in self.counters:
            return max(7, len(self.title(col)))
        if col in self.rates:
            return max(6, len(col))
        return default

    def cell(self, v, col):
        if v is None:
            return "-"
        if col in COUNT_COLUMNS or col in self.counters:
            return tf.fmt_count(v)
        if col in self.rates:
            return tf.fmt_rate(v)
        return tf.fmt_time(v)

    def extra(self):
        """The counter and rate columns, in order."""
        return list(self.counters) + sorted(self.rates, key=lambda r: r)


def _cell(v, col):
    if v is None:
        return "-"
    if col in COUNT_COLUMNS:
        return tf.fmt_count(v)
    return tf.fmt_time(v)


def render_text(d, thread_names):
    return "\n".join(render_lines(d, thread_names)) + "\n"


def write_text(d, thread_names, stream):
    """render_text written piece by piece, in chunks (a large report is never whole)."""
    chunk = []
    for piece in render_lines(d, thread_names):
        chunk.append(piece)
        if len(chunk) >= 4096:
            stream.write("\n".join(chunk) + "\n")
            chunk = []
    if chunk:
        stream.write("\n".join(chunk) + "\n")


def render_lines(d, thread_names):
    """The text report in pieces of one or more lines, each as soon as it is made: one
    renderer per section, in order (a lazily built section is computed when its renderer
    reads it, after the sections before it are printed)."""
    cols = _Columns(d["header"])
    yield from _text_header(d["header"], cols)
    yield from _text_regions(d["regions"])
    yield from _text_flat(d, thread_names, cols)
    yield from _text_tree(d["calltree"], "Call tree (sums over threads; % of the measured "
                          "thread time)", cols)
    if d["tasktree"]:
        yield from _text_tree(d["tasktree"], "Task trees (beside the call tree: task bodies "
                              "by construct)", cols)
    if d["tasks"]:
        yield from _text_tasks(d["tasks"], cols)
    if d["tasks"] and any(t.get("callees") for t in d["tasks"]):
        yield from _text_callees(d["tasks"])
    if d.get("by_parameter"):
        yield from _text_by_parameter(d["by_parameter"])
    if any(t["instances"] for t in d["tasks"]):
        # no verdict about constructs that never ran a task
        yield from _text_granularity(d)
    if d.get("mpi"):
        yield from report_mpi.render_lines(d["mpi"])
    yield from _text_overhead(d["overhead"], bool(d.get("mpi")))


def _text_header(h, cols):
    """The profile, the facts of its run (warnings first), threads and times."""
    yield "pompprof-report: %s" % tf.shown_path(h["file"], tf.WIDTH - 17)
    yield tf.heading("Header")
    for warning in ("interrupted", "incomplete", "oversubscribed"):
        if h.get(warning):
            yield from tf.wrapped(["*** " + h[warning]])
    yield "program            : %s" % h["program"]
    for label, value in runfacts.header_rows(h.get("run_facts") or {}):
        yield from tf.wrapped(["%-19s: %s" % (label, value)], indent=21)
    if h["date"]:
        yield "date               : %s" % h["date"]
    if h["creator"]:
        yield "written by         : %s" % h["creator"]
    yield "threads            : %d" % h["threads"]
    if h.get("ranks", 1) > 1:
        yield "MPI ranks          : %d (rows of the flat profile: one per rank)" % h["ranks"]
    yield "wall time          : %s s" % tf.fmt_time(h["wall_time"])
    yield "total thread time  : %s s" % tf.fmt_time(h["total_thread_time"])
    yield "parallel coverage  : %.1f %%" % (100.0 * h["parallel_coverage"])
    yield from _text_header_metrics(h, cols)


def _text_header_metrics(h, cols):
    """The header's lines on what was measured: metrics, counters, rates, units."""
    yield from _listed("metrics            :", h["metrics"])
    if "max_active_tasks" in h:
        yield "max active tasks   : %s" % " ".join(str(x) for x in h["max_active_tasks"])
    if h.get("counters"):
        yield from _listed("counters           :", ["%s = %s" % (cols.title(c["name"]),
                                                                  c["name"])
                                                        for c in h["counters"]])
        yield ("                     (columns: inclusive counts, summed in SUM rows and "
               "call trees)")
    for r in h.get("rates", []):
        yield "rate               : %s = %s / %s (%s)" % (r["label"], r["numerator"],
                                                        r["denominator"], r["description"])
    yield "units              : " + tf.UNIT_LEGEND


def _listed(label, items):
    """`label a, b, c` over as many lines as it takes, never cut."""
    words = [item + "," for item in items[:-1]] + list(items[-1:])
    return tf.fold(words, label, " " * (len(label) + 1))


def _text_regions(regions):
    """Every region: its id, its ompP-style description and its name."""
    yield tf.heading("Region overview")
    for r in regions:
        head = "%-6s %-34s " % (r["id"], r["label"])
        yield head + tf.shorten(r["name"], max(20, tf.WIDTH - len(head)))


def _text_flat(d, thread_names, cols):
    """The flat profile: a table per region (rows per thread, or per rank), then the
    less expensive regions a line each."""
    yield tf.heading("Flat profile (seconds)")
    rank_ids = d["header"].get("rank_ids", [])
    for e in d["flat"]:
        yield from _text_flat_entry(e, rank_ids, thread_names, cols)
    if d.get("flat_rest"):
        yield from _text_flat_rest(d["flat_rest"], cols)


def _text_flat_entry(e, rank_ids, thread_names, cols):
    """A region's table in the flat profile: its columns per thread (rank) and summed."""
    yield ""
    head = "%s %s  " % (e["id"], e["label"])
    yield head + tf.shorten(e["name"], max(20, tf.WIDTH - len(head)))
    columns = [c for c in e["columns"] if not (e["kind"] == "task" and c == "execC")]
    if "ranks" in e:
        rows = [["rank %d" % rk] + [cols.cell(r.get(c), c) for c in columns]
                for rk, r in zip(rank_ids, e["ranks"])]
    else:
        rows = [[thread_names[i] if i < len(thread_names) else str(i)]
                + [cols.cell(r.get(c), c) for c in columns]
                for i, r in enumerate(e["threads"])]
    rows.append(["SUM"] + [cols.cell(e["sum"].get(c), c) for c in columns])
    widths = [14] + [cols.width(c, 7 if c == "frags" else 9 if c == "instances" else
                                8 if c == "execC" else 10) for c in columns]
    width = max(tf.WIDTH, sum(widths) + len(widths) - 1)
    yield tf.table(["rank" if "ranks" in e else "thread"] + [cols.title(c) for c in columns],
                   rows, widths=widths, width=width)


def _text_flat_rest(rest, cols):
    """The regions beyond FLAT_DETAIL, a line each with their sums over threads."""
    yield ""
    yield ("The other regions, less expensive (sums over threads; execC: visits, of a task: "
           "instances;")
    yield "all columns per thread: --format json):"
    extra = cols.extra()
    columns = ["execT", "execC"] + extra
    widths = [46, 10, 9] + [cols.width(c, 7) for c in extra]
    rows = ([r["id"] + " " + r["name"]] + [cols.cell(r.get(c), c) for c in columns]
            for r in rest)
    yield from tf.table_lines(["region"] + [cols.title(c) for c in columns], rows, widths,
                              width=max(tf.WIDTH, sum(widths) + len(widths) - 1))


def _text_tree(rows, title, cols):
    """A call tree, a line per call path, indented by depth (deep ones: `(depth)`)."""
    yield tf.heading(title)
    extra = cols.extra()
    ewidths = [cols.width(c, 7) for c in extra]
    eheads = "".join(" %*s" % (w, cols.title(c)) for c, w in zip(extra, ewidths))
    yield "%10s %6s %10s %6s %9s%s  %s" % ("incl.T", "%", "excl.T", "%", "visits",
                                           eheads, "call path")
    avail = tf.WIDTH - 46
    for r in rows:
        ecells = ""
        if extra:
            vals = dict(r.get("counters", {}), **r.get("rates", {}))
            ecells = "".join(" %*s" % (w, cols.cell(vals.get(c), c))
                             for c, w in zip(extra, ewidths))
        depth = r["depth"]
        indent = "  " * depth if 2 * depth <= avail // 2 else "(%d) " % depth
        yield "%10s %6s %10s %6s %9s%s  %s%s" % (
            tf.fmt_time(r["incl"]), tf.fmt_pct(r["incl_pct"]), tf.fmt_time(r["excl"]),
            tf.fmt_pct(r["excl_pct"]), tf.fmt_count(r["visits"]), ecells, indent,
            tf.shorten(r["name"] + (" (%s)" % r["params"] if "params" in r else ""),
                       max(24, avail - len(indent))))


def _text_tasks(tasks, cols):
    """The task statistics: a row per construct and a row per parameter value below."""
    yield tf.heading("Tasks (seconds)")
    per_inst = list(cols.counters)
    widths = [30, 7, 9, 9, 9, 9, 9, 9] + [cols.width(c, 7) + 2 for c in per_inst]
    yield from tf.table_lines(["task construct", "inst", "mean", "min", "max", "work",
                               "create", "taskT"] + [cols.title(c) + "/i" for c in per_inst],
                              _task_rows(tasks, cols, per_inst), widths,
                              width=max(tf.WIDTH, sum(widths) + len(widths) - 1))
    if per_inst:
        yield "(<counter>/i: counts per instance)"


def _task_rows(tasks, cols, per_inst):
    """The rows of the task statistics, one at a time."""
    for t in tasks:
        yield ([t["id"] + " " + tf.short_name(t["name"]), tf.fmt_count(t["instances"]),
                _cell(t["mean"], "t"), _cell(t["min"], "t"), _cell(t["max"], "t"),
                _cell(t["mean_work"], "t"), _cell(t["mean_create"], "t"),
                _cell(t["task_time_at_sync"], "t")]
               + [cols.cell(t.get("counters_per_instance", {}).get(c), c)
                  for c in per_inst])
        for v in t.get("values", []):     # a row per parameter value
            yield ["  " + v["params"], tf.fmt_count(v["instances"]),
                   _cell(v["mean"], "t"), _cell(v["min"], "t"), _cell(v["max"], "t"),
                   _cell(v["mean_work"], "t"), "", ""] + [""] * len(per_inst)


def _text_callees(tasks):
    """Per task construct (pompprof --functions): the functions its tasks called."""
    yield tf.heading("Task constructs by callee (seconds; % of the construct's time)")
    for t in tasks:
        if not t.get("callees"):
            continue
        yield "%s %s (%s s):" % (t["id"], tf.short_name(t["name"]), tf.fmt_time(t["time"]))
        crow = (["  " + c["name"], tf.fmt_count(c["visits"]), _cell(c["incl"], "t"),
                 tf.fmt_pct(c["pct"]), _cell(c["excl"], "t")] for c in t["callees"])
        yield from tf.table_lines(["  function", "visits", "incl.T", "%", "excl.T"], crow,
                                  [52, 8, 10, 6, 10])
        yield ""


def _text_by_parameter(by_parameter):
    """Table IV: per construct and parameter, a row per value."""
    yield tf.heading("By parameter (seconds; % of the construct's time)")
    for e in by_parameter:
        yield "%s %s by %s (%s s in all):" % (e["id"], tf.short_name(e["name"]),
                                           e["parameter"], tf.fmt_time(e["total"]))
        prow = ([tf.shorten(x["value"], 14), tf.fmt_count(x["instances"]),
                 _cell(x["mean"], "t"), _cell(x["time"], "t"), tf.fmt_pct(x["pct"]),
                 tf.fmt_pct(x["cum_pct"])] for x in e["rows"])
        yield from tf.table_lines([e["parameter"], "instances", "mean", "total", "%",
                                   "cum %"], prow, [14, 10, 10, 10, 6, 6])
        if "without" in e:
            w = e["without"]
            yield "%-14s %10s %10s %10s %6s" % ("(none)", tf.fmt_count(w["instances"]), "",
                                                tf.fmt_time(w["time"]), tf.fmt_pct(w["pct"]))
        yield ""


def _text_granularity(d):
    """The granularity verdicts and the cut-off advice."""
    yield ""
    yield ("Task granularity (work per instance, functions included, against one creation; "
           "< %gx: coarsen):" % GRANULARITY_FACTOR)
    for a in d["granularity"]:
        yield "  " + a
    if any(t["granularity"] == NOT_MEASURED for t in d["tasks"]):
        yield ("  (creation took no measured time: pompprof run measures through OMPT, "
               "which reports no end")
        yield "  of a task's creation; with pompprof's compiler wrapper it is measured)"
    cutoffs = [a for a in d["advice"] if "cut off at" in a]
    if cutoffs:
        yield ("Task granularity advice (a task with all it spawns < %gx its creation):"
               % GRANULARITY_FACTOR)
        for a in cutoffs:
            yield "  " + a


def _text_overhead(o, mpi):
    """The overhead analysis: the categories of the program and of each parallel region,
    then the regions where overhead arose."""
    yield tf.heading("Overhead analysis (seconds summed over threads)")
    shown = [n for n, _ in REPORT_CATEGORIES if n != MPI or mpi]
    hdr = ["scope", "total"] + [SHORT[n] for n in shown] + ["ovhd%"]
    # 100 columns: the scope's name gets what the categories leave; when that is too
    # little for a name (MPI beside serial code), the rows name the regions by their
    # ids and a line under the table names them
    scope = tf.WIDTH - 18 - 10 * len(shown)
    by_id = scope < 22
    rows = [_overhead_row(s, shown, scope, by_id)
            for s in [o["program"]] + o["parallel_regions"]]
    if not by_id:
        rows[0][0] = "whole program"
    yield tf.table(hdr, rows, widths=[scope, 9] + [9] * len(shown) + [6])
    if by_id and o["parallel_regions"]:
        yield from tf.wrapped(["regions: " + "; ".join(
            "%s %s" % (s["id"], tf.short_name(s["name"])) for s in o["parallel_regions"])])
    yield "parallel coverage: %.1f %% of wall time" % (100.0 * o["parallel_coverage"])
    if o["sources"]:
        yield ""
        yield "Overhead by region (sorted):"
        rows = [[s["id"] + " " + s["name"], s["category"], tf.fmt_time(s["time"]),
                 tf.fmt_pct(s["pct"])] for s in o["sources"]]
        yield tf.table(["region", "category", "time", "% of T"], rows,
                       widths=[52, 22, 12, 7])


def _overhead_row(s, shown, scope, by_id):
    """A scope's row of the overhead table: its name, total, categories and overhead %."""
    c = s["categories"]
    return ([_scope_name(s, scope, by_id) if s["id"] != "program" else "program",
             tf.fmt_time(s["total"])]
            + [tf.fmt_time(c[n]["time"]) for n in shown]
            + [tf.fmt_pct(s["overhead_pct"])])


def _scope_name(s, scope, by_id):
    """A parallel region's id and name, without `parallel` when that is too long
    (they all are parallel regions: the file and line tell them apart)."""
    text = s["id"] + " " + tf.short_name(s["name"])
    if by_id:
        return s["id"]
    if len(text) > scope and "@" in text:
        text = s["id"] + " " + text[text.index("@"):]
    return text


CSV_COLUMNS = ["section", "key", "name", "row", "field", "value"]


def _csv_value(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, float):
        return repr(v)
    return v


def csv_rows(d):
    """The report as one tidy table: (section, key, name, row, field, value) per value.
    key: the region or call path id (R0012, a cnode number, MPI function, ...), name: its
    name, row: the sub-row (thread number or SUM, tree, parameter values, ...)."""
    h = d["header"]
    for k in ("file", "program", "date", "threads", "wall_time", "total_thread_time",
              "parallel_coverage", "interrupted", "incomplete", "oversubscribed"):
        yield ("header", "", "", "", k, h.get(k))
    yield ("header", "", "", "", "metrics", " ".join(h["metrics"]))
    for k, v in (h.get("run_facts") or {}).items():
        if k == "env":
            for name, value in sorted((v or {}).items()):
                yield ("header", "", "", "", "env:" + name, value)
        elif k != "diff_of":
            yield ("header", "", "", "", k, v)
    for e in d["flat"]:
        for i, r in enumerate(e["threads"] + [e["sum"]]):
            who = "SUM" if i == len(e["threads"]) else str(i)
            for c in e["columns"]:
                yield ("flat", e["id"], e["name"], who, c, r.get(c))
    counters = [c["name"] for c in h.get("counters", [])]
    rates = [r["label"] for r in h.get("rates", [])]
    for tree, rs in (("main", d["calltree"]), ("tasks", d["tasktree"])):
        for r in rs:
            path = "/".join(r["path"]) if "path" in r else r["name"]
            for f in ("visits", "incl", "excl"):
                yield ("calltree", r["cnode"], path, tree, f, r[f])
            for c in counters:
                yield ("calltree", r["cnode"], path, tree, c, r["counters"][c])
            for x in rates:
                yield ("calltree", r["cnode"], path, tree, x, r["rates"][x])
    for t in d["tasks"]:
        for f in ("instances", "mean", "min", "max", "mean_excl", "mean_work", "create_time",
                  "create_count", "mean_create", "ratio", "granularity", "too_fine",
                  "task_time_at_sync"):
            yield ("tasks", t["id"], t["name"], "", f, t[f])
        for c, v in (t.get("counters_per_instance") or {}).items():
            yield ("tasks", t["id"], t["name"], "", c + "/i", v)
        for v in t.get("values", []):
            for f in ("instances", "time", "mean", "min", "max", "mean_excl", "mean_work"):
                yield ("task_values", t["id"], t["name"], v["params"], f, v[f])
    for e in d.get("by_parameter") or []:
        for x in e["rows"]:
            for f in ("instances", "mean", "time", "pct", "cum_pct"):
                yield ("by_parameter", e["id"], e["name"], "%s=%s" % (e["parameter"], x["value"]),
                       f, x[f])
    if d.get("mpi"):
        for f in d["mpi"]["functions"]:
            for k in ("calls", "time", "pct", "mean", "bytes_sent", "bytes_received"):
                yield ("mpi", f["name"], f["name"], "", k, f[k])
            yield ("mpi", f["name"], f["name"], "", "imbalance_pct", f["ranks"]["imbalance_pct"])
        for r in d["mpi"]["per_rank"]:
            for k in ("time", "pct", "bytes_sent", "bytes_received"):
                yield ("mpi_rank", "rank %d" % r["rank"], "", "", k, r[k])
    o = d["overhead"]
    for sc in [o["program"]] + o["parallel_regions"]:
        yield ("overhead", sc["id"], sc["name"], "", "total", sc["total"])
        for n, _ in REPORT_CATEGORIES:
            yield ("overhead", sc["id"], sc["name"], "", n, sc["categories"][n]["time"])
        yield ("overhead", sc["id"], sc["name"], "", "overhead_pct", sc["overhead_pct"])


def render_csv(d, thread_names, section=None):
    """Tidy long format: one header row, then rows of six fields (csv_rows); section:
    only that section's rows."""
    rows = [CSV_COLUMNS]
    rows += [[_csv_value(x) for x in r] for r in csv_rows(d) if section in (None, r[0])]
    return tf.csv_text(rows)


CSV_SECTIONS = ("header", "flat", "calltree", "tasks", "task_values", "by_parameter", "mpi",
                "mpi_rank", "overhead")


def build_parser():
    ap = argparse.ArgumentParser(
        prog="pompprof-report",
        description="Text report of a pompprof (or Score-P) CUBE4 profile: flat profile, "
                    "call tree, task statistics and overhead analysis.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("profile", help="profile directory or .cubex file")
    ap.add_argument("--format", choices=("text", "csv", "json"), default="text",
                    help="output format (default: text, at most 100 columns)")
    ap.add_argument("--top", type=int, metavar="N", default=None,
                    help="show only the N most expensive regions and overhead sources, and "
                         "the N most expensive call paths of each tree")
    ap.add_argument("--section", choices=CSV_SECTIONS, default=None,
                    help="with --format csv: only this section's rows")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.top is not None and args.top < 1:
        build_parser().error("--top needs a positive number")
    if args.section and args.format != "csv":
        build_parser().error("--section goes with --format csv")
    profile = Profile(args.profile)
    runfacts.refuse_diff(profile, "pompprof-report")
    text = args.format == "text"
    data = Report(profile, top=args.top, paths=not text).build(lazy=text)
    if args.format == "json":
        sys.stdout.write(tf.json_text(data))
    elif args.format == "csv":
        sys.stdout.write(render_csv(data, profile.thread_names, args.section))
    else:
        write_text(data, profile.thread_names, sys.stdout)
    return 0


def entry() -> int:
    """The `pompprof-report` command."""
    return main_guard("pompprof-report", main)


if __name__ == "__main__":
    sys.exit(entry())
