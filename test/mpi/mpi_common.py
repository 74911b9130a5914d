"""Shared by the MPI tests (not a test itself): the build-tree wrapper with the
uninstalled libraries, Open MPI's mpirun (oversubscribed, allowed as root, always
under coreutils' timeout), and the tools' .cubex reader.  A test exits 77 (skipped) when
configure built no MPI support."""
import os
import re
import subprocess
import sys

TOP_SRCDIR = os.environ.get("top_srcdir")
TOP_BUILDDIR = os.environ.get("top_builddir")
if not TOP_SRCDIR or not TOP_BUILDDIR:
    sys.exit("run through make check (top_srcdir/top_builddir unset)")
sys.path.insert(0, os.path.join(TOP_SRCDIR, "scripts"))
from pompprof_tools.cube import cubex  # noqa: E402,F401

PROGS = os.path.join(TOP_SRCDIR, "test", "mpi", "progs")
WRAPPER = os.path.join(TOP_BUILDDIR, "scripts", "pompprof")
MPIRUN = os.environ.get("MPIRUN", "")
OPENMP = os.environ.get("OPENMP_CFLAGS", "-fopenmp").split()
ENV = dict(os.environ,
           POMPPROF_LIBDIR=os.path.join(TOP_BUILDDIR, ".libs"),
           POMPPROF_INCDIR=os.path.join(TOP_SRCDIR, "pomp2"),
           OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           # no CPU binding, and ranks that wait yield: 8 ranks share 2 cores
           OMPI_MCA_hwloc_base_binding_policy="none",
           OMPI_MCA_rmaps_base_oversubscribe="1",
           OMPI_MCA_mpi_yield_when_idle="1",
           # the launcher kills a rank 1 s after SIGTERM by default; a loaded
           # test machine may need longer to write the rank's own profile
           OMPI_MCA_odls_base_sigkill_timeout="10")
ENV.pop("POMPPROF_OUTPUT", None)
TIMEOUT = 120


def require_mpi(fortran=False):
    if os.environ.get("MPI_SUPPORT") != "yes" or not MPIRUN:
        print("SKIP: configure built no MPI support")
        sys.exit(77)
    if fortran and os.environ.get("MPI_FORTRAN_SUPPORT") != "yes":
        print("SKIP: configure built no Fortran MPI support")
        sys.exit(77)


def build(compiler, source, out, instrumented, extra=()):
    """Compile and link a program with compiler (plain, or through pompprof)."""
    cmd = ([WRAPPER] if instrumented else []) + [compiler] + OPENMP + ["-O2", source, "-o", out]
    cmd += list(extra)
    p = subprocess.run(cmd, env=ENV, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("FAIL: %s\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    return out


def mpirun(ranks, threads, program, args=(), output=None, env=None):
    """Run program on `ranks` ranks of `threads` threads: (status, stdout, stderr).
    A run that hangs fails the test: coreutils' timeout sends mpirun SIGTERM, on
    which it ends its ranks too (SIGKILL 10 s later), and exits 124."""
    e = dict(ENV, OMP_NUM_THREADS=str(threads), **(env or {}))
    if output:
        e["POMPPROF_OUTPUT"] = output
    cmd = [MPIRUN, "--oversubscribe", "-np", str(ranks), program] + list(args)
    try:
        p = subprocess.run(["timeout", "-k", "10", str(TIMEOUT)] + cmd, env=e,
                           capture_output=True, text=True, timeout=TIMEOUT + 30)
    except subprocess.TimeoutExpired:
        p = None
    if p is None or p.returncode in (124, 137):
        sys.exit("FAIL: %s did not end within %d s" % (" ".join(cmd), TIMEOUT))
    return p.returncode, p.stdout, p.stderr


def launcher_text(stderr):
    """stderr without pompprof's lines and with the job ids mpirun prints
    ([[18476,1],2]) made alike, to compare runs."""
    lines = [ln for ln in stderr.splitlines() if not ln.startswith("pompprof:")]
    return re.sub(r"\[\[\d+,", "[[JOB,", "\n".join(lines))


def verdict(errors):
    """Print the errors, one FAIL line each: the test's exit status."""
    for e in errors:
        print("FAIL: " + e)
    return 1 if errors else 0


def pompprof_lines(text):
    return [ln for ln in text.splitlines() if ln.startswith("pompprof:")]


def node(cube, *names):
    """The cnode reached from the root by the region names (None when missing)."""
    n = cube.roots[0]
    for name in names:
        n = next((c for c in n.children if c.region.name == name), None)
        if n is None:
            return None
    return n


def find(cube, name):
    """Every cnode of a region."""
    return [c for c in cube.cnodes_in_order() if c.region.name == name]


def per_rank(cube, metric, cnodes):
    """{rank: the metric summed over the rank's threads and the cnodes}."""
    out = {}
    for c in cnodes:
        row = cube.row(metric, c)
        for loc in cube.locations:
            out[loc.group_rank] = out.get(loc.group_rank, 0) + row[loc.id]
    return out
