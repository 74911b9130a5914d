"""The pictures of pompprof-timeline, drawn with matplotlib (Debian: python3-matplotlib):

- thread view: one row per thread, coloured by what it did (the task construct it ran,
  the region of its implicit task, or a kind of waiting: grey = idle, red/orange =
  overhead while tasks were ready, purple = task creation, magenta = fork/join, wheat =
  serial code outside parallel regions, vivid blue = in an MPI call, black = the trace's
  own flushes and start); a job's threads stacked by rank, a line between ranks, and its
  messages as thin lines from the send to the receive;
- task view: one row per task construct (running instances as a filled curve scaled to
  the row's maximum, waiting instances as a line), or one row per task instance when the
  run had few (dark = running, light = created and waiting);
- the number of ready tasks over time, below both;
- the speedup bounds of the task graph as a separate plot;
- and POT's heatmaps (its Fig. 5) for several runs: work, idleness and overhead over the
  number of threads and a parameter of the runs (--heatmap).

The data comes binned from pompprof-replay (the "pictures" part of its result)."""

from __future__ import annotations

import sys

from ..cli import ToolError
from . import timeline_mpi

CATEGORY_COLORS = {
    "idle": "#d0d0d0",
    "overhead: scheduling (tasks ready)": "#e15759",
    "overhead: blocked (tasks ready)": "#f28e2b",
    "task creation": "#9c6fb0",
    "measurement (trace start, flushes)": "#000000",
    "serial (outside parallel regions)": "#f5deb3",
    "fork/join": "#b000b0",
    "undetermined (depend tasks waiting)": "#8c8c8c",
    "MPI (in MPI calls)": "#0000e0",
}
# regions and task constructs: colours far apart from each other and from the ones above
# (test_timeline_tool checks the least distance), so neighbouring regions never look alike
PALETTE = ("#1f77b4", "#2ca02c", "#edc948", "#17becf", "#8c564b", "#e377c2", "#393b79",
           "#bcbd22", "#7fc97f", "#a6cee3", "#6a3d9a", "#b15928", "#005824", "#fb9a99")


def check_matplotlib():
    try:
        import matplotlib  # noqa: F401  (only whether it is there)
    except ImportError:
        raise ToolError("pictures need matplotlib, which %s cannot import (install the "
                        "Debian package python3-matplotlib)" % sys.executable) from None


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _short(name: str, width: int = 38) -> str:
    if name.startswith("!$omp "):
        name = name[6:]
    return name if len(name) <= width else name[:width - 1] + "~"


def _colors(pic: dict) -> dict:
    """Label id -> colour: the fixed ones for the kinds of waiting, a palette for the
    regions and task constructs by how much of the picture they fill."""
    labels = pic["labels"]
    area = {}
    for th in pic["threads"]:
        for _, count, label in th["runs"]:
            area[label] = area.get(label, 0) + count
    colors = {}
    rank = 0
    for label in sorted(area, key=lambda k: -area[k]):
        name = labels.get(str(label), "?")
        if name in CATEGORY_COLORS:
            colors[label] = CATEGORY_COLORS[name]
        else:
            colors[label] = PALETTE[rank % len(PALETTE)]
            rank += 1
    for row in pic["task_rows"]:
        if row["label"] not in colors:
            colors[row["label"]] = PALETTE[rank % len(PALETTE)]
            rank += 1
    return colors, area


def draw_timeline(data: dict, path: str, fmt: str):
    plt = _pyplot()
    _save(timeline_figure(data), plt, path, fmt)


def timeline_figure(data: dict):
    """The timeline pictures as one matplotlib figure (laid out, not yet saved)."""
    pic = data.get("pictures")
    if not pic:
        raise ToolError("the replay returned no picture data")
    plt = _pyplot()
    labels = pic["labels"]
    colors, area = _colors(pic)
    t0, t1, bins = pic["from"], pic["to"], pic["bins"]
    width = (t1 - t0) / bins
    nthreads = len(pic["threads"])
    instances = pic["instances"]
    task_rows = instances if instances is not None else pic["task_rows"]
    ntask = max(1, min(len(task_rows), 40))
    heights = [max(1.2, 0.35 * nthreads), max(1.0, 0.28 * ntask), 1.3]
    fig, axes = plt.subplots(3, 1, sharex=True, figsize=(12, sum(heights) + 1.6),
                             gridspec_kw={"height_ratios": heights})
    ax_thr, ax_task, ax_ready = axes

    # thread view
    for i, th in enumerate(pic["threads"]):
        by_label = {}
        for start, count, label in th["runs"]:
            by_label.setdefault(label, []).append((t0 + start * width, count * width))
        for label, spans in by_label.items():
            ax_thr.broken_barh(spans, (i - 0.4, 0.8), facecolors=colors.get(label, "#cccccc"),
                               linewidth=0)
    ax_thr.set_yticks(range(nthreads))
    names = [t.get("name", "thread %d" % i) for i, t in enumerate(data["threads"])]
    ax_thr.set_yticklabels(names if len(names) == nthreads else
                           ["thread %d" % i for i in range(nthreads)],
                           fontsize=8 if nthreads > 16 else None)
    ax_thr.set_ylim(nthreads - 0.5, -0.5)
    ax_thr.set_title("thread view", loc="left", fontsize=10)
    _draw_ranks(ax_thr, data)
    handles = []
    for label in sorted(area, key=lambda k: -area[k])[:14]:
        handles.append(plt.Rectangle((0, 0), 1, 1, color=colors[label],
                                     label=_short(labels.get(str(label), "?"), 44)))
    if handles:
        ax_thr.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                      fontsize=7, frameon=False)

    # task view
    names = []
    if instances is not None:
        for i, inst in enumerate(instances[:ntask]):
            color = colors.get(inst["label"], PALETTE[0])
            for a, b, _loc, running in inst["fragments"]:
                ax_task.broken_barh([(a, b - a)], (i - 0.35, 0.7), facecolors=color,
                                    alpha=1.0 if running else 0.3, linewidth=0)
            par = inst.get("parameters") or ""     # the task's parameter values
            names.append("%s #%d%s" % (_short(labels.get(str(inst["label"]), "?"), 30), i,
                                       " (%s)" % _short(par, 30) if par else ""))
        title = "task view: one row per task instance (dark: running, light: created, waiting)"
    else:
        xs = [t0 + k * width for k in range(bins + 1)]
        for i, row in enumerate(task_rows[:ntask]):
            color = colors.get(row["label"], PALETTE[0])
            run, wait = row["running"], row["waiting"]
            top_r, top_w = max(max(run), 1e-12), max(max(wait), 1e-12)
            ys = [i + 0.4 - 0.8 * v / top_r for v in run + run[-1:]]
            ax_task.fill_between(xs, i + 0.4, ys, step="post", color=color, linewidth=0)
            yw = [i + 0.4 - 0.8 * v / top_w for v in wait + wait[-1:]]
            ax_task.step(xs, yw, where="post", color="#333333", linewidth=0.6)
            # a bin holds the average over its time, so the scale is the largest average
            names.append("%s\n(largest bin average: %.2g running, %.3g waiting)" % (
                _short(labels.get(str(row["label"]), "?"), 30), max(run), max(wait)))
        title = ("task view: one row per task construct\n(filled: running, line: waiting; "
                 "bin averages, each row to its own scale)")
    ax_task.set_yticks(range(len(names)))
    ax_task.set_yticklabels(names, fontsize=7)
    ax_task.set_ylim(max(len(names), 1) - 0.5, -0.5)
    ax_task.set_title(title, loc="left", fontsize=10)

    # ready tasks
    xs = [t0 + k * width for k in range(bins + 1)]
    ready = pic["ready"] + pic["ready"][-1:]
    ax_ready.fill_between(xs, 0, ready, step="post", color="#4e79a7", alpha=0.5, linewidth=0,
                          label="ready tasks (average per bin)")
    dep = pic["ready_depend"]
    if any(dep):
        ax_ready.step(xs, dep + dep[-1:], where="post", color="#8c8c8c", linewidth=0.8,
                      label="of them: depend tasks, readiness unknown")
    ax_ready.set_ylabel("ready tasks", fontsize=8)
    ax_ready.set_ylim(bottom=0)
    ax_ready.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, frameon=False)
    ax_ready.set_xlabel("seconds since the start of the trace")
    ax_ready.set_xlim(t0, t1)
    ranks = len({t.get("rank", 0) for t in data["threads"]})
    fig.suptitle("%s: %s%d threads, %.4g s" % (data["trace"]["archive"],
                                              "%d ranks, " % ranks if ranks > 1 else "",
                                              nthreads, t1 - t0),
                 fontsize=10, x=0.01, ha="left")
    fig.tight_layout()
    return fig


def _draw_ranks(ax, data: dict):
    """A job's trace: a line between the ranks' rows, and each matched message (the
    first the replay keeps) as a thin line from its send to its receive."""
    ranks = [t.get("rank", 0) for t in data["threads"]]
    for i in range(1, len(ranks)):
        if ranks[i] != ranks[i - 1]:
            ax.axhline(i - 0.5, color="#000000", linewidth=0.8)
    lines = (data.get(timeline_mpi.MPI) or {}).get("lines") or []
    for ts, ls, tr, lr in lines:
        ax.plot([ts, tr], [ls, lr], color="#000000", linewidth=0.4, alpha=0.6)


def draw_speedup(data: dict, path: str):
    plt = _pyplot()
    g = data["graph"]
    ps = [1] + [s["threads"] for s in g["speedup"]]
    upper = [1.0] + [s["upper"] for s in g["speedup"]]
    lower = [1.0] + [s["lower"] for s in g["speedup"]]
    fig, ax = plt.subplots(figsize=(7, 4.6))
    ax.plot(ps, ps, color="#bbbbbb", linestyle="--", label="linear")
    ax.fill_between(ps, lower, upper, color="#4e79a7", alpha=0.2)
    ax.plot(ps, upper, color="#4e79a7", label="upper bound: min(P, work/span)")
    ax.plot(ps, lower, color="#e15759", label="greedy scheduler: work/(work/P + span)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.set_xlabel("threads P")
    ax.set_ylabel("speedup")
    ax.set_title("work %.4g s, span %.4g s, parallelism %.3g%s" % (
        g["work"], g["span"], g["parallelism"],
        " (span: lower bound, depend clauses)" if g["depend_tasks"] else ""), fontsize=9)
    ax.legend(fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    _save(fig, plt, path, "png" if path.endswith(".png") else "svg")


def param_key(value: str):
    try:
        return (0, float(value), value)
    except ValueError:
        return (1, 0.0, value)


def draw_heatmap(runs: list[tuple[str, dict]], path: str):
    """POT's Fig. 5: one heatmap each for work, idleness and overhead (seconds summed over
    the threads), cells by (parameter value, number of threads).  runs: (value, result)."""
    plt = _pyplot()
    params = sorted({v for v, _ in runs}, key=param_key)
    threads = sorted({d["trace"]["threads"] for _, d in runs})
    cells = {(v, d["trace"]["threads"]): d["total"] for v, d in runs}
    fig, axes = plt.subplots(1, 3, figsize=(4.2 * 3, 0.5 * len(params) + 2.4))
    for ax, key, cmap in zip(axes, ("work", "idleness", "overhead"),
                             ("Blues", "Greys", "Reds")):
        grid = [[cells[(v, t)][key] if (v, t) in cells else float("nan") for t in threads]
                for v in params]
        im = ax.imshow(grid, cmap=cmap, aspect="auto", origin="lower")
        ax.set_xticks(range(len(threads)))
        ax.set_xticklabels([str(t) for t in threads])
        ax.set_yticks(range(len(params)))
        ax.set_yticklabels(params)
        ax.set_xlabel("threads")
        ax.set_ylabel("parameter")
        ax.set_title("%s (s, all threads)" % key, fontsize=10)
        top = max((x for row in grid for x in row if x == x), default=0)
        for i, row in enumerate(grid):
            for j, x in enumerate(row):
                if x == x:
                    ax.text(j, i, "%.3g" % x, ha="center", va="center", fontsize=8,
                            color="white" if top and x > 0.6 * top else "black")
        fig.colorbar(im, ax=ax, fraction=0.046)
    fig.tight_layout()
    _save(fig, plt, path, "png" if path.endswith(".png") else "svg")


def _save(fig, plt, path, fmt):
    try:
        fig.savefig(path, format=fmt, dpi=90)
    except OSError as e:
        raise ToolError("cannot write %s: %s" % (path, e.strerror)) from None
    finally:
        plt.close(fig)
