"""pompprof-timeline's part for a hybrid MPI + OpenMP job's trace (doc/trace.md, "One
timeline"): the ranks' rows, POT's quadrant per rank, and the messages.

pompprof-replay already splits every thread's time with MPI as a category of its own
(time in MPI calls, neither work nor overhead nor idleness), the MPI time into waiting
(a receive posted before its matching send started; a collective waiting for the
members it needs) and transfer (the rest), and matches the messages send to receive.
Here the threads are summed per rank, and POT's quadrant is named per rank over the time
outside MPI calls (POT describes task parallelism; MPI time is the ranks' business)."""

from __future__ import annotations

from . import overhead

# the replay's MPI keys, beside the breakdown's: its MPI time is the short name of the
# MPI category (overhead.py), then its waiting and transfer parts; "mpi" is also the
# name of the result's part about messages and collectives
MPI = overhead.SHORT[overhead.MPI]
MPI_KEYS = (MPI, MPI + "_wait", MPI + "_transfer")
SUMMED = ("time", "work", "work_task", "work_implicit", "overhead", "idleness",
          "undetermined") + MPI_KEYS


def is_job(data: dict) -> bool:
    """A job's trace: its threads are named by rank."""
    return any(t.get("name", "").startswith("rank ") for t in data.get("threads", ()))


def has_mpi(data: dict) -> bool:
    """Whether the breakdown has MPI time (a job's trace, or MPI calls measured)."""
    return is_job(data) or any(t.get(MPI, 0) > 0 for t in data.get("threads", ()))


def extra_keys(data: dict) -> tuple:
    """The MPI columns a table of this trace adds to the breakdown's."""
    return MPI_KEYS if has_mpi(data) else ()


def rank_rows(data: dict, pot_quadrant) -> list[dict]:
    """Per rank: its threads' breakdown summed, and POT's quadrant over the time outside
    MPI calls (pot_quadrant: timeline.pot_quadrant)."""
    rows = {}
    for t in data["threads"]:
        r = rows.setdefault(t.get("rank", 0), dict({k: 0.0 for k in SUMMED},
                                                   rank=t.get("rank", 0), threads=0))
        r["threads"] += 1
        for k in SUMMED:
            r[k] += t.get(k, 0.0)
    out = []
    for rank in sorted(rows):
        r = rows[rank]
        r["pot"] = pot_quadrant(dict(r, time=r["time"] - r[MPI]))
        out.append(r)
    return out


def render_text(data: dict) -> list[str]:
    """The text of the ranks and messages (after the breakdown)."""
    ranks = data.get("ranks") or []
    m = data.get(MPI) or {}
    out = ["", "Ranks (seconds summed over their threads; mpi: time in MPI calls, waiting "
           "for a partner and transfer)"]
    head = "%-6s %3s %9s %9s %9s %9s %9s %9s %9s  %s" % (
        "rank", "thr", "time", "work", "overhead", "idleness", MPI, "wait", "transfer",
        "POT quadrant (outside MPI)")
    out += [head, "-" * len(head)]
    for r in ranks:
        pot = r.get("pot")
        out.append("%-6s %3d %9.4f %9.4f %9.4f %9.4f %9.4f %9.4f %9.4f  %s" % (
            "rank %d" % r["rank"], r["threads"], r["time"], r["work"], r["overhead"],
            r["idleness"], r[MPI_KEYS[0]], r[MPI_KEYS[1]], r[MPI_KEYS[2]],
            "%s (idleness %.1f %%, overhead %.1f %%)" % (
                pot["quadrant"], 100 * pot["idleness_share"], 100 * pot["overhead_share"])
            if pot else "-"))
    if m:
        out.append("Messages: %d matched of %d sends and %d receives (%d bytes sent); late "
                   "senders: %d, %.6f s waiting; collectives: %d calls, %.6f s waiting" % (
                       m["matched"], m["sends"], m["receives"], m["bytes"], m["late_senders"],
                       m["late_sender_wait"], m["collectives"], m["collective_wait"]))
        if m["receives_before_send"]:
            out.append("  %d receives come before their send on the corrected clocks (by up "
                       "to %.6f s): the clock offsets were not measured well enough there"
                       % (m["receives_before_send"], m["earliest_receive"]))
        if m["unmatched_sends"] or m["unmatched_receives"]:
            out.append("  unmatched: %d sends, %d receives (their partners are not in the "
                       "trace, or on a communicator it does not know)"
                       % (m["unmatched_sends"], m["unmatched_receives"]))
    return out
