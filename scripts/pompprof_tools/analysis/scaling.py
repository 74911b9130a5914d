"""pompprof-scaling: how a program's time splits up as the thread count grows, or the
rank count of a hybrid MPI + OpenMP program, or both.

For each profile (n = number of locations, i.e. ranks x threads per rank; profiles are
sorted by n, then by ranks): wall time, speedup = wall(smallest n) / wall, efficiency =
speedup * n0 / n, and the thread time T summed over threads split into the categories of
overhead.CATEGORIES, the same as pompprof-report's (one vocabulary; MPI communication
shown when a profile has any).  The same is shown per parallel region (matched by name
and parameters) and, per task construct, instances, mean time per task and mean creation
time, and for a construct split by parameters the same per combination of values
(`name (depth=3)`).  Counters (PAPI events) are shown for the whole program, summed over
threads, with the rates of two counters (profile_model.RATES, e.g. IPC), for the counters
all profiles have.  --svg draws the split as a stacked-area chart over the thread counts.

Before any number, the run facts are compared (runfacts.compare): runs of different
programs are refused (--force compares anyway); different arguments, hosts or OMP
settings, interrupted and oversubscribed runs are warned about; work inflation (work
summed over threads growing with the thread count) is flagged with its factor, the work
it rests on and the call paths that grew most; between runs of different inputs
(arguments) or programs no verdict is given (their work differs by design), only the
figures.
"""

from __future__ import annotations

import argparse
import sys

from . import textfmt as tf
from ..cli import ToolError, main_guard
from . import runfacts
from .overhead import (Analysis, MPI, SCALING_CATEGORIES, SERIAL, SHORT, category_times, classify,
                       legend as overhead_legend)
from .profile_model import Profile, counter_label
from .report import Report
from .report_mpi import ranks as rank_list
from .svg import stacked_area

EPILOG = """\
columns (seconds summed over threads; the same categories as pompprof-report's):
""" + overhead_legend() + """
They add up to the total thread time.  speedup and efficiency are relative to the profile
with the fewest threads (ranks x threads per rank for a hybrid program: profiles may
differ in either).  WARNING lines: runs that may not belong together (different
arguments, hosts, OMP settings; interrupted or oversubscribed runs); profiles of
different programs are refused unless --force.  WORK INFLATION: the work in parallel
code summed over threads (user code and task bodies, functions included; serial code
left out) grew by more than %gx from the fewest threads to some other count, with the
two figures and the call paths that grew most; not judged (the figures only) when the
runs had different arguments (inputs) or programs.
""" % 1.25


class Scaling:
    """The profiles sorted by thread count, with their splits per program, parallel
    region and task construct."""

    def __init__(self, paths: list[str], force: bool = False):
        profiles = [Profile(p) for p in paths]
        for p in profiles:
            runfacts.refuse_diff(p, "pompprof-scaling")
        self.warnings = runfacts.compare(profiles, force)
        ranks = {id(p): len(rank_list(p)) for p in profiles}
        self.profiles = sorted(profiles, key=lambda p: (p.nthreads, ranks[id(p)]))
        self.hybrid = any(r > 1 for r in ranks.values())
        self.rows = []
        self.regions = {}       # name -> list of per-profile dicts
        self.tasks = {}
        base = self.profiles[0]
        # counters (display names) every profile has, and the rates they make
        self.counters = [n for n in (Profile.counter_name(m) for m in base.counters)
                         if all(n in {Profile.counter_name(m) for m in p.counters}
                                for p in self.profiles)]
        self.rates = [r for r in base.rates
                      if r.numerator in self.counters and r.denominator in self.counters]
        for p in self.profiles:
            a = Analysis(p)
            wall = p.wall_time
            speedup = base.wall_time / wall if wall > 0 else None
            eff = speedup * base.nthreads / p.nthreads if speedup is not None else None
            split = category_times(a.program)
            counts = {}
            for m in p.counters:
                name = Profile.counter_name(m)
                if name in self.counters:
                    counts[name] = sum(sum(p.counter_incl(r, m)) for r in p.roots)
            self.rows.append({"file": p.path, "threads": p.nthreads, "ranks": ranks[id(p)],
                              "label": _label(p.nthreads, ranks[id(p)], self.hybrid),
                              "event_source": runfacts.facts(p.cube)["event_source"],
                              "wall": wall,
                              "speedup": speedup, "efficiency": eff,
                              "total": a.program.total(), "split": split, "counters": counts,
                              "rates": {r.label: r.value(counts) for r in self.rates}})
            merged = {}
            for b in a.regions:
                m = merged.setdefault(b.name, {"threads": p.nthreads,
                                               "label": self.rows[-1]["label"], "time": 0.0,
                                               "total": 0.0, "split": dict.fromkeys(SHORT, 0.0)})
                team = [t for t in p.threads if b.node.visits[t] > 0] or p.threads
                m["time"] += max(b.node.incl[t] for t in team)
                m["total"] += b.total()
                for k, v in category_times(b).items():
                    m["split"][k] += v
            for name, m in merged.items():
                self.regions.setdefault(name, []).append(m)
            r = Report(p, paths=False, analysis=a)
            for t in r.tasks():
                self.tasks.setdefault(t["name"], []).append(
                    {"threads": p.nthreads, "label": self.rows[-1]["label"],
                     "instances": t["instances"], "mean": t["mean"],
                     "mean_create": t["mean_create"], "time": t["time"],
                     "task_time_at_sync": t["task_time_at_sync"]})
                for v in t["values"]:   # a construct split by parameters: per value too
                    self.tasks.setdefault("%s (%s)" % (t["name"], v["params"]), []).append(
                        {"threads": p.nthreads, "label": self.rows[-1]["label"],
                         "instances": v["instances"], "mean": v["mean"],
                         "mean_create": None, "time": v["time"], "task_time_at_sync": None})

        self.inflation = work_inflation(self.profiles, [r["label"] for r in self.rows],
                                        runfacts.inputs_differ(self.profiles))
        if self.inflation:
            self.warnings.append(self.inflation["text"])

    def categories(self):
        """The split's categories; MPI communication only when a profile has MPI time."""
        return [n for n, _ in SCALING_CATEGORIES
                if n != MPI or any(r["split"][n] > 0 for r in self.rows)]

    def data(self):
        return {"warnings": self.warnings, "work_inflation": self.inflation,
                "profiles": self.rows, "parallel_regions": self.regions, "tasks": self.tasks,
                "categories": self.categories(), "counters": self.counters,
                "rates": [r.label for r in self.rates]}

    def svg(self, title):
        xl = [r["label"] for r in self.rows]
        series = [(name, [r["split"][name] for r in self.rows]) for name in self.categories()]
        return stacked_area(xl, series, title, "ranks x threads" if self.hybrid else "threads",
                            "time summed over threads [s]")


# work (user code and task bodies) summed over threads should not grow with the thread
# count; beyond this factor it did for a reason worth a look (waiting for a core, memory
# bandwidth, false sharing, ...), well above the noise of a busy machine
INFLATION_FACTOR = 1.25


def _work_by_path(p: Profile, keys: dict) -> dict[int, float]:
    """Exclusive work per call path, summed over threads, by path key: keys maps
    (parent's key, region name) to a number shared by all profiles, so a path is
    keyed in constant time (a deep tree's spelled-out paths would be quadratic).  The
    program root's own time is left out: on a worker thread it is the time the thread
    waited outside any parallel region, which grows with the thread count by itself."""
    out: dict[int, float] = {}
    key_of: dict[int, int] = {}
    for n in p.main_nodes + p.task_nodes:   # pre-order: a parent before its children
        parent = key_of.get(id(n.parent)) if n.parent is not None else None
        # the program root by its place (two binaries of one program: one root)
        k = keys.setdefault((parent, n.name if parent is not None else ""), len(keys))
        key_of[id(n)] = k
        if classify(n) == "work" and n.kind != "TASKS" and n.parent is not None:
            out[k] = out.get(k, 0.0) + sum(n.excl)
    return out


def _spelled(keys: dict, k: int) -> list[str]:
    """The names of a path below the program root (which is keyed by its place only)."""
    back = {v: kv for kv, v in keys.items()}
    names = []
    while k is not None:
        parent, name = back[k]
        if parent is not None:
            names.append(name)
        k = parent
    return names[::-1]


def work_inflation(profiles, labels, differ=None):
    """The same work taking longer in total at more threads: the largest factor over
    the profile with the fewest threads, and the call paths whose work grew most.
    differ: why the runs' inputs differ (runfacts.inputs_differ); then no verdict,
    the figures only."""
    if len(profiles) < 2:
        return None
    keys: dict = {}
    by_path = [_work_by_path(p, keys) for p in profiles]
    work = [sum(w.values()) for w in by_path]
    if work[0] <= 0:
        return None
    i = max(range(1, len(profiles)), key=lambda k: work[k])
    factor = work[i] / work[0]
    if factor < INFLATION_FACTOR:
        return None
    if differ:
        text = ("work inflation not judged: %s, so their work differs by design (work in "
                "parallel code summed over threads: %s)"
                % (differ, ", ".join("%s s (%s)" % (tf.fmt_time(w), lab)
                                     for w, lab in zip(work, labels))))
        return {"factor": factor, "from": labels[0], "to": labels[i], "paths": [],
                "judged": False, "work": work, "text": text}
    a, b = by_path[0], by_path[i]
    grew = sorted(((b.get(k, 0.0) - a.get(k, 0.0), k) for k in set(a) | set(b)),
                  reverse=True)[:3]
    paths = [{"path": _spelled(keys, k), "from": a.get(k, 0.0), "to": b.get(k, 0.0)}
             for d, k in grew if d > 0]
    text = ("WORK INFLATION: the work in parallel code (user code and task bodies, functions "
            "included) summed over threads grew %.2fx from %s s (%s) to %s s (%s), same "
            "program and arguments; grew most: %s"
            % (factor, tf.fmt_time(work[0]), labels[0], tf.fmt_time(work[i]), labels[i],
               "; ".join("%s %s -> %s s" % (" / ".join(tf.short_name(x) for x in q["path"][-2:]),
                                            tf.fmt_time(q["from"]), tf.fmt_time(q["to"]))
                         for q in paths)))
    return {"factor": factor, "from": labels[0], "to": labels[i], "paths": paths,
            "judged": True, "work": work, "text": text}


def _label(threads, ranks, hybrid):
    """A profile's size: the thread count, or for hybrid runs ranks x threads per rank."""
    if not hybrid:
        return str(threads)
    per = threads // ranks if ranks and threads % ranks == 0 else None
    return "%dx%d" % (ranks, per) if per else "%dr/%dt" % (ranks, threads)


def _f(x, fmt="%.2f"):
    return "-" if x is None else fmt % x


def render_text(s):
    out = ["pompprof-scaling: %d profiles" % len(s.rows)]
    size = "ranks x threads" if s.hybrid else "threads"
    for r in s.rows:
        head = "  %5s %s: " % (r["label"], size)
        out.append(head + tf.shown_path(r["file"], tf.WIDTH - len(head)))
    sources = {r["event_source"] for r in s.rows}
    if len(sources) == 1 and None not in sources:   # (different ones: a NOTE names them)
        out.append("event source: %s" % sources.pop())
    out.extend(tf.wrapped(s.warnings))
    cats = s.categories()
    out.append(tf.heading("Whole program (seconds summed over threads)"))
    rows = [[r["label"], tf.fmt_time(r["wall"]), _f(r["speedup"]), _f(r["efficiency"])]
            + [tf.fmt_time(r["split"][c]) for c in cats] for r in s.rows]
    out.append(tf.table(["rxt" if s.hybrid else "threads", "wall", "speedup", "eff"]
                        + [SHORT[c] for c in cats], rows,
                        widths=[7, 9, 7, 5] + [9] * len(cats),
                        width=max(tf.WIDTH, 31 + 10 * len(cats))))
    if s.counters:
        out.append(tf.heading("Counters (whole program, summed over threads)"))
        cols = s.counters + [r.label for r in s.rates]
        widths = [7] + [max(8, min(12, len(counter_label(c)))) for c in cols]
        rows = [[r["label"]] + [tf.fmt_count(r["counters"][c]) for c in s.counters]
                + [tf.fmt_rate(r["rates"][x.label]) for x in s.rates] for r in s.rows]
        out.append(tf.table(["threads"] + [counter_label(c) for c in cols], rows,
                            widths=widths, width=max(tf.WIDTH, sum(widths) + len(widths))))
        out.extend(tf.fold(_counter_legend(s), sep="; "))
    if s.regions:
        out.append(tf.heading("Parallel regions"))
        rows = []
        # a parallel region holds no serial code
        cats = [cats[0]] + [c for c in cats[1:] if c != SERIAL]
        for name, ms in s.regions.items():
            for m in ms:
                ovh = m["total"] - m["split"]["work"]
                rows.append([tf.short_name(name), m["label"], tf.fmt_time(m["time"]),
                             _f(100.0 * ovh / m["total"] if m["total"] else 0.0, "%.1f")]
                            + [tf.fmt_time(m["split"][c]) for c in cats[1:]])
        out.append(tf.table(["region", "thr", "time", "ovhd%"] + [SHORT[c] for c in cats[1:]],
                            rows, widths=[29 - 4 * s.hybrid, 3 + 4 * s.hybrid, 9, 5]
                            + [9] * (len(cats) - 1),
                            width=max(tf.WIDTH, 49 + 10 * (len(cats) - 1))))
    if s.tasks:
        out.append(tf.heading("Task constructs"))
        rows = []
        for name, ms in s.tasks.items():
            for m in ms:
                rows.append([tf.short_name(name), m["label"], tf.fmt_count(m["instances"]),
                             tf.fmt_time(m["mean"]), tf.fmt_time(m["mean_create"]),
                             tf.fmt_time(m["time"])])
        out.append(tf.table(["task construct", "thr", "instances", "mean task", "mean create",
                             "total"], rows, widths=[34 - 4 * s.hybrid, 3 + 4 * s.hybrid, 10,
                                                     12, 12, 12]))
    return "\n".join(out) + "\n"


def _counter_legend(s):
    """What the counter table's titles stand for, and the units of its counts."""
    parts = ["%s = %s" % (counter_label(c), c) for c in s.counters]
    parts += ["%s = %s / %s" % (r.label, r.numerator, r.denominator) for r in s.rates]
    return parts + [tf.UNIT_LEGEND]


def build_parser():
    ap = argparse.ArgumentParser(
        prog="pompprof-scaling",
        description="Compare profiles of one program run with different thread counts (and, "
                    "for a hybrid MPI program, rank counts).",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("profiles", nargs="+", metavar="profile",
                    help="profile directories or .cubex files (any order)")
    ap.add_argument("--svg", metavar="OUT.svg", help="write a stacked-area chart")
    ap.add_argument("--format", choices=("text", "json"), default="text")
    ap.add_argument("--force", action="store_true",
                    help="compare profiles of different programs anyway")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    s = Scaling(args.profiles, force=args.force)
    if args.svg:
        text = s.svg("%s: time by category" % s.profiles[0].program)
        try:
            with open(args.svg, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise ToolError("cannot write %s: %s" % (args.svg, e.strerror or e)) from None
    if args.format == "json":
        sys.stdout.write(tf.json_text(s.data()))
    else:
        sys.stdout.write(render_text(s))
    return 0


def entry() -> int:
    """The `pompprof-scaling` command."""
    return main_guard("pompprof-scaling", main)


if __name__ == "__main__":
    sys.exit(entry())
