"""A per-thread view of a profile for the analyses: one :class:`Node` per cnode with
visits, inclusive and exclusive time per thread, plus the roles the analyses need
(stub, task root, TASKS node, worksharing construct, ...).

Works on pompprof's and on the reference implementation's profiles alike: both use the
metrics ``visits`` (UINT64 EXCLUSIVE), ``time`` (DOUBLE INCLUSIVE), ``min_time`` /
``max_time`` (MIN/MAXDOUBLE EXCLUSIVE) and the region naming/roles of Score-P's OPARI2
adapter.  Only ``time`` is required; a missing ``visits`` metric reads as zero visits.
Every other additive metric (PAPI counters, stored exclusive by pompprof and inclusive by
the reference) is a *counter*; :data:`RATES` names the ratios of two counters the tools
show (instructions per cycle, ...).

Everything is indexed once (by region, by task construct), so the tools stay linear in
the size of the profile.

Tree shape (CubeLib's view): the main tree below each root, without the root's ``TASKS``
child; the task tree: the TASKS node(s) and one subtree per task construct below them.
A *stub* is a node of a task region (role ``task``/``untied task``) that is not a task root:
it holds the time a thread spent executing such tasks at that scheduling point.
Parameters split a call path into siblings of the same region (params.py); a task
construct split by a parameter has one task root per combination of values.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterator

from ..cube import params
from ..cube.cubex import Cnode, CubexError, Region, load

TASK_ROLES = ("task", "untied task")
WORKSHARING_ROLES = ("loop", "sections", "workshare", "single")
LOCK_ENTER = ("omp_set_lock", "omp_set_nest_lock", "omp_test_lock", "omp_test_nest_lock")
LOCK_EXIT = ("omp_unset_lock", "omp_unset_nest_lock")
LOCK_FUNCS = LOCK_ENTER + LOCK_EXIT + ("omp_init_lock", "omp_destroy_lock",
                                       "omp_init_nest_lock", "omp_destroy_nest_lock")


# metrics that are not counters: the time metrics, the task figures and the bytes of
# the MPI calls (report_mpi.py shows those)
NOT_COUNTERS = ("visits", "time", "min_time", "max_time", "max_active_tasks", "bytes_sent",
                "bytes_received")

# Ratios of two counters: (label, description, numerator names, denominator names); a
# rate is shown when the profile has one name of each list.
RATES = (
    ("IPC", "instructions per cycle",
     ("PAPI_TOT_INS", "perf::INSTRUCTIONS", "perf::PERF_COUNT_HW_INSTRUCTIONS"),
     ("PAPI_TOT_CYC", "perf::CYCLES", "perf::CPU-CYCLES", "perf::PERF_COUNT_HW_CPU_CYCLES")),
    ("L1miss", "L1 data cache misses per access", ("PAPI_L1_DCM",), ("PAPI_L1_DCA",)),
    ("L2miss", "L2 data cache misses per access", ("PAPI_L2_DCM",), ("PAPI_L2_DCA",)),
    ("BRmiss", "mispredicted per conditional branch", ("PAPI_BR_MSP",), ("PAPI_BR_CN",)),
    ("FLOPc", "floating-point operations per cycle", ("PAPI_FP_OPS", "PAPI_DP_OPS"),
     ("PAPI_TOT_CYC",)),
)


@dataclass(frozen=True)
class Rate:
    """A ratio of two counters of a profile."""
    label: str
    description: str
    numerator: str      # counter names (display names)
    denominator: str

    def value(self, counts: dict):
        den = counts.get(self.denominator)
        num = counts.get(self.numerator)
        return num / den if den and num is not None else None


def counter_label(name: str) -> str:
    """A short column title for a counter: without the PAPI_/perf:: prefix or component."""
    for prefix in ("PAPI_", "perf::"):
        if name.startswith(prefix):
            return name[len(prefix):]
    return name.split(":::", 1)[-1]


def is_lock_region(region: Region) -> bool:
    return region.name in LOCK_FUNCS and region.role in ("wrapper", "function", "unknown")


def task_key(region: Region) -> tuple[str, int, int]:
    """Source location identifying a task construct; the matching `create task` region
    has the same one (reference naming: `!$omp task @f.c:10` / `!$omp create task @f.c:10`)."""
    return (region.mod, region.begin, region.end)


@dataclass(eq=False, repr=False)
class Node:
    """One call path with per-thread values (lists indexed by location id)."""
    __slots__ = ("cnode", "parent", "tree", "depth", "incl", "excl", "visits", "children",
                 "kind", "nested", "outside")
    cnode: Cnode
    parent: Node | None
    tree: str                   # 'main' or 'tasks'
    depth: int                  # 0 for a root; a TASKS node is a root's child
    incl: list[float]           # inclusive time
    excl: list[float]           # exclusive time
    visits: list[int]
    children: list[Node]        # main-tree semantics: a root's TASKS nodes are not here
    kind: str                   # 'node', 'stub', 'taskroot' or 'TASKS'
    nested: bool                # an ancestor has the same region (recursion)
    outside: bool               # main tree, outside every parallel region (serial code)

    @property
    def region(self) -> Region:
        return self.cnode.region

    @property
    def name(self) -> str:
        return self.region.name

    @property
    def role(self) -> str:
        return self.region.role

    @property
    def label(self) -> str:
        """The name with the call path's parameters, `name (depth=3)` (params.label)."""
        return params.label(self.name, self.cnode)

    @property
    def path(self) -> tuple[str, ...]:
        """Region names from the root, built on demand (one stored per node would take
        memory quadratic in the depth of the tree)."""
        names = [self.name] + [a.name for a in self.ancestors()]
        return tuple(reversed(names))

    def walk(self) -> Iterator[Node]:
        """This node and its descendants, pre-order."""
        stack = [self]
        while stack:
            n = stack.pop()
            yield n
            stack.extend(reversed(n.children))

    def ancestors(self) -> Iterator[Node]:
        n = self.parent
        while n is not None:
            yield n
            n = n.parent

    def __repr__(self):
        return "Node(%d, %r, %s)" % (self.cnode.id, self.name, self.kind)


class Profile:
    """Everything the tools need from one profile."""

    def __init__(self, path: str):
        self.cube = cube = load(path)
        self.path = cube.path
        if not cube.has_metric("time"):
            raise CubexError("%s: no 'time' metric in this profile" % cube.path)
        self.time_metric = cube.metric("time")
        if self.time_metric.type not in ("INCLUSIVE", "EXCLUSIVE", "SIMPLE"):
            raise CubexError("%s: metric 'time' stores no data (type %s)"
                             % (cube.path, self.time_metric.type))
        self.nthreads = cube.nlocs
        self.threads = list(range(cube.nlocs))
        names = {loc.id: loc.name for loc in cube.locations}
        self.thread_names = [names.get(i, "location %d" % i) for i in self.threads]
        # the rank of each location's process (a job's profile holds every rank's
        # threads; 0 for a profile without process ranks)
        ranks = {loc.id: loc.group_rank for loc in cube.locations}
        self.thread_ranks = [ranks.get(i, 0) for i in self.threads]
        self.has_visits = cube.has_metric("visits") and cube.metric("visits").type in (
            "INCLUSIVE", "EXCLUSIVE", "SIMPLE")
        self.roots: list[Node] = []
        self.tasks_nodes: list[Node] = []
        self.task_roots: list[Node] = []
        self.main_nodes: list[Node] = []    # pre-order, all roots
        self.task_nodes: list[Node] = []    # pre-order below the TASKS node(s), TASKS included
        self.by_cnode: dict[int, Node] = {}
        for r in cube.roots:
            root = self._build(r, None, "main")
            self.roots.append(root)
            for t in r.children:
                if cube.is_tasks_node(t):
                    tn = self._build(t, root, "tasks")
                    tn.kind = "TASKS"
                    self.tasks_nodes.append(tn)
        for n in self.roots:
            self.main_nodes.extend(n.walk())
        for t in self.tasks_nodes:
            self.task_nodes.extend(t.walk())
            for tr in t.children:
                tr.kind = "taskroot"
                self.task_roots.append(tr)
        for n in self.main_nodes + self.task_nodes:
            if n.kind == "node" and n.role in TASK_ROLES:
                n.kind = "stub"
        self._mark_nested()
        for n in self.main_nodes:           # pre-order: the parent is marked first
            n.outside = n.role != "parallel" and (n.parent is None or n.parent.outside)
        # indexes: region id -> nodes of that region (pre-order, main tree first);
        # task-construct source location -> its `create task` nodes
        self.by_region: dict[int, list[Node]] = {}
        self.creates_by_key: dict[tuple, list[Node]] = {}
        for n in self.main_nodes + self.task_nodes:
            self.by_region.setdefault(n.region.id, []).append(n)
            if n.role == "task create":
                self.creates_by_key.setdefault(task_key(n.region), []).append(n)
        self._has_min_max = all(cube.has_metric(n) and cube.metric(n).type in
                                ("INCLUSIVE", "EXCLUSIVE", "SIMPLE")
                                for n in ("min_time", "max_time"))
        self.counters = [m for m in cube.metrics
                         if m.has_data and m.uniq_name not in NOT_COUNTERS
                         and m.aggregation == "sum" and m.type in ("INCLUSIVE", "EXCLUSIVE",
                                                                   "SIMPLE")]
        names = [self.counter_name(m) for m in self.counters]
        self.rates = []
        for label, descr, nums, dens in RATES:
            num = next((n for n in nums if n in names), None)
            den = next((n for n in dens if n in names), None)
            if num and den:
                self.rates.append(Rate(label, descr, num, den))

    def _node(self, cnode: Cnode, parent: Node | None, tree: str) -> Node:
        cube = self.cube
        node = Node(cnode, parent, tree, parent.depth + 1 if parent else 0,
                    [float(v) for v in cube.inclusive_row(self.time_metric, cnode)],
                    [float(v) for v in cube.exclusive_row(self.time_metric, cnode)],
                    (list(cube.exclusive_row("visits", cnode)) if self.has_visits
                     else [0] * cube.nlocs),
                    [], "node", False, False)
        self.by_cnode[cnode.id] = node
        return node

    def _build(self, cnode: Cnode, parent: Node | None, tree: str) -> Node:
        """Build the Node subtree (main-tree semantics: a root skips its TASKS children)."""
        node = self._node(cnode, parent, tree)
        stack = [(node, self.cube.main_children(cnode))]
        while stack:
            parent_node, kids = stack.pop()
            for ch in kids:
                n = self._node(ch, parent_node, tree)
                parent_node.children.append(n)
                stack.append((n, ch.children))
        return node

    def _mark_nested(self) -> None:
        """Set Node.nested in one walk: count, per region, the open ancestors."""
        open_count: dict[int, int] = {}
        for root in self.roots:
            tasks = [t for t in self.tasks_nodes if t.parent is root]
            stack = [(root, False)]
            while stack:
                n, leaving = stack.pop()
                rid = n.region.id
                if leaving:
                    open_count[rid] -= 1
                    continue
                n.nested = open_count.get(rid, 0) > 0
                open_count[rid] = open_count.get(rid, 0) + 1
                stack.append((n, True))
                kids = n.children + tasks if n is root else n.children
                stack.extend((c, False) for c in reversed(kids))

    # ---- header information ----------------------------------------------------------
    @property
    def program(self):
        p = self.cube.attrs.get("pompprof::program")
        if p:
            return p
        return self.roots[0].name if self.roots else "?"

    @property
    def date(self):
        return self.cube.attrs.get("pompprof::date", "")

    def root_incl(self, t: int) -> float:
        return sum(r.incl[t] for r in self.roots)

    @property
    def wall_time(self):
        w = self.cube.attrs.get("pompprof::wall_time")
        if w:
            try:
                return float(w)
            except ValueError:
                pass
        return max((self.root_incl(t) for t in self.threads), default=0.0)

    @property
    def metric_names(self):
        """The metrics as the user knows them: a counter by the name given in
        POMPPROF_METRICS (perf::PAGE-FAULTS, not its file name perf__PAGE_FAULTS), the
        others by their CUBE name."""
        counters = {id(m) for m in self.counters}
        return [self.counter_name(m) if id(m) in counters else m.uniq_name
                for m in self.cube.metrics if m.has_data]

    # ---- values of other metrics -------------------------------------------------------
    def min_max(self, node: Node, t: int) -> tuple[float, float] | None:
        """(min, max) inclusive time of one visit on thread t, None when not visited."""
        if node.visits[t] <= 0 or not (self.cube.has_metric("min_time")
                                       and self.cube.has_metric("max_time")):
            return None
        try:
            return (float(self.cube.stored("min_time", node.cnode, t)),
                    float(self.cube.stored("max_time", node.cnode, t)))
        except CubexError:
            return None

    def min_max_rows(self, node: Node) -> list[tuple[int, float, float]]:
        """(thread, min, max) inclusive time of one visit, for the threads that visited."""
        if not self._has_min_max:
            return []
        cube = self.cube
        mins, maxs = cube.row("min_time", node.cnode), cube.row("max_time", node.cnode)
        return [(t, float(mins[t]), float(maxs[t])) for t in self.threads if node.visits[t] > 0]

    def max_active_tasks(self) -> list[int] | None:
        """Per thread maximum of concurrently active task instances (pompprof metric
        `max_active_tasks`, read at the TASKS node), or None."""
        if not self.cube.has_metric("max_active_tasks") or not self.tasks_nodes:
            return None
        out = [0] * self.nthreads
        for tn in self.tasks_nodes:
            row = self.cube.row("max_active_tasks", tn.cnode)
            for t in self.threads:
                out[t] = max(out[t], int(row[t]))
        return out

    # ---- counters -----------------------------------------------------------------------
    @staticmethod
    def counter_name(metric) -> str:
        """A counter's name as the user gave it (PAPI's spelling, e.g. perf::PAGE-FAULTS)."""
        return metric.disp_name or metric.uniq_name

    def counter_incl(self, node: Node, metric) -> list:
        """Per-thread counts of a call path and its callees."""
        return self.cube.inclusive_row(metric, node.cnode)

    def counter_excl(self, node: Node, metric) -> list:
        """Per-thread counts of a call path itself."""
        return self.cube.exclusive_row(metric, node.cnode)

    # ---- helpers ------------------------------------------------------------------------
    def nodes_of_region(self, region_id: int, include_stubs: bool = False) -> list[Node]:
        nodes = self.by_region.get(region_id, [])
        return nodes if include_stubs else [n for n in nodes if n.kind != "stub"]

    def creates_of(self, task_region: Region) -> list[Node]:
        """The `create task` nodes of a task construct (same source location)."""
        return self.creates_by_key.get(task_key(task_region), [])

    def parallel_nodes(self) -> list[Node]:
        return [n for n in self.main_nodes if n.role == "parallel"]


def region_label(region: Region) -> str:
    """ompP-style region description, e.g. `tasks.c (10-11) TASK`."""
    kind = region.role.upper()
    if region.paradigm == "mpi":
        kind = "MPI " + kind
    elif region.paradigm == "compiler":
        kind = "FUNCTION"       # pompprof --functions (doc/functions.md)
    elif is_lock_region(region):
        kind = "LOCK API"
    elif region.role in ("user", "function"):
        kind = "USER REGION"
    elif region.role == "artificial":
        kind = "PROGRAM" if region.paradigm == "measurement" else "ARTIFICIAL"
    # "OMP" and "MPI" name the module of the lock wrappers and MPI functions, no file
    f = os.path.basename(region.mod) if region.mod not in ("", "OMP", "MPI") else ""
    if f and region.begin > 0:
        loc = "%s (%d-%d)" % (f, region.begin, region.end)
    elif f:
        loc = f
    else:
        loc = ""
    return ("%s %s" % (loc, kind)).strip()
