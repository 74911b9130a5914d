"""pompprof-report: ompP-style text report of one profile.

Sections: header, region overview, flat profile (one row per thread + SUM), call tree
(main tree and task trees), task statistics with granularity advice, overhead analysis.
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
  granularity advice: a task construct is flagged when its mean exclusive time per
             instance is below 10 x the mean time of one creation.

Overhead analysis: see overhead.py for the exact split.  Categories (ompP):
synchronization, imbalance, limited parallelism, thread management; percentages are of
the scope's total thread time T (team size x region time for a parallel region).
"""

from __future__ import annotations

import argparse
import sys

from . import textfmt as tf
from .cli import main_guard
from .overhead import Analysis, COMPONENTS, OVERHEAD_CATEGORIES, REPORT_CATEGORIES
from .cubex import Region
from .profile_model import (LOCK_ENTER, LOCK_EXIT, Node, Profile, is_lock_region,
                            region_label, task_key)

GRANULARITY_FACTOR = 10.0

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
  task stats   instances = task-root visits, mean/min/max per instance, createT = time in
               'create task' of the same construct, flagged when mean exclusive time per
               instance < 10 x mean creation time
overhead categories (of total thread time T = sum over threads of measured time + fork/join):
  synchronization   barrier and taskwait waiting (not executing tasks), critical/lock enter
  imbalance         implicit barrier waiting at the end of loops, sections, parallel regions
  limited parall.   implicit barrier waiting at the end of single constructs
  thread management fork/join (startup+shutdown) and task creation
  work              everything else, including task bodies
"""


def _region_ids(profile: Profile) -> list[Region]:
    used = {}
    for n in profile.main_nodes + profile.task_nodes:
        used.setdefault(n.region.id, n.region)
    return [used[k] for k in sorted(used)]


def _rid(region: Region) -> str:
    return "R%04d" % region.id


def _top_nodes(nodes: list[Node]) -> list[Node]:
    """Drop nodes that have an ancestor of the same region (recursion: count once)."""
    return [n for n in nodes if not n.nested]


def _kind(region: Region) -> str:
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


class Report:
    """The report's sections as data (build()); paths=False leaves out the call paths'
    region-name lists (the text report needs none, and their size is quadratic in the
    depth of the call tree)."""

    def __init__(self, profile: Profile, top: int | None = None, paths: bool = True):
        self.p = profile
        self.a = Analysis(profile)
        self.top = top
        self.paths = paths
        self.total = self.a.program.total()
        # call-tree percentages: of the measured time (fork/join gaps of workers excluded)
        self.measured = sum(profile.root_incl(t) for t in profile.threads)

    # ---- sections as data --------------------------------------------------------------
    def header(self):
        p = self.p
        return {
            "file": p.path,
            "program": p.program,
            "date": p.date,
            "creator": p.cube.attrs.get("Creator", ""),
            "threads": p.nthreads,
            "thread_names": p.thread_names,
            "wall_time": p.wall_time,
            "total_thread_time": self.total,
            "metrics": p.metric_names,
            "parallel_coverage": self.a.coverage(),
        }

    def regions(self):
        return [{"id": _rid(r), "region_id": r.id, "name": r.name, "label": region_label(r),
                 "file": r.mod, "begin": r.begin, "end": r.end, "paradigm": r.paradigm,
                 "role": r.role} for r in _region_ids(self.p)
                if not (r.name == "TASKS" and r.role == "artificial")]

    def _thread_row(self, kind, nodes, t, task_info=None):
        p = self.p
        tops = _top_nodes(nodes)
        row = {"execT": sum(n.incl[t] for n in tops), "execC": sum(n.visits[t] for n in nodes)}

        def stub_children(ns):
            return sum(c.incl[t] for n in ns for c in n.children if c.kind == "stub")

        def ibar_children(ns):
            return [c for n in ns for c in n.children if c.role == "implicit barrier"]

        if kind == "task":
            stubs, creates = task_info
            inst = row["execC"]
            row["instances"] = inst
            row["mean"] = row["execT"] / inst if inst else None
            mm = [p.min_max(n, t) for n in nodes]
            mm = [x for x in mm if x is not None]
            row["min"] = min(x[0] for x in mm) if mm else None
            row["max"] = max(x[1] for x in mm) if mm else None
            row["createT"] = sum(n.incl[t] for n in creates)
            row["taskT"] = sum(n.incl[t] for n in stubs)
            row["frags"] = sum(n.visits[t] for n in stubs)
        elif kind in ("parallel", "worksharing", "single"):
            bars = ibar_children(tops)
            row["exitBarT"] = sum(b.excl[t] for b in bars)
            row["taskT"] = stub_children(bars)
            if kind == "single":
                row["bodyT"] = sum(c.incl[t] for n in tops for c in n.children
                                   if c.role == "single sblock")
            if kind == "parallel":
                row["forkJoinT"] = sum(self.a.fj.get(id(n), [0.0] * p.nthreads)[t]
                                       for n in tops)
        elif kind == "critical":
            row["bodyT"] = sum(c.incl[t] for n in tops for c in n.children
                               if c.role.endswith("sblock"))
            row["enterT"] = row["execT"] - row["bodyT"]
        elif kind == "sync":
            row["taskT"] = stub_children(tops)
            row["waitT"] = row["execT"] - row["taskT"]
        return row

    def _sum_row(self, kind, rows):
        out = {"execT": sum(r["execT"] for r in rows), "execC": sum(r["execC"] for r in rows)}
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

    def flat(self):
        p = self.p
        entries = []
        for r in _region_ids(p):
            if r.name == "TASKS" and r.role == "artificial":
                continue
            kind = _kind(r)
            nodes = list(p.nodes_of_region(r.id))
            info = None
            if kind == "task":
                nodes = [n for n in nodes if n.kind == "taskroot"]
                stubs = [n for n in p.nodes_of_region(r.id, include_stubs=True)
                         if n.kind == "stub"]
                creates = [n for n in p.main_nodes + p.task_nodes
                           if n.role == "task create" and task_key(n.region) == task_key(r)]
                info = (stubs, creates)
            rows = [self._thread_row(kind, nodes, t, info) for t in p.threads]
            entries.append({"id": _rid(r), "region_id": r.id, "name": r.name,
                            "label": region_label(r), "kind": kind,
                            "columns": ["execT", "execC"] + [c for c, _ in _COLUMNS[kind]],
                            "additive": ["execT", "execC"] + [c for c, a in _COLUMNS[kind] if a],
                            "threads": rows, "sum": self._sum_row(kind, rows)})
        locks = self._locks()
        if locks:
            entries.append(locks)
        entries.sort(key=lambda e: -e["sum"]["execT"])
        return entries

    def _locks(self):
        p = self.p
        enter = [n for n in p.main_nodes + p.task_nodes
                 if is_lock_region(n.region) and n.name in LOCK_ENTER]
        leave = [n for n in p.main_nodes + p.task_nodes
                 if is_lock_region(n.region) and n.name in LOCK_EXIT]
        if not enter and not leave:
            return None
        rows = []
        for t in p.threads:
            e = sum(n.incl[t] for n in enter)
            x = sum(n.incl[t] for n in leave)
            rows.append({"execT": e + x, "execC": sum(n.visits[t] for n in enter),
                         "enterT": e, "bodyT": None, "exitT": x})
        return {"id": "LOCKS", "region_id": None, "name": "OpenMP locks (set/unset)",
                "label": "OMP LOCKS", "kind": "locks",
                "columns": ["execT", "execC", "enterT", "bodyT", "exitT"],
                "additive": ["execT", "execC", "enterT", "exitT"],
                "threads": rows, "sum": self._sum_row("locks", rows)}

    def _tree_rows(self, nodes: list[Node]) -> list[dict]:
        out = []
        for n in nodes:
            incl, excl = sum(n.incl), sum(n.excl)
            row = {"cnode": n.cnode.id, "name": n.name, "depth": n.depth}
            if self.paths:
                row["path"] = list(n.path)
            row.update({"kind": n.kind,
                        "visits": sum(n.visits), "incl": incl, "excl": excl,
                        "incl_pct": 100.0 * incl / self.measured if self.measured else 0.0,
                        "excl_pct": 100.0 * excl / self.measured if self.measured else 0.0})
            out.append(row)
        return out

    def calltree(self):
        return self._tree_rows(self.p.main_nodes)

    def tasktree(self):
        return self._tree_rows(self.p.task_nodes)

    def tasks(self):
        p = self.p
        out = []
        flat = {e["region_id"]: e for e in self.flat_all}
        seen = set()
        for tr in p.task_roots:
            r = tr.region
            if r.id in seen:
                continue
            seen.add(r.id)
            if r.id not in flat or "instances" not in flat[r.id]["sum"]:
                continue  # a TASKS child that is no task region: nothing to say about it
            e = flat[r.id]["sum"]
            roots = [n for n in p.task_roots if n.region.id == r.id]
            excl = sum(sum(n.excl) for n in roots)
            creates = [n for n in p.main_nodes + p.task_nodes
                       if n.role == "task create" and task_key(n.region) == task_key(r)]
            ccount = sum(sum(n.visits) for n in creates)
            inst = e["instances"]
            mean_excl = excl / inst if inst else None
            mean_create = e["createT"] / ccount if ccount else None
            flagged = (mean_excl is not None and mean_create is not None and mean_create > 0
                       and mean_excl < GRANULARITY_FACTOR * mean_create)
            out.append({"id": _rid(r), "region_id": r.id, "name": r.name,
                        "label": region_label(r), "instances": inst, "time": e["execT"],
                        "mean": e["mean"], "min": e["min"], "max": e["max"],
                        "mean_excl": mean_excl, "create_time": e["createT"],
                        "create_count": ccount, "mean_create": mean_create,
                        "task_time_at_sync": e["taskT"], "fragments": e["frags"],
                        "ratio": (mean_excl / mean_create) if mean_excl is not None
                        and mean_create else None,
                        "too_fine": flagged})
        return out

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

    def build(self):
        self.flat_all = self.flat()
        flat = self.flat_all[:self.top] if self.top else self.flat_all
        data = {"header": self.header(), "regions": self.regions(), "flat": flat,
                "calltree": self.calltree(), "tasktree": self.tasktree(),
                "tasks": self.tasks(), "overhead": self.overhead()}
        mat = self.p.max_active_tasks()
        if mat is not None:
            data["header"]["max_active_tasks"] = mat
        data["advice"] = [self._advice(t) for t in data["tasks"] if t["too_fine"]]
        return data

    @staticmethod
    def _advice(t):
        return ("%s %s: work %s s/instance = %.1fx creation (%s s); coarsen"
                % (t["id"], tf.short_name(t["name"]), tf.fmt_time(t["mean_excl"]), t["ratio"],
                   tf.fmt_time(t["mean_create"])))


# --------------------------------------------------------------------------- rendering

def _cell(v, col):
    if v is None:
        return "-"
    if col in ("execC", "instances", "frags"):
        return tf.fmt_count(v)
    return tf.fmt_time(v)


def render_text(d, thread_names):
    out = []
    h = d["header"]
    out.append("pompprof-report: %s" % h["file"])
    out.append(tf.heading("Header"))
    out.append("program            : %s" % h["program"])
    if h["date"]:
        out.append("date               : %s" % h["date"])
    if h["creator"]:
        out.append("written by         : %s" % h["creator"])
    out.append("threads            : %d" % h["threads"])
    out.append("wall time          : %s s" % tf.fmt_time(h["wall_time"]))
    out.append("total thread time  : %s s" % tf.fmt_time(h["total_thread_time"]))
    out.append("parallel coverage  : %.1f %%" % (100.0 * h["parallel_coverage"]))
    out.append("metrics            : %s" % tf.clip(", ".join(h["metrics"]), 79))
    if "max_active_tasks" in h:
        out.append("max active tasks   : %s" % " ".join(str(x) for x in h["max_active_tasks"]))

    out.append(tf.heading("Region overview"))
    out.append("\n".join(tf.clip("%-6s %-34s %s" % (r["id"], r["label"], r["name"]), tf.WIDTH)
                         for r in d["regions"]))

    out.append(tf.heading("Flat profile (seconds)"))
    for e in d["flat"]:
        out.append("")
        out.append(tf.clip("%s %s  %s" % (e["id"], e["label"], e["name"]), tf.WIDTH))
        cols = [c for c in e["columns"] if not (e["kind"] == "task" and c == "execC")]
        rows = [[thread_names[i] if i < len(thread_names) else str(i)]
                + [_cell(r.get(c), c) for c in cols] for i, r in enumerate(e["threads"])]
        rows.append(["SUM"] + [_cell(e["sum"].get(c), c) for c in cols])
        widths = [14] + [7 if c == "frags" else 9 if c == "instances" else
                         8 if c == "execC" else 10 for c in cols]
        out.append(tf.table(["thread"] + cols, rows, widths=widths))

    def tree(rows, title):
        out.append(tf.heading(title))
        out.append("%10s %6s %10s %6s %9s  %s" % ("incl.T", "%", "excl.T", "%", "visits",
                                                 "call path"))
        for r in rows:
            line = "%10s %6s %10s %6s %9s  %s%s" % (
                tf.fmt_time(r["incl"]), tf.fmt_pct(r["incl_pct"]), tf.fmt_time(r["excl"]),
                tf.fmt_pct(r["excl_pct"]), tf.fmt_count(r["visits"]), "  " * r["depth"],
                r["name"])
            out.append(tf.clip(line, tf.WIDTH))

    tree(d["calltree"], "Call tree (sums over threads; % of the measured thread time)")
    if d["tasktree"]:
        tree(d["tasktree"], "Task trees (beside the call tree: task bodies by construct)")

    if d["tasks"]:
        out.append(tf.heading("Tasks (seconds)"))
        rows = [[t["id"] + " " + tf.short_name(t["name"]), tf.fmt_count(t["instances"]),
                 _cell(t["mean"], "t"), _cell(t["min"], "t"), _cell(t["max"], "t"),
                 _cell(t["mean_excl"], "t"), _cell(t["mean_create"], "t"),
                 _cell(t["task_time_at_sync"], "t")] for t in d["tasks"]]
        out.append(tf.table(["task construct", "inst", "mean", "min", "max", "mean.excl",
                             "create", "taskT"], rows,
                            widths=[30, 7, 9, 9, 9, 9, 9, 9]))
        if d["advice"]:
            out.append("")
            out.append("Task granularity advice (flagged: mean exclusive time < %gx creation):"
                       % GRANULARITY_FACTOR)
            for a in d["advice"]:
                out.append(tf.clip("  " + a, tf.WIDTH))
        else:
            out.append("Task granularity: all task constructs are > %gx their creation cost."
                       % GRANULARITY_FACTOR)

    o = d["overhead"]
    out.append(tf.heading("Overhead analysis (seconds summed over threads)"))
    hdr = ["scope", "total", "work", "sync", "imbal", "limpar", "mgmt", "ovhd%"]

    def orow(s):
        c = s["categories"]
        return [s["id"] + " " + tf.short_name(s["name"]) if s["id"] != "program" else "whole program",
                tf.fmt_time(s["total"]), tf.fmt_time(c["work"]["time"]),
                tf.fmt_time(c["synchronization"]["time"]), tf.fmt_time(c["imbalance"]["time"]),
                tf.fmt_time(c["limited parallelism"]["time"]),
                tf.fmt_time(c["thread management"]["time"]), tf.fmt_pct(s["overhead_pct"])]

    rows = [orow(o["program"])] + [orow(s) for s in o["parallel_regions"]]
    out.append(tf.table(hdr, rows, widths=[33, 9, 9, 9, 9, 9, 9, 6]))
    out.append("parallel coverage: %.1f %% of wall time" % (100.0 * o["parallel_coverage"]))
    if o["sources"]:
        out.append("")
        out.append("Overhead by region (sorted):")
        rows = [[s["id"] + " " + s["name"], s["category"], tf.fmt_time(s["time"]),
                 tf.fmt_pct(s["pct"])] for s in o["sources"]]
        out.append(tf.table(["region", "category", "time", "% of T"], rows,
                            widths=[52, 22, 12, 7]))
    return "\n".join(out) + "\n"


def render_csv(d, thread_names):
    rows = [["section", "key", "field", "value"]]
    h = d["header"]
    for k in ("file", "program", "date", "threads", "wall_time", "total_thread_time",
              "parallel_coverage"):
        rows.append(["header", "", k, h[k]])
    rows.append(["header", "", "metrics", " ".join(h["metrics"])])
    rows.append([])
    rows.append(["flat", "region", "name", "thread"] + ["column", "value"])
    out_rows = rows
    for e in d["flat"]:
        for i, r in enumerate(e["threads"] + [e["sum"]]):
            who = "SUM" if i == len(e["threads"]) else str(i)
            for c in e["columns"]:
                out_rows.append(["flat", e["id"], e["name"], who, c,
                                 "" if r.get(c) is None else repr(r.get(c))])
    out_rows.append([])
    out_rows.append(["calltree", "cnode", "tree", "path", "visits", "incl", "excl"])
    for tree, rs in (("main", d["calltree"]), ("tasks", d["tasktree"])):
        for r in rs:
            out_rows.append(["calltree", r["cnode"], tree, "/".join(r["path"]), r["visits"],
                             repr(r["incl"]), repr(r["excl"])])
    out_rows.append([])
    out_rows.append(["tasks", "region", "name", "instances", "mean", "min", "max",
                     "mean_excl", "create_time", "create_count", "too_fine"])
    for t in d["tasks"]:
        out_rows.append(["tasks", t["id"], t["name"], t["instances"], t["mean"], t["min"],
                         t["max"], t["mean_excl"], t["create_time"], t["create_count"],
                         int(t["too_fine"])])
    out_rows.append([])
    out_rows.append(["overhead", "scope", "name", "total"]
                    + [n for n, _ in REPORT_CATEGORIES] + ["overhead_pct"])
    o = d["overhead"]
    for s in [o["program"]] + o["parallel_regions"]:
        out_rows.append(["overhead", s["id"], s["name"], repr(s["total"])]
                        + [repr(s["categories"][n]["time"]) for n, _ in REPORT_CATEGORIES]
                        + [repr(s["overhead_pct"])])
    return tf.csv_text(out_rows)


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
                    help="show only the N most expensive regions and overhead sources")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.top is not None and args.top < 1:
        build_parser().error("--top needs a positive number")
    profile = Profile(args.profile)
    data = Report(profile, top=args.top, paths=args.format != "text").build()
    if args.format == "json":
        out = tf.json_text(data)
    elif args.format == "csv":
        out = render_csv(data, profile.thread_names)
    else:
        out = render_text(data, profile.thread_names)
    sys.stdout.write(out)
    return 0


def entry() -> int:
    """The `pompprof-report` command."""
    return main_guard("pompprof-report", main)


if __name__ == "__main__":
    sys.exit(entry())
