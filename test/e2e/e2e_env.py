"""Shared by the Python end-to-end tests (not a test itself): the source and build
trees the harness names, the build-tree wrapper with the uninstalled library and
headers, the compiler and OpenMP flag configure chose, and the tools' .cubex
reader; build() makes one test program with the wrapper."""
import os
import subprocess
import sys

TOP_SRCDIR = os.environ.get("top_srcdir")
TOP_BUILDDIR = os.environ.get("top_builddir")
if not TOP_SRCDIR or not TOP_BUILDDIR:
    sys.exit("run through make check (top_srcdir/top_builddir unset)")
sys.path.insert(0, os.path.join(TOP_SRCDIR, "scripts"))
from pompprof_tools.cube import cubex  # noqa: E402,F401

PROGS = os.path.join(TOP_SRCDIR, "test", "e2e", "progs")
WRAPPER = os.path.join(TOP_BUILDDIR, "scripts", "pompprof")
ENV = dict(os.environ,
           POMPPROF_LIBDIR=os.path.join(TOP_BUILDDIR, ".libs"),
           POMPPROF_INCDIR=os.path.join(TOP_SRCDIR, "pomp2"))
CC = os.environ.get("CC", "gcc").split()
OPENMP = os.environ.get("OPENMP_CFLAGS", "-fopenmp").split()


def build(scratch, source):
    """Build test/e2e/progs/<source> with the wrapper in scratch; the executable's path."""
    exe = os.path.join(scratch, os.path.splitext(source)[0])
    subprocess.run([WRAPPER] + CC + OPENMP + ["-O2", os.path.join(PROGS, source), "-o", exe],
                   env=ENV, check=True, cwd=scratch, stdout=subprocess.DEVNULL)
    return exe
