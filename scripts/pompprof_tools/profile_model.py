"""A per-thread view of a profile for the analyses: one :class:`Node` per cnode with
visits, inclusive and exclusive time per thread, plus the roles the analyses need
(stub, task root, TASKS node, worksharing construct, ...).

Works on pompprof's and on the reference implementation's profiles alike: both use the
metrics ``visits`` (UINT64 EXCLUSIVE), ``time`` (DOUBLE INCLUSIVE), ``min_time`` /
``max_time`` (MIN/MAXDOUBLE EXCLUSIVE) and the region naming/roles of Score-P's OPARI2
adapter.  Only ``time`` is required; a missing ``visits`` metric reads as zero visits.

Tree shape (CubeLib's view): the main tree below each root, without the root's ``TASKS``
child; the task tree: the TASKS node(s) and one subtree per task construct below them.
A *stub* is a node of a task region (role ``task``/``untied task``) that is not a task root:
it holds the time a thread spent executing such tasks at that scheduling point.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterator

from .cubex import Cnode, CubexError, Region, load

TASK_ROLES = ("task", "untied task")
WORKSHARING_ROLES = ("loop", "sections", "workshare", "single")
LOCK_ENTER = ("omp_set_lock", "omp_set_nest_lock", "omp_test_lock", "omp_test_nest_lock")
LOCK_EXIT = ("omp_unset_lock", "omp_unset_nest_lock")
LOCK_FUNCS = LOCK_ENTER + LOCK_EXIT + ("omp_init_lock", "omp_destroy_lock",
                                       "omp_init_nest_lock", "omp_destroy_nest_lock")


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
                 "kind", "nested")
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

    def _node(self, cnode: Cnode, parent: Node | None, tree: str) -> Node:
        cube = self.cube
        node = Node(cnode, parent, tree, parent.depth + 1 if parent else 0,
                    [float(v) for v in cube.inclusive_row(self.time_metric, cnode)],
                    [float(v) for v in cube.exclusive_row(self.time_metric, cnode)],
                    (list(cube.exclusive_row("visits", cnode)) if self.has_visits
                     else [0] * cube.nlocs),
                    [], "node", False)
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
        return [m.uniq_name for m in self.cube.metrics if m.has_data]

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

    def max_active_tasks(self) -> list[int] | None:
        """Per thread maximum of concurrently active task instances (pompprof metric
        `max_active_tasks`, stored at the TASKS node), or None."""
        if not self.cube.has_metric("max_active_tasks") or not self.tasks_nodes:
            return None
        out = [0] * self.nthreads
        for tn in self.tasks_nodes:
            row = self.cube.row("max_active_tasks", tn.cnode)
            for t in self.threads:
                out[t] = max(out[t], row[t])
        return out

    # ---- helpers ------------------------------------------------------------------------
    def nodes_of_region(self, region_id: int, include_stubs: bool = False) -> Iterator[Node]:
        for n in self.main_nodes + self.task_nodes:
            if n.region.id == region_id and (include_stubs or n.kind != "stub"):
                yield n

    def parallel_nodes(self) -> list[Node]:
        return [n for n in self.main_nodes if n.role == "parallel"]


def region_label(region: Region) -> str:
    """ompP-style region description, e.g. `tasks.c (10-11) TASK`."""
    kind = region.role.upper()
    if is_lock_region(region):
        kind = "LOCK API"
    elif region.role in ("user", "function"):
        kind = "USER REGION"
    elif region.role == "artificial":
        kind = "PROGRAM" if region.paradigm == "measurement" else "ARTIFICIAL"
    f = os.path.basename(region.mod) if region.mod and region.mod != "OMP" else ""
    if f and region.begin > 0:
        loc = "%s (%d-%d)" % (f, region.begin, region.end)
    elif f:
        loc = f
    else:
        loc = ""
    return ("%s %s" % (loc, kind)).strip()
