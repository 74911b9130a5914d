"""Shared by the OMPT tests (not a test itself): the OMPT tool of the build
tree, the two ways a program runs measured through OMPT (built by clang on
libomp; built by gcc, on libgomp's entry points of a preloaded libomp), the
OPARI2 mode build beside them, and the profile read back as call paths."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "e2e"))
from e2e_env import CC, ENV, OPENMP, PROGS, TOP_BUILDDIR, WRAPPER, cubex  # noqa: E402,F401

TOOL = os.path.join(TOP_BUILDDIR, ".libs", "libpompprof_ompt.so")
CLANG = shutil.which("clang")


def libomp():
    """Debian's libomp (libomp5-14), None when absent."""
    for d in ("/usr/lib/llvm-14/lib", "/usr/lib/x86_64-linux-gnu"):
        p = os.path.join(d, "libomp.so.5")
        if os.path.exists(p):
            return p
    return None


def have_ompt():
    return os.path.exists(TOOL) and libomp() is not None and CLANG is not None


def build(scratch, source, mode, flags=(), name=None):
    """Build PROGS/source for mode 'opari2' (the wrapper, gcc, libgomp), 'clang'
    (clang -fopenmp, libomp) or 'gcc' (plain gcc, run on libomp): the path."""
    exe = os.path.join(scratch, (name or os.path.splitext(os.path.basename(source))[0])
                       + "_" + mode)
    src = source if os.path.isabs(source) else os.path.join(PROGS, source)
    if mode == "opari2":
        cmd = [WRAPPER] + CC + OPENMP
    elif mode == "clang":
        cmd = [CLANG, "-fopenmp"]
    else:
        cmd = CC + OPENMP
    cmd += ["-g", "-O2"] + list(flags) + [src, "-o", exe]
    p = subprocess.run(cmd, env=ENV, cwd=scratch, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0:
        raise AssertionError("building %s (%s): %s" % (source, mode, p.stderr))
    return exe


def run_any(exe, mode, threads, args=(), extra_env=None, scratch=None):
    """Run exe measured in its mode at threads threads, whatever its exit status:
    (the finished process, the output directory)."""
    out = tempfile.mkdtemp(dir=scratch)
    env = dict(ENV, OMP_NUM_THREADS=str(threads), POMPPROF_OUTPUT=out)
    if mode != "opari2":
        env["OMP_TOOL_LIBRARIES"] = TOOL
    if mode == "gcc":
        env["LD_PRELOAD"] = libomp()
    env.update(extra_env or {})
    p = subprocess.run([exe] + [str(a) for a in args], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, timeout=300)
    return p, out


def run(exe, mode, threads, args=(), extra_env=None, scratch=None):
    """Run exe measured in its mode at threads threads: (stdout, stderr, the profile
    read back, the output directory)."""
    p, out = run_any(exe, mode, threads, args, extra_env, scratch)
    if p.returncode != 0:
        raise AssertionError("%s exited %d: %s" % (exe, p.returncode, p.stderr))
    return p.stdout, p.stderr, cubex.load(out), out


def paths(cube):
    """{call path (names from the root, ' > ' between): visits summed over threads}
    of the main tree and of the TASKS subtrees."""
    result = {}
    for c in cube.cnodes_in_order():
        names = []
        n = c
        while n is not None:
            names.append(n.region.name if n.parent is not None else "PROGRAM")
            n = n.parent
        key = " > ".join(reversed(names))
        result[key] = result.get(key, 0) + sum(cube.row("visits", c))
    return result


def visits_ending(cube, name):
    """Visits of every call path that ends in the region named name."""
    return sum(v for k, v in paths(cube).items() if k.endswith("> " + name))


def instances(cube):
    """{task construct: instances}."""
    return {c.region.name: sum(cube.row("visits", c)) for c in cube.task_roots()}
