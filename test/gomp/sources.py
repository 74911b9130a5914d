"""Compare the profiles that two event sources make of one program (not a test
itself): the rebuild with the pompprof wrapper (OPARI2, the reference) and a
source that measures the unchanged binary.

A source builds a program and runs it measured (SOURCES).  Its profile is read
back as a Profile: the call paths of the threads' trees with their visits
(summed over threads), the task instance trees under TASKS, the instances per
task construct, the stubs (where task fragments ran: they depend on
scheduling, so only their sum per construct is kept) and each region's role.

What a source cannot see the same way is listed per source in EXPECTED: each
rule has a name, says why, and turns the two profiles into what both can
show; compare() applies them and returns every difference left, call path by
call path.  A rule that finds nothing to do does nothing, so a program
without, say, a static loop is compared exactly.  The OMPT routes can add
their own list under their source's name.

Dependences: edges() runs a program traced and returns the replay's
dependence edges (pompprof-replay --dot), to be compared edge for edge."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "e2e"))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "trace"))
from e2e_env import CC, ENV, OPENMP, PROGS, TOP_BUILDDIR, WRAPPER, cubex  # noqa: E402,F401
from trace_common import dot_edges  # noqa: E402

POMPPROF = os.path.join(TOP_BUILDDIR, "scripts", "pompprof")
REPLAY = os.path.join(TOP_BUILDDIR, "replay", "pompprof-replay")
GOMP_LIB = os.path.join(TOP_BUILDDIR, ".libs", "libpompprof_gomp.so")
FC = os.environ.get("FC") or "gfortran"
GOMP_PROGS = os.path.join(HERE, "progs")
TASK_ROLES = ("task", "untied task")


def compiler(source):
    return [FC] if source.endswith((".f90", ".f", ".F90", ".F")) else CC


# ---- building and running ------------------------------------------------------------

class Run:
    def __init__(self, proc, out):
        self.stdout, self.stderr, self.returncode = proc.stdout, proc.stderr, proc.returncode
        self.out = out
        self.cube = cubex.load(out) if os.path.isdir(out) and os.listdir(out) else None


def build(scratch, source, how, flags=("-g", "-O2")):
    """Build source (a path, or a name in test/gomp/progs or test/e2e/progs):
    how is "opari2" (the wrapper) or "plain"; the executable's path."""
    src = source
    for d in (GOMP_PROGS, PROGS):
        if not os.path.isabs(src) and os.path.exists(os.path.join(d, source)):
            src = os.path.join(d, source)
    exe = os.path.join(scratch, os.path.splitext(os.path.basename(source))[0] + "_" + how)
    cmd = ([WRAPPER] if how == "opari2" else []) + compiler(src) + OPENMP + list(flags) + \
        [src, "-o", exe]
    p = subprocess.run(cmd, env=ENV, cwd=scratch, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0:
        raise AssertionError("building %s (%s): %s" % (source, how, p.stderr))
    return exe


def run(exe, source, threads, args=(), env=None, scratch=None):
    """Run exe measured by source ("opari2": as built; "gomp": through
    `pompprof run`) at threads threads."""
    out = tempfile.mkdtemp(dir=scratch)
    e = dict(ENV, OMP_NUM_THREADS=str(threads), POMPPROF_OUTPUT=out, **(env or {}))
    e.pop("OMP_TOOL_LIBRARIES", None)
    cmd = [exe] + [str(a) for a in args]
    if source == "gomp":
        cmd = [POMPPROF, "run", "--"] + cmd
    p = subprocess.run(cmd, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=600)
    return Run(p, out)


def replay(out):
    """pompprof-replay's summary of a traced run's archive (a dict)."""
    import json
    p = subprocess.run([REPLAY, os.path.join(out, "traces.otf2")], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0:
        raise AssertionError("pompprof-replay: %s" % p.stderr)
    return json.loads(p.stdout)


def edges(exe, source, threads, args=(), scratch=None):
    """The replay's dependence edges of a traced run (and the run)."""
    r = run(exe, source, threads, args, env={"POMPPROF_TRACE": "1"}, scratch=scratch)
    dot = os.path.join(r.out, "graph.dot")
    p = subprocess.run([REPLAY, "--dot", dot, os.path.join(r.out, "traces.otf2")],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0:
        raise AssertionError("pompprof-replay: %s" % p.stderr)
    return dot_edges(dot), r


# ---- a profile as compared ------------------------------------------------------------

class Profile:
    """calls: {call path: visits} of the threads' trees, stubs left out;
    tasks: {call path: visits} below TASKS; instances: {task construct:
    instances}; stubs: {task construct: visits of its stubs}; roles: {region
    name: role}.  A call path is the region names from the program's root,
    joined by " > "."""

    def __init__(self, cube):
        self.calls, self.tasks, self.stubs, self.instances, self.roles = {}, {}, {}, {}, {}
        for c in cube.cnodes_in_order():
            if c.parent is None:
                continue
            self.roles[c.region.name] = c.region.role
            names, n, under_tasks = [], c, False
            while n.parent is not None:
                names.append(n.region.name)
                under_tasks |= n.region.name == "TASKS" and n.parent.parent is None
                n = n.parent
            path = " > ".join(reversed(names))
            visits = sum(cube.row("visits", c))
            if under_tasks:
                if path != "TASKS":  # the node itself: there when instances are
                    self.tasks[path] = self.tasks.get(path, 0) + visits
                if c.parent.region.name == "TASKS":
                    self.instances[c.region.name] = self.instances.get(c.region.name, 0) + visits
            elif c.region.role in TASK_ROLES:
                self.stubs[c.region.name] = self.stubs.get(c.region.name, 0) + visits
            else:
                self.calls[path] = self.calls.get(path, 0) + visits

    def paths(self):
        return set(self.calls) | set(self.tasks)


def _leaf(path):
    return path.rsplit(" > ", 1)[-1]


def _name_line(name):
    m = re.search(r"@([^:@ ]+):(\d+)$", name)
    return (m.group(1), int(m.group(2))) if m else (None, 0)


def _lift(table, name_test):
    """Remove every region whose name name_test accepts from the call paths
    of table, its children moving up to its parent (visits add up)."""
    out = {}
    for path, visits in table.items():
        parts = path.split(" > ")
        if name_test(parts[-1]):
            continue
        kept = " > ".join(p for p in parts if not name_test(p))
        out[kept] = out.get(kept, 0) + visits
    return out


# ---- what the source says ------------------------------------------------------------------

def directive_text(sources, name):
    """The directive a region name points at, with its continuation lines,
    lower case ('' when unknown)."""
    base, line = _name_line(name)
    path = sources.get(base)
    if not path or line <= 0:
        return ""
    with open(path) as f:
        lines = f.read().splitlines()
    text, i = "", line - 1
    while 0 <= i < len(lines):
        text += " " + lines[i].strip()
        if not (lines[i].rstrip().endswith(("\\", "&"))):
            break
        i += 1
    return text.lower()


def static_loop(text):
    """A loop directive gcc computes inline: no schedule but static or auto,
    nothing that needs the runtime's loop start."""
    t = re.sub(r"\s+", "", text)
    m = re.search(r"schedule\((?:(?:non)?monotonic:)?(\w+)", t)
    if m and m.group(1) not in ("static", "auto"):
        return False
    return not any(k in t for k in ("ordered", "reduction(task", "inscan", "conditional:"))


# ---- the expected differences ------------------------------------------------------------

class Rule:
    """One expected difference: why, and what it does to (ref, got)."""

    def __init__(self, name, why, apply):
        self.name, self.why, self.apply = name, why, apply


def _unseen(ref, got, sources):
    """Constructs a gcc binary calls libgomp for neither at their begin nor at
    their end: atomics gcc compiles to instructions, flush (a fence), master
    and masked (a test of the thread number), workshare (gfortran's own code),
    and statically scheduled loops (their chunks computed inline): the region
    is left out of the rebuild's profile, its children stay (a static loop's
    implicit barrier, a GOMP_barrier call, hangs where the loop was)."""
    def unseen(name):
        word = re.match(r"!\$omp ([a-z ]+?) (\(|@)", name)
        if not word:
            return False
        w = word.group(1)
        if w in ("atomic", "flush", "master", "masked", "workshare"):
            return True
        return w in ("for", "do") and static_loop(directive_text(sources, name))
    ref.calls, ref.tasks = _lift(ref.calls, unseen), _lift(ref.tasks, unseen)


def _taskloop_tasks(ref, got, sources):
    """Each task libgomp makes of a taskloop's chunks is an instance of the
    construct "!$omp taskloop task" (named at the taskloop's line, as the OMPT
    tool names them); the rebuild measures the taskloop as one region and has
    no such instances: they are left out of the interposer's profile (their
    counts are checked where a test knows them)."""
    def chunk_task(name):
        return name.startswith("!$omp taskloop task @")
    got.tasks = {p: v for p, v in got.tasks.items()
                 if not chunk_task(p.split(" > ")[1] if " > " in p else "")}
    got.instances = {k: v for k, v in got.instances.items() if not chunk_task(k)}
    got.stubs = {k: v for k, v in got.stubs.items() if not chunk_task(k)}


def _region_barrier(ref, got, sources):
    """gcc leaves out the implicit barrier of a worksharing construct that
    ends a parallel region (the region's follows at once).  The interposer
    measures the one barrier there as the construct's (where the rebuild's
    wait is); the rebuild's second barrier, the region's, has no counterpart.
    A construct written with nowait there is measured the same way: the
    region's barrier nests in it, named where the construct ends."""
    for path in [p for p in ref.calls if "implicit barrier @" in _leaf(p)]:
        parent = path.rsplit(" > ", 1)[0]
        if path in got.calls or not _leaf(parent).startswith("!$omp parallel @"):
            continue
        # the got's construct below the region that has a barrier the ref's lacks
        moved = [p for p in got.calls if p.startswith(parent + " > ") and
                 p.count(" > ") == path.count(" > ") + 1 and
                 "implicit barrier @" in _leaf(p) and p not in ref.calls]
        if moved:
            # a nowait construct: its barrier is the region's
            for m in moved:
                target = path
                for p in [q for q in got.calls if q == m or q.startswith(m + " > ")]:
                    new = target + p[len(m):]
                    got.calls[new] = got.calls.get(new, 0) + got.calls.pop(p)
        else:
            for p in [q for q in ref.calls if q == path or q.startswith(path + " > ")]:
                del ref.calls[p]


def _nowait_single_barrier(ref, got, sources):
    """A barrier call right after a single is the single's implicit barrier
    to the interposer, which cannot see whether the single was written with
    nowait: a barrier directive after a nowait single nests in the single
    (named as the barrier directive it is).  Such a barrier is moved up
    beside the single."""
    for path in [p for p in got.calls if _leaf(p).startswith("!$omp barrier @")]:
        parent = path.rsplit(" > ", 1)[0]
        if not _leaf(parent).startswith("!$omp single @") or path in ref.calls:
            continue
        up = parent.rsplit(" > ", 1)[0] + " > " + _leaf(path)
        if up in ref.calls and up not in got.calls:
            for p in [q for q in got.calls if q == path or q.startswith(path + " > ")]:
                new = up + p[len(path):]
                got.calls[new] = got.calls.get(new, 0) + got.calls.pop(p)


def _task_reduction_loop(ref, got, sources):
    """The rebuild measures a loop with a task reduction without its implicit
    barrier (the wrapper compiles that barrier inside the loop region); the
    interposer sees it (GOMP_workshare_task_reduction_unregister waits
    there): it is left out of the interposer's profile, its time the loop's."""
    for path in [p for p in got.calls if "implicit barrier @" in _leaf(p)]:
        loop = path.rsplit(" > ", 1)[0]
        if path in ref.calls or not re.match(r"!\$omp (for|do) @", _leaf(loop)):
            continue
        if "reduction(task" not in re.sub(r"\s+", "", directive_text(sources, _leaf(loop))):
            continue
        for p in [q for q in got.calls if q == path or q.startswith(path + " > ")]:
            new = loop + p[len(path):]
            v = got.calls.pop(p)
            if new != loop:
                got.calls[new] = got.calls.get(new, 0) + v


EXPECTED = {
    "gomp": [
        Rule("barrier of a loop with a task reduction", _task_reduction_loop.__doc__,
             _task_reduction_loop),
        Rule("barrier after a nowait single", _nowait_single_barrier.__doc__,
             _nowait_single_barrier),
        Rule("unseen", _unseen.__doc__, _unseen),
        Rule("taskloop tasks", _taskloop_tasks.__doc__, _taskloop_tasks),
        Rule("region barrier", _region_barrier.__doc__, _region_barrier),
    ],
}


def compare(ref, got, source, sources):
    """The differences between the rebuild's profile ref and source's got
    (Profiles), after the source's expected differences: a list of lines,
    empty when equal.  sources: {file base name: path} of the program's
    sources (the rules read the directives)."""
    for rule in EXPECTED.get(source, []):
        rule.apply(ref, got, sources)
    diffs = []
    for table in ("calls", "tasks", "instances"):
        a, b = getattr(ref, table), getattr(got, table)
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                diffs.append("%s: %s: rebuild %s, %s %s" % (table, k, a.get(k), source, b.get(k)))
    for name in sorted(set(ref.roles) & set(got.roles)):
        if ref.roles[name] != got.roles[name]:
            diffs.append("role of %s: rebuild %s, %s %s" % (name, ref.roles[name], source,
                                                          got.roles[name]))
    # every instance ran somewhere: at least one stub visit each
    for name, n in got.instances.items():
        if got.stubs.get(name, 0) < n:
            diffs.append("stubs of %s: %s visits for %d instances" % (name, got.stubs.get(name),
                                                                     n))
    return diffs


def scratch_dir(prefix):
    return tempfile.mkdtemp(prefix=prefix)


def remove(path):
    shutil.rmtree(path, ignore_errors=True)
