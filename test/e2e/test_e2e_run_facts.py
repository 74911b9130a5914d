#!/usr/bin/env python3
"""End-to-end (issue 23): tools a user can trust, through the real path (wrapper, OPARI2,
gcc, libgomp, the commands make built).

- every profile and trace holds the run's facts (command line, host, cores online, the
  OMP_*/POMPPROF_* settings, version, how the run ended), read back from the .cubex and
  from otf2-print; the report's header shows them;
- exit() inside a parallel region and SIGTERM are marked in the profile and the report;
- a rerun into the same POMPPROF_OUTPUT, and a program that exec()s another with
  POMPPROF_OUTPUT set, write profiles of their own without a word on stderr; the
  report of the directory takes the newest and says which;
- the report refuses a difference profile with one line that says what it is;
- pompprof-scaling and pompprof-diff: different arguments are warned about, different
  programs refused (accepted with --force, with a warning), an oversubscribed run and
  work inflation (steps per thread in proportion to the team: work x threads^2) are
  flagged;
- the link says when no object of the program was instrumented (-fopenmp forgotten);
- messages: a misspelt POMPPROF_ variable and a misspelt PAPI event get the nearest
  name.
"""
import glob
import json
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import unittest
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_env import CC, ENV, OPENMP, PROGS, TOP_BUILDDIR, WRAPPER  # noqa: E402

ENV = {k: v for k, v in ENV.items() if not k.startswith(("POMPPROF_", "OMP_"))
       or k in ("POMPPROF_LIBDIR", "POMPPROF_INCDIR")}
CORES = os.sysconf("SC_NPROCESSORS_ONLN")
STEPS = "3000000"


def tool(name, *args):
    return subprocess.run([os.path.join(TOP_BUILDDIR, "scripts", "pompprof-" + name)]
                          + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=300)


def attrs(path):
    with tarfile.open(path) as t:
        root = ET.fromstring(t.extractfile("anchor.xml").read())
    return {a.get("key"): a.get("value") for a in root.iter("attr")}


class RunFacts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="pp_e2e_facts_")
        cls.exe = os.path.join(cls.scratch, "run_facts")
        p = subprocess.run([WRAPPER] + CC + OPENMP + ["-O1", os.path.join(PROGS, "run_facts.c"),
                                                      "-o", cls.exe],
                           env=ENV, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           universal_newlines=True)
        cls.build_stderr = p.stderr
        cls.plain = os.path.join(cls.scratch, "run_facts_plain")
        subprocess.run(CC + OPENMP + [os.path.join(PROGS, "run_facts.c"), "-o", cls.plain],
                       check=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def run_prog(self, out, *args, threads=2, exe=None, extra=None):
        env = dict(ENV, OMP_NUM_THREADS=str(threads), POMPPROF_OUTPUT=out, **(extra or {}))
        return subprocess.run([exe or self.exe] + list(args), env=env, cwd=self.scratch,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=120)

    def out(self, name):
        return os.path.join(self.scratch, name)

    def test_facts_in_profile_trace_and_report(self):
        d = self.out("normal")
        p = self.run_prog(d, "normal", STEPS, extra={"POMPPROF_TRACE": "1"})
        self.assertEqual((p.returncode, p.stdout, p.stderr), (0, "done\n", ""))
        a = attrs(os.path.join(d, "profile.cubex"))
        self.assertEqual(a["pompprof::command_line"], "%s normal %s" % (self.exe, STEPS))
        self.assertEqual(a["pompprof::host"], socket.gethostname())
        self.assertEqual(int(a["pompprof::cores_online"]), CORES)
        self.assertEqual(a["pompprof::threads"], "2")
        self.assertEqual(a["pompprof::end"], "normal")
        self.assertEqual(a["pompprof::event_source"], "opari2")  # the wrapper's build
        self.assertEqual(a["pompprof::env::OMP_NUM_THREADS"], "2")
        self.assertEqual(a["pompprof::env::POMPPROF_TRACE"], "1")
        self.assertRegex(a["pompprof::version"], r"^\d+\.\d+")
        self.assertRegex(a["pompprof::date"], r"^\d{4}-\d\d-\d\dT")
        info = subprocess.run(["otf2-print", "--show-info", os.path.join(d, "traces.otf2")],
                              stdout=subprocess.PIPE, universal_newlines=True).stdout
        for name, value in (("POMPPROF::HOST", socket.gethostname()),
                            ("POMPPROF::END", "normal"),
                            ("POMPPROF::EVENT_SOURCE", "opari2"),
                            ("POMPPROF::ENV::OMP_NUM_THREADS", "2"),
                            ("POMPPROF::CORES_ONLINE", str(CORES))):
            self.assertRegex(info, r"Property name\s+%s\nProperty value\s+%s\n"
                             % (name, value), name)
        r = tool("report", d)
        self.assertEqual(r.returncode, 0, r.stderr)
        for line in ("command line       : %s normal %s" % (self.exe, STEPS),
                     "host               : %s (%d cores online)" % (socket.gethostname(), CORES),
                     "OMP settings       : OMP_NUM_THREADS=2",
                     "run ended          : normal"):
            self.assertIn(line + "\n", r.stdout)
        self.assertNotIn("INTERRUPTED", r.stdout)

    def test_exit_and_signal_are_marked(self):
        d = self.out("exit")
        p = self.run_prog(d, "exit", STEPS)
        self.assertEqual((p.returncode, p.stdout, p.stderr), (3, "exit\n", ""))
        self.assertEqual(attrs(os.path.join(d, "profile.cubex"))["pompprof::end"],
                         "exit inside a parallel region")
        self.assertIn("*** EXITED EARLY (exit inside a parallel region)", tool("report", d).stdout)
        d = self.out("term")
        p = self.run_prog(d, "term", STEPS)
        self.assertEqual((p.returncode, p.stderr), (-15, ""))
        self.assertEqual(attrs(os.path.join(d, "profile.cubex"))["pompprof::end"],
                         "signal SIGTERM")
        self.assertIn("*** INTERRUPTED by SIGTERM", tool("report", d).stdout)
        # killed while tracing: what is left is described, not "run with POMPPROF_TRACE=1"
        d = self.out("killed")
        p = self.run_prog(d, "kill", STEPS, extra={"POMPPROF_TRACE": "1"})
        self.assertEqual(p.returncode, -9)
        # (it ends before any buffer was written: nothing to salvage, and it says so;
        # test/trace/test_trace_salvage.py salvages runs that flushed)
        r = tool("timeline", d)
        self.assertEqual(r.returncode, 1)
        self.assertIn("%s is what a traced run left" % os.path.join(d, "traces.raw"), r.stderr)
        self.assertIn("no record reached the disk before the process died", r.stderr)
        self.assertNotIn("run the program with", r.stderr)

    def test_profiles_never_collide(self):
        d = self.out("rerun")
        first = self.run_prog(d, "normal", "1000")
        second = self.run_prog(d, "normal", "2000")
        self.assertEqual((first.stderr, second.stderr), ("", ""))
        files = sorted(os.path.basename(f) for f in glob.glob(os.path.join(d, "*.cubex")))
        self.assertEqual(len(files), 2, files)
        self.assertIn("profile.cubex", files)
        newest = [f for f in files if f != "profile.cubex"][0]
        self.assertRegex(newest, r"^profile\.run_facts\.\d+\.cubex$")
        self.assertEqual(attrs(os.path.join(d, newest))["pompprof::command_line"].split()[-1],
                         "2000")
        r = tool("report", d)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("reading the newest, %s" % newest, r.stderr)
        self.assertIn("pompprof-report: %s\n" % os.path.join(d, newest), r.stdout)
        # a program that exec()s another instrumented program, one directory for both
        fork_src = os.path.join(PROGS, "fork.c")
        inst, plain = self.out("fork"), self.out("fork_plain")
        subprocess.run([WRAPPER] + CC + OPENMP + [fork_src, "-o", inst], env=ENV, check=True)
        subprocess.run(CC + OPENMP + [fork_src, "-o", plain], check=True)
        d = self.out("forked")
        p_inst = self.run_prog(d, exe=inst)
        p_plain = self.run_prog(self.out("unused"), exe=plain)
        self.assertEqual((p_inst.returncode, p_inst.stdout, p_inst.stderr),
                         (p_plain.returncode, p_plain.stdout, p_plain.stderr))
        self.assertEqual(len(glob.glob(os.path.join(d, "*.cubex"))), 2)

    def test_report_refuses_a_diff_profile(self):
        a, b = self.out("da"), self.out("db")
        self.run_prog(a, "normal", "1000")
        self.run_prog(b, "normal", "1000")
        dcube = self.out("d.cubex")
        r = tool("diff", a, b, "-o", dcube)
        self.assertEqual(r.returncode, 0, r.stderr)
        r = tool("report", dcube)
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout, "")
        self.assertIn("is a difference profile written by pompprof-diff", r.stderr)
        self.assertEqual(r.stderr.count("\n"), 1)

    def test_comparisons_check_the_runs(self):
        p1, p2, p2b = self.out("s1"), self.out("s2"), self.out("s2b")
        self.run_prog(p1, "normal", STEPS, threads=1)
        self.run_prog(p2, "normal", STEPS, threads=2)
        self.run_prog(p2b, "normal", "1000", threads=2)
        # different arguments: a warning naming both command lines
        for cmd in (("scaling", p1, p2b), ("diff", p1, p2b)):
            r = tool(*cmd)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("WARNING: the runs had different arguments", r.stdout, cmd)
            self.assertIn("normal 1000", r.stdout)
        # same program, same arguments: no such warning; work x2 flagged
        r = tool("scaling", p1, p2, "--format", "json")
        self.assertEqual(r.returncode, 0, r.stderr)
        data = json.loads(r.stdout)
        self.assertFalse([w for w in data["warnings"] if "different arguments" in w])
        inf = data["work_inflation"]
        self.assertIsNotNone(inf)
        self.assertGreater(inf["factor"], 1.25)     # 4x by construction
        self.assertTrue(any(q["path"][-1].startswith("!$omp parallel @run_facts.c")
                            for q in inf["paths"]), inf["paths"])
        self.assertIn("WORK INFLATION", tool("scaling", p1, p2).stdout)
        # different programs: refused, --force compares with a warning
        other = self.out("other_prog")
        shutil.copy(self.exe, other)
        po = self.out("so")
        self.run_prog(po, "normal", STEPS, exe=other)
        for cmd in (("scaling", p1, po), ("diff", p1, po)):
            r = tool(*cmd)
            self.assertEqual(r.returncode, 1, cmd)
            self.assertIn("different programs", r.stderr)
            self.assertIn("--force", r.stderr)
            r = tool(*(cmd + ("--force",)))
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("WARNING: the profiles are of different programs", r.stdout)
        # oversubscribed: more threads than cores online
        pov = self.out("sover")
        p = self.run_prog(pov, "normal", "1000", threads=CORES + 1)
        # the program's output stays its own: the library says it only when asked
        self.assertEqual((p.returncode, p.stdout, p.stderr), (0, "done\n", ""))
        self.assertIn("OVERSUBSCRIBED: %d threads on %d core" % (CORES + 1, CORES),
                      tool("scaling", p1, pov).stdout)
        self.assertIn("*** OVERSUBSCRIBED", tool("report", pov).stdout)
        self.assertIn("OVERSUBSCRIBED", tool("diff", p1, pov).stdout)
        p = self.run_prog(self.out("sover_verbose"), "normal", "1000", threads=CORES + 1,
                          extra={"POMPPROF_VERBOSE": "1"})
        self.assertEqual((p.returncode, p.stdout), (0, "done\n"))
        self.assertIn("pompprof: %d threads ran on %d core" % (CORES + 1, CORES), p.stderr)

    def test_link_says_when_nothing_was_instrumented(self):
        """Item 6: -fopenmp forgotten on the compile line (the wrapper then runs the
        compiler as it is, and says so: wrapper/noopenmp.py): one line at the link,
        none for an instrumented program."""
        self.assertEqual(self.build_stderr, "")
        src = os.path.join(PROGS, "run_facts.c")
        obj, exe = self.out("serial.o"), self.out("serial")
        p = subprocess.run([WRAPPER] + CC + ["-O1", "-c", src, "-o", obj], env=ENV,
                           stderr=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(p.returncode, 0)
        self.assertEqual(p.stderr.splitlines(),
                         ["pompprof: run_facts.c has OpenMP directives, but the line has no "
                          "-fopenmp: it is compiled without them (a serial program) and nothing "
                          "is measured; add -fopenmp to measure it"])
        p = subprocess.run([WRAPPER] + CC + OPENMP + [obj, "-o", exe], env=ENV,
                           stderr=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(p.returncode, 0)
        self.assertEqual(p.stderr.splitlines(),
                         ["pompprof: no OpenMP construct of %s is measured: none of its objects "
                          "was instrumented (were its sources compiled through pompprof with "
                          "-fopenmp?)" % exe])
        # a shared library may hold no OpenMP code of its own: no line
        p = subprocess.run([WRAPPER] + CC + OPENMP + ["-shared", "-fPIC", src, "-o",
                                                      self.out("libx.so")],
                           env=ENV, stderr=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(p.stderr, "")

    def test_misspellings_get_the_nearest_name(self):
        p = self.run_prog(self.out("typo"), "normal", "1000",
                          extra={"POMPPROF_METRIC": "PAPI_TOT_INS", "POMPPROF_VERBOSE": "3"})
        self.assertEqual(p.returncode, 0)
        lines = p.stderr.splitlines()
        self.assertIn("pompprof: POMPPROF_METRIC is not a pompprof setting and is ignored; did "
                      "you mean POMPPROF_METRICS?", lines)
        self.assertTrue(any("POMPPROF_VERBOSE='3'" in x and "from 0 to 2" in x for x in lines),
                        lines)
        avail = subprocess.run(["papi_native_avail"], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, universal_newlines=True).stdout \
            if shutil.which("papi_native_avail") else ""
        if "perf::PAGE-FAULTS " in avail:
            p = self.run_prog(self.out("typo2"), "normal", "1000",
                              extra={"POMPPROF_METRICS": "perf::PAGE-FAULT"})
            self.assertIn("perf::PAGE-FAULT (unknown to PAPI; did you mean perf::PAGE-FAULTS?)",
                          p.stderr)
            # the header names a counter as it was asked for, as its column does
            d = self.out("pagefaults")
            p = self.run_prog(d, "normal", "1000", extra={"POMPPROF_METRICS": "perf::PAGE-FAULTS"})
            if p.stderr == "":      # counted here
                text = tool("report", d).stdout
                metrics = [ln for ln in text.splitlines() if ln.startswith("metrics ")][0]
                self.assertIn("perf::PAGE-FAULTS", metrics)
                self.assertNotIn("PAGE_FAULTS", metrics)
                self.assertIn("PAGE-FAULTS = perf::PAGE-FAULTS", text)


if __name__ == "__main__":
    unittest.main(verbosity=2)
