"""The MPI part of pompprof-report, for the profiles of hybrid MPI + OpenMP programs
(doc/mpi.md): the processes (ranks) of a profile, per-rank rows of the flat profile, and
the MPI section.

A profile's locations are grouped by their process's rank (the system tree's location
groups); a profile of one process has one rank.  The MPI regions are those of paradigm
``mpi`` (one per MPI function the program called).

MPI section, per MPI function: calls (visits), time (inclusive, summed over threads), its
share of all MPI time (JSON), mean time per call, the time of the ranks that spent least
and most in it, its imbalance across ranks (max - mean) / max, and the bytes it sent and
received (metrics bytes_sent / bytes_received, summed over its call paths and callees).
Then the MPI time of every rank and its share of the rank's measured time, and the
imbalance of MPI time across ranks, the same way.
"""

from __future__ import annotations

from . import textfmt as tf

BYTES = ("bytes_sent", "bytes_received")


def is_mpi(region) -> bool:
    return region.paradigm == "mpi"


def rank_of_locations(profile) -> list[int]:
    """The rank of each location's process (0 for a profile without process ranks)."""
    return profile.thread_ranks


def ranks(profile) -> list[int]:
    return sorted(set(rank_of_locations(profile)))


def _by_rank(values, loc_rank, rank_list):
    out = dict.fromkeys(rank_list, 0.0)
    for t, v in enumerate(values):
        out[loc_rank[t]] += v
    return out


def rank_rows(entry, loc_rank, rank_list, rates):
    """A flat-profile entry's per-thread rows combined per rank: additive columns
    summed, min/max taken, the mean per instance and the rates computed again."""
    additive = set(entry["additive"])
    rows = []
    for r in rank_list:
        mine = [row for t, row in enumerate(entry["threads"]) if loc_rank[t] == r]
        out = {}
        for c in entry["columns"]:
            vals = [x.get(c) for x in mine if x.get(c) is not None]
            if c in additive:
                out[c] = sum(vals) if vals else None
            elif c == "min":
                out[c] = min(vals) if vals else None
            elif c == "max":
                out[c] = max(vals) if vals else None
            else:
                out[c] = None
        if "mean" in entry["columns"]:
            out["mean"] = out["execT"] / out["instances"] if out.get("instances") else None
        for rate in rates:
            if rate.label in out:
                out[rate.label] = rate.value(out)
        rows.append(out)
    return rows


def _spread(per_rank: dict):
    """min/mean/max over ranks (with the ranks of min and max) and (max - mean) / max."""
    if not per_rank:
        return None
    lo = min(per_rank, key=lambda r: (per_rank[r], r))
    hi = max(per_rank, key=lambda r: (per_rank[r], -r))
    mean = sum(per_rank.values()) / len(per_rank)
    mx = per_rank[hi]
    return {"min": per_rank[lo], "min_rank": lo, "mean": mean, "max": mx, "max_rank": hi,
            "imbalance_pct": 100.0 * (mx - mean) / mx if mx > 0 else 0.0}


def section(profile):
    """The MPI section as data, None for a profile without MPI regions."""
    p = profile
    nodes = [n for n in p.main_nodes + p.task_nodes if is_mpi(n.region) and n.kind != "stub"]
    if not nodes:
        return None
    loc_rank = rank_of_locations(p)
    rank_list = ranks(p)
    byte_metrics = [m for m in BYTES if p.cube.has_metric(m)]
    funcs = {}
    for n in nodes:
        if n.nested:
            continue
        f = funcs.setdefault(n.region.name, {"name": n.region.name, "role": n.region.role,
                                             "calls": 0, "time": [0.0] * p.nthreads,
                                             "bytes": dict.fromkeys(byte_metrics, 0)})
        f["calls"] += sum(n.visits)
        for t in p.threads:
            f["time"][t] += n.incl[t]
        for m in byte_metrics:
            f["bytes"][m] += sum(p.cube.inclusive_row(m, n.cnode))
    total = sum(sum(f["time"]) for f in funcs.values())
    out_funcs = []
    for f in funcs.values():
        t = sum(f["time"])
        per_rank = _by_rank(f["time"], loc_rank, rank_list)
        out_funcs.append({"name": f["name"], "role": f["role"], "calls": f["calls"],
                          "time": t, "pct": 100.0 * t / total if total else 0.0,
                          "mean": t / f["calls"] if f["calls"] else None,
                          "ranks": _spread(per_rank),
                          "bytes_sent": f["bytes"].get("bytes_sent"),
                          "bytes_received": f["bytes"].get("bytes_received")})
    out_funcs.sort(key=lambda f: (-f["time"], f["name"]))
    mpi_rank = _by_rank([sum(f["time"][t] for f in funcs.values()) for t in p.threads],
                        loc_rank, rank_list)
    measured = _by_rank([p.root_incl(t) for t in p.threads], loc_rank, rank_list)
    sent = {r: 0 for r in rank_list}
    received = {r: 0 for r in rank_list}
    for n in nodes:
        if n.nested:
            continue
        for m, acc in (("bytes_sent", sent), ("bytes_received", received)):
            if m in byte_metrics:
                for t, v in enumerate(p.cube.inclusive_row(m, n.cnode)):
                    acc[loc_rank[t]] += v
    per_rank = [{"rank": r, "time": mpi_rank[r],
                 "pct": 100.0 * mpi_rank[r] / measured[r] if measured[r] else 0.0,
                 "bytes_sent": sent[r] if byte_metrics else None,
                 "bytes_received": received[r] if byte_metrics else None}
                for r in rank_list]
    return {"ranks": len(rank_list), "time": total, "functions": out_funcs,
            "per_rank": per_rank, "imbalance": _spread(mpi_rank)}


# how many ranks the text lists one by one (the others: the least and most MPI time)
RANK_DETAIL = 64


def render_lines(m):
    """The MPI section of the text report."""
    yield tf.heading("MPI (seconds summed over threads; %d ranks)" % m["ranks"])
    yield "time in MPI calls: %s s" % tf.fmt_time(m["time"])
    rows = []
    for f in m["functions"]:
        s = f["ranks"]
        rows.append([f["name"], tf.fmt_count(f["calls"]), tf.fmt_time(f["time"]),
                     tf.fmt_time(f["mean"]),
                     "%s r%d" % (tf.fmt_time(s["min"]), s["min_rank"]),
                     "%s r%d" % (tf.fmt_time(s["max"]), s["max_rank"]),
                     tf.fmt_pct(s["imbalance_pct"]), _bytes(f["bytes_sent"]),
                     _bytes(f["bytes_received"])])
    yield tf.table(["function", "calls", "time", "mean", "min (rank)", "max (rank)",
                    "imbal%", "sent", "received"], rows,
                   widths=[23, 6, 9, 9, 12, 12, 6, 7, 8])
    i = m["imbalance"]
    yield ("MPI time per rank: min %s s (rank %d), mean %s s, max %s s (rank %d)"
           % (tf.fmt_time(i["min"]), i["min_rank"], tf.fmt_time(i["mean"]),
              tf.fmt_time(i["max"]), i["max_rank"]))
    yield "imbalance of MPI time across ranks: (max - mean) / max = %s %%" % tf.fmt_pct(
        i["imbalance_pct"])
    shown = m["per_rank"]
    if len(shown) > RANK_DETAIL:
        by_time = sorted(shown, key=lambda r: r["time"])
        shown = sorted(by_time[:RANK_DETAIL // 2] + by_time[-RANK_DETAIL // 2:],
                       key=lambda r: r["rank"])
        yield ("(the %d ranks with the least and the most MPI time; all: --format json)"
               % RANK_DETAIL)
    rows = [["rank %d" % r["rank"], tf.fmt_time(r["time"]), tf.fmt_pct(r["pct"]),
             _bytes(r["bytes_sent"]), _bytes(r["bytes_received"])] for r in shown]
    yield tf.table(["rank", "MPI time", "% rank", "sent", "received"], rows,
                   widths=[12, 10, 7, 9, 9])
    yield ("(imbal%: (max - mean) / max over ranks; sent, received: bytes by the rules of "
           "doc/mpi.md;")
    yield " % rank: of the rank's measured time)"


def _bytes(v):
    return "-" if v is None else tf.fmt_count(v)
