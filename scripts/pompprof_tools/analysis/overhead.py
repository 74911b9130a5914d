"""Overhead analysis shared by pompprof-report, pompprof-scaling and pompprof-diff.

The time of every thread is split into disjoint *components*; the split adds up exactly
to the thread time T (all sums are over threads, per scope):

  T(scope) = sum_t [ incl(scope node, t) + fj(t) ]       (for the program: all roots)

Every call path's *self* (exclusive) time on a thread goes to one component by its region:

  barrier     explicit `barrier`, and an `implicit barrier` that does not end a
              worksharing construct, parallel region or single
  taskwait    `taskwait`
  lockcrit    `critical` and `ordered` minus their sblock child (= enter + exit time),
              the OpenMP lock API (omp_set_lock, omp_unset_lock, ...)
  imbalance   `implicit barrier` ending a loop/sections/workshare or the parallel region
  limpar      `implicit barrier` ending a single (threads wait while one thread works)
  create      `task create`
  mpi         an MPI function (paradigm `mpi`: libpompprof_mpi's regions, doc/mpi.md)
  work        everything else (user code, sblocks, loop bodies, ...)
  stub        a task region below a scheduling point (time executing tasks there): it is
              split by the shares of the components inside that task construct's tree on
              the same thread (task bodies' own work, taskwait, create, ...), so task-body
              time ends up as work and their internal waiting as overhead.
Since exclusive values telescope, barrier/taskwait components contain only time *not*
spent executing tasks (stubs are their children).

fj (fork/join, ompP's startupT + shutdownT; the profile cannot separate them): for a
parallel region P with team threads u (visits > 0), window = max_u incl(P, u) and
fj(u) = window - incl(P, u) >= 0.  For a thread that executed P's parent (visits > 0
there, i.e. the master) that gap lies inside the parent's self time and is moved from
there (up to the available self time); for the other threads it lies outside their
measured time and is added to T.  So a parallel region's T equals
team size x window, exactly as in ompP.

The categories (CATEGORIES below: the one definition report, scaling and diff use, and
the README's table) group the components: synchronization = barrier + taskwait + lockcrit,
imbalance, limited parallelism = limpar, thread management = fj + create, MPI
communication = mpi (hybrid programs), and work.

Parallel coverage = sum over outermost parallel regions of their window / wall time.
"""

from __future__ import annotations

from .profile_model import Node, Profile, is_lock_region

COMPONENTS = ("work", "barrier", "taskwait", "lockcrit", "imbalance", "limpar",
              "create", "forkjoin", "mpi")

class Category:
    """An overhead category: its name, the short column title every tool uses, the
    components it sums and what it means (the one definition the tools' help texts and
    the README's table are made from)."""
    __slots__ = ("name", "short", "components", "definition")

    def __init__(self, name, short, components, definition):
        self.name, self.short = name, short
        self.components, self.definition = components, definition


# The one vocabulary of pompprof-report, pompprof-scaling and pompprof-diff (ompP's four
# overhead categories, work, and MPI beside them).  taskwait waiting is synchronization
# everywhere; task creation is thread management.
CATEGORIES = (
    Category("work", "work", ("work",),
             "user code and task bodies: everything that is not overhead"),
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
MPI = CATEGORIES[-1].name            # shown only when a profile has MPI time
REPORT_CATEGORIES = SCALING_CATEGORIES = tuple((c.name, c.components) for c in CATEGORIES)
OVERHEAD_CATEGORIES = tuple(c for c in REPORT_CATEGORIES if c[0] != "work")


def category_times(breakdown) -> dict[str, float]:
    """A Breakdown's seconds (summed over threads) per category name."""
    return {name: breakdown.category(comps) for name, comps in REPORT_CATEGORIES}


# pompprof-timeline's breakdown of a trace is POT's: work, overhead (not working while a
# task was ready), idleness (no task was ready).  That measures something other than the
# categories above, which split a profile's time by the construct it went to; its
# overhead parts are the categories' time *while a task was ready*.  Each part: its key
# in pompprof-replay's result, its column, the category it is part of (None: in none)
# and what it holds.
TIMELINE_OVERHEAD = (
    ("overhead_create", "create", "thread management", "task creation"),
    ("overhead_switch", "switch", "synchronization",
     "waiting at a scheduling point (taskwait, barrier) while a task was ready"),
    ("overhead_sync", "lockcrit", "synchronization",
     "blocked entering a critical section or lock while a task was ready"),
    ("overhead_flush", "flush", None, "the trace's own buffer flushes (pompprof's time)"),
)


def timeline_categories(total: dict) -> dict[str, float]:
    """The timeline's overhead parts (a breakdown row of pompprof-replay) summed per
    category name: the categories' time while a task was ready."""
    out: dict[str, float] = {}
    for key, _, cat, _ in TIMELINE_OVERHEAD:
        if cat:
            out[cat] = out.get(cat, 0.0) + total.get(key, 0.0)
    return out


def timeline_legend(width: int = 88) -> str:
    """The timeline's --help lines on its overhead parts and their categories."""
    import textwrap
    lines = []
    for _, col, cat, what in TIMELINE_OVERHEAD:
        where = ("part of %s (%s)" % (cat, SHORT[cat])) if cat else "in no category"
        lines.extend(textwrap.wrap("%s; %s" % (what, where), width,
                                   initial_indent="  %-9s" % col, subsequent_indent=" " * 11))
    return "\n".join(lines)


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
    if node.kind == "stub":
        return "stub"
    if node.kind == "TASKS":
        return "work"
    if node.region.paradigm == "mpi":   # before the roles: MPI_Barrier's is `barrier`
        return "mpi"
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
            window = max(P.incl[t] for t in team)
            gaps = [0.0] * nt
            mv = [0.0] * nt
            for t in team:
                gaps[t] = max(0.0, window - P.incl[t])
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
            if c in ("work", "stub"):
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
