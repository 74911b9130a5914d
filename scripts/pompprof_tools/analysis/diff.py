"""pompprof-diff: per call path difference b - a of two profiles.

Call paths are matched by their region path (names from the root, not ids) and their
parameters (`name (depth=3)`, whatever order a file lists them in: params.key_label); the
task tree is matched the same way (paths through `TASKS`).  Sibling call paths of the same
region and parameters (which CubeLib allows) are told apart by their order (`name#2`, ...).

For every additive metric (dtype not MIN/MAXDOUBLE; min/max per visit are not
differences of costs) present in either profile, per path:  a = sum over a's threads,
b = sum over b's threads, delta = b - a; when the thread counts differ also the per-thread
means and their difference.  Values are exclusive (self) values by default, inclusive with
--inclusive.  Paths present in only one profile are marked `only in a` / `only in b`.
Counters (PAPI events) are metrics like the others; a rate of two counters
(profile_model.RATES, e.g. IPC) present in both profiles is compared too, as the rate of
the summed counts.  The table is sorted by metric (time, visits, others), then by
absolute change of the total (summed over threads), with the change in %; when thread
counts differ the per-thread means of times are a column (counts keep count semantics:
their totals are compared, never means).  The run facts (runfacts.py) are compared first.

The text shows each row's call path by a number and its last region (`tree` says whether
it is in the call tree or below TASKS); the paths are listed in full below the table.

-o FILE writes the difference as a .cubex: the union of both call trees, every additive
metric as DOUBLE with its original type (INCLUSIVE metrics store inclusive differences,
which keeps exclusive = inclusive - children exact), one location per thread when the
thread counts agree, else a single location `sum`.
"""

from __future__ import annotations

import argparse
import sys

from ..cube import params
from . import textfmt as tf
from ..cli import ToolError, main_guard
from ..cube.cubex import Metric
from ..cube.cubex_write import CubeWriter
from . import runfacts
from .overhead import CATEGORIES, MPI, Analysis, category_times
from .profile_model import Profile, counter_label

EPILOG = """\
categories: the whole program's time per overhead category, the same categories (and
definitions) as pompprof-report's and pompprof-scaling's (see pompprof-report --help).
values: exclusive (--inclusive: inclusive) per call path, summed over threads; delta = b - a,
% = delta / a.  Rows are sorted by the absolute change of the total.  When the thread
counts differ, the per-thread means of times are shown too (d.mean); counts (visits,
instances, counter events) compare as totals.  MIN/MAXDOUBLE metrics (min_time,
max_time) are not diffed.  The run facts are compared first: different programs are
refused (--force compares anyway; binaries of one program measured by two event sources are
one program when their constructs lie in the same source files), different arguments, hosts or OMP settings, an
interrupted or oversubscribed run are warned about.  A diff of a profile with itself is
zero everywhere.
"""


class PathTable:
    """Call paths of both profiles as small integer keys: a path is its parent's key plus
    a label (the region name, `name#2`, ... for a repeated name among siblings).  Paths
    are spelled out only for the rows shown (a deep tree's spelled paths take memory
    quadratic in its depth)."""

    def __init__(self):
        self.parent: list[int | None] = []
        self.label: list[str] = []
        self._key: dict[tuple[int | None, str], int] = {}

    def key(self, parent: int | None, label: str) -> int:
        k = self._key.get((parent, label))
        if k is None:
            k = self._key[(parent, label)] = len(self.label)
            self.parent.append(parent)
            self.label.append(label)
        return k

    def path(self, key: int) -> list[str]:
        out = []
        k: int | None = key
        while k is not None:
            out.append(self.label[k])
            k = self.parent[k]
        out.reverse()
        return out


def path_keys(profile: Profile, table: PathTable, root_label: str | None = None) -> dict[int, int]:
    """Map id(node) -> its key in table; duplicates among siblings numbered.  root_label:
    the label of the program roots (two binaries of one program: one root)."""
    keys = {}

    def assign(nodes, parent):
        seen = {}
        for n in nodes:
            label = params.key_label(n.name, n.cnode)
            if parent is None and root_label is not None:
                label = root_label
            k = seen.get(label, 0) + 1
            seen[label] = k
            keys[id(n)] = table.key(parent, label if k == 1 else "%s#%d" % (label, k))

    assign(profile.roots, None)
    for n in profile.main_nodes:
        kids = list(n.children)
        if n.parent is None:
            kids = kids + [t for t in profile.tasks_nodes if t.parent is n]
        assign(kids, keys[id(n)])
    for n in profile.task_nodes:
        assign(n.children, keys[id(n)])
    return keys


def additive_metrics(profile: Profile) -> list[Metric]:
    return [m for m in profile.cube.metrics
            if m.has_data and m.type in ("INCLUSIVE", "EXCLUSIVE", "SIMPLE") and m.aggregation == "sum"
            and m.dtype in ("DOUBLE", "FLOAT", "UINT64", "INT64", "UINT32", "INT32",
                            "UINT16", "INT16", "UINT8", "INT8", "INTEGER", "TAU_ATOMIC",
                            "UNSIGNED INTEGER", "SIGNED INTEGER")]


class Diff:
    """b - a per call path; rows() carry the path as a PathTable key until
    spelled_out() replaces it with the list of region names."""

    def __init__(self, a: Profile, b: Profile, inclusive: bool = False,
                 metrics: list[str] | None = None):
        self.a, self.b = a, b
        self.warnings: list[str] = []
        self.categories: list[dict] = []
        self.inclusive = inclusive
        self.paths = PathTable()
        # two binaries of one program (runfacts.one_program): one program root
        names = (a.roots[0].name if a.roots else None, b.roots[0].name if b.roots else None)
        root = ("%s | %s" % names if names[0] != names[1] and runfacts.one_program([a, b])
                else None)
        self.keys_a, self.keys_b = path_keys(a, self.paths, root), path_keys(b, self.paths, root)
        ma = {m.uniq_name: m for m in additive_metrics(a)}
        mb = {m.uniq_name: m for m in additive_metrics(b)}
        names = [n for n in ma] + [n for n in mb if n not in ma]
        if metrics:
            rates = {r.label for r in a.rates} | {r.label for r in b.rates}
            counters = {Profile.counter_name(m): n for n, m in list(ma.items()) + list(mb.items())}
            metrics = [counters.get(n, n) for n in metrics]
            missing = [n for n in metrics if n not in ma and n not in mb and n not in rates]
            if missing:
                raise ToolError("metric '%s' is in neither profile (or not additive)"
                                % missing[0])
            names = [n for n in names if n in metrics]
        # "time" first, then visits, then the rest in definition order
        order = {"time": 0, "visits": 1}
        position = {n: i for i, n in enumerate(names)}
        self.metric_names = sorted(names, key=lambda n: (order.get(n, 2), position[n]))
        self.ma, self.mb = ma, mb
        # rates both profiles can show: of their counters, by display name
        self.ca = {Profile.counter_name(m): m for m in a.counters}
        self.cb = {Profile.counter_name(m): m for m in b.counters}
        labels_b = {r.label for r in b.rates}
        self.rates = [r for r in a.rates if r.label in labels_b
                      and (not metrics or r.label in metrics)]
        self._build_union()

    def display_name(self, name):
        """A metric's name as the user knows it (a counter's PAPI name)."""
        m = self.mb.get(name) or self.ma.get(name)
        return Profile.counter_name(m) if m is not None else name

    def _build_union(self):
        """Union tree: a's nodes in a's order, b's extra nodes appended where they attach."""
        self.union = {}         # key -> dict(key, region, children keys, node a, node b)
        self.order_roots = []

        def add(profile, keys, side):
            nodes = profile.main_nodes + profile.task_nodes
            for n in nodes:
                k = keys[id(n)]
                u = self.union.get(k)
                if u is None:
                    u = {"key": k, "region": n.region, "children": [], "a": None, "b": None}
                    self.union[k] = u
                    parent = self.paths.parent[k]
                    if parent is None:
                        self.order_roots.append(k)
                    else:
                        self.union[parent]["children"].append(k)
                u[side] = n

        add(self.a, self.keys_a, "a")
        add(self.b, self.keys_b, "b")

    def _values(self, profile, metric, node, inclusive):
        if node is None or metric is None:
            return None
        cube = profile.cube
        row = (cube.inclusive_row(metric, node.cnode) if inclusive
               else cube.exclusive_row(metric, node.cnode))
        return [float(v) for v in row]

    def keys_in_order(self):
        out = []
        stack = list(reversed(self.order_roots))
        while stack:
            k = stack.pop()
            out.append(k)
            stack.extend(reversed(self.union[k]["children"]))
        return out

    def _rate(self, profile, counters, rate, node):
        num = self._values(profile, counters.get(rate.numerator), node, self.inclusive)
        den = self._values(profile, counters.get(rate.denominator), node, self.inclusive)
        return sum(num) / sum(den) if num and den and sum(den) else None

    def rows(self):
        na, nb = self.a.nthreads, self.b.nthreads
        out = []
        for k in self.keys_in_order():
            u = self.union[k]
            status = ("only in a" if u["b"] is None else "only in b" if u["a"] is None else "")
            tree = "TASKS" if (u["a"] or u["b"]).tree == "tasks" else "call"
            for name in self.metric_names:
                va = self._values(self.a, self.ma.get(name), u["a"], self.inclusive)
                vb = self._values(self.b, self.mb.get(name), u["b"], self.inclusive)
                sa = sum(va) if va else 0.0
                sb = sum(vb) if vb else 0.0
                row = {"path": k, "tree": tree, "metric": name, "a": sa, "b": sb,
                       "delta": sb - sa, "pct": 100.0 * (sb - sa) / sa if sa else None,
                       "status": status}
                if na != nb and self._is_time(name):
                    # per-thread means only for times; a count (visits, instances,
                    # counter events) keeps count semantics: its total is what changed
                    row["a_mean"], row["b_mean"] = sa / na, sb / nb
                    row["delta_mean"] = sb / nb - sa / na
                out.append(row)
            for rate in self.rates:
                ra = self._rate(self.a, self.ca, rate, u["a"])
                rb = self._rate(self.b, self.cb, rate, u["b"])
                if ra is None and rb is None:
                    continue
                row = {"path": k, "tree": tree, "metric": rate.label, "a": ra, "b": rb,
                       "delta": (rb or 0.0) - (ra or 0.0) if ra is not None and rb is not None
                       else None, "status": status, "rate": True}
                row["pct"] = (100.0 * row["delta"] / ra if row["delta"] is not None and ra
                              else None)
                out.append(row)
        return out

    def spelled_out(self, rows: list[dict]) -> list[dict]:
        """The rows with their paths as lists of region names."""
        return [dict(r, path=self.paths.path(r["path"])) for r in rows]

    def _is_time(self, name):
        m = self.mb.get(name) or self.ma.get(name)
        return m is not None and m.unit == "sec"

    def sorted_rows(self):
        """By metric, then by the absolute change of the total (summed over threads):
        what the program as a whole gained or lost, not threads trading work."""
        rows = self.rows()
        rank = {n: i for i, n in enumerate(self.metric_names + [r.label for r in self.rates])}
        return sorted(rows, key=lambda r: (rank[r["metric"]], -abs(r["delta"] or 0.0)))

    # ---- the .cubex output --------------------------------------------------------
    def write_cubex(self, path):
        a, b = self.a, self.b
        w = CubeWriter()
        w.add_attr("pompprof::program", "diff")
        w.add_attr("pompprof::diff_a", a.path)
        w.add_attr("pompprof::diff_b", b.path)
        per_thread = a.nthreads == b.nthreads
        w.set_locations(b.thread_names if per_thread else ["sum"])
        regions = {}
        cnode_of = {}
        for k in self.keys_in_order():
            u = self.union[k]
            r = u["region"]
            rk = r.name
            if rk not in regions:
                regions[rk] = w.add_region(r.name, r.mod, r.begin, r.end, r.paradigm, r.role,
                                           r.mangled_name, r.descr)
            parent = self.paths.parent[k]
            cnode_of[k] = w.add_cnode(regions[rk], None if parent is None else cnode_of[parent],
                                      (u["a"] or u["b"]).cnode.parameters)
        for name in self.metric_names:
            src = self.mb.get(name) or self.ma.get(name)
            mtype = src.type
            mid = w.add_metric(name, src.disp_name, "DOUBLE", mtype, src.unit,
                               "difference b - a: " + src.descr)
            incl = mtype == "INCLUSIVE"
            for k, cid in cnode_of.items():
                u = self.union[k]
                va = self._values(a, self.ma.get(name), u["a"], incl) or [0.0] * a.nthreads
                vb = self._values(b, self.mb.get(name), u["b"], incl) or [0.0] * b.nthreads
                if per_thread:
                    w.set_row(mid, cid, [y - x for x, y in zip(va, vb)])
                else:
                    w.set_row(mid, cid, [sum(vb) - sum(va)])
        w.write(path)


def category_changes(a: Profile, b: Profile) -> list[dict]:
    """The whole program's time per overhead category (overhead.CATEGORIES, as
    pompprof-report and pompprof-scaling split it), summed over threads, in a and b;
    MPI communication only when either has MPI time."""
    ta, tb = category_times(Analysis(a).program), category_times(Analysis(b).program)
    rows = []
    for c in CATEGORIES:
        if c.name == MPI and not (ta[MPI] or tb[MPI]):
            continue
        delta = tb[c.name] - ta[c.name]
        rows.append({"category": c.name, "column": c.short, "a": ta[c.name],
                     "b": tb[c.name], "delta": delta,
                     "pct": 100.0 * delta / ta[c.name] if ta[c.name] else None})
    return rows


def render_categories(rows: list[dict]) -> list[str]:
    if not rows:
        return []
    out = ["time by category (as pompprof-report and pompprof-scaling split it; seconds "
           "summed over threads):"]
    body = [[r["category"], r["column"], tf.fmt_time(r["a"]), tf.fmt_time(r["b"]),
             tf.fmt_time(r["delta"]), _pct(r["pct"])] for r in rows]
    out.append(tf.table(["category", "column", "a", "b", "delta", "%"], body,
                        widths=[20, 6, 10, 10, 10, 6]))
    out.append("")
    return out


def render_text(d: Diff, shown: list[dict], total: int) -> str:
    """shown: the rows to print (paths spelled out), of total rows."""
    out = []
    a, b = d.a, d.b
    for label, p in (("pompprof-diff: a", a), ("               b", b)):
        tail = " (%d threads)" % p.nthreads
        out.append("%s = %s%s" % (label, tf.shown_path(p.path, tf.WIDTH - 19 - len(tail)),
                                  tail))
    srcs = runfacts.event_sources([a, b])
    if None not in srcs:
        out.append("event sources: a: %s, b: %s" % tuple(srcs))
    out.append("values: %s, summed over threads; delta = b - a"
               % ("inclusive" if d.inclusive else "exclusive"))
    out.extend(tf.wrapped(d.warnings))
    out.extend(render_categories(d.categories))
    means = a.nthreads != b.nthreads
    out.append("rows: by metric, then by the absolute change of the total (delta)")
    out.append("%: delta / a (new: only in b, gone: only in a); call path: its end, after the "
               "ancestor")
    out.append("that tells it from the others (A // B: levels between left out, ~: cut)")
    if means:
        out.append("thread counts differ: d.mean = b/%d - a/%d (per-thread means of times; "
                   "counts compare as totals)" % (b.nthreads, a.nthreads))
    for r in d.rates:
        out.append("rate %s = %s / %s (%s)" % (r.label, r.numerator, r.denominator,
                                               r.description))
    out.append("units: seconds; " + tf.UNIT_LEGEND)
    # each distinct path gets a number, in the order of the rows
    numbers = {}
    for r in shown:
        numbers.setdefault(tuple(r["path"]), len(numbers) + 1)
    hdr = ["   # call path (its end)", "tree", "metric", "a", "b", "delta", "%"] \
        + (["d.mean"] if means else [])
    widths = [0, 5, 8, 10, 10, 10, 6] + ([10] if means else [])
    widths[0] = tf.WIDTH - sum(widths) - (len(widths) - 1)
    ends = distinct_ends(list(numbers), widths[0] - 5)
    rows = []
    for r in shown:
        rows.append(["%4d %s" % (numbers[tuple(r["path"])], ends[tuple(r["path"])]),
                     r["tree"], counter_label(d.display_name(r["metric"]))]
                    + [_value(d, r, c) for c in ("a", "b", "delta")]
                    + [_pct(r.get("pct"), r["status"])]
                    + ([_value(d, r, "delta_mean")] if means else []))
    out.append(tf.table(hdr, rows, widths=widths))
    if total > len(shown):
        out.append("(%d more rows; use --top)" % (total - len(shown)))
    if numbers:
        out.append("")
        out.append("call paths (from the root; the task trees hang below TASKS):")
        for path, k in numbers.items():
            out.extend(tf.fold([path[0]] + ["/ " + name for name in path[1:]],
                               "%4d " % k, " " * 6))
    return "\n".join(out) + "\n"


def distinct_ends(paths, width):
    """Each path's shown end: its last region, after the nearest ancestor that tells it
    from the other paths of its tree that end alike (`A / ... / end`), so that two call
    paths never print as the same name.  Too wide: the ancestor gives up characters from
    its left (its line number stays), then the end does."""
    out = {}

    def tree(p):    # the tree column tells a task tree's copy from the call tree's
        return len(p) > 1 and p[1] == "TASKS"

    for p in paths:
        depth = 1
        while depth < len(p) and any(q != p and tree(q) == tree(p) and q[-depth:] == p[-depth:]
                                     for q in paths):
            depth += 1
        end = tf.short_name(p[-1])
        if depth == 1:
            text = end
        else:
            gap = " / " if depth == 2 else " // "     # //: levels left out
            anc = tf.short_name(p[-depth])
            room = width - len(end) - len(gap)
            if len(anc) > room:
                anc = "~" + anc[-(room - 1):] if room > 1 else "~"
            text = anc + gap + end
        out[p] = text if len(text) <= width else "~" + text[-(width - 1):]
    return out


def _pct(x, status=""):
    """The change in % of a; a path only in b is `new`, only in a `gone`."""
    if status:
        return "new" if status == "only in b" else "gone"
    if x is None:
        return "-"
    if abs(x) >= 1e5:
        return ">1e5" if x > 0 else "<-1e5"
    return "%+.1f" % x if abs(x) < 100 else "%+.0f" % x


def _value(d, row, col):
    v = row.get(col)
    if v is None:
        return "-"
    if row.get("rate"):
        return tf.fmt_rate(v)
    m = d.mb.get(row["metric"]) or d.ma.get(row["metric"])
    return tf.fmt_time(v) if m.unit == "sec" else tf.fmt_count(v)


def build_parser():
    ap = argparse.ArgumentParser(
        prog="pompprof-diff",
        description="Per call path difference (b - a) of two profiles; "
                    "optionally written as a .cubex.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", help="first profile (directory or .cubex)")
    ap.add_argument("b", help="second profile (directory or .cubex)")
    ap.add_argument("-o", "--output", metavar="FILE.cubex",
                    help="write the difference as a .cubex (never overwrites)")
    ap.add_argument("--metric", action="append", metavar="NAME",
                    help="compare only this metric (repeatable; default: all additive)")
    ap.add_argument("--inclusive", action="store_true",
                    help="compare inclusive instead of exclusive values")
    ap.add_argument("--format", choices=("text", "csv", "json"), default="text")
    ap.add_argument("--top", type=int, metavar="N", default=None,
                    help="show only the N largest changes (text default: 40)")
    ap.add_argument("--force", action="store_true",
                    help="compare profiles of different programs anyway")
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    if args.top is not None and args.top < 1:
        ap.error("--top needs a positive number")
    if args.output and not args.output.endswith(".cubex"):
        ap.error("-o needs a file name ending in .cubex")
    a, b = Profile(args.a), Profile(args.b)
    for p in (a, b):
        runfacts.refuse_diff(p, "pompprof-diff")
    warnings = runfacts.compare([a, b], force=args.force)
    d = Diff(a, b, inclusive=args.inclusive, metrics=args.metric)
    d.warnings = warnings
    d.categories = category_changes(a, b) if "time" in d.metric_names else []
    rows = d.sorted_rows()
    if args.output:
        d.write_cubex(args.output)
    top = args.top or (40 if args.format == "text" else None)
    shown = d.spelled_out(rows[:top] if top else rows)
    if args.format == "json":
        sys.stdout.write(tf.json_text({"a": a.path, "b": b.path, "threads_a": a.nthreads,
                                       "threads_b": b.nthreads, "inclusive": args.inclusive,
                                       "warnings": warnings, "categories": d.categories,
                                       "metrics": d.metric_names, "rows": shown}))
    elif args.format == "csv":
        cols = ["path", "tree", "metric", "a", "b", "delta", "pct", "a_mean", "b_mean",
                "delta_mean", "status"]
        out = [cols]
        for r in shown:
            out.append(["/".join(r["path"])] + [repr(r[c]) if isinstance(r.get(c), float)
                                                else r.get(c, "") for c in cols[1:]])
        sys.stdout.write(tf.csv_text(out))
    else:
        sys.stdout.write(render_text(d, shown, len(rows)))
        if args.output:
            sys.stdout.write("wrote %s\n" % args.output)
    return 0


def entry() -> int:
    """The `pompprof-diff` command."""
    return main_guard("pompprof-diff", main)


if __name__ == "__main__":
    sys.exit(entry())
