"""Two profiles as the page's comparison: the union of their call paths matched as
pompprof-diff matches them (analysis.diff.Diff: region names from the root and
parameters, `name#2` for a repeated sibling), and per path each run's exclusive value of
every additive metric summed over its locations (NaN where the run lacks the path)."""

from __future__ import annotations

from array import array

from ..analysis.diff import Diff
from ..analysis.profile_model import Profile
from .blob import Blob
from .profile_data import metric_kind


def compare_payload(a: Profile, b: Profile, blob: Blob) -> dict:
    d = Diff(a, b)
    keys = d.keys_in_order()
    pos = {k: i for i, k in enumerate(keys)}
    parent = array("i", bytes(4 * len(keys)))
    tasks = array("B", bytes(len(keys)))
    labels = []
    for i, k in enumerate(keys):
        u = d.union[k]
        node = u["a"] or u["b"]
        p = d.paths.parent[k]
        # a TASKS node starts a tree of its own, as in the profile view
        parent[i] = -1 if p is None or node.kind == "TASKS" else pos[p]
        tasks[i] = node.tree == "tasks"
        labels.append(d.paths.label[k])
    blob.add("parent", parent, "i")
    blob.add("tasks", tasks, "B")
    metrics = []
    nan = float("nan")
    for name in d.metric_names:
        for side, prof, ms in (("a", a, d.ma), ("b", b, d.mb)):
            m = ms.get(name)
            values = array("d")
            for k in keys:
                node = d.union[k][side]
                row = d._values(prof, m, node, False)
                values.append(sum(row) if row is not None else nan)
            blob.add("%s:%s" % (side, name), values, "d")
        metrics.append({"id": name, "name": d.display_name(name), "kind": metric_kind(name)})
    return {"a": {"path": a.path, "program": a.program, "threads": a.nthreads},
            "b": {"path": b.path, "program": b.program, "threads": b.nthreads},
            "nodes": len(keys), "labels": labels, "metrics": metrics}
