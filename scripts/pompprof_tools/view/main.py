"""pompprof-view: one self-contained HTML file of a run (profile, and its trace when the
run has one) or of two runs compared (call paths matched as pompprof-diff matches
them).  The page opens in any current browser without a network or a server."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from ..analysis.profile_model import Profile
from ..cli import ToolError, main_guard
from ..cube.cubex import resolve_profile_path
from .blob import Blob, packed_json
from .compare_data import compare_payload
from .page import render
from .profile_data import profile_payload
from .trace_data import GRAPH_INSTANCES, has_trace, trace_payload

EPILOG = """\
pompprof-view RUN             profile (and trace, when RUN holds one) -> RUN/view.html
pompprof-view RUN1 RUN2       comparison of two runs -> view-compare.html
The page holds everything (script, style, data); it needs no network and no server.
Panes: metrics, call tree (with TASKS), system tree (locations); flame graph; the
report's tables; the trace's timeline, breakdown, ready tasks and critical path.
"""


def build_parser():
    ap = argparse.ArgumentParser(
        prog="pompprof-view", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="write a profile (and trace), or two profiles compared, as one "
                    "self-contained HTML page")
    ap.add_argument("runs", nargs="+", metavar="RUN",
                    help="a run directory or .cubex file; two of them: a comparison")
    ap.add_argument("-o", "--output", metavar="FILE.html",
                    help="where to write the page (default: RUN/view.html, or "
                         "view-compare.html for a comparison)")
    ap.add_argument("--no-trace", action="store_true",
                    help="leave out the trace even when the run has one")
    ap.add_argument("--graph-instances", type=int, default=GRAPH_INSTANCES, metavar="N",
                    help="draw the dependence graph task by task up to N dependent tasks, "
                         "collapsed to task constructs beyond (default %(default)s)")
    return ap


def run_dir(path: str) -> str:
    return path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path))


def document(runs: list[str], with_trace: bool,
             graph_instances: int = GRAPH_INSTANCES) -> tuple[str, dict, Blob]:
    blob = Blob()
    if len(runs) == 1:
        prof = Profile(runs[0])
        doc = {"mode": "profile", "profile": profile_payload(prof, blob)}
        d = run_dir(runs[0])
        if with_trace and os.path.isdir(runs[0]) and has_trace(d):
            try:
                doc["trace"] = trace_payload(d, graph_instances)
            except ToolError as e:
                raise ToolError("%s (--no-trace writes the page without the trace)" % e) from None
        title = "pompprof: %s" % prof.program
    else:
        a, b = Profile(runs[0]), Profile(runs[1])
        doc = {"mode": "compare", "compare": compare_payload(a, b, blob)}
        title = "pompprof: %s vs %s" % (a.program, b.program)
    return title, doc, blob


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    if len(args.runs) > 2:
        ap.error("one run, or two to compare")
    if not 1 <= args.graph_instances <= 100000:
        ap.error("--graph-instances needs a number from 1 to 100000")
    for r in args.runs:
        resolve_profile_path(r)     # one clear line for a run without a profile
    out = args.output
    if not out:
        out = (os.path.join(run_dir(args.runs[0]), "view.html") if len(args.runs) == 1
               else "view-compare.html")
    start = time.perf_counter()
    title, doc, blob = document(args.runs, not args.no_trace, args.graph_instances)
    page = render(title, packed_json(doc), blob.packed(), json.dumps(blob.index))
    tmp = out + ".tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(page)
        os.replace(tmp, out)
    except OSError as e:
        raise ToolError("cannot write %s: %s" % (out, e.strerror)) from None
    print("pompprof-view: wrote %s (%.1f MB in %.1f s)"
          % (out, len(page) / 1e6, time.perf_counter() - start))
    return 0


def entry() -> int:
    return main_guard("pompprof-view", main)


if __name__ == "__main__":
    sys.exit(entry())
