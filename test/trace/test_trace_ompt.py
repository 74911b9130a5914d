"""Cross-check with the runtime: the same gcc-built, pompprof-instrumented programs run
on LLVM's OpenMP runtime (LD_PRELOAD=libomp.so.5, which implements gcc's GOMP interface)
with a small OMPT tool (progs/ompt_deps.c, OMP_TOOL_LIBRARIES) that records the runtime's
own `dependences` and `task_dependence` callbacks.  Task by task, in creation order, the
dependences pompprof recorded (addresses and types; gcc's interface passes out as inout,
so the runtime cannot tell those two apart, and out items before in items, so each
task's are compared as a set) equal the runtime's, a taskwait depend's too;
the runtime's edges are a subset of the replay's (C and Fortran) (the runtime leaves out edges to tasks
already completed); and the replay still finds nothing undetermined.  Skips without
libomp or its omp-tools.h (Debian libomp-14-dev)."""
import glob
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from trace_common import CC, EXAMPLES, PROGS, TOP_BUILDDIR, TOP_SRCDIR, build, dot_edges, run

REPLAY = os.path.join(TOP_BUILDDIR, "replay", "pompprof-replay")
LIBOMP = "/usr/lib/x86_64-linux-gnu/libomp.so.5"
HEADERS = sorted(glob.glob("/usr/lib/llvm-*/lib/clang/*/include/omp-tools.h"))
GRAPHS = os.path.join(TOP_SRCDIR, "test", "e2e", "progs", "depend_graphs.c")
FGRAPHS = os.path.join(TOP_SRCDIR, "test", "e2e", "progs", "fdepend_graphs.f90")
SAME = {2: 3}  # out -> inout: gcc's GOMP interface passes both alike


def pompprof_items(archive):
    """[(kind, [(address, type)])] in event order: ('task', ...) per ThreadTaskCreate with
    dependences, ('wait', ...) per Enter that carries a taskwait depend's."""
    text = subprocess.run(["otf2-print", archive], stdout=subprocess.PIPE,
                          universal_newlines=True, check=True).stdout.splitlines()
    out = []
    for k, line in enumerate(text):
        if k + 1 >= len(text) or "ADDITIONAL ATTRIBUTES" not in text[k + 1]:
            continue
        values = {}
        for n, field, v in re.findall(r'"depend\[(\d+)\] (\w+)" <\d+>; \w+; (\d+)', text[k + 1]):
            values.setdefault(int(n), {})[field] = int(v)
        items = [(values[n]["address"], SAME.get(values[n]["kind"], values[n]["kind"]))
                 for n in sorted(values)]
        out.append(("task" if line.startswith("THREAD_TASK_CREATE") else "wait", items))
    return out


def runtime_items(path):
    """The OMPT tool's file as pompprof_items' list, and the edges between tasks."""
    out, edges = [], set()
    with open(path) as f:
        for line in f:
            w = line.split()
            if w[0] in ("task", "wait"):
                out.append((w[0], []))
            elif w[0] == "dep":
                out[-1][1].append((int(w[2]), SAME.get(int(w[3]), int(w[3]))))
            elif w[0] == "edge" and int(w[2]) < 1000000:
                edges.add((int(w[1]), int(w[2])))
    return out, edges


@unittest.skipUnless(os.path.exists(LIBOMP) and HEADERS, "no libomp.so.5 or omp-tools.h")
class OmptCrossCheck(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pp_trace_ompt_")
        inc = os.path.join(cls.tmp, "inc")
        os.mkdir(inc)
        # the header alone: clang's include directory would replace gcc's stddef.h
        shutil.copy(HEADERS[-1], inc)
        cls.tool = os.path.join(cls.tmp, "ompt_deps.so")
        subprocess.run(CC + ["-shared", "-fPIC", "-Wall", "-Wextra", "-I" + inc,
                             os.path.join(PROGS, "ompt_deps.c"), "-o", cls.tool], check=True)
        cls.graphs = build(cls.tmp, GRAPHS)
        cls.wave = build(cls.tmp, os.path.join(EXAMPLES, "wavefront.c"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def check(self, exe, name, threads, args=(), env=None):
        out = os.path.join(self.tmp, "%s.%d" % (name, threads))
        deps = out + ".ompt"
        e = dict(env or {}, LD_PRELOAD=LIBOMP, OMP_TOOL_LIBRARIES=self.tool,
                 OMPT_DEPS_OUT=deps)
        proc = run(exe, out, threads=threads, args=args, env=e)
        plain = run(exe, out + ".libgomp", threads=threads, args=args, env=env, trace=False)
        self.assertEqual(proc.stdout, plain.stdout)
        # gcc hands the runtime out and inout items first: compare each task's as a set
        ours = [(k, sorted(v)) for k, v in pompprof_items(os.path.join(out, "traces.otf2"))]
        theirs, edges = runtime_items(deps)
        theirs = [(k, sorted(v)) for k, v in theirs]
        what = "%s at %d threads" % (name, threads)
        self.assertGreater(len(theirs), 0, what)
        self.assertEqual(ours, theirs, what)
        dot = out + ".dot"
        d = subprocess.run([REPLAY, "--dot", dot, os.path.join(out, "traces.otf2")],
                           stdout=subprocess.PIPE, universal_newlines=True, check=True)
        self.assertEqual(json.loads(d.stdout)["total"]["undetermined"], 0, what)
        replay = dot_edges(dot)
        self.assertTrue(edges <= replay, "%s: runtime edges %s not in the replay's"
                        % (what, sorted(edges - replay)))
        return edges, replay

    def test_graphs(self):
        for threads in (1, 2, 4):
            edges, replay = self.check(self.graphs, "graphs", threads)
            self.assertEqual(len(replay), 16)

    def test_fortran(self):
        if os.environ.get("FORTRAN_BINDINGS") != "yes":
            self.skipTest("no Fortran bindings in this build")
        exe = build(self.tmp, FGRAPHS)
        for threads in (1, 2, 4):
            edges, replay = self.check(exe, "fgraphs", threads)
            self.assertEqual(len(replay), 11)

    def test_wavefront_and_chains(self):
        for threads in (1, 2, 4):
            self.check(self.wave, "wavefront", threads, args=(6, 20000))
            self.check(self.wave, "chains", threads, args=(10, 20000), env={"CHAINS": "4"})


if __name__ == "__main__":
    unittest.main()
