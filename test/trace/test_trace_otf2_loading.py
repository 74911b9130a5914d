"""OTF2 is loaded when a trace starts, not linked (trace/pp_trace_otf2_api.c, doc/engine.md).

* libpompprof.so and the other measurement libraries (libpompprof_*.so) have no NEEDED
  entry for OTF2's soname (the one configure found, config.h's PP_OTF2_SONAME), while
  pompprof-replay, which reads traces, still links it (so the check reads the entries
  right);
* an untraced run of a profiled program never loads OTF2 (the loader's LD_DEBUG=files
  log), a traced one loads it and writes a trace otf2-print reads, one task creation and
  completion per task of the program;
* where OTF2 cannot be loaded (an empty file, or a library with OTF2's soname but none of
  its functions, first on LD_LIBRARY_PATH), a traced run says so in exactly one
  "pompprof:" line, prints and exits as the untraced run does, writes no trace and leaves
  no raw trace files, and its profile has the untraced profile's regions and visits.
"""
import glob
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from trace_common import CC, E2E_PROGS, ENV, TOP_BUILDDIR, Events, build, fib_task_calls, run
from pompprof_tools.cube import cubex

FIB_N = 12


def otf2_soname():
    with open(os.path.join(TOP_BUILDDIR, "config.h")) as f:
        m = re.search(r'^#define PP_OTF2_SONAME "([^"]+)"', f.read(), re.M)
    if not m:
        raise AssertionError("config.h has no PP_OTF2_SONAME: was configure run with OTF2?")
    return m.group(1)


def needed(path):
    """The NEEDED entries of an ELF file's dynamic section."""
    out = subprocess.run(["readelf", "-d", path], stdout=subprocess.PIPE, check=True,
                         universal_newlines=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def visits_by_region(out_dir):
    """Total visits of each region name over all call paths and threads."""
    cube = cubex.load(out_dir)
    visits = {}
    for c in cube.cnodes_in_order():
        name = c.region.name
        visits[name] = visits.get(name, 0) + int(sum(cube.row("visits", c)))
    return visits


class Otf2Loading(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="pp_trace_otf2_")
        cls.soname = otf2_soname()
        cls.exe = build(cls.scratch, os.path.join(E2E_PROGS, "prof_fib.c"))
        cls.untraced_dir = os.path.join(cls.scratch, "untraced")
        cls.untraced = run(cls.exe, cls.untraced_dir, args=[FIB_N], trace=False)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def test_libraries_do_not_link_otf2(self):
        # every measurement library: libpompprof, the event sources, the MPI layers
        libs = glob.glob(os.path.join(TOP_BUILDDIR, ".libs", "libpompprof*.so"))
        self.assertIn(os.path.join(TOP_BUILDDIR, ".libs", "libpompprof.so"), libs)
        for lib in libs:
            entries = needed(lib)
            self.assertTrue(entries, lib)  # (read right: every library needs some)
            self.assertNotIn(self.soname, entries, lib)
            self.assertFalse([e for e in entries if "otf2" in e.lower()
                              or "trace-format" in e.lower()], (lib, entries))
        self.assertIn("libc.so.6", needed(os.path.join(TOP_BUILDDIR, ".libs", "libpompprof.so")))
        # the reader of traces calls OTF2 itself and links it
        self.assertIn(self.soname, needed(os.path.join(TOP_BUILDDIR, "replay", "pompprof-replay")))

    def test_loaded_only_when_tracing(self):
        out = os.path.join(self.scratch, "files_untraced")
        proc = run(self.exe, out, args=[FIB_N], trace=False, env={"LD_DEBUG": "files"},
                   check=False)
        self.assertEqual(proc.returncode, 0)
        self.assertIn("libgomp.so.1", proc.stderr)  # the log is there
        self.assertNotIn(self.soname, proc.stderr)

        out = os.path.join(self.scratch, "files_traced")
        proc = run(self.exe, out, args=[FIB_N], env={"LD_DEBUG": "files"}, check=False)
        self.assertEqual(proc.returncode, 0)
        self.assertEqual(proc.stdout, self.untraced.stdout)
        self.assertRegex(proc.stderr, r"file=%s \[\d+\];\s+dynamically loaded by"
                         % re.escape(self.soname))
        self.assertNotIn("pompprof:", proc.stderr)
        ev = Events(os.path.join(out, "traces.otf2"))
        tasks = 2 * fib_task_calls(FIB_N)
        self.assertEqual(ev.count("THREAD_TASK_CREATE"), tasks)
        self.assertEqual(ev.count("THREAD_TASK_COMPLETE"), tasks)

    def cannot_load(self, name, lib_dir, why):
        out = os.path.join(self.scratch, name)
        path = lib_dir + (":" + ENV["LD_LIBRARY_PATH"] if ENV.get("LD_LIBRARY_PATH") else "")
        proc = run(self.exe, out, args=[FIB_N], env={"LD_LIBRARY_PATH": path}, check=False)
        self.assertEqual(proc.returncode, self.untraced.returncode)
        self.assertEqual(proc.stdout, self.untraced.stdout)
        lines = proc.stderr.splitlines()
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertRegex(lines[0], r"^pompprof: trace: cannot load the OTF2 library \(.*%s.*\); "
                         r"no trace is written \(the profile is not affected\)$" % why)
        self.assertEqual(sorted(os.listdir(out)), ["profile.cubex"])
        visits = visits_by_region(out)
        self.assertEqual(visits, visits_by_region(self.untraced_dir))
        # every task instance is in it (and more: the parallel region, the taskwaits)
        self.assertGreater(sum(visits.values()), 2 * fib_task_calls(FIB_N))

    def test_unloadable_file(self):
        lib_dir = os.path.join(self.scratch, "empty_lib")
        os.mkdir(lib_dir)
        open(os.path.join(lib_dir, self.soname), "w").close()
        self.cannot_load("empty", lib_dir, re.escape(self.soname))

    def test_library_without_otf2_functions(self):
        lib_dir = os.path.join(self.scratch, "stub_lib")
        os.mkdir(lib_dir)
        src = os.path.join(lib_dir, "stub.c")
        with open(src, "w") as f:
            f.write("int pp_not_otf2;\n")
        subprocess.run(CC + ["-shared", "-fPIC", "-Wl,-soname," + self.soname, src, "-o",
                             os.path.join(lib_dir, self.soname)], check=True)
        self.cannot_load("stub", lib_dir, re.escape(self.soname) + " has no OTF2_")


if __name__ == "__main__":
    unittest.main()
