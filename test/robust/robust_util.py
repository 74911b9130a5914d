"""Shared helpers of the robustness tests (test/robust/*.py).

Builds small C programs plainly and with the pompprof wrapper from the build
tree, runs them the way a shell would (default signal dispositions, no core
files), and reads the profiles back with the project's own .cubex reader.
Tests that need parts of pompprof that are not built exit with 77 (skip)."""

import glob
import os
import resource
import shlex
import shutil
import signal
import subprocess
import sys

SKIP = 77


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def skip(msg):
    print("SKIP: " + msg)
    sys.exit(SKIP)


def srcdir():
    d = os.environ.get("top_srcdir")
    if d:
        return os.path.abspath(d)
    return os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def builddir():
    d = os.environ.get("top_builddir")
    if not d:
        skip("top_builddir is not set (run through 'make check')")
    return os.path.abspath(d)


def robust_src(*parts):
    return os.path.join(srcdir(), "test", "robust", *parts)


def cc():
    return shlex.split(os.environ.get("CC") or "gcc")


def openmp_cflags():
    return shlex.split(os.environ.get("OPENMP_CFLAGS") or "-fopenmp")


def wrapper():
    return os.path.join(builddir(), "scripts", "pompprof")


def libdir():
    return os.path.join(builddir(), ".libs")


def require_wrapper():
    if not os.access(wrapper(), os.X_OK):
        skip("the pompprof wrapper is not built yet (scripts/pompprof)")
    if not glob.glob(os.path.join(libdir(), "libpompprof.so*")) and \
            not os.path.exists(os.path.join(libdir(), "libpompprof.a")):
        skip("libpompprof is not built yet")


def require_reader():
    # the reader is part of the source tree: its absence is a broken checkout, not a skip
    if not os.path.exists(os.path.join(srcdir(), "scripts", "pompprof_tools", "cube", "cubex.py")):
        fail("the .cubex reader (scripts/pompprof_tools/cube/cubex.py) is missing")


def require_all():
    require_wrapper()
    require_reader()


def workdir(name):
    """A fresh scratch directory below the build tree, removed by cleanup()."""
    d = os.path.join(builddir(), "test", "robust", "work-" + name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def cleanup(d):
    shutil.rmtree(d, ignore_errors=True)


def wrapper_env(extra=None):
    env = clean_env()
    env["POMPPROF_LIBDIR"] = libdir()
    env["POMPPROF_INCDIR"] = os.path.join(srcdir(), "pomp2")
    if extra:
        env.update(extra)
    return env


def clean_env(extra=None):
    """The environment without any POMPPROF_* setting of the caller."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("POMPPROF_")}
    env.setdefault("OMP_NUM_THREADS", "2")
    if extra:
        env.update(extra)
    return env


def build(src, out, instrumented, cflags=(), ldflags=(), cwd=None, compiler=None):
    """Compile and link src to out; instrumented=True goes through pompprof."""
    comp = list(compiler) if compiler else cc()
    # the sanitizer run (make check-sanitize) builds the programs with the
    # sanitizers too: its library needs their runtime in the program
    extra = shlex.split(os.environ.get("ROBUST_EXTRA_CFLAGS", ""))
    base = comp + openmp_cflags() + ["-O1", "-g"] + extra + list(cflags) + [src, "-o", out] + \
        list(ldflags)
    if instrumented:
        cmd = [wrapper()] + base
        env = wrapper_env()
    else:
        cmd = base
        env = clean_env()
    p = subprocess.run(cmd, env=env, cwd=cwd or os.path.dirname(out),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        fail("build failed: %s\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    return out


def _child_setup():
    # A shell starts a foreground program with default dispositions; Python
    # and make may have changed some (SIGPIPE, SIGINT of background jobs).
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT, signal.SIGPIPE,
              signal.SIGXFSZ):
        signal.signal(s, signal.SIG_DFL)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


class Run:
    def __init__(self, returncode, stdout, stderr):
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr

    def pompprof_lines(self):
        return [l for l in self.stderr.splitlines() if l.startswith("pompprof:")]

    def describe(self):
        return "status %s\n--- stdout\n%s--- stderr\n%s" % (
            self.returncode, self.stdout, self.stderr)


def run(cmd, cwd, env=None, timeout=60, preexec=None):
    """Run a program to its end; returncode < 0 means killed by -returncode.
    A hang is a failure of the test, never a hang of the suite."""
    def setup():
        _child_setup()
        if preexec:
            preexec()
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env if env is not None else clean_env(),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                           preexec_fn=setup)
    except subprocess.TimeoutExpired:
        fail("timeout (%ss): %s -- the program or the profiler hangs" % (timeout, cmd))
    return Run(p.returncode, p.stdout.decode(errors="replace"),
               p.stderr.decode(errors="replace"))


def spawn(cmd, cwd, env=None):
    return subprocess.Popen(cmd, cwd=cwd, env=env if env is not None else clean_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=_child_setup)


def find_profiles(d):
    return sorted(glob.glob(os.path.join(d, "**", "*.cubex"), recursive=True))


def one_profile(d, what):
    found = find_profiles(d)
    if len(found) != 1:
        fail("%s: expected exactly one profile below %s, found %s" % (what, d, found))
    return found[0]


def same_behaviour(plain, instr, what):
    """The instrumented program must print and end exactly like the plain one."""
    if plain.returncode != instr.returncode:
        fail("%s: exit status %s with pompprof, %s without\n%s" % (
            what, instr.returncode, plain.returncode, instr.describe()))
    if plain.stdout != instr.stdout:
        fail("%s: stdout differs\n--- plain\n%s--- pompprof\n%s" % (
            what, plain.stdout, instr.stdout))
    extra = [l for l in instr.stderr.splitlines()
             if l not in plain.stderr.splitlines() and not l.startswith("pompprof:")]
    if extra:
        fail("%s: stderr has lines the plain program does not print: %s" % (what, extra))


# ---- reading profiles -----------------------------------------------------------

def cubex_module():
    require_reader()
    sys.path.insert(0, os.path.join(srcdir(), "scripts"))
    from pompprof_tools.cube import cubex  # noqa: E402
    return cubex


class Profile:
    """A profile read back with pompprof_tools.cube.cubex, with the few queries the
    robustness tests need (values summed over all threads)."""

    def __init__(self, path):
        cubex = cubex_module()
        try:
            self.cube = cubex.load(path)
        except cubex.CubexError as e:
            fail("profile %s does not read back: %s" % (path, e))
        self.path = path

    def nodes(self):
        return self.cube.cnodes_in_order()

    def path_names(self, c):
        names = []
        while c is not None:
            names.append(c.region.name)
            c = c.parent
        return list(reversed(names))

    def visits(self, c):
        return sum(self.cube.row("visits", c))

    def time(self, c):
        """Inclusive time of a call path, summed over threads (seconds)."""
        return sum(self.cube.inclusive_row("time", c))

    def region_names(self):
        return {c.region.name for c in self.nodes()}

    def nodes_named(self, pred):
        return [c for c in self.nodes() if pred(c.region.name)]

    def task_roots(self):
        return self.cube.task_roots()

    def has(self, prefix):
        return any(n.startswith(prefix) for n in self.region_names())

    def require_regions(self, prefixes, what):
        names = self.region_names()
        missing = [p for p in prefixes if not any(n.startswith(p) for n in names)]
        if missing:
            fail("%s: profile %s lacks regions %s (has %s)" % (
                what, self.path, missing, sorted(names)))
