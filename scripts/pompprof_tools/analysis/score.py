"""pompprof-score: what a measurement cost, and what a filter would save (the
counterpart of scorep-score; doc/functions.md, "pompprof-score").

For every region of a profile: its kind (OMP: OpenMP constructs, FUN:
compiler-instrumented functions, USR: user regions, MPI), visits, exclusive
time, and the estimated cost of measuring it:

  cost  = visits x the cost of one event of its kind
  trace = visits x 2 events x TRACE_BYTES_PER_EVENT

The costs were measured when pompprof was built (event-costs.txt, see
costs.py), in the shapes of real code, and each region takes its shape's:
a function (as the run instrumented them: pompprof's GCC plugin or
-finstrument-functions, the profile's pompprof::functions) is a recursion
when most of its visits lie below a visit of itself, else a short one when
its mean visit is under SHORT_VISIT_S (the kind an optimising compiler
inlines in the plain build, where the measured build keeps the calls), else
a called function; a task instance (its creation included: `create task`
regions cost nothing of their own) costs between the task shapes measured,
by the run's taskwaits per task: nqueens' (twelve tasks per taskwait: a
twelfth of a taskwait per task), fib's (two tasks per taskwait: half a
taskwait per task) and health's (four tasks per taskwait, the leaves'
included: one per task); a taskwait; another construct.
Task constructs count their instances (the roots below TASKS), not their
fragments (stubs).  A function a filter leaves out costs nothing when the
plugin instrumented the run (rebuilt with the filter, it is not
instrumented), else its table look-up (filtered_pair_address_ns).  The
overhead is cost / (the run's time - cost): what the program would have
taken without measurement.  The run's time is its CPU time when the profile
has it (pompprof::cpu_time) and it is less than the threads' wall-clock
time: a busy machine stretches wall-clock times (a thread waiting for a
core), not the CPU time the measurement costs are measured in.  The regions'
times stay as measured (wall clock): a visit is at most that long, so a
function whose visit looks long enough is not taken for a short one.

-f FILTER shows each region's fate under a filter and the estimate with it;
-g [FILE] writes a filter that brings the estimate under --target percent
(default 10): it excludes functions (never OpenMP constructs, user regions
or MPI), shortest mean visit first, until the estimate is under the target,
and any function whose measurement costs more than the target share of its
mean visit (a function with short visits); when the target is out of reach
even so, only the short ones (leaving out the others would lose their
figures without reaching it);
never one whose cost is negligible (below NEGLIGIBLE_PCT of the program's
time: main, set-up code), whose absence would only lose information.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys

from ..cli import ToolError
from ..cli import run as main_guard
from ..cube import cubex
from .. import filterfile
from . import costs as event_costs
from . import textfmt as tf

KINDS = {"openmp": "OMP", "compiler": "FUN", "user": "USR", "mpi": "MPI"}
KIND_ORDER = ("OMP", "FUN", "USR", "MPI")
TRACE_BYTES_PER_EVENT = event_costs.TRACE_BYTES_PER_EVENT
# -g never leaves out a function whose estimated cost is below this share of
# the program's own time
NEGLIGIBLE_PCT = 0.1
# a function whose mean visit (its measurement included) is shorter is one the
# plain build would inline: the calibration's inlined shape
SHORT_VISIT_S = 200e-9
# taskwaits per task instance of the task shapes the calibration measures
WIDE_TASKWAITS, BINARY_TASKWAITS, QUAD_TASKWAITS = 1.0 / 12, 0.5, 1.0
# the program's own time is taken as at least this share of the run's: costs
# measured on a busier machine than the run's can exceed the time they are
# part of (a measurement that costs 49 times the program's time is possible)
PLAIN_FLOOR = 0.02
# how far the event costs may be off for this run: the calibration of one
# machine moves by 2 to 4 % from build to build (doc/functions.md); the
# estimate is also given with costs this much lower and higher
COST_SPREAD = 0.03


class Region:
    __slots__ = ("name", "mangled", "file", "line", "kind", "role", "visits", "time", "filtered",
                 "recursive_visits")

    def __init__(self, r, kind):
        self.name, self.mangled = r.name, r.mangled_name or ""
        self.file, self.line, self.kind, self.role = r.mod or "", r.begin, kind, r.role
        self.visits, self.time, self.filtered = 0, 0.0, False
        self.recursive_visits = 0       # visits below a visit of the same function

    @property
    def per_visit(self):
        return self.time / self.visits if self.visits else 0.0


class Score:
    """The regions of one profile with their visits, times and estimated costs."""

    def __init__(self, cube, costs: event_costs.Costs):
        self.costs = costs
        # how the run instrumented its functions: the GCC plugin unless it says otherwise
        self.instrumented = cube.attrs.get("pompprof::functions", "") or "gcc-plugin"
        address = "instrument-functions" in self.instrumented
        # the shapes were measured with the plugin: -finstrument-functions scales them
        self.address_scale = (costs.function_pair_address_ns / costs.function_pair_ns
                              if address and costs.function_pair_ns > 0 else 1.0)
        self.filtered_ns = costs.filtered_pair_address_ns if address else 0.0
        self.regions: dict[int, Region] = {}
        self.cost_scale = 1.0       # overhead_range() varies it
        tasks = {c.id for c in cube.tasks_nodes()}
        self.total = 0.0
        for root in cube.roots:
            self.total += sum(cube.inclusive_row("time", root))
        self.thread_time = self.total
        self.cpu_time = self._cpu_time(cube)
        if self.cpu_time and 0 < self.cpu_time < self.total:
            self.total = self.cpu_time      # the base of the percentages
        for c in cube.cnodes_in_order():
            kind = KINDS.get(c.region.paradigm)
            if kind is None or c.region.role == "artificial" or c.id in tasks:
                continue
            in_main = not self._in_tasks(cube, c, tasks)
            if in_main and c.region.role in ("task", "untied task"):
                continue        # a stub: a fragment of an instance counted below TASKS
            reg = self.regions.get(c.region.id)
            if reg is None:
                reg = self.regions[c.region.id] = Region(c.region, kind)
            visits = sum(cube.row("visits", c))
            reg.visits += visits
            reg.time += sum(cube.exclusive_row("time", c))
            if kind == "FUN" and self._below_itself(c):
                reg.recursive_visits += visits
        self.taskwaits_per_task, self.task_ns = self._task_shape()

    @staticmethod
    def _cpu_time(cube):
        try:
            return float(cube.attrs.get("pompprof::cpu_time", ""))
        except ValueError:
            return None

    @staticmethod
    def _below_itself(c):
        p = c.parent
        while p is not None:
            if p.region.id == c.region.id:
                return True
            p = p.parent
        return False

    def _task_shape(self):
        """The run's taskwaits per task instance, and the cost of a task there:
        between the two calibrated shapes whose ratios enclose the run's, in
        proportion (the end's shape beyond the calibrated ones)."""
        tasks = sum(r.visits for r in self.regions.values() if r.role in ("task", "untied task"))
        waits = sum(r.visits for r in self.regions.values() if r.role == "taskwait")
        c = self.costs
        if not tasks:
            return 0.0, c.task_ns
        ratio = waits / tasks
        shapes = ((WIDE_TASKWAITS, c.task_wide_ns), (BINARY_TASKWAITS, c.task_binary_ns),
                  (QUAD_TASKWAITS, c.task_quad_ns))
        if ratio <= shapes[0][0]:
            return ratio, shapes[0][1]
        for (r0, ns0), (r1, ns1) in zip(shapes, shapes[1:]):
            if ratio <= r1:
                return ratio, ns0 + (ratio - r0) / (r1 - r0) * (ns1 - ns0)
        return ratio, shapes[-1][1]

    def shape(self, r: Region) -> str:
        """The calibrated shape a function's calls take: recursion, short or called."""
        if 2 * r.recursive_visits > r.visits:
            return "recursion"
        return "short" if r.per_visit < SHORT_VISIT_S else "called"

    def pair_ns(self, r: Region) -> float:
        """What measuring one call of the function costs, by its shape."""
        c = self.costs
        ns = {"recursion": c.recursion_pair_ns, "short": c.inlined_pair_ns,
              "called": c.leaf_pair_ns}[self.shape(r)]
        return ns * self.address_scale

    @staticmethod
    def _in_tasks(cube, c, tasks):
        while c is not None:
            if c.id in tasks:
                return True
            c = c.parent
        return False

    def cost(self, r: Region) -> float:
        """Seconds of measurement the region's visits cost (as the run measured it,
        or with r.filtered: what is left of a filtered function)."""
        if r.kind == "FUN":
            ns = self.filtered_ns if r.filtered else self.pair_ns(r)
        elif r.role in ("task", "untied task"):
            ns = self.task_ns
        elif r.role in ("task create", "untied task create"):
            ns = 0.0
        elif r.role == "taskwait":
            ns = self.costs.taskwait_ns
        else:
            ns = self.costs.construct_pair_ns
        return r.visits * ns * 1e-9 * self.cost_scale

    def trace_bytes(self, r: Region) -> int:
        return 0 if r.filtered else 2 * r.visits * TRACE_BYTES_PER_EVENT

    def fixed_cost(self) -> float:
        """What the run paid once, whatever it measured: the library's start and end."""
        return self.costs.run_fixed_ns * 1e-9 * self.cost_scale

    def total_cost(self) -> float:
        return self.fixed_cost() + sum(self.cost(r) for r in self.regions.values())

    def measured_cost(self) -> float:
        """The cost of the run the profile comes from (no region filtered)."""
        saved = [r.filtered for r in self.regions.values()]
        for r in self.regions.values():
            r.filtered = False
        c = self.total_cost()
        for r, f in zip(self.regions.values(), saved):
            r.filtered = f
        return c

    def plain_time(self) -> float:
        """The program's own time: the measured total minus what measuring cost
        (at least PLAIN_FLOOR of the total: costs measured on a busier machine than
        the run's can exceed the time they are part of; render() says so)."""
        return max(self.total - self.measured_cost(), PLAIN_FLOOR * self.total, 1e-12)

    def overhead_pct(self) -> float:
        return 100.0 * self.total_cost() / self.plain_time()

    def overhead_range(self, spread: float = COST_SPREAD) -> tuple[float, float]:
        """The estimate (%) with every event cost spread lower and higher: a
        small error of the costs is a large one of the estimate where measuring
        costs several times the program's own time."""
        low_high = []
        for scale in (1.0 - spread, 1.0 + spread):
            self.cost_scale = scale
            low_high.append(self.overhead_pct())
        self.cost_scale = 1.0
        return low_high[0], low_high[1]

    def apply(self, flt: filterfile.Filter | None):
        for r in self.regions.values():
            r.filtered = bool(flt) and r.kind == "FUN" and flt.excludes(r.name, r.mangled, r.file)

    def choose_exclusions(self, target_pct: float) -> list[Region]:
        """Functions to leave out, shortest mean visit first, until the estimate is
        under the target; a function whose measurement costs more than the target
        share of its mean visit (exclusive time) is always left out."""
        funs = sorted((r for r in self.regions.values() if r.kind == "FUN" and r.visits),
                      key=lambda r: (r.per_visit, -r.visits))
        # leaving out a function whose measurement costs next to nothing (main,
        # set-up code) only loses information, also when the target is out of reach
        negligible = NEGLIGIBLE_PCT / 100.0 * self.plain_time()
        chosen, short_ones = [], set()
        for r in funs:
            # its measurement takes more than the target share of its own time: the
            # function's figures are distorted by it whatever the program's total
            # (which a busy machine stretches) says
            short = r.per_visit * target_pct / 100.0 < self.pair_ns(r) * 1e-9
            if self.overhead_pct() <= target_pct and not short:
                break
            if self.cost(r) < negligible:
                continue
            r.filtered = True
            chosen.append(r)
            if short:
                short_ones.add(id(r))
        if self.overhead_pct() > target_pct:
            # out of reach: the functions left out for the target alone gained nothing
            for r in chosen:
                r.filtered = id(r) in short_ones
            chosen = [r for r in chosen if r.filtered]
        return chosen


def render(score: Score, flt_name: str | None, top: int | None) -> str:
    c = score.costs
    out = []
    k = score.address_scale
    out.append("Estimated measurement cost (%s; functions instrumented by %s: %.1f ns a "
               "called function, %.1f ns a recursive one, %.1f ns a short one, %.1f ns one a "
               "filter leaves out; %.1f ns a task (%.2f taskwaits per task), %.1f ns a "
               "taskwait, %.1f ns another construct; %s s once, for the start and the end; "
               "trace %d bytes per event)"
               % (c.source, score.instrumented, c.leaf_pair_ns * k, c.recursion_pair_ns * k,
                  c.inlined_pair_ns * k, score.filtered_ns, score.task_ns,
                  score.taskwaits_per_task, c.taskwait_ns, c.construct_pair_ns,
                  tf.fmt_time(score.fixed_cost()), TRACE_BYTES_PER_EVENT))
    measured = score.measured_cost()
    if measured > (1 - PLAIN_FLOOR) * score.total:
        out.append("note: the estimated cost is more than %g %% of the measured time: the event "
                   "costs were measured under other conditions than this run (a busier "
                   "machine?); percentages are relative to %g %% of the measured time"
                   % (100 * (1 - PLAIN_FLOOR), 100 * PLAIN_FLOOR))
    if score.cpu_time:
        out.append("CPU time of the run %s s, total thread time %s s; the lesser is the base "
                   "(a thread waiting for a core or blocked stretches the thread time)"
                   % (tf.fmt_time(score.cpu_time), tf.fmt_time(score.thread_time)))
    else:
        out.append("total thread time %s s" % tf.fmt_time(score.total))
    saved = [r.filtered for r in score.regions.values()]
    score.apply(None)
    low, high = score.overhead_range()
    for r, f in zip(score.regions.values(), saved):
        r.filtered = f
    out.append("estimated cost of this run %s s: %.1f %% over the program's own %s s "
               "(%.1f to %.1f %% with every event cost %g %% lower or higher)"
               % (tf.fmt_time(measured), 100.0 * measured / score.plain_time(),
                  tf.fmt_time(score.plain_time()), low, high, 100 * COST_SPREAD))
    if flt_name:
        out.append("with the filter %s: estimated cost %s s, %.1f %%"
                   % (flt_name, tf.fmt_time(score.total_cost()), score.overhead_pct()))
    out.append("")
    rows = []
    regs = list(score.regions.values())
    for kind in ("ALL",) + KIND_ORDER:
        mine = [r for r in regs if kind == "ALL" or r.kind == kind]
        if not mine and kind != "ALL":
            continue
        t = sum(r.time for r in mine)
        rows.append([kind, tf.fmt_count(sum(r.visits for r in mine)), tf.fmt_time(t),
                     tf.fmt_pct(100.0 * t / score.thread_time if score.thread_time else 0),
                     tf.fmt_time(sum(score.cost(r) for r in mine)),
                     tf.fmt_pct(100.0 * sum(score.cost(r) for r in mine) / score.plain_time()),
                     tf.fmt_count(sum(score.trace_bytes(r) for r in mine))])
    out.append(tf.table(["type", "visits", "time[s]", "time%", "cost[s]", "cost%", "trace[B]"],
                        rows))
    out.append("")
    regs.sort(key=lambda r: (-score.cost(r) if not r.filtered else 0, -r.visits, r.name))
    if flt_name:
        regs.sort(key=lambda r: (not r.filtered, -r.visits * (score.pair_ns(r)
                                                              if r.kind == "FUN" else 0)))
    shown = regs[:top] if top else regs
    rows = []
    for r in shown:
        rows.append([r.name, "-" if r.filtered else "", r.kind, tf.fmt_count(r.visits),
                     tf.fmt_time(r.time), tf.fmt_time(r.per_visit), tf.fmt_time(score.cost(r)),
                     tf.fmt_count(score.trace_bytes(r))])
    out.append(tf.table(["region", "flt", "type", "visits", "time[s]", "per visit",
                         "cost[s]", "trace[B]"], rows))
    if len(shown) < len(regs):
        out.append("(%d more regions; --top 0 shows all)" % (len(regs) - len(shown)))
    return "\n".join(out) + "\n"


def build_parser():
    ap = argparse.ArgumentParser(
        prog="pompprof-score",
        description="Estimated cost of measuring each region of a profile, per region kind "
                    "and per region; the effect of a filter (-f); a filter that brings the "
                    "estimate under a target (-g).")
    ap.add_argument("profile", help="profile directory or .cubex")
    ap.add_argument("-f", "--filter", metavar="FILTER",
                    help="show the estimate with this filter file (Score-P syntax)")
    ap.add_argument("-g", "--generate", metavar="FILE", nargs="?", const="pompprof.filter",
                    help="write a filter bringing the estimate under --target "
                         "(default file: pompprof.filter; never overwritten)")
    ap.add_argument("--target", type=float, default=10.0, metavar="PERCENT",
                    help="the overhead -g aims for, in %% of the program's own time "
                         "(default 10)")
    ap.add_argument("--costs", metavar="FILE",
                    help="event costs (default: $POMPPROF_COSTS, else the event-costs.txt "
                         "measured when pompprof was built and installed with it)")
    ap.add_argument("--top", type=int, default=30, metavar="N",
                    help="regions listed (default 30; 0: all)")
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    if args.target <= 0:
        ap.error("--target needs a positive percentage")
    if args.filter and args.generate:
        ap.error("-f and -g exclude each other")
    cube = cubex.load(args.profile)
    score = Score(cube, event_costs.find(args.costs))
    name = None
    if args.filter:
        try:
            score.apply(filterfile.load(args.filter))
        except filterfile.FilterError as e:
            raise ToolError(str(e)) from None
        name = args.filter
    if args.generate:
        if os.path.exists(args.generate):
            raise ToolError("%s exists; name another file" % args.generate)
        before = score.overhead_pct()
        chosen = score.choose_exclusions(args.target)
        comment = ("written by pompprof-score -g for %s on %s\n"
                   "estimated overhead %.1f %% -> %.1f %% (target %.1f %%)"
                   % (cube.path if hasattr(cube, "path") else args.profile,
                      datetime.date.today().isoformat(), before, score.overhead_pct(),
                      args.target))
        with open(args.generate, "x") as f:
            f.write(filterfile.write_excludes([r.name for r in chosen], comment))
        name = args.generate
    sys.stdout.write(render(score, name, args.top or None))
    if args.generate:
        sys.stdout.write("wrote %s (%d functions excluded)\n" % (args.generate, len(chosen)))
        if score.overhead_pct() > args.target:
            sys.stdout.write("the target %.1f %% is out of reach by filtering functions: "
                             "what is left is OpenMP, user regions and MPI\n" % args.target)
    return 0


def entry() -> int:
    """The `pompprof-score` command."""
    return main_guard("pompprof-score", main)


if __name__ == "__main__":
    sys.exit(entry())
