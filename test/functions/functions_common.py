"""Shared by the function-instrumentation tests (not a test itself): build a
program of test/functions/progs with `pompprof --functions`, run it, load its
profile with the tools' reader, and sum a region's values over its call paths."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from e2e_env import CC, ENV, OPENMP, WRAPPER, cubex  # noqa: E402,F401

PROGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "progs")


def require_libdw():
    """Function names come from libdw: without it (configure --without-libdw, or
    no libdw-dev) the tests that read names are skipped."""
    try:
        with open(os.path.join(os.environ["top_builddir"], "config.h")) as f:
            if "#define HAVE_LIBDW 1" in f.read():
                return
    except OSError:
        pass
    raise unittest.SkipTest("built without libdw: functions have no names")
FC = os.environ.get("FC") or "gfortran"
# the build has pompprof's GCC plugin, which the wrapper uses for the tests'
# gcc, g++ and gfortran (one installation: configure's $CC); else the
# functions are instrumented with -finstrument-functions
PLUGIN = os.path.isfile(os.path.join(os.environ["top_builddir"], "gcc-plugin", ".libs",
                                     "pompprof_gcc.so"))
CXX = os.environ.get("CXX") or "g++"


def build(scratch, source, compiler=None, flags=(), wrapper_opts=("--functions",), env=None):
    """Build progs/<source> with the wrapper; the executable's path."""
    exe = os.path.join(scratch, os.path.splitext(os.path.basename(source))[0])
    if compiler is None:
        compiler = FC.split() if source.endswith((".f90", ".F90")) else \
            CXX.split() if source.endswith(".cpp") else CC
    cmd = [WRAPPER] + list(wrapper_opts) + list(compiler) + OPENMP + ["-O2"] + list(flags) \
        + [os.path.join(PROGS, source), "-o", exe]
    subprocess.run(cmd, env=dict(ENV, **(env or {})), check=True, cwd=scratch)
    return exe


def run(scratch, exe, threads, *args, env=None):
    """Run; (stdout, the loaded profile, stderr)."""
    out_dir = tempfile.mkdtemp(dir=scratch)
    e = dict(ENV, OMP_NUM_THREADS=str(threads), POMPPROF_OUTPUT=out_dir, **(env or {}))
    proc = subprocess.run([exe] + [str(a) for a in args], env=e, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)
    if proc.returncode != 0:
        raise AssertionError("%s exited %d: %s" % (exe, proc.returncode, proc.stderr))
    return proc.stdout, cubex.load(out_dir), proc.stderr


def in_tasks(cube, c):
    """Is cnode c inside a task tree (below TASKS)?"""
    while c is not None:
        if cube.is_tasks_node(c):
            return True
        c = c.parent
    return False


def cnodes_of(cube, name, where=None):
    """The call paths of the region called name (where: None all, True in task
    trees, False outside them)."""
    return [c for c in cube.cnodes_in_order() if c.region.name == name
            and (where is None or in_tasks(cube, c) == where)]


def total(cube, metric, cnodes, kind="exclusive"):
    """A metric summed over call paths and threads (visits: as stored)."""
    s = 0
    for c in cnodes:
        row = cube.row(metric, c) if metric == "visits" else \
            cube.exclusive_row(metric, c) if kind == "exclusive" else cube.inclusive_row(metric, c)
        s += sum(row)
    return s


class ScratchTest(unittest.TestCase):
    """Tests with a scratch directory of their own (removed at the end), into
    which write() puts files."""
    prefix = "pp_fn_"

    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix=cls.prefix)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def write(self, name, text):
        path = os.path.join(self.scratch, name)
        with open(path, "w") as f:
            f.write(text)
        return path
