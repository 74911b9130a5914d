"""Parameters of call paths (pompprof_parameter_int64/_string, Score-P's user parameters):
a cnode's ``<parameter>`` entries split a region's call path into siblings, one per
combination of values (doc/cube4-layout.md, "Call tree").

* identity: the region and the set of (name, value) pairs, whatever their order in the
  file; :func:`label` spells a call path as the Cube GUI does, ``name (depth=3, kind=leaf)``;
* :func:`by_parameter`: per region split by a parameter, the values in order with their
  instances (visits), mean and total time, share of the region's time and the cumulative
  share (Table IV of the Score-P task-profiling paper);
* :func:`cutoff`: for a numeric parameter that follows a recursion (a depth), the value
  from which on a task with everything it spawns is shorter than a given bound: where a
  cut-off belongs.

``<other>`` is the value under which pompprof counts the values beyond
POMPPROF_MAX_PARAMETER_VALUES; it sorts last.
"""

from __future__ import annotations

OTHER = "<other>"


def items(cnode) -> tuple:
    """The parameters as a sorted tuple of (name, value): the identity of the values."""
    return tuple(sorted((k, v) for _, k, v in cnode.parameters))


def text(cnode) -> str:
    """`name=value, ...` in the file's order ('' without parameters)."""
    return ", ".join("%s=%s" % (k, v) for _, k, v in cnode.parameters)


def label(name: str, cnode) -> str:
    """A call path's name with its parameters, as the Cube GUI shows it."""
    t = text(cnode)
    return "%s (%s)" % (name, t) if t else name


def key_label(name: str, cnode) -> str:
    """label() with the parameters sorted by name: the same for the same values whatever
    order a file lists them in (matching call paths of two profiles)."""
    its = items(cnode)
    return "%s (%s)" % (name, ", ".join("%s=%s" % kv for kv in its)) if its else name


def value_of(cnode, key: str):
    """(type, value) of parameter key at cnode, None when it has none."""
    for t, k, v in cnode.parameters:
        if k == key:
            return t, v
    return None


def number(value: str):
    """A numeric parameter's value as int (or float), None when it is not one."""
    try:
        return int(value)
    except ValueError:
        try:
            f = float(value)
        except ValueError:
            return None
        return f if f == f else None


def order(value: str):
    """Sort key of values: numbers ascending, then text, then <other>."""
    if value == OTHER:
        return (2, 0, "")
    n = number(value)
    return (0, n, "") if n is not None else (1, 0, value)


def by_parameter(groups):
    """Table IV per region and parameter.

    groups: {region label: nodes}, the call paths of one construct (for a task construct
    its task roots below TASKS); each node has .cnode, .visits, .incl and .excl (per
    thread) and .nested (a call path inside one of the same region: its inclusive time is
    not counted twice).
    Returns one entry per (region, parameter name) that splits it: rows per value, in
    value order, and a row for the time without that parameter when there is any."""
    out = []
    for region, nodes in groups.items():
        keys = []
        for n in nodes:
            for _, k, _ in n.cnode.parameters:
                if k not in keys:
                    keys.append(k)
        total = sum(sum(n.incl) for n in nodes if not n.nested)
        for key in keys:
            values, none = {}, {"instances": 0, "time": 0.0, "excl": 0.0}
            for n in nodes:
                tv = value_of(n.cnode, key)
                acc = none if tv is None else values.setdefault(
                    tv[1], {"value": tv[1], "numeric": tv[0] == "numeric",
                            "instances": 0, "time": 0.0, "excl": 0.0})
                acc["instances"] += sum(n.visits)
                acc["excl"] += sum(n.excl)
                if not n.nested:
                    acc["time"] += sum(n.incl)
            rows = [values[v] for v in sorted(values, key=order)]
            cum = 0.0
            for r in rows:
                r["mean"] = r["time"] / r["instances"] if r["instances"] else None
                r["mean_excl"] = r["excl"] / r["instances"] if r["instances"] else None
                r["pct"] = 100.0 * r["time"] / total if total else 0.0
                cum += r["pct"]
                r["cum_pct"] = cum
            entry = {"region": region, "parameter": key, "rows": rows, "total": total}
            if none["instances"] or none["time"]:
                entry["without"] = dict(none, pct=100.0 * none["time"] / total if total else 0.0)
            out.append(entry)
    return out


def cutoff(rows, bound: float):
    """Where a cut-off belongs for a numeric parameter that follows a recursion (a depth,
    or a problem size): the first value, going down the recursion, whose instances with
    everything below them (the values further down) take less than bound per instance --
    the granularity a task at that value would have if the deeper levels ran inside it.
    The recursion goes towards the values with more instances (depth: up; size: down).
    Returns {"value", "above" (the last value worth a task), "granularity" (per instance,
    from the value on), "kept" (instances above the cut-off)}, or None when no level is
    that short, or every level is (then tasks do not pay at all).  rows: by_parameter
    rows; <other> and text values are left out."""
    numeric = sorted((r for r in rows if r["value"] != OTHER and number(r["value"]) is not None
                      and r["instances"]), key=lambda r: number(r["value"]))
    if len(numeric) < 2:
        return None
    if numeric[-1]["instances"] < numeric[0]["instances"]:
        numeric.reverse()           # a size: the recursion goes down
    below = [0.0] * (len(numeric) + 1)
    for i in range(len(numeric) - 1, -1, -1):
        below[i] = below[i + 1] + numeric[i]["time"]
    for i, r in enumerate(numeric):
        granularity = below[i] / r["instances"]
        if granularity < bound:
            if i == 0:
                return None
            return {"value": r["value"], "above": numeric[i - 1]["value"],
                    "granularity": granularity,
                    "kept": sum(x["instances"] for x in numeric[:i])}
    return None
