"""Salvaging an interrupted trace (doc/trace.md): a real program traced with
POMPPROF_TRACE=1 dies by SIGKILL (nothing of pompprof runs at its end); what it left in
DIR/traces.raw (raw thread files, the definitions saved while it ran, the space reserve)
is turned by pompprof-timeline DIR (pompprof-salvage) into an OTF2 archive that
otf2-print reads, marked as interrupted, with the program's region names, balanced
enters and leaves, and the tasks the program completed up to its last flushes.  A run
that is still going is refused, a record cut by the kill is left out, and a run that
flushed nothing gets one line that says so."""
import os
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

from trace_common import ENV, PROGS, TIMELINE, TOP_BUILDDIR, Events, build, timeline

SALVAGE = os.path.join(TOP_BUILDDIR, "salvage", "pompprof-salvage")
ROUNDS, TASKS = 16, 800
BUFFER = 64 * 1024


def properties(archive):
    p = subprocess.run(["otf2-print", "-A", archive], stdout=subprocess.PIPE,
                       universal_newlines=True, check=True)
    props, name = {}, None
    for line in p.stdout.splitlines():
        if line.startswith("Property name"):
            name = line.split(None, 2)[2].strip()
        elif line.startswith("Property value") and name:
            props[name] = line.split(None, 2)[2].strip() if len(line.split(None, 2)) > 2 else ""
    return props


class Salvage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="pp_salvage_")
        cls.exe = build(cls.scratch, os.path.join(PROGS, "killed.c"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def env(self, out):
        return dict(ENV, OMP_NUM_THREADS="2", POMPPROF_TRACE="1", POMPPROF_OUTPUT=out,
                    POMPPROF_TRACE_BUFFER=str(BUFFER))

    def test_killed_run_is_salvaged_and_analysed(self):
        out = os.path.join(self.scratch, "crashed")
        p = subprocess.run([self.exe, str(ROUNDS), str(TASKS)], env=self.env(out),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=300)
        # the program behaves as without pompprof: its rounds, then the kill
        self.assertEqual(p.returncode, -signal.SIGKILL)
        self.assertEqual(p.stderr, "")
        done = p.stdout.splitlines()
        self.assertEqual(done, ["round %d: %d tasks" % (r, TASKS) for r in range(ROUNDS - 1)])
        raw = os.path.join(out, "traces.raw")
        self.assertEqual(sorted(os.listdir(raw)), ["0.raw", "1.raw", "defs", "reserve"])
        with open(os.path.join(raw, "defs")) as f:
            defs = f.read()
        self.assertTrue(defs.startswith("pid\t"))
        crashed_pid = defs.split("\n")[0].split("\t")[1]
        self.assertIn("\t!$omp task @killed.c:28\t", defs)
        self.assertIn("program\tkilled\n", defs)

        # pompprof-timeline DIR salvages, says so, and analyses the result
        r = subprocess.run([TIMELINE, out, "--format", "json"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        archive = os.path.join(out, "traces.otf2")
        self.assertIn("salvaged into %s, marked as interrupted" % os.path.realpath(archive),
                      r.stderr)
        self.assertFalse(os.path.exists(raw))
        self.assertTrue(os.path.isfile(archive))

        ev = Events(archive)
        # a thread whose records were all still in its buffer has no events (on a busy
        # machine one thread may have done nearly everything)
        self.assertTrue(ev.locations() and set(ev.locations()) <= {0, 1}, ev.locations())
        for loc in ev.locations():
            self.assertEqual(ev.count("ENTER", loc), ev.count("LEAVE", loc))
            self.assertGreater(ev.count("ENTER", loc), 0)
        ran = ev.count("ENTER", text='"!$omp task @killed.c:28"')
        completed = ev.count("THREAD_TASK_COMPLETE")
        # every task the trace holds ran; the completed rounds' tasks are there but for
        # those still in the threads' buffers at the kill (each task costs its thread at
        # least a begin and an end record, 48 bytes)
        total_run = (ROUNDS - 1) * TASKS + TASKS // 2 + 1
        self.assertLessEqual(completed, total_run)
        self.assertGreaterEqual(completed, (ROUNDS - 1) * TASKS - 2 * BUFFER // 48)
        self.assertGreaterEqual(ran, completed)
        self.assertEqual(ev.count("THREAD_TEAM_BEGIN", 0), ev.count("THREAD_TEAM_END", 0))

        props = properties(archive)
        self.assertTrue(props["POMPPROF::END"].startswith("interrupted: trace salvaged"),
                        props["POMPPROF::END"])
        self.assertEqual(props["POMPPROF::SALVAGED"], "1")
        self.assertEqual(props["POMPPROF::THREADS"], "2")
        self.assertIn("killed %d %d" % (ROUNDS, TASKS), props["POMPPROF::COMMAND_LINE"])
        # the process group names the killed process, not the salvager
        groups = subprocess.run(["otf2-print", "-G", archive], stdout=subprocess.PIPE,
                                universal_newlines=True, check=True).stdout
        self.assertIn('"killed (process %s)"' % crashed_pid, groups)

        data = __import__("json").loads(r.stdout)
        self.assertTrue(data["trace"]["end"].startswith("interrupted"))
        self.assertEqual(data["trace"]["threads"], 2)
        self.assertGreater(data["total"]["work_task"], 0)
        # read again: no second salvage, the mark is shown
        again = subprocess.run([TIMELINE, out], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True, timeout=300)
        self.assertEqual((again.returncode, again.stderr), (0, ""))
        self.assertIn("*** run ended: interrupted: trace salvaged", again.stdout)
        self.assertEqual(timeline(archive)["trace"]["events"], data["trace"]["events"])

    def test_running_process_refused_then_killed_from_outside(self):
        out = os.path.join(self.scratch, "outside")
        raw = os.path.join(out, "traces.raw")
        proc = subprocess.Popen([self.exe, "1000000", str(TASKS)], env=self.env(out),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.time() + 120
            # wait until a thread flushed at least once
            while time.time() < deadline and not any(
                    os.path.exists(os.path.join(raw, f))
                    and os.path.getsize(os.path.join(raw, f)) > 2 * 64
                    for f in ("0.raw", "1.raw")):
                time.sleep(0.05)
            r = subprocess.run([SALVAGE, raw], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True)
            self.assertEqual(r.returncode, 2)
            self.assertIn("process %d, which writes %s, is still running" % (proc.pid, raw),
                          r.stderr)
        finally:
            proc.kill()
            proc.wait()
        self.assertEqual(proc.returncode, -signal.SIGKILL)
        # a record the kill cut in half is left out (the file ends in a partial record)
        zero = os.path.join(raw, "0.raw")
        with open(zero, "ab") as f:
            f.write(b"\x01\x00\x00\x00\x00\x00\x00\x00")
        r = subprocess.run([SALVAGE, raw], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        # one line: what was salvaged, and what the kill lost, thread by thread
        self.assertRegex(r.stderr, r"^pompprof-salvage: 2 threads, \d+ records; missing: what "
                                   r"each thread recorded after its last write to disk .*: "
                                   r"thread 0 stops [0-9.]+ s, thread 1 stops [0-9.]+ s before "
                                   r"the trace's last record\n$")
        archive, seconds = r.stdout.split()
        self.assertEqual(archive, os.path.join(os.path.realpath(out), "traces.otf2"))
        self.assertGreater(float(seconds), 0)
        ev = Events(archive)
        self.assertGreater(ev.count("THREAD_TASK_COMPLETE"), 0)
        for loc in ev.locations():
            self.assertEqual(ev.count("ENTER", loc), ev.count("LEAVE", loc))
        # a second salvage into the same place is refused
        os.makedirs(raw)
        r = subprocess.run([SALVAGE, raw], stderr=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("exists already", r.stderr)

    def test_nothing_flushed_says_so(self):
        out = os.path.join(self.scratch, "early")
        p = subprocess.run([self.exe, "1", "4"], env=dict(self.env(out),
                                                          POMPPROF_TRACE_BUFFER="8M"),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        self.assertEqual(p.returncode, -signal.SIGKILL)
        r = subprocess.run([TIMELINE, out], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=120)
        self.assertEqual(r.returncode, 1)
        self.assertIn("no record reached the disk before the process died", r.stderr)
        self.assertNotIn("run the program with", r.stderr)
        self.assertTrue(os.path.isdir(os.path.join(out, "traces.raw")))  # left as it was


if __name__ == "__main__":
    unittest.main()
