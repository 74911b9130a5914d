"""Overhead analysis shared by pompprof-report, pompprof-scaling and pompprof-diff, and
the one classification of a thread's time they share with pompprof-timeline and
pompprof-view (CLASSES: doc/trace.md's table is made of it; pompprof-replay implements
the same classes in C, replay/pp_replay_class.c, and the tests compare the two).

The time of every thread is split into disjoint *components*; the split adds up exactly
to the thread time T (all sums are over threads, per scope):

  T(scope) = sum_t [ incl(scope node, t) + fj(t) ]       (for the program: all roots)

Every call path's *self* (exclusive) time on a thread goes to one component by its region:

  serial      any call path outside every parallel region (the program's serial code,
              the program root's own time; not MPI calls): the time before the first
              parallel region, between them and after the last
  barrier     explicit `barrier`, and an `implicit barrier` that does not end a
              worksharing construct, parallel region or single
  taskwait    `taskwait`
  lockcrit    `critical` and `ordered` minus their sblock child (= enter + exit time),
              the OpenMP lock API (omp_set_lock, omp_unset_lock, ...)
  imbalance   `implicit barrier` ending a loop/sections/workshare or the parallel region
  limpar      `implicit barrier` ending a single (threads wait while one thread works)
  create      `task create`
  mpi         an MPI function (paradigm `mpi`: libpompprof_mpi's regions, doc/mpi.md)
  work        everything else (user code, sblocks, loop bodies, the single construct
              outside its block, ...)
  stub        a task region below a scheduling point (time executing tasks there): it is
              split by the shares of the components inside that task construct's tree on
              the same thread (task bodies' own work, taskwait, create, ...), so task-body
              time ends up as work and their internal waiting as overhead.
Since exclusive values telescope, barrier/taskwait components contain only time *not*
spent executing tasks (stubs are their children).

fj (fork/join, ompP's startupT + shutdownT; the profile cannot separate them): for a
parallel region P with team threads u (visits > 0), window = max_u incl(P, u) over the
threads of u's process (a job's profile holds every rank's team) and
fj(u) = window - incl(P, u) >= 0.  For a thread that executed P's parent (visits > 0
there, i.e. the master) that gap lies inside the parent's self time and is moved from
there (up to the available self time); for the other threads it lies outside their
measured time and is added to T.  So a parallel region's T equals
team size x window (per process), exactly as in ompP.

The categories (CATEGORIES below: the one definition report, scaling and diff use, and
the README's table) group the components: synchronization = barrier + taskwait + lockcrit,
imbalance, limited parallelism = limpar, thread management = fj + create, MPI
communication = mpi (hybrid programs), and beside them work and serial (neither the
team's work nor overhead).

Parallel coverage = sum over outermost parallel regions of their window / wall time.
"""

from __future__ import annotations

from .profile_model import Node, Profile, is_lock_region

COMPONENTS = ("work", "serial", "barrier", "taskwait", "lockcrit", "imbalance", "limpar",
              "create", "forkjoin", "mpi")


class Category:
    """A category of a profile's time: its name, the short column title every tool uses,
    the components it sums, what it means (the one definition the tools' help texts and
    the README's table are made from) and whether it is overhead."""
    __slots__ = ("name", "short", "components", "definition", "overhead")

    def __init__(self, name, short, components, definition, overhead=True):
        self.name, self.short = name, short
        self.components, self.definition = components, definition
        self.overhead = overhead


# The one vocabulary of pompprof-report, pompprof-scaling and pompprof-diff (ompP's four
# overhead categories, work, and MPI beside them).  taskwait waiting is synchronization
# everywhere; task creation is thread management.
CATEGORIES = (
    Category("work", "work", ("work",),
             "user code and task bodies in parallel regions (the functions they call "
             "included): everything there that is not overhead", overhead=False),
    Category("serial", "serial", ("serial",),
             "a thread outside every parallel region: the program's serial code before the "
             "first, between and after the parallel regions (neither the team's work nor "
             "overhead)", overhead=False),
    Category("synchronization", "sync", ("barrier", "taskwait", "lockcrit"),
             "waiting in barriers and taskwaits (not executing tasks there), entering and "
             "leaving critical sections and locks"),
    Category("imbalance", "imbal", ("imbalance",),
             "waiting in the implicit barrier at the end of loops, sections, workshare and "
             "parallel regions"),
    Category("limited parallelism", "limpar", ("limpar",),
             "waiting in the implicit barrier at the end of single constructs"),
    Category("thread management", "mgmt", ("forkjoin", "create"),
             "fork/join (thread startup and shutdown of parallel regions) and task creation"),
    Category("MPI communication", "mpi", ("mpi",),
             "time in MPI calls (hybrid programs)"),
)
SHORT = {c.name: c.short for c in CATEGORIES}
WORK = CATEGORIES[0].name
SERIAL = CATEGORIES[1].name
MPI = CATEGORIES[-1].name            # shown only when a profile has MPI time
MPI_GROUP = SHORT[MPI]               # the timeline's group of MPI time: "mpi"
REPORT_CATEGORIES = SCALING_CATEGORIES = tuple((c.name, c.components) for c in CATEGORIES)
OVERHEAD_CATEGORIES = tuple((c.name, c.components) for c in CATEGORIES if c.overhead)


def category_times(breakdown) -> dict[str, float]:
    """A Breakdown's seconds (summed over threads) per category name."""
    return {name: breakdown.category(comps) for name, comps in REPORT_CATEGORIES}


# pompprof-timeline's breakdown of a trace (pompprof-replay's columns: the same classes
# of time, replay/pp_replay_class.c) splits waiting by readiness as POT does: overhead (not
# working while a task was ready, and task and thread management always), idleness (no
# task was ready), undetermined (only tasks of unknown dependences were waiting); and time
# in MPI calls into waiting for a partner and the rest, transfer (a trace sees the
# partners; a profile does not, so pompprof-report has MPI time in one piece).  Each
# column: its key in pompprof-replay's result, its title, the group it adds to (work,
# overhead, or itself), the category of pompprof-report it is part of (None: in none, or
# several by construct) and what it holds.
class Part:
    __slots__ = ("key", "column", "group", "category", "what")

    def __init__(self, key, column, group, category, what):
        self.key, self.column, self.group = key, column, group
        self.category, self.what = category, what


TIMELINE_PARTS = (
    Part("work_task", "task", "work", WORK,
         "an explicit task runs its own code, the functions it calls included"),
    Part("work_implicit", "implicit", "work", WORK,
         "an implicit task runs its own code (the parallel region's, loop bodies, ...)"),
    Part("serial", SHORT[SERIAL], SERIAL, SERIAL,
         "outside every parallel region: the program's serial code"),
    Part("overhead_create", "create", "overhead", "thread management", "task creation"),
    Part("overhead_forkjoin", "fork", "overhead", "thread management",
         "the runtime starting and ending a team (from the fork to the team's begin, its "
         "end to the join) and a member's wait for the team's slowest"),
    Part("overhead_switch", "switch", "overhead", "synchronization",
         "waiting at a scheduling point (taskwait, barrier) while a task was ready"),
    Part("overhead_sync", "lockcrit", "overhead", "synchronization",
         "blocked entering a critical section or lock while a task was ready"),
    Part("idleness", "idleness", "idleness", None,
         "waiting or blocked while no task was ready"),
    Part("undetermined", "undet", "undetermined", None,
         "waiting or blocked while only tasks of unknown dependences were (overhead or "
         "idleness: undecidable)"),
    Part("mpi_wait", "wait", MPI_GROUP, MPI,
         "in an MPI call, waiting for a partner: a receive that began before its matching "
         "send (a late sender), a collective's member before the members it needs began"),
    Part("mpi_transfer", "transfer", MPI_GROUP, MPI,
         "in an MPI call otherwise: moving the data, and calls without a partner "
         "(MPI_Init, MPI_Finalize, ...)"),
    Part("measurement", "measure", "measurement", None,
         "pompprof's own time: the trace's start and flushes (not the program's overhead)"),
)
# the columns of pompprof-replay's breakdown, in its order: the time, then each group's
# sum before its parts
BREAKDOWN_KEYS = ("time",) + tuple(
    k for i, p in enumerate(TIMELINE_PARTS)
    for k in ((p.group,) if p.key != p.group and (i == 0 or TIMELINE_PARTS[i - 1].group !=
                                                  p.group) else ()) + (p.key,))
TIMELINE_OVERHEAD = tuple(p for p in TIMELINE_PARTS if p.group == "overhead")
_PART = {p.key: p for p in TIMELINE_PARTS}


def part_column(key: str) -> str:
    """A key of BREAKDOWN_KEYS as a column's title: a part's column, a group by its name."""
    return _PART[key].column if key in _PART else key


# the parts of a thread's time POT's quadrant does not judge: not the team's (POT
# describes task parallelism; MPI time is the ranks' business)
NOT_TEAM_GROUPS = (SERIAL, MPI_GROUP, "measurement")
NOT_TEAM = tuple(p.key for p in TIMELINE_PARTS if p.group in NOT_TEAM_GROUPS)


def not_team_text(mpi: bool) -> str:
    """What POT's team time leaves out, in words (MPI calls named when there are any)."""
    return "serial code, MPI calls and measurement" if mpi else "serial code and measurement"


# the breakdown's MPI columns: the group's sum, then its parts
MPI_KEYS = (MPI_GROUP,) + tuple(p.key for p in TIMELINE_PARTS if p.group == MPI_GROUP)


def timeline_categories(total: dict) -> dict[str, float]:
    """The timeline's overhead parts (a breakdown row of pompprof-replay) summed per
    category name: the categories' time while a task was ready (creation and fork/join:
    always)."""
    out: dict[str, float] = {}
    for p in TIMELINE_OVERHEAD:
        out[p.category] = out.get(p.category, 0.0) + total.get(p.key, 0.0)
    return out


def timeline_legend(width: int = 88) -> str:
    """The timeline's --help lines on its columns and their categories."""
    import textwrap
    lines = []
    for p in TIMELINE_PARTS:
        where = ("part of %s (%s)" % (p.category, SHORT[p.category])) if p.category else \
            "in no category of pompprof-report"
        if p.group == "overhead":
            where = "overhead; " + where
        lines.extend(textwrap.wrap("%s; %s" % (p.what, where), width,
                                   initial_indent="  %-9s" % p.column, subsequent_indent=" " * 11))
    return "\n".join(lines)


# The one classification of a thread's time (doc/trace.md's table is markdown_classes()):
# what a thread does, the class, where pompprof-report counts it (its category) and
# where pompprof-timeline does (its columns).
CLASSES = (
    ("an explicit task runs its own code, the functions it calls included (not its child "
     "tasks' code, not while suspended)", "work", WORK, "`task` (work)"),
    ("an implicit task runs its own code: the parallel region's, loop bodies, single, "
     "critical and section blocks", "work", WORK, "`implicit` (work)"),
    ("a thread outside every parallel region: the program's serial code before the first, "
     "between and after the parallel regions", SERIAL, SERIAL, "`%s`" % SHORT[SERIAL]),
    ("creating a task", "task creation", "thread management", "`create` (overhead)"),
    ("the runtime starting or ending a team: from the fork to the team's begin and from "
     "its end to the join (a profile reads no clock at a fork: it sees this in the code "
     "around the region), and a member's wait for the team's slowest (the longest "
     "member's time in the region less its own)", "fork/join", "thread management",
     "`fork` (overhead)"),
    ("waiting at a barrier, implicit barrier or taskwait, not running a task",
     "waiting", "synchronization, imbalance or limited parallelism (by construct)",
     "`switch` (overhead) while a task was ready, else `idleness` (`undet`: only tasks "
     "of unknown dependences were)"),
    ("blocked entering a critical section, ordered or lock", "blocked", "synchronization",
     "`lockcrit` (overhead) while a task was ready, else `idleness` (`undet`)"),
    ("in an MPI call, waiting for a partner: a receive (`MPI_Recv`, or the call that "
     "completes an `MPI_Irecv`) that began before its matching send began (a late sender), "
     "a collective's member before the members it needs began (all of them; for a "
     "broadcast or scatter the root; for the root of a gather or reduce the others; for a "
     "scan the lower ranks)", "MPI waiting", MPI, "`wait` (mpi)"),
    ("in an MPI call otherwise: moving the data, and calls without a partner "
     "(`MPI_Init`, `MPI_Finalize`, ...)", "MPI transfer", MPI, "`transfer` (mpi)"),
    ("pompprof's own: the trace's start and buffer flushes", "measurement",
     "none (a profile sees it in the region where it happened)", "`measure`"),
)


def markdown_classes() -> str:
    """doc/trace.md's table of the classes (test_vocabulary compares the two)."""
    rows = ["| a thread's time | class | pompprof-report | pompprof-timeline |",
            "|---|---|---|---|"]
    rows += ["| %s | %s | %s | %s |" % c for c in CLASSES]
    return "\n".join(rows)


def legend(indent: int = 2, width: int = 100) -> str:
    """The categories for a --help text: `short  definition`, folded to width."""
    import textwrap
    lines = []
    for c in CATEGORIES:
        head = " " * indent + "%-7s " % c.short
        lines.extend(textwrap.wrap("%s: %s" % (c.name, c.definition), width,
                                   initial_indent=head, subsequent_indent=" " * len(head)))
    return "\n".join(lines)


def markdown_table() -> str:
    """The README's table of the categories (test_vocabulary compares the two)."""
    rows = ["| category | column | what it holds |", "|---|---|---|"]
    rows += ["| %s | `%s` | %s |" % (c.name, c.short, c.definition) for c in CATEGORIES]
    return "\n".join(rows)


def classify(node: Node) -> str:
    """The component of a node's self time (or 'stub')."""
    role = node.role
    if node.region.paradigm == "mpi":   # before the roles: MPI_Barrier's is `barrier`
        return "mpi"
    if node.outside:                    # outside every parallel region
        return "serial"
    if node.kind == "stub":
        return "stub"
    if node.kind == "TASKS":
        return "work"
    if role == "barrier":
        return "barrier"
    if role == "taskwait":
        return "taskwait"
    if role == "implicit barrier":
        prole = node.parent.role if node.parent is not None else ""
        if prole in ("loop", "sections", "workshare", "parallel"):
            return "imbalance"
        if prole == "single":
            return "limpar"
        return "barrier"
    if role in ("critical", "ordered") or is_lock_region(node.region):
        return "lockcrit"
    if role == "task create":
        return "create"
    return "work"


def _zero(nthreads):
    return {c: [0.0] * nthreads for c in COMPONENTS}


def task_tree_shares(profile: Profile) -> dict[str, dict[str, list[float]]]:
    """Per task region name: per-thread component totals of its task tree(s).
    Stubs nested inside task trees count as work (their time is that task's)."""
    shares = {}
    for tr in profile.task_roots:
        comp = shares.setdefault(tr.name, _zero(profile.nthreads))
        for n in tr.walk():
            c = classify(n)
            if c == "stub":
                c = "work"
            for t in profile.threads:
                comp[c][t] += n.excl[t]
    return shares


class Breakdown:
    """Per-thread component times of one scope (the program or one parallel region)."""

    def __init__(self, name: str, node: Node | None, nthreads: int):
        self.name = name
        self.node = node                      # None for the whole program
        self.comp = _zero(nthreads)
        self.nthreads = nthreads

    def total(self, t=None):
        if t is None:
            return sum(self.total(u) for u in range(self.nthreads))
        return sum(self.comp[c][t] for c in COMPONENTS)

    def component(self, name, t=None):
        vals = self.comp[name]
        return sum(vals) if t is None else vals[t]

    def category(self, components, t=None):
        return sum(self.component(c, t) for c in components)

    def overhead(self, t=None):
        """Overhead: the time that is neither work nor serial code."""
        return sum(self.category(cs, t) for _, cs in OVERHEAD_CATEGORIES)


class Analysis:
    """Breakdown of a whole profile: program scope, each parallel region, fj per thread,
    and per (region, component) sources for ranking."""

    def __init__(self, profile: Profile):
        self.profile = p = profile
        nt = p.nthreads
        self.shares = task_tree_shares(p)
        # fork/join gaps: per parallel node, per thread
        self.fj = {}
        moved = {}          # (parent node id, t) -> self time already moved out
        self.fj_moved = {}  # parallel node -> per-thread part moved from the parent
        for P in p.parallel_nodes():
            team = [t for t in p.threads if P.visits[t] > 0]
            if not team:
                continue
            # a team per process: a job's profile holds the region's teams of all ranks
            window = {}
            for t in team:
                r = p.thread_ranks[t]
                window[r] = max(window.get(r, 0.0), P.incl[t])
            gaps = [0.0] * nt
            mv = [0.0] * nt
            for t in team:
                gaps[t] = max(0.0, window[p.thread_ranks[t]] - P.incl[t])
                par = P.parent
                if par is not None and par.visits[t] > 0 and gaps[t] > 0:
                    key = (id(par), t)
                    avail = max(0.0, par.excl[t] - moved.get(key, 0.0))
                    mv[t] = min(gaps[t], avail)
                    moved[key] = moved.get(key, 0.0) + mv[t]
            self.fj[id(P)] = gaps
            self.fj_moved[id(P)] = mv
        self._moved_from = moved
        self.program = self._scope("program", None, p.main_nodes)
        self.regions = [self._scope(P.label, P, list(P.walk())) for P in p.parallel_nodes()
                        if id(P) in self.fj]
        self.sources = self._sources()

    def _split_self(self, n, comp):
        """Add node n's self time on every thread to comp (stubs split by task shares)."""
        c = classify(n)
        for t, v in enumerate(n.excl):
            moved = self._moved_from.get((id(n), t), 0.0) if self._moved_from else 0.0
            if moved:
                comp["forkjoin"][t] += moved
                v -= moved
            if c != "stub":
                comp[c][t] += v
                continue
            share = self.shares.get(n.name)
            tot = sum(share[k][t] for k in COMPONENTS) if share else 0.0
            if tot <= 0.0:
                comp["work"][t] += v
                continue
            for k in COMPONENTS:
                comp[k][t] += v * share[k][t] / tot

    def _scope(self, name, node, nodes):
        p = self.profile
        b = Breakdown(name, node, p.nthreads)
        for n in nodes:
            self._split_self(n, b.comp)
        # fork/join gaps that lie outside measured time (workers) join the total
        for n in nodes:
            if n.role == "parallel" and id(n) in self.fj:
                gaps, mv = self.fj[id(n)], self.fj_moved[id(n)]
                for t in p.threads:
                    b.comp["forkjoin"][t] += gaps[t] - mv[t]
        if node is not None:
            # the moved part of this region's own gap comes from its parent, outside
            # the scope's nodes: count it here too, so T = team size x window
            mv = self.fj_moved[id(node)]
            for t in p.threads:
                b.comp["forkjoin"][t] += mv[t]
        return b

    def _sources(self):
        """(region, component) -> seconds, from main and task trees' self times."""
        p = self.profile
        src = {}
        for n in p.main_nodes + p.task_nodes:
            c = classify(n)
            if c in ("work", "stub", "serial"):
                continue
            key = (n.region.id, c)
            src[key] = src.get(key, 0.0) + sum(n.excl)
        for P in p.parallel_nodes():
            if id(P) in self.fj:
                key = (P.region.id, "forkjoin")
                src[key] = src.get(key, 0.0) + sum(self.fj[id(P)])
        return src

    def coverage(self):
        """Parallel coverage: outermost parallel windows / wall time."""
        p = self.profile
        wall = p.wall_time
        if wall <= 0:
            return 0.0
        cov = 0.0
        for P in p.parallel_nodes():
            if any(a.role == "parallel" for a in P.ancestors()):
                continue
            team = [t for t in p.threads if P.visits[t] > 0] or p.threads
            cov += max(P.incl[t] for t in team)
        return cov / wall
