"""The cost of one measured event on this machine, for pompprof-score.

`make bench` measures it (examples/bench/function_overhead.c, run by
function_bench.py) and keeps it in event-costs.txt in the build directory:

    # measured by make bench on HOST, DATE
    function_pair_ns 31.2
    filtered_pair_ns 4.1
    construct_pair_ns 38.0

find() takes, in turn: --costs FILE, $POMPPROF_COSTS, the build's
event-costs.txt, and else measures the costs now by building and running
function_overhead.c with this pompprof (a few seconds).  No figure comes from
anywhere else."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass

from .. import build_config
from ..cli import ToolError

# One enter or leave record in the trace buffers (doc/trace.md): 16 bytes.
TRACE_BYTES_PER_EVENT = 16
FILE_NAME = "event-costs.txt"
KEYS = ("function_pair_ns", "filtered_pair_ns", "construct_pair_ns")
CALIBRATION_SOURCE = "function_overhead.c"
# the filter the calibration runs with: its filtered function
CALIBRATION_FILTER = ("SCOREP_REGION_NAMES_BEGIN\n"
                      "  EXCLUDE leaf_filtered rec_filtered work_filtered\n"
                      "SCOREP_REGION_NAMES_END\n")


@dataclass
class Costs:
    function_pair_ns: float
    filtered_pair_ns: float
    construct_pair_ns: float
    source: str


def parse(text: str, source: str) -> Costs:
    values = {}
    for line in text.splitlines():
        parts = line.split("#", 1)[0].split()
        if len(parts) == 2 and parts[0] in KEYS:
            try:
                values[parts[0]] = max(float(parts[1]), 0.0)
            except ValueError:
                pass
    missing = [k for k in KEYS if k not in values]
    if missing:
        raise ToolError("%s: no %s" % (source, ", ".join(missing)))
    return Costs(values["function_pair_ns"], values["filtered_pair_ns"],
                 values["construct_pair_ns"], source)


def read(path: str) -> Costs:
    try:
        with open(path) as f:
            return parse(f.read(), path)
    except OSError as e:
        raise ToolError("%s: cannot be read (%s)" % (path, e.strerror)) from None


def calibration_source() -> str | None:
    """function_overhead.c: in the source tree, or installed beside the package."""
    pkg = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for p in (os.path.join(pkg, "..", "..", "examples", "bench", CALIBRATION_SOURCE),
              os.path.join(pkg, "..", "..", CALIBRATION_SOURCE)):
        if os.path.isfile(p):
            return os.path.normpath(p)
    return None


def wrapper_command() -> str | None:
    here = os.path.join(os.path.dirname(os.path.abspath(sys.argv[0])), "pompprof")
    build = os.path.join(build_config.ABS_TOP_BUILDDIR, "scripts", "pompprof")
    for p in (here, build):
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return shutil.which("pompprof")


def measure(scale: float = 0.2) -> Costs:
    """Build function_overhead.c with pompprof --functions and run it now."""
    src, wrapper = calibration_source(), wrapper_command()
    if not src or not wrapper:
        raise ToolError("no event costs: run `make bench` (it writes %s) or give --costs FILE"
                        % FILE_NAME)
    work = tempfile.mkdtemp(prefix="pompprof-score-")
    try:
        exe = os.path.join(work, "function_overhead")
        flags = (build_config.OPENMP_FLAG or "-fopenmp").split()
        opari = subprocess.run([build_config.OPARI2_CONFIG, "--cflags"], stdout=subprocess.PIPE,
                               universal_newlines=True).stdout.split()
        cc = os.environ.get("CC", "gcc").split()
        benv = dict(os.environ)
        if os.path.realpath(os.path.dirname(wrapper)) == os.path.realpath(
                os.path.join(build_config.ABS_TOP_BUILDDIR, "scripts")):
            # the build tree's wrapper: the uninstalled library and headers
            srcdir = os.path.dirname(os.path.dirname(os.path.dirname(src)))
            benv.setdefault("POMPPROF_LIBDIR", os.path.join(build_config.ABS_TOP_BUILDDIR, ".libs"))
            benv.setdefault("POMPPROF_INCDIR", os.path.join(srcdir, "pomp2"))
        build = subprocess.run([wrapper, "--functions"] + cc + flags + ["-O2"] + opari
                               + [src, "-o", exe], cwd=work, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, universal_newlines=True, env=benv)
        if build.returncode != 0:
            raise ToolError("no event costs, and measuring them failed: %s"
                            % (build.stdout.strip().splitlines() or ["?"])[-1])
        flt = os.path.join(work, "calibration.filter")
        with open(flt, "w") as f:
            f.write(CALIBRATION_FILTER)
        env = dict(os.environ, POMPPROF_FILTER=flt, POMPPROF_OUTPUT=os.path.join(work, "out"),
                   OMP_NUM_THREADS="1")
        run = subprocess.run([exe, str(scale)], cwd=work, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, universal_newlines=True)
        if run.returncode != 0:
            raise ToolError("no event costs, and measuring them failed (exit %d)"
                            % run.returncode)
        return parse(run.stdout, "measured now")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def find(explicit: str | None) -> Costs:
    if explicit:
        return read(explicit)
    env = os.environ.get("POMPPROF_COSTS")
    if env:
        return read(env)
    built = os.path.join(build_config.ABS_TOP_BUILDDIR, FILE_NAME)
    if os.path.isfile(built):
        return read(built)
    return measure()
