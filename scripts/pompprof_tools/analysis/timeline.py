"""pompprof-timeline: what a trace (POMPPROF_TRACE=1) says about where time went.

Breakdown of every thread's time by the classes every tool shares (overhead.CLASSES,
doc/trace.md), with waiting split as POT defines it, adapted to POMP2 events:
  work         a task runs user code: an explicit task (task work, the functions it
               calls included) or an implicit one (the parallel region's own code)
  serial       outside every parallel region: the program's serial code
  overhead     not working while some task was ready: task creation and fork/join
               (always), waiting at a scheduling point (switch) or blocked in a critical
               section or lock (sync) while a task was ready
  idleness     not working while no task was ready
  undetermined not working while only tasks whose dependences are unknown had been
               created and not begun: whether they were ready is not in the trace, so
               this time is overhead or idleness, not split by guessing
  mpi          in an MPI call (a hybrid program): waiting for a partner (a late sender,
               a collective's late members) and transfer (the rest)
  measurement  pompprof's own: the trace's start and flushes (not the program's)
"Ready" is created with all its predecessors (depend clauses, recorded at creation)
completed and not begun, or suspended in a taskwait whose children (a taskwait
depend's predecessors) are done.  A thread's time is the time it was in a parallel
region (the master: the whole run) and its fork/join wait.  The breakdown names its
quadrant of POT's Table 1 (low or high idleness, low or high overhead; "high" is at
least 10 % of the team's time: the time less serial code, MPI calls and measurement),
with the numbers it rests on; no quadrant when undetermined time could decide it.  A
hybrid MPI job's trace (timeline_mpi) adds its ranks' rows, each with its quadrant, and
the messages matched send to receive.

The task graph (creation, taskwait, barrier and dependence edges, measured times) gives
the work, the span (its longest path), the parallelism work/span and Cilkview's speedup
bounds for 2..1024 threads, with the span's path construct by construct, for the window
(--from/--to; the whole trace by default) and for the task region (the first task's
creation to the last task's end).  The graph's work is the breakdown's work plus serial
code plus task creation (a task exists once created: creation lies on its path).  Ready
wait: per task construct, the time from a task's readiness to its start.

The replay itself is a C program (pompprof-replay) that reads the OTF2 trace; this
module runs it, formats its result and draws the pictures (timeline_plot).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys

from .. import build_config
from . import overhead
from . import textfmt as tf
from . import timeline_mpi
from ..cli import ToolError, main_guard

PROG = "pompprof-timeline"

BREAKDOWN_KEYS = overhead.BREAKDOWN_KEYS

EPILOG = """\
columns (seconds): the classes of a thread's time every tool shares (doc/trace.md), with
waiting split by whether a task was ready (POT), which measures something other than
pompprof-report's categories of waiting (those split it by the construct it went to).
work = task + implicit; overhead = create + fork + switch + lockcrit; mpi = wait +
transfer (shown for a trace with MPI calls); they add up with serial, idleness, undet and
measure to the thread's time.  The columns, and the category of pompprof-report each is
part of:
%s
"overhead by pompprof-report's categories" sums the overhead parts per category.

pictures (--svg/--png): thread view (one row per thread, coloured by task construct or
region, grey when idle, red/orange for overhead; a job's ranks stacked, its messages as
thin lines), task view (one row per task construct,
or per instance when there are few: dark = running, light = created and waiting), and
the number of ready tasks below both.  --speedup draws the speedup bounds.

a crashed or SIGKILLed traced run leaves DIR/traces.raw instead of a trace: given DIR,
pompprof-timeline first salvages it into DIR/traces.otf2 (marked as interrupted; the
events still in the threads' buffers at the crash are lost) and says so on stderr.
""" % overhead.timeline_legend()


def _program(env: str, installed: str, built: str) -> str:
    """A C helper program: the build tree's when this package runs from the build tree,
    else the installed one (the environment variable env overrides both)."""
    if os.environ.get(env):
        return os.environ[env]
    here = os.path.dirname(os.path.realpath(build_config.__file__))
    build = os.path.realpath(os.path.join(build_config.ABS_TOP_BUILDDIR, "scripts",
                                          "pompprof_tools"))
    return built if here == build else installed


def replay_program() -> str:
    """pompprof-replay (POMPPROF_REPLAY overrides)."""
    return _program("POMPPROF_REPLAY", build_config.REPLAY, build_config.BUILD_REPLAY)


def salvage_program() -> str:
    """pompprof-salvage (POMPPROF_SALVAGE overrides)."""
    return _program("POMPPROF_SALVAGE", build_config.SALVAGE, build_config.BUILD_SALVAGE)


def find_archive(path: str) -> str:
    """The anchor file (.otf2) of the trace in directory path, or path itself.  What an
    interrupted traced run left in path (DIR/traces.raw) is salvaged first."""
    if os.path.isfile(path):
        if not path.endswith(".otf2"):
            raise ToolError("%s is not an OTF2 anchor file (.otf2) nor a directory" % path)
        return path
    if not os.path.isdir(path):
        raise ToolError("%s: no such file or directory" % path)
    unsalvaged = salvage_leftovers(path)
    found = sorted(glob.glob(os.path.join(glob.escape(path), "*.otf2")))
    if not found:
        if unsalvaged:
            raise ToolError(" ".join(unsalvaged))
        raise ToolError("%s holds no trace (run the program with POMPPROF_TRACE=1)" % path)
    for why in unsalvaged:
        sys.stderr.write("%s: %s\n" % (PROG, why))
    if len(found) > 1:
        # reruns into one directory: the newest, as pompprof-report takes the newest profile
        found.sort(key=lambda f: (os.stat(f).st_mtime_ns, f))
        sys.stderr.write("%s: %s holds %d traces; reading the newest, %s (the others: %s; name "
                         "a .otf2 file to read another)\n"
                         % (PROG, path, len(found), os.path.basename(found[-1]),
                            ", ".join(os.path.basename(f) for f in reversed(found[:-1]))))
    return found[-1]


def salvage_leftovers(path: str) -> list[str]:
    """Convert what traced runs that never ended left in path (doc/trace.md: the threads'
    raw files, the definitions saved while they ran, the space reserve; the run converts
    them itself only at its end) into OTF2 archives with pompprof-salvage, saying so on
    stderr.  Returns a line for each leftover that could not be converted."""
    failed = []
    for d in sorted(glob.glob(os.path.join(glob.escape(path), "*.raw"))):
        if not os.path.isdir(d):
            continue
        raws = [f for f in glob.glob(os.path.join(glob.escape(d), "*.raw")) if os.path.isfile(f)]
        # a job's: a directory per rank (doc/trace.md, "Hybrid traces")
        ranks = [r for r in glob.glob(os.path.join(glob.escape(d), "rank*")) if os.path.isdir(r)]
        for r in ranks:
            raws += [f for f in glob.glob(os.path.join(glob.escape(r), "*.raw"))
                     if os.path.isfile(f)]
        if not raws:
            continue
        size = sum(os.path.getsize(f) for f in raws)
        reserve = sum(os.path.getsize(os.path.join(x, "reserve")) for x in [d] + ranks
                      if os.path.isfile(os.path.join(x, "reserve")))
        # a raw file: a 64-byte header, then records of 16 bytes and more (doc/trace.md)
        events = max(0, size - 64 * len(raws)) // 16
        what = ("%s is what a traced run left when it ended without converting its trace (a "
                "crash or SIGKILL; SIGINT/SIGTERM and exit() convert it): %d raw thread file%s "
                "of %.1f MiB (about %d events flushed to disk; the ones still in the threads' "
                "buffers died with the process) and a %.1f MiB space reserve in %s"
                % (d, len(raws), "" if len(raws) == 1 else "s", size / 2**20, events,
                   reserve / 2**20, d))
        if ranks:
            what = ("%s is what the %d ranks of a traced MPI job left when they did not end "
                    "together (a rank killed or aborted, the others ended by the launcher): %d "
                    "raw thread files of %.1f MiB" % (d, len(ranks), len(raws), size / 2**20))
        try:
            p = subprocess.run([salvage_program(), d], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, universal_newlines=True)
        except OSError as e:
            failed.append("%s; it cannot be salvaged here (%s)." % (what, e))
            continue
        lines = p.stdout.split("\n")
        if p.returncode in (0, 1) and len(lines) >= 2:
            sys.stderr.write(
                "%s: %s; salvaged into %s, marked as interrupted: it ends %.3f s into the run, "
                "with the last records on disk\n%s" % (PROG, what, lines[0], float(lines[1]),
                                                       p.stderr))
        else:
            reason = p.stderr.strip().replace("pompprof-salvage: ", "") or \
                "pompprof-salvage failed (exit %d)" % p.returncode
            failed.append("%s; it cannot be salvaged: %s." % (what, reason))
    return failed


def run_replay(archive: str, args, pictures: bool, extra=()) -> dict:
    """Run pompprof-replay and return its JSON result; extra: more options (pompprof-view
    asks for zoom levels)."""
    prog = replay_program()
    if not os.path.isfile(prog):
        raise ToolError("cannot read traces: %s is missing (this pompprof was built without "
                        "OTF2; install the Debian package libotf2-trace-dev and rebuild)" % prog)
    cmd = [prog]
    if args.window_from is not None:
        cmd += ["--from", repr(args.window_from)]
    if args.window_to is not None:
        cmd += ["--to", repr(args.window_to)]
    if pictures:
        cmd += ["--pictures", "--bins", str(args.bins)]
    if args.chrome:
        cmd += ["--chrome", args.chrome]
    if getattr(args, "dot", None):
        cmd += ["--dot", args.dot, "--dot-instances", str(args.dot_instances)]
    cmd += list(extra)
    cmd.append(archive)
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as e:
        raise ToolError("cannot run %s: %s" % (prog, e.strerror)) from None
    if proc.returncode != 0:
        lines = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        msg = lines[-1] if lines else "exit status %d" % proc.returncode
        if msg.startswith("pompprof-replay: "):
            msg = msg[len("pompprof-replay: "):]
        raise ToolError(msg)
    try:
        data = json.loads(proc.stdout.decode("utf-8", "replace"))
    except ValueError:
        raise ToolError("%s printed no valid result for %s" % (prog, archive)) from None
    if "total" in data:
        # the overhead parts per category of pompprof-report (overhead.TIMELINE_OVERHEAD)
        data["categories"] = overhead.timeline_categories(data["total"])
    return data


# ---- POT's interpretation ----------------------------------------------------------------

# "High" idleness or overhead: at least this share of the threads' time (pompprof's choice;
# POT's Table 1 names the quadrants, not a threshold).
POT_HIGH = 0.10
POT_QUADRANTS = {
    (False, False): ("low idleness, low overhead",
                     "the threads work nearly all the time: the task decomposition fits; "
                     "look at the work itself"),
    (False, True): ("low idleness, high overhead",
                    "task management costs while tasks are ready: coarser tasks (fewer, "
                    "larger), or a cheaper dependence graph (fewer dependences per task)"),
    (True, False): ("high idleness, low overhead",
                    "threads starve: too few ready tasks; more (finer) tasks, or a shorter "
                    "critical path (dependences that release work earlier)"),
    (True, True): ("high idleness, high overhead",
                   "both: tasks too fine for their management and too few ready at once; "
                   "coarser tasks along the critical path, a cheaper dependence graph, "
                   "more independent work"),
}


def pot_quadrant(total: dict) -> dict | None:
    """The breakdown's quadrant of POT's Table 1, with what it suggests and the numbers
    it rests on: the shares of the team's time (the time less serial code, MPI calls and
    measurement, which are not the team's: left_out).  No quadrant (quadrant None, advice saying
    why) when the team's time is 0, or when the undetermined time (overhead or
    idleness) could put the breakdown in another quadrant."""
    team = total["time"] - sum(total.get(k, 0.0) for k in overhead.NOT_TEAM)
    if team <= 0:
        return None
    idle, over = total["idleness"] / team, total["overhead"] / team
    undet = total.get("undetermined", 0.0) / team
    out = {"idleness_share": idle, "overhead_share": over, "undetermined_share": undet,
           "team_time": team,
           "left_out": overhead.not_team_text(total.get(overhead.MPI_GROUP, 0.0) > 0),
           "high": POT_HIGH}
    low = (idle >= POT_HIGH, over >= POT_HIGH)
    high = (idle + undet >= POT_HIGH, over + undet >= POT_HIGH)
    if low != high and undet > 0:
        out.update(quadrant=None, advice="not determined: %.1f %% of the team's time is "
                   "undetermined (tasks of unknown dependences waited), which could be "
                   "idleness or overhead" % (100 * undet))
        return out
    name, advice = POT_QUADRANTS[low]
    out.update(quadrant=name, advice=advice)
    return out


# ---- output ------------------------------------------------------------------------------

# the span path's constructs the text lists (the JSON has them all)
SPAN_PATH_LINES = 40


def result_without_pictures(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "pictures"}


def _thread_label(data: dict, t: dict) -> str:
    # a job's threads by rank and thread (a process's by location number)
    return t["name"] if timeline_mpi.is_job(data) and "name" in t else str(t["location"])


def render_csv(data: dict) -> str:
    """Every column of the breakdown, as the JSON has them (the MPI ones too)."""
    rows = [["thread"] + list(BREAKDOWN_KEYS)]
    for t in data["threads"]:
        rows.append([_thread_label(data, t)] + [repr(t[k]) for k in BREAKDOWN_KEYS])
    rows.append(["total"] + [repr(data["total"][k]) for k in BREAKDOWN_KEYS])
    return tf.csv_text(rows)


def _breakdown_rows(data):
    keys = timeline_mpi.shown_keys(data)
    rows = []
    for t in data["threads"] + [dict(data["total"], location="total", name="total")]:
        rows.append([_thread_label(data, t)] + ["%.4f" % t.get(k, 0.0) for k in keys])
    return rows


def graph_lines(g: dict, title: str) -> list[str]:
    """A task graph's figures: work (what it holds), span, parallelism."""
    return [title, "  work %.6f s (task creation %.6f s and serial code %.6f s included), "
            "span %.6f s," % (g["work"], g["work_creation"], g["work_serial"], g["span"]),
            "  parallelism %.2f" % g["parallelism"]]


def render_text(data: dict) -> str:
    """The text report: one renderer per section, in order (as pompprof-report's), so
    that each section can be read and changed alone."""
    out = _text_header(data)
    out += _text_breakdown(data)
    out += _text_shares(data)
    out += _text_pot(data)
    if data.get("ranks"):
        out += timeline_mpi.render_text(data)
    out += _text_dependences(data)
    out += _text_ready_wait(data)
    out += _text_task_graph(data)
    return "\n".join(out) + "\n"


def _text_header(data: dict) -> list[str]:
    """The trace, its size and the window; how the run ended when it did not end
    normally (a salvaged trace), which every number below depends on."""
    tr, win = data["trace"], data["window"]
    out = ["%s: %s (%d threads, %d events, %.4f s; window %.4f to %.4f s)" % (
        PROG, tr["archive"], tr["threads"], tr["events"], tr["seconds"], win["from"],
        win["to"])]
    if tr.get("end") and tr["end"] != "normal":
        out.append("*** run ended: %s" % tr["end"])
    return out + [""]


def _text_breakdown(data: dict) -> list[str]:
    """The breakdown's table: a row per thread and the total (the MPI columns only for
    a trace with MPI time)."""
    keys = timeline_mpi.shown_keys(data)
    return ["Breakdown (seconds; POT: overhead = not working while a task was ready)",
            tf.table(["thread"] + [overhead.part_column(k) for k in keys],
                     _breakdown_rows(data), width=16 + 9 * len(keys))]


def _text_shares(data: dict) -> list[str]:
    """Each group's share of the threads' time, and the overhead by pompprof-report's
    categories (to compare with its report); nothing when no time was measured."""
    total = data["total"]
    if not total["time"] > 0:
        return []
    # every group but work, in the breakdown's order
    groups = dict.fromkeys(p.group for p in overhead.TIMELINE_PARTS if p.group != "work")
    return ["total: work %.1f %%, %s" % (
                100 * total["work"] / total["time"],
                ", ".join("%s %.1f %%" % (name, 100 * total.get(name, 0.0) / total["time"])
                          for name in groups
                          if total.get(name, 0.0) or name in ("overhead", "idleness"))),
            "overhead by pompprof-report's categories (their time while a task was "
            "ready; creation and fork/join always):",
            "  " + ", ".join("%s %.4f s" % (name, sec)
                             for name, sec in data["categories"].items())]


def _text_pot(data: dict) -> list[str]:
    """POT's quadrant (or why there is none) and the numbers it rests on."""
    pot, total = data.get("pot"), data["total"]
    if not pot:
        return []
    rests = ("idleness %.4f s = %.1f %%, overhead %.4f s = %.1f %% of the team's %.4f s "
             "(%s left out); high from %.0f %%" % (
                 total["idleness"], 100 * pot["idleness_share"], total["overhead"],
                 100 * pot["overhead_share"], pot["team_time"], pot["left_out"],
                 100 * pot["high"]))
    return ["POT quadrant: %s: %s" % (pot["quadrant"], pot["advice"]) if pot["quadrant"]
            else "POT quadrant: %s" % pot["advice"],
            "  (%s)" % rests]


def _text_dependences(data: dict) -> list[str]:
    """The dependences recorded, and the tasks whose dependences are not: what the
    trace cannot say about them (undetermined time, a span that is a lower bound)."""
    dep = data["depend"]
    out = []
    if dep.get("recorded") or dep.get("taskwaits"):
        out += ["", "Dependences: %d tasks with %d recorded list items, %d edges between "
                "siblings, %d taskwait depend" % (dep["recorded"], dep["items"],
                                                  dep["edges"], dep["taskwaits"])]
    if dep["tasks"]:
        out += ["", "%d tasks had dependences that are not recorded (%s).  When they were "
                "ready is not in the trace:" % (
                    dep["tasks"], ", ".join(dep["constructs"]) or "constructs unknown"),
                "  undetermined time is overhead or idleness (the two are bounds there, "
                "not measurements),",
                "  and the task graph lacks their dependence edges (the span is a lower "
                "bound)."]
    return out


def _text_ready_wait(data: dict) -> list[str]:
    """Per task construct, how long its tasks waited from ready to begun."""
    if not data.get("ready_wait"):
        return []
    out = ["", "Ready wait (from ready to begun; long: tasks queue for threads, short "
           "with idleness: threads starve):"]
    for r in data["ready_wait"]:
        out.append("  %-40s %6d tasks  mean %.6f s  max %.6f s  total %.6f s" % (
            r["construct"], r["tasks"], r["mean"], r["max"], r["total"]))
    return out


def _text_task_graph(data: dict) -> list[str]:
    """The task graph of the window, then of the task region, its speedup bounds and
    the span's path."""
    g, tr, win = data["graph"], data["trace"], data["window"]
    whole = win["from"] == 0 and abs(win["to"] - tr["seconds"]) < 1e-9
    out = [""] + graph_lines(
        g, "Task graph (%s; creation, taskwait, barrier and dependence edges%s):"
        % ("whole trace" if whole else "window %.4f to %.4f s" % (win["from"], win["to"]),
           ", and MPI messages from send to receive" if timeline_mpi.is_job(data) else ""))
    out[-1] += " (%d explicit tasks%s)%s" % (
        g["tasks"],
        ", %d dependence edges" % g["dependence_edges"] if g.get("dependence_edges") else "",
        "; span is a lower bound (unrecorded dependences)" if g["depend_tasks"] else "")
    out += _text_task_region(data.get("task_region"))
    out += ["  speedup bounds (Cilkview: upper = min(P, parallelism), lower = greedy "
            "work/(work/P + span)):",
            "  " + "  ".join("%d: %.3g-%.3g" % (s["threads"], s["lower"], s["upper"])
                             for s in g["speedup"])]
    return out + _text_span_path(g["span_path"])


def _text_task_region(reg: dict | None) -> list[str]:
    """The task graph where tasks exist (the first task's creation to the last task's
    end), so that the code before and after them does not dilute its parallelism."""
    if not reg:
        return []
    return ["  task region (%.4f to %.4f s: the first task's creation to the last task's "
            "end):" % (reg["from"], reg["to"]),
            "    work %.6f s (task creation %.6f s included), span %.6f s, parallelism %.2f"
            % (reg["work"], reg["work_creation"], reg["span"], reg["parallelism"])]


def _text_span_path(path: list[dict]) -> list[str]:
    """The span's longest path, construct by construct: where shortening the critical
    path pays."""
    if not path:
        return []
    out = ["  span path, construct by construct (seconds, stretches):"]
    for p in path[:SPAN_PATH_LINES]:
        out.append("    %10.6f  %5d  %s%s" % (p["seconds"], p["segments"], p["construct"],
                                             " (rank %d)" % p["rank"] if "rank" in p else ""))
    if len(path) > SPAN_PATH_LINES:
        out.append("    ... %d more" % (len(path) - SPAN_PATH_LINES))
    return out


# ---- command line --------------------------------------------------------------------------

def build_parser():
    ap = argparse.ArgumentParser(
        prog=PROG,
        description="Breakdown into work, overhead and idleness, task-graph parallelism, "
                    "timeline pictures and a Chrome trace from a pompprof trace "
                    "(POMPPROF_TRACE=1).",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trace", nargs="+",
                    help="directory holding traces.otf2 (the profile's), or the .otf2 file; "
                         "with --heatmap several, each as VALUE=TRACE (the parameter's value "
                         "of that run; without VALUE= the directory's name)")
    ap.add_argument("--format", choices=("text", "csv", "json"), default="text",
                    help="output format of the breakdown (default: text)")
    ap.add_argument("--from", dest="window_from", type=float, metavar="S",
                    help="start of the time window, seconds from the start of the trace")
    ap.add_argument("--to", dest="window_to", type=float, metavar="S",
                    help="end of the time window, seconds from the start of the trace")
    ap.add_argument("--svg", metavar="FILE", help="draw the timeline pictures as SVG")
    ap.add_argument("--png", metavar="FILE", help="draw the timeline pictures as PNG")
    ap.add_argument("--speedup", metavar="FILE",
                    help="draw the speedup bounds (.svg or .png)")
    ap.add_argument("--chrome", metavar="FILE",
                    help="write the trace in the Trace Event JSON format (Perfetto, "
                         "chrome://tracing)")
    ap.add_argument("--dot", metavar="FILE",
                    help="write the dependence graph for Graphviz (dot -Tsvg FILE): one node "
                         "per dependent task, coloured by construct, the span's path bold; "
                         "collapsed to constructs beyond --dot-instances")
    ap.add_argument("--dot-instances", type=int, default=200, metavar="N",
                    help="most task instances --dot draws one by one (default: 200)")
    ap.add_argument("--heatmap", metavar="FILE",
                    help="POT's heatmaps of work, idleness and overhead over the runs' "
                         "numbers of threads and a parameter (.svg or .png)")
    ap.add_argument("--param", metavar="NAME",
                    help="with --heatmap: take each run's parameter value from its profile "
                         "(the value of the pompprof_parameter_int64/_string NAME, which must "
                         "be the same everywhere in the run) where VALUE= is not given")
    ap.add_argument("--bins", type=int, default=1600, metavar="N",
                    help="time resolution of the pictures (default: 1600 bins)")
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    for name in ("window_from", "window_to"):
        v = getattr(args, name)
        if v is not None and not v >= 0:
            ap.error("--%s needs a number of seconds >= 0" % name.split("_")[1])
    if args.window_from is not None and args.window_to is not None \
            and args.window_to <= args.window_from:
        ap.error("--to must be later than --from")
    if not 10 <= args.bins <= 100000:
        ap.error("--bins needs a number from 10 to 100000")
    if not 1 <= args.dot_instances <= 100000:
        ap.error("--dot-instances needs a number from 1 to 100000")
    for name in ("svg", "png", "speedup", "chrome", "dot"):
        path = getattr(args, name)
        if path and os.path.isdir(path):
            raise ToolError("--%s %s is a directory" % (name, path))
    if args.speedup and not args.speedup.endswith((".svg", ".png")):
        ap.error("--speedup needs a file name ending in .svg or .png")
    if args.heatmap and not args.heatmap.endswith((".svg", ".png")):
        ap.error("--heatmap needs a file name ending in .svg or .png")
    if args.heatmap:
        return heatmap(args)
    if len(args.trace) != 1:
        ap.error("one trace, unless --heatmap")
    args.trace = args.trace[0]
    plots = None
    if args.svg or args.png or args.speedup:
        # before the replay: a missing package is said at once
        from . import timeline_plot as plots
        plots.check_matplotlib()
    archive = find_archive(args.trace)
    data = run_replay(archive, args, pictures=bool(args.svg or args.png))
    data["pot"] = pot_quadrant(data["total"])
    if timeline_mpi.is_job(data):
        data["ranks"] = timeline_mpi.rank_rows(data, pot_quadrant)
    if plots:
        for path, fmt in ((args.svg, "svg"), (args.png, "png")):
            if path:
                plots.draw_timeline(data, path, fmt)
        if args.speedup:
            plots.draw_speedup(data, args.speedup)
    if args.format == "json":
        out = tf.json_text(result_without_pictures(data))
    elif args.format == "csv":
        out = render_csv(data)
    else:
        out = render_text(data)
    sys.stdout.write(out)
    return 0


def profile_parameter(path: str, name: str) -> str:
    """The value of parameter name in the profile beside the trace in path (one value)."""
    from ..cube import cubex
    directory = path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path))
    try:
        cube = cubex.load(cubex.resolve_profile_path(directory))
    except (cubex.CubexError, OSError) as e:
        raise ToolError("--param %s: %s" % (name, e)) from None
    values = {v for c in cube.cnodes_in_order() for _, k, v in c.parameters if k == name}
    values.discard("<other>")
    if len(values) != 1:
        raise ToolError("--param %s: the profile in %s has %s" % (
            name, directory, "no such parameter" if not values else
            "several values of it (%s): give VALUE=%s" % (", ".join(sorted(values)), path)))
    return values.pop()


def heatmap(args) -> int:
    """--heatmap: replay every run, draw POT's heatmaps, print the table behind them."""
    from . import timeline_plot as plots
    plots.check_matplotlib()
    runs = []
    for spec in args.trace:
        value, sep, path = spec.partition("=")
        if not sep or os.path.exists(spec):
            value, path = os.path.basename(os.path.normpath(spec)), spec
            if args.param:
                value = profile_parameter(path, args.param)
        data = run_replay(find_archive(path), args, pictures=False)
        runs.append((value, data))
    seen = {}
    for value, data in runs:
        key = (value, data["trace"]["threads"])
        if key in seen:
            raise ToolError("two runs with parameter %s and %d threads (%s, %s)" % (
                value, key[1], seen[key], data["trace"]["archive"]))
        seen[key] = data["trace"]["archive"]
    plots.draw_heatmap(runs, args.heatmap)
    rows = [[v, str(d["trace"]["threads"])] + ["%.4f" % d["total"][k] for k in
                                               ("time", "work", "idleness", "overhead")]
            for v, d in sorted(runs, key=lambda r: (plots.param_key(r[0]),
                                                    r[1]["trace"]["threads"]))]
    sys.stdout.write(tf.table(["parameter", "threads", "time", "work", "idleness", "overhead"],
                              rows, width=100) + "\n")
    return 0


def entry() -> int:
    """The `pompprof-timeline` command."""
    return main_guard(PROG, main)


if __name__ == "__main__":
    sys.exit(entry())
