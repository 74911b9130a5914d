"""What one measured event costs on this machine, for pompprof-score.

Measured once, when pompprof is built (calibration/event_costs.c, see
calibration/local.mk), and installed with the library as
$(pkgdatadir)/event-costs.txt; one "name value" line per figure, ns of CPU
time:

    # what one event costs, ...
    function_pair_ns 19.1            a function measured (GCC plugin)
    filtered_pair_ns 2.1             one POMPPROF_FILTER leaves out (plugin)
    construct_pair_ns 24.1           an OpenMP construct entered and left
    task_ns 47.9                     a task instance: creation, start, end
    taskwait_ns 19.3                 a taskwait
    leaf_pair_ns 19.0                the function shapes (function_pair_ns is
    recursion_pair_ns 18.4           their mean): a called function, a
    inlined_pair_ns 20.6             recursion, a short one plain code inlines
    task_binary_ns 45.1              the task shapes (task_ns is the mean of the
    task_quad_ns 51.6                first two): fib's two tasks a taskwait,
    task_wide_ns 58.3                health's four, nqueens' twelve
    function_pair_address_ns 20.2    the same two with -finstrument-functions
    filtered_pair_address_ns 2.8
    run_fixed_ns 2546000             once per run: the library's start and end

find() takes, in turn: --costs FILE, $POMPPROF_COSTS, the installed file
and the build tree's (the build tree's first where POMPPROF_LIBDIR says the
build tree's library is in use, as the tests and `make bench` run).  It
never measures anew: the same profile gives the same estimate every time."""

from __future__ import annotations

import os
from dataclasses import dataclass

from .. import build_config
from ..cli import ToolError

# One enter or leave record in the trace buffers (doc/trace.md): 16 bytes.
TRACE_BYTES_PER_EVENT = 16
FILE_NAME = "event-costs.txt"
KEYS = ("function_pair_ns", "filtered_pair_ns", "construct_pair_ns", "task_ns", "taskwait_ns")
# figures of the -finstrument-functions build: the plugin's where missing
ADDRESS_KEYS = ("function_pair_address_ns", "filtered_pair_address_ns")
# the shapes of a function call and of a task: their means where missing
FUNCTION_SHAPE_KEYS = ("leaf_pair_ns", "recursion_pair_ns", "inlined_pair_ns")
TASK_SHAPE_KEYS = ("task_binary_ns", "task_quad_ns")
# the wide shape: fib's where missing (a file from before it was measured)
WIDE_KEY = "task_wide_ns"
OPTIONAL_KEYS = (ADDRESS_KEYS + FUNCTION_SHAPE_KEYS + TASK_SHAPE_KEYS +
                 (WIDE_KEY, "run_fixed_ns"))


@dataclass
class Costs:
    function_pair_ns: float
    filtered_pair_ns: float
    construct_pair_ns: float
    task_ns: float
    taskwait_ns: float
    function_pair_address_ns: float
    filtered_pair_address_ns: float
    leaf_pair_ns: float
    recursion_pair_ns: float
    inlined_pair_ns: float
    task_binary_ns: float
    task_quad_ns: float
    task_wide_ns: float
    run_fixed_ns: float
    source: str


def parse(text: str, source: str) -> Costs:
    values = {}
    for line in text.splitlines():
        parts = line.split("#", 1)[0].split()
        if len(parts) == 2 and parts[0] in KEYS + OPTIONAL_KEYS:
            try:
                values[parts[0]] = max(float(parts[1]), 0.0)
            except ValueError:
                pass
    missing = [k for k in KEYS if k not in values]
    if missing:
        raise ToolError("%s: no %s" % (source, ", ".join(missing)))
    values.setdefault("function_pair_address_ns", values["function_pair_ns"])
    values.setdefault("filtered_pair_address_ns", values["filtered_pair_ns"])
    for k in FUNCTION_SHAPE_KEYS:
        values.setdefault(k, values["function_pair_ns"])
    for k in TASK_SHAPE_KEYS:
        values.setdefault(k, values["task_ns"])
    values.setdefault(WIDE_KEY, values["task_binary_ns"])
    values.setdefault("run_fixed_ns", 0.0)
    return Costs(source=source, **values)


def read(path: str) -> Costs:
    try:
        with open(path) as f:
            return parse(f.read(), path)
    except OSError as e:
        raise ToolError("%s: cannot be read (%s)" % (path, e.strerror)) from None


def find(explicit: str | None) -> Costs:
    if explicit:
        return read(explicit)
    env = os.environ.get("POMPPROF_COSTS")
    if env:
        return read(env)
    candidates = [build_config.EVENT_COSTS, build_config.BUILD_EVENT_COSTS]
    if os.environ.get("POMPPROF_LIBDIR"):
        candidates.reverse()
    for path in candidates:
        if os.path.isfile(path):
            return read(path)
    raise ToolError("no event costs: %s is measured when pompprof is built and installed with "
                    "it (make; make install); --costs FILE names another" % FILE_NAME)
