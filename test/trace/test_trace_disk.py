"""A disk that fills up or cannot be written while a program is traced: one
"pompprof: trace:" line, the program's exit status and output unchanged, the profile
still written, no raw files left behind, and whatever trace was written is a complete
archive that otf2-print and pompprof-timeline read (enter/leave balanced per location,
shorter than the whole run).

* a file size limit (ulimit -f: RLIMIT_FSIZE; the program must not get SIGXFSZ);
* a small tmpfs, mounted in a private mount namespace (skipped where that is not
  allowed);
* an output directory that cannot be created.
"""
import os
import re
import resource
import shutil
import subprocess
import tempfile
import unittest

from trace_common import E2E_PROGS, ENV, Events, build, fib_task_calls, run, timeline



class Disk(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="pp_trace_disk_")
        src = os.path.join(E2E_PROGS, "prof_fib.c")
        cls.exe = build(cls.scratch, src)
        cls.expected = run(build(cls.scratch, src, profiled=False),
                           os.path.join(cls.scratch, "plain"), args=(20,), trace=False).stdout

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def check_run(self, proc, out):
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout, self.expected)
        lines = proc.stderr.splitlines()
        trace_lines = [l for l in lines if l.startswith("pompprof: trace:")]
        self.assertEqual(len(trace_lines), 1, proc.stderr)
        for l in lines:
            self.assertTrue(l.startswith("pompprof: "), l)
        profile = [l for l in lines if "written to" in l]
        if profile:  # the profile went elsewhere: it says where
            path = re.search(r"written to (\S+) instead", profile[0]).group(1)
            self.assertTrue(os.path.isfile(path), path)
            os.unlink(path)
        else:
            self.assertTrue(os.path.isfile(os.path.join(out, "profile.cubex")))
        self.assertFalse(os.path.exists(os.path.join(out, "traces.raw")))
        archive = os.path.join(out, "traces.otf2")
        if os.path.exists(archive):
            ev = Events(archive)
            for loc in ev.locations():
                self.assertEqual(ev.count("ENTER", loc), ev.count("LEAVE", loc))
            self.assertLess(ev.count("THREAD_TASK_COMPLETE"), 2 * fib_task_calls(20))
            timeline(out)
        return trace_lines[0]

    def test_file_size_limit(self):
        out = os.path.join(self.scratch, "fsize")
        limit = 256 * 1024

        def limit_files():
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        env = dict(ENV, OMP_NUM_THREADS="2", POMPPROF_OUTPUT=out, POMPPROF_TRACE="1",
                   POMPPROF_TRACE_BUFFER="64k")
        proc = subprocess.run([self.exe, "20"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True,
                              preexec_fn=limit_files)
        line = self.check_run(proc, out)
        self.assertIn("file size limit", line)
        self.assertTrue(os.path.exists(os.path.join(out, "traces.otf2")))
        for f in os.listdir(os.path.join(out, "traces")):
            self.assertLessEqual(os.path.getsize(os.path.join(out, "traces", f)), limit)

    def test_small_tmpfs(self):
        if not shutil.which("unshare"):
            self.skipTest("no unshare")
        mnt = os.path.join(self.scratch, "mnt")
        os.makedirs(mnt, exist_ok=True)
        probe = subprocess.run(["unshare", "-m", "sh", "-c",
                                "mount -t tmpfs -o size=1m tmpfs '%s'" % mnt],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if probe.returncode != 0:
            self.skipTest("cannot mount a tmpfs here (needs root or user namespaces)")
        # the program and the reading back run inside the namespace; results are
        # copied out before it (and its mount) goes away
        keep = os.path.join(self.scratch, "kept")
        script = ("mount -t tmpfs -o size=1m tmpfs '{mnt}' && "
                  "'{exe}' 20 >'{keep}.out' 2>'{keep}.err'; echo $? >'{keep}.rc'; "
                  "cp -r '{mnt}/out' '{keep}' 2>/dev/null; true").format(
                      mnt=mnt, exe=self.exe, keep=keep)
        env = dict(ENV, OMP_NUM_THREADS="2", POMPPROF_OUTPUT=os.path.join(mnt, "out"),
                   POMPPROF_TRACE="1", POMPPROF_TRACE_BUFFER="64k")
        subprocess.run(["unshare", "-m", "sh", "-c", script], env=env, check=True)
        with open(keep + ".out") as f, open(keep + ".err") as g, open(keep + ".rc") as h:
            proc = subprocess.CompletedProcess([self.exe], int(h.read()), f.read(), g.read())
        self.check_run(proc, keep)

    def test_unwritable_directory(self):
        proc = run(self.exe, "/dev/null/out", args=(20,), check=False)
        line = self.check_run(proc, "/dev/null/out")
        self.assertIn("no trace is written", line)


if __name__ == "__main__":
    unittest.main()
