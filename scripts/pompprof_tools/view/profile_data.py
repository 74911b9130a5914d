"""A profile as the page's data: every call path (main tree, then the task trees below
TASKS) with its parent, region, parameters and kind, and per location its exclusive value
of every additive metric (time, visits, counters, bytes), min/max time per visit; the
page sums inclusive values itself.  The report's tables come from the report's own
analysis (analysis.report.Report), so the page shows the numbers pompprof-report
prints."""

from __future__ import annotations

import os
from array import array

from ..analysis.diff import additive_metrics
from ..analysis.profile_model import Profile
from ..analysis.report import GRANULARITY_FACTOR, Report
from ..cube import params
from .blob import Blob

KINDS = {"node": 0, "stub": 1, "taskroot": 2, "TASKS": 3}


def ordered_nodes(profile: Profile) -> list:
    """Main tree (pre-order, all roots) then the task trees (pre-order, TASKS first)."""
    return profile.main_nodes + profile.task_nodes


def metric_kind(name: str) -> str:
    if name == "time":
        return "time"
    if name.startswith("bytes"):
        return "bytes"
    return "count"


def locations(profile: Profile) -> list[dict]:
    """The system tree's leaves in location order: node (host), process (rank) and
    thread."""
    out = []
    by_id = {loc.id: loc for loc in profile.cube.locations}
    for t in profile.threads:
        loc = by_id.get(t)
        out.append({"name": profile.thread_names[t],
                    "node": loc.node_name if loc else "",
                    "rank": loc.group_rank if loc else 0,
                    "process": (loc.group_name if loc and loc.group_name else
                                "process %d" % (loc.group_rank if loc else 0)),
                    "thread": loc.rank if loc else t})
    return out


def regions_table(nodes) -> tuple[dict, dict[int, int]]:
    """The regions of the call paths as columns (a profile of 200,000 call paths has
    100,000 regions: the page parses columns several times faster than objects); file
    and role as indexes into their own lists."""
    cols = {"name": [], "file": [], "begin": [], "end": [], "role": [], "paradigm": [],
            "files": [], "roles": [], "paradigms": []}
    index: dict[int, int] = {}
    files: dict[str, int] = {}
    roles: dict[str, int] = {}
    paradigms: dict[str, int] = {}
    for n in nodes:
        r = n.region
        if r.id in index:
            continue
        index[r.id] = len(cols["name"])
        f = os.path.basename(r.mod) if r.mod else ""
        if f not in files:
            files[f] = len(cols["files"])
            cols["files"].append(f)
        if r.role not in roles:
            roles[r.role] = len(cols["roles"])
            cols["roles"].append(r.role)
        if r.paradigm not in paradigms:
            paradigms[r.paradigm] = len(cols["paradigms"])
            cols["paradigms"].append(r.paradigm)
        cols["name"].append(r.name)
        cols["file"].append(files[f])
        cols["begin"].append(r.begin)
        cols["end"].append(r.end)
        cols["role"].append(roles[r.role])
        cols["paradigm"].append(paradigms[r.paradigm])
    return cols, index


# what the page's tables show of the report's data (the rest stays in pompprof-report
# --format json)
TASK_KEYS = ("id", "name", "instances", "mean", "min", "max", "mean_excl", "mean_work",
             "mean_create", "create_count", "task_time_at_sync", "ratio", "granularity",
             "too_fine", "values", "counters_per_instance")


def _scope(d: dict) -> dict:
    return {"id": d["id"], "name": d["name"], "total": d["total"],
            "overhead_pct": d["overhead_pct"],
            "categories": {c: {"time": v["time"]} for c, v in d["categories"].items()}}


def report_tables(profile: Profile) -> dict:
    """The report's tasks, by-parameter, advice, overhead and MPI sections (its own code;
    the call trees and the flat profile are not built: the page has the call paths)."""
    data = Report(profile, paths=False).build(lazy=True)
    tasks = [{k: t.get(k) for k in TASK_KEYS} for t in data["tasks"]]
    ov = data["overhead"]
    overhead = {"program": _scope(ov["program"]),
                "parallel_regions": [_scope(d) for d in ov["parallel_regions"]],
                "sources": ov["sources"], "parallel_coverage": ov["parallel_coverage"]}
    return {"header": data["header"], "tasks": tasks,
            "by_parameter": list(data["by_parameter"]), "advice": list(data["advice"]),
            "granularity": list(data["granularity"]), "granularity_factor": GRANULARITY_FACTOR,
            "overhead": overhead, "mpi": data["mpi"]}


def profile_payload(profile: Profile, blob: Blob, prefix: str = "") -> dict:
    """The JSON part of one profile; its arrays go into blob under prefix."""
    nodes = ordered_nodes(profile)
    pos = {id(n): i for i, n in enumerate(nodes)}
    regions, rindex = regions_table(nodes)
    strings: list[str] = []
    sindex: dict[str, int] = {}

    def string(s: str) -> int:
        k = sindex.get(s)
        if k is None:
            k = sindex[s] = len(strings)
            strings.append(s)
        return k

    parent = array("i", bytes(4 * len(nodes)))
    region = array("i", bytes(4 * len(nodes)))
    param = array("i", bytes(4 * len(nodes)))
    kind = array("B", bytes(len(nodes)))
    for i, n in enumerate(nodes):
        # a TASKS node starts a tree of its own, as in Cube and the report
        parent[i] = -1 if n.parent is None or n.kind == "TASKS" else pos[id(n.parent)]
        region[i] = rindex[n.region.id]
        param[i] = string(params.text(n.cnode)) if n.cnode.parameters else -1
        kind[i] = KINDS[n.kind]
    blob.add(prefix + "parent", parent, "i")
    blob.add(prefix + "region", region, "i")
    blob.add(prefix + "param", param, "i")
    blob.add(prefix + "kind", kind, "B")

    cube = profile.cube
    nloc = profile.nthreads
    metrics = []
    # time first, then visits, then the others (the report's and pompprof-diff's order)
    order = {"time": 0, "visits": 1}
    for m in sorted(additive_metrics(profile), key=lambda m: order.get(m.uniq_name, 2)):
        values = array("d")
        if m.uniq_name == "time":
            for n in nodes:
                values.extend(n.excl)
        elif m.uniq_name == "visits":
            for n in nodes:
                values.extend(float(v) for v in n.visits)
        else:
            for n in nodes:
                values.extend(float(v) for v in cube.exclusive_row(m, n.cnode))
        name = profile.counter_name(m)
        blob.add(prefix + "m:" + m.uniq_name, values, "d")
        metrics.append({"id": m.uniq_name, "name": name, "kind": metric_kind(m.uniq_name),
                        "unit": m.unit, "description": m.descr, "additive": True})
    for mname in ("min_time", "max_time"):
        if not (cube.has_metric(mname) and cube.metric(mname).has_data):
            continue
        values = array("d")
        for n in nodes:
            row = cube.row(mname, n.cnode)
            values.extend(float(row[t]) if n.visits[t] > 0 else 0.0 for t in range(nloc))
        blob.add(prefix + "m:" + mname, values, "d")
        metrics.append({"id": mname, "name": mname, "kind": "time", "unit": "sec",
                        "description": cube.metric(mname).descr, "additive": False,
                        "aggregate": "min" if mname == "min_time" else "max"})
    rates = [{"label": r.label, "description": r.description, "numerator": r.numerator,
              "denominator": r.denominator} for r in profile.rates]
    return {"path": profile.path, "program": profile.program, "nodes": len(nodes),
            "locations": locations(profile), "regions": regions, "strings": strings,
            "metrics": metrics, "rates": rates, "report": report_tables(profile)}
