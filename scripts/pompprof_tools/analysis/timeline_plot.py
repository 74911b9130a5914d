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

# the most rows the task view draws (instances or constructs), and the most entries of
# the thread view's legend: a picture stays legible
TASK_VIEW_ROWS = 40
LEGEND_ENTRIES = 14


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


def _colors(pic: dict) -> tuple[dict, dict]:
    """Label id -> colour: the fixed ones for the kinds of waiting, a palette for the
    regions and task constructs by how much of the picture they fill; and label id ->
    that area (bins summed over the threads)."""
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
    """The timeline pictures as one matplotlib figure (laid out, not yet saved): the
    thread view, the task view and the ready tasks, one above the other on one time
    axis, so that what a thread did lines up with the tasks there were."""
    pic = data.get("pictures")
    if not pic:
        raise ToolError("the replay returned no picture data")
    plt = _pyplot()
    colors, area = _colors(pic)
    ntask = _task_view_rows(pic)
    nthreads = len(pic["threads"])
    heights = [max(1.2, 0.35 * nthreads), max(1.0, 0.28 * ntask), 1.3]
    fig, axes = plt.subplots(3, 1, sharex=True, figsize=(12, sum(heights) + 1.6),
                             gridspec_kw={"height_ratios": heights})
    ax_thr, ax_task, ax_ready = axes
    _draw_thread_view(ax_thr, data, colors)
    _thread_legend(ax_thr, plt, pic["labels"], colors, area)
    _draw_task_view(ax_task, pic, colors, ntask)
    _draw_ready_tasks(ax_ready, pic)
    ranks = len({t.get("rank", 0) for t in data["threads"]})
    fig.suptitle("%s: %s%d threads, %.4g s" % (data["trace"]["archive"],
                                              "%d ranks, " % ranks if ranks > 1 else "",
                                              nthreads, pic["to"] - pic["from"]),
                 fontsize=10, x=0.01, ha="left")
    fig.tight_layout()
    return fig


def _task_view_rows(pic: dict) -> int:
    """How many rows the task view draws (at least one, for the layout)."""
    rows = pic["instances"] if pic["instances"] is not None else pic["task_rows"]
    return max(1, min(len(rows), TASK_VIEW_ROWS))


def _bin_width(pic: dict) -> float:
    """The seconds one bin of the replay's picture data covers."""
    return (pic["to"] - pic["from"]) / pic["bins"]


def _bin_edges(pic: dict) -> list[float]:
    """The time of every bin's start, and the end of the last: a step curve's x."""
    t0, width = pic["from"], _bin_width(pic)
    return [t0 + k * width for k in range(pic["bins"] + 1)]


def _draw_thread_view(ax, data: dict, colors: dict):
    """One row per thread, each run of bins in the colour of what the thread did; a
    job's ranks apart, with its messages."""
    pic = data["pictures"]
    t0, width = pic["from"], _bin_width(pic)
    nthreads = len(pic["threads"])
    for i, th in enumerate(pic["threads"]):
        # one broken bar per label: far fewer artists than one per run
        by_label = {}
        for start, count, label in th["runs"]:
            by_label.setdefault(label, []).append((t0 + start * width, count * width))
        for label, spans in by_label.items():
            ax.broken_barh(spans, (i - 0.4, 0.8), facecolors=colors.get(label, "#cccccc"),
                           linewidth=0)
    ax.set_yticks(range(nthreads))
    names = [t.get("name", "thread %d" % i) for i, t in enumerate(data["threads"])]
    ax.set_yticklabels(names if len(names) == nthreads else
                       ["thread %d" % i for i in range(nthreads)],
                       fontsize=8 if nthreads > 16 else None)
    ax.set_ylim(nthreads - 0.5, -0.5)
    ax.set_title("thread view", loc="left", fontsize=10)
    _draw_ranks(ax, data)


def _thread_legend(ax, plt, labels: dict, colors: dict, area: dict):
    """The legend of the thread view, beside it: the labels that fill most of the
    picture first, as many as stay legible."""
    handles = []
    for label in sorted(area, key=lambda k: -area[k])[:LEGEND_ENTRIES]:
        handles.append(plt.Rectangle((0, 0), 1, 1, color=colors[label],
                                     label=_short(labels.get(str(label), "?"), 44)))
    if handles:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                  fontsize=7, frameon=False)


def _draw_task_view(ax, pic: dict, colors: dict, ntask: int):
    """The task view: a row per task instance when the replay sent them (a run with
    few), else a row per task construct."""
    if pic["instances"] is not None:
        names, title = _draw_task_instances(ax, pic, colors, ntask)
    else:
        names, title = _draw_task_constructs(ax, pic, colors, ntask)
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names, fontsize=7)
    ax.set_ylim(max(len(names), 1) - 0.5, -0.5)
    ax.set_title(title, loc="left", fontsize=10)


def _draw_task_instances(ax, pic: dict, colors: dict, ntask: int):
    """A row per task instance, its fragments dark while running and light while
    created and waiting; the row's name says its parameter values, which tell the
    instances of one construct apart.  Returns (row names, title)."""
    labels, names = pic["labels"], []
    for i, inst in enumerate(pic["instances"][:ntask]):
        color = colors.get(inst["label"], PALETTE[0])
        for a, b, _loc, running in inst["fragments"]:
            ax.broken_barh([(a, b - a)], (i - 0.35, 0.7), facecolors=color,
                           alpha=1.0 if running else 0.3, linewidth=0)
        par = inst.get("parameters") or ""     # the task's parameter values
        names.append("%s #%d%s" % (_short(labels.get(str(inst["label"]), "?"), 30), i,
                                   " (%s)" % _short(par, 30) if par else ""))
    return names, ("task view: one row per task instance (dark: running, light: created, "
                   "waiting)")


def _draw_task_constructs(ax, pic: dict, colors: dict, ntask: int):
    """A row per task construct: its running instances as a filled curve, its waiting
    ones as a line, each scaled to the row's largest bin (a construct with few tasks
    stays visible beside one with many).  Returns (row names, title)."""
    labels, names, xs = pic["labels"], [], _bin_edges(pic)
    for i, row in enumerate(pic["task_rows"][:ntask]):
        color = colors.get(row["label"], PALETTE[0])
        run, wait = row["running"], row["waiting"]
        top_r, top_w = max(max(run), 1e-12), max(max(wait), 1e-12)
        ys = [i + 0.4 - 0.8 * v / top_r for v in run + run[-1:]]
        ax.fill_between(xs, i + 0.4, ys, step="post", color=color, linewidth=0)
        yw = [i + 0.4 - 0.8 * v / top_w for v in wait + wait[-1:]]
        ax.step(xs, yw, where="post", color="#333333", linewidth=0.6)
        # a bin holds the average over its time, so the scale is the largest average
        names.append("%s\n(largest bin average: %.2g running, %.3g waiting)" % (
            _short(labels.get(str(row["label"]), "?"), 30), max(run), max(wait)))
    return names, ("task view: one row per task construct\n(filled: running, line: "
                   "waiting; bin averages, each row to its own scale)")


def _draw_ready_tasks(ax, pic: dict):
    """The number of ready tasks over time (with the depend tasks among them, whose
    readiness is not known), below the views: threads idle while tasks were ready is
    overhead, idle while none were is starvation.  It carries the time axis."""
    xs = _bin_edges(pic)
    ready = pic["ready"] + pic["ready"][-1:]
    ax.fill_between(xs, 0, ready, step="post", color="#4e79a7", alpha=0.5, linewidth=0,
                    label="ready tasks (average per bin)")
    dep = pic["ready_depend"]
    if any(dep):
        ax.step(xs, dep + dep[-1:], where="post", color="#8c8c8c", linewidth=0.8,
                label="of them: depend tasks, readiness unknown")
    ax.set_ylabel("ready tasks", fontsize=8)
    ax.set_ylim(bottom=0)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, frameon=False)
    ax.set_xlabel("seconds since the start of the trace")
    ax.set_xlim(pic["from"], pic["to"])


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
