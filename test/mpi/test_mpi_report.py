"""pompprof-report and pompprof-scaling on profiles of the hybrid program
(test/mpi/progs/hybrid.c) run on 1 x 2, 2 x 1, 2 x 2 and 4 x 2 ranks x threads:

report (JSON numbers recomputed here from the profile with the project's reader):
- the MPI section lists every MPI function called with its calls, time (the rows of
  its call paths summed), bytes sent and received, the ranks of least and most time
  and (max - mean) / max; the per-rank MPI time and bytes; the imbalance of MPI time
  across ranks;
- the flat profile has one row per rank, summing that rank's threads;
- "MPI communication" is a category of the overhead analysis, equal to the MPI time;
- the text shows all of it within 100 columns; a profile without MPI has no MPI
  section and no per-rank rows;
scaling: profiles that differ in ranks and in threads are ordered by locations, then
ranks, labelled ranks x threads, with an MPI communication column.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi_common as mc  # noqa: E402

PYTHON = os.environ.get("PYTHON3") or sys.executable
TOOLS = os.path.join(mc.TOP_SRCDIR, "scripts")


def tool(name, *args):
    p = subprocess.run([PYTHON, "-m", "pompprof_tools.analysis." + name] + list(args),
                       env=dict(mc.ENV, PYTHONPATH=TOOLS), capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("FAIL: pompprof-%s %s: %s" % (name, " ".join(args), p.stderr))
    return p.stdout


def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def check_report(path, ranks, threads, errors):
    what = "%d x %d" % (ranks, threads)
    d = json.loads(tool("report", path, "--format", "json"))
    cube = mc.cubex.load(path)
    rank_of = {loc.id: loc.group_rank for loc in cube.locations}
    m = d["mpi"]
    if m is None or m["ranks"] != ranks:
        errors.append("%s: MPI section %r" % (what, m and m["ranks"]))
        return
    total = check_mpi_functions(m, cube, rank_of, ranks, what, errors)
    check_mpi_time(d, total, ranks, what, errors)
    check_rank_rows(d["flat"], rank_of, ranks, what, errors)
    check_report_text(tool("report", path), ranks, what, errors)


def expected_function(cube, name, rank_of, ranks):
    """An MPI function's figures from the profile: (calls, bytes sent, bytes received,
    rank of most time, rank of least time), its time and its imbalance in %."""
    nodes = mc.find(cube, name)
    per_rank = dict.fromkeys(range(ranks), 0.0)
    for n in nodes:
        for i, v in enumerate(cube.inclusive_row("time", n)):
            per_rank[rank_of[i]] += v
    t = sum(per_rank.values())
    calls = sum(sum(cube.row("visits", n)) for n in nodes)
    sent = sum(sum(cube.inclusive_row("bytes_sent", n)) for n in nodes)
    received = sum(sum(cube.inclusive_row("bytes_received", n)) for n in nodes)
    mean = t / ranks
    hi = max(per_rank, key=lambda r: (per_rank[r], -r))
    lo = min(per_rank, key=lambda r: (per_rank[r], r))
    imbal = 100.0 * (per_rank[hi] - mean) / per_rank[hi] if per_rank[hi] else 0.0
    return (calls, sent, received, hi, lo), t, imbal


def check_mpi_functions(m, cube, rank_of, ranks, what, errors):
    """The MPI section's functions against the profile; returns their time."""
    names = {c.region.name for c in cube.cnodes_in_order() if c.region.paradigm == "mpi"}
    if {f["name"] for f in m["functions"]} != names:
        errors.append("%s: functions %s, profile has %s"
                      % (what, sorted(f["name"] for f in m["functions"]), sorted(names)))
    total = 0.0
    for f in m["functions"]:
        want, t, imbal = expected_function(cube, f["name"], rank_of, ranks)
        total += t
        s = f["ranks"]
        got = (f["calls"], f["bytes_sent"], f["bytes_received"], s["max_rank"], s["min_rank"])
        if got != want or not close(f["time"], t) or not close(s["imbalance_pct"], imbal):
            errors.append("%s: %s: %r / %r %r, expected %r / %r %r" % (
                what, f["name"], got, f["time"], s["imbalance_pct"], want, t, imbal))
    return total


def check_mpi_time(d, total, ranks, what, errors):
    """The MPI time in all, per rank, its imbalance and its overhead category."""
    m = d["mpi"]
    if not close(m["time"], total):
        errors.append("%s: MPI time %r, expected %r" % (what, m["time"], total))
    allreduce = next(f for f in m["functions"] if f["name"] == "MPI_Allreduce")
    if allreduce["calls"] != ranks or allreduce["bytes_sent"] != 8 * ranks * (ranks - 1):
        errors.append("%s: MPI_Allreduce %r" % (what, allreduce))
    per = m["per_rank"]
    if [r["rank"] for r in per] != list(range(ranks)) \
            or not close(sum(r["time"] for r in per), total):
        errors.append("%s: per-rank MPI time %r" % (what, per))
    if sum(r["bytes_sent"] for r in per) != sum(f["bytes_sent"] for f in m["functions"]):
        errors.append("%s: per-rank bytes %r" % (what, per))
    times = {r["rank"]: r["time"] for r in per}
    hi = max(times, key=lambda r: (times[r], -r))
    if m["imbalance"]["max_rank"] != hi or not close(
            m["imbalance"]["imbalance_pct"], 100.0 * (times[hi] - total / ranks) / times[hi]):
        errors.append("%s: imbalance %r for %r" % (what, m["imbalance"], times))
    mpi_cat = d["overhead"]["program"]["categories"]["MPI communication"]["time"]
    if not close(mpi_cat, total):
        errors.append("%s: MPI communication %r, MPI time %r" % (what, mpi_cat, total))


def check_rank_rows(flat, rank_of, ranks, what, errors):
    """The flat profile's rows per rank: the sums of the rank's threads (none for one)."""
    for e in flat:
        rows = e.get("ranks")
        if ranks == 1:
            if rows is not None:
                errors.append("%s: per-rank rows in a profile of one rank" % what)
            continue
        if rows is None or len(rows) != ranks:
            errors.append("%s: %s: rank rows %r" % (what, e["name"], rows))
            continue
        for col in ("execT", "execC"):
            want = [sum(r[col] or 0 for t, r in enumerate(e["threads"]) if rank_of[t] == k)
                    for k in range(ranks)]
            if not all(close(a or 0, b) for a, b in zip([r[col] for r in rows], want)):
                errors.append("%s: %s %s per rank %r, threads give %r"
                              % (what, e["name"], col, [r[col] for r in rows], want))
        if e["name"] == "MPI_Allreduce" and [r["execC"] for r in rows] != [1] * ranks:
            errors.append("%s: MPI_Allreduce calls per rank %r" % (what, rows))


def check_report_text(text, ranks, what, errors):
    for want in ["MPI (seconds summed over threads; %d ranks)" % ranks,
                 "imbalance of MPI time across ranks", "MPI_Allreduce", "mpi  ovhd%"] \
            + ["rank %d" % r for r in range(ranks)]:
        if want not in text:
            errors.append("%s: the text report lacks %r" % (what, want))
    wide = [ln for ln in text.splitlines() if len(ln) > 100]
    if wide:
        errors.append("%s: %d lines wider than 100 columns: %s" % (what, len(wide), wide[0]))


def main():
    mc.require_mpi()
    work = tempfile.mkdtemp(prefix="pp_mpi_report_")
    errors = []
    try:
        prof = mc.build("mpicc", os.path.join(mc.PROGS, "hybrid.c"), os.path.join(work, "hybrid"),
                        True)
        runs = {}
        for ranks, threads in ((4, 2), (1, 2), (2, 1), (2, 2)):
            out = os.path.join(work, "r%dt%d" % (ranks, threads))
            status = mc.mpirun(ranks, threads, prof, output=out)
            if status[0] != 0:
                sys.exit("FAIL: the run on %d x %d failed: %s" % (ranks, threads, status[2]))
            runs[(ranks, threads)] = os.path.join(out, "profile.cubex")
        for (ranks, threads), path in runs.items():
            check_report(path, ranks, threads, errors)
        s = json.loads(tool("scaling", "--format", "json", *runs.values()))
        labels = [r["label"] for r in s["profiles"]]
        if labels != ["1x2", "2x1", "2x2", "4x2"] or "MPI communication" not in s["categories"]:
            errors.append("scaling: %s, categories %s" % (labels, s["categories"]))
        text = tool("scaling", *runs.values())
        if "rxt" not in text or " mpi" not in text or "4x2" not in text:
            errors.append("scaling text:\n" + text)
        # a profile without MPI: no MPI section, rows per thread
        noomp = os.path.join(mc.TOP_SRCDIR, "test", "tools", "golden", "tasks_t2.cubex")
        d = json.loads(tool("report", noomp, "--format", "json"))
        if d["mpi"] is not None or any("ranks" in e for e in d["flat"]) \
                or "MPI (" in tool("report", noomp):
            errors.append("a profile without MPI gets MPI parts")
        print("checked %d profiles" % len(runs))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return mc.verdict(errors)


if __name__ == "__main__":
    sys.exit(main())
