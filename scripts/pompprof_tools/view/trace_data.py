"""A run's trace as the page's timeline: pompprof-replay (C) replays it once and
summarises it at several zoom levels (--levels: the thread view and the ready curve at
1024 bins and 4, 16, 64 and 256 times finer), with the breakdown, the task graph's
critical path and the first task instances with their creation; the page never sees
the events themselves, so its size does not grow with the trace.  With --graph the
replay adds the critical path stretch by stretch (where and when each ran, for the
timeline) and the dependence graph (instances and edges up to GRAPH_INSTANCES, the
constructs collapsed beyond); the POT quadrant is pompprof-timeline's."""

from __future__ import annotations

import argparse
import glob
import os

from ..analysis import overhead, timeline_mpi
from ..analysis.timeline import find_archive, pot_quadrant, run_replay

BINS = 1024
LEVELS = 5          # finest level: BINS * 4**(LEVELS-1) = 262144 bins
INSTANCES = 20000   # task instances shown with their fragments (hover, creation links)
GRAPH_INSTANCES = 400   # default: dependence graph drawn instance by instance up to this many


def has_trace(run_dir: str) -> bool:
    return os.path.isdir(run_dir) and bool(glob.glob(os.path.join(glob.escape(run_dir),
                                                                  "*.otf2")))


def trace_payload(run_dir: str, graph_instances: int = GRAPH_INSTANCES) -> dict:
    archive = find_archive(run_dir)
    args = argparse.Namespace(window_from=None, window_to=None, bins=BINS, chrome=None)
    data = run_replay(archive, args, pictures=True,
                      extra=["--levels", str(LEVELS), "--instances", str(INSTANCES),
                             "--graph", str(graph_instances)])
    data["pot"] = pot_quadrant(data["total"])
    # the breakdown's columns as pompprof-timeline prints them (one classification)
    parts = {p.key: p for p in overhead.TIMELINE_PARTS}
    data["columns"] = [{"key": k, "column": parts[k].column if k in parts else k,
                        "group": parts[k].group if k in parts else k,
                        "what": parts[k].what if k in parts else ""}
                       for k in overhead.BREAKDOWN_KEYS]
    if timeline_mpi.is_job(data):
        # a job's ranks: their threads summed, each with POT's quadrant
        data["ranks"] = timeline_mpi.rank_rows(data, pot_quadrant)
        data["rank_keys"] = list(timeline_mpi.RANK_KEYS)
    return data
