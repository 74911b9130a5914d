"""pompprof-timeline's part for a hybrid MPI + OpenMP job's trace (doc/trace.md, "One
timeline"): the ranks' rows, POT's quadrant per rank, and the messages.

pompprof-replay's breakdown already has the time in MPI calls as a class of its own,
neither work nor overhead nor idleness, split into waiting for a partner (a receive
posted before its matching send started; a collective waiting for the members it needs)
and transfer (the rest): the `mpi` group of overhead.TIMELINE_PARTS.  It also matches the
messages send to receive.  Here the threads are summed per rank, and each rank gets POT's
quadrant of its team's time, as the whole trace does (serial code, MPI calls and
measurement left out: overhead.NOT_TEAM)."""

from __future__ import annotations

from . import overhead

# the breakdown's MPI group, and the name of the result's part about messages and
# collectives
MPI = overhead.MPI_GROUP
_PARTS = {p.key: p for p in overhead.TIMELINE_PARTS}
# a rank's row: the time, every group (a sum, or a part of its own) and the MPI group's
# parts, in the breakdown's order
RANK_KEYS = tuple(k for k in overhead.BREAKDOWN_KEYS
                  if k not in _PARTS or _PARTS[k].group in (k, MPI))


def is_job(data: dict) -> bool:
    """A job's trace: its threads are named by rank."""
    return any(t.get("name", "").startswith("rank ") for t in data.get("threads", ()))


def has_mpi(data: dict) -> bool:
    """Whether the trace has MPI time (a job's trace, or MPI calls measured)."""
    return is_job(data) or data.get("total", {}).get(MPI, 0) > 0


def shown_keys(data: dict) -> tuple:
    """The breakdown's columns a text table of this trace shows: the MPI columns only
    when it has MPI time (as pompprof-report shows its MPI category only then)."""
    if has_mpi(data):
        return overhead.BREAKDOWN_KEYS
    return tuple(k for k in overhead.BREAKDOWN_KEYS if k not in overhead.MPI_KEYS)


def rank_rows(data: dict, pot_quadrant) -> list[dict]:
    """Per rank: its threads' breakdown summed, and POT's quadrant of its team's time
    (pot_quadrant: timeline.pot_quadrant)."""
    rows = {}
    for t in data["threads"]:
        rank = t.get("rank", 0)
        r = rows.setdefault(rank, dict({k: 0.0 for k in overhead.BREAKDOWN_KEYS},
                                       rank=rank, threads=0))
        r["threads"] += 1
        for k in overhead.BREAKDOWN_KEYS:
            r[k] += t.get(k, 0.0)
    out = []
    for rank in sorted(rows):
        r = rows[rank]
        r["pot"] = pot_quadrant(r)
        out.append(r)
    return out


def render_text(data: dict) -> list[str]:
    """The text of the ranks and messages (after the breakdown)."""
    ranks = data.get("ranks") or []
    m = data.get(MPI) or {}
    out = ["", "Ranks (seconds summed over their threads; mpi: time in MPI calls, waiting "
           "for a partner and transfer; POT's team time leaves out %s)"
           % overhead.not_team_text(True)]
    # the columns no rank has time in left out (undetermined, most often)
    keys = [k for k in RANK_KEYS if k in ("time", MPI) or any(r[k] for r in ranks)]
    head = "%-6s %3s " % ("rank", "thr") + " ".join("%9s" % overhead.part_column(k) for k in keys) \
        + "  POT quadrant of the team's time"
    out += [head, "-" * len(head)]
    for r in ranks:
        pot = r.get("pot")
        out.append("%-6s %3d " % ("rank %d" % r["rank"], r["threads"])
                   + " ".join("%9.4f" % r[k] for k in keys) + "  "
                   + ("%s (idleness %.1f %%, overhead %.1f %%)" % (
                       pot["quadrant"] or "none", 100 * pot["idleness_share"],
                       100 * pot["overhead_share"]) if pot else "-"))
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
