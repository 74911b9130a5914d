"""A trace buffer far smaller than the trace (POMPPROF_TRACE_BUFFER=16k against some
megabytes of events): the buffers are flushed to disk while the program runs, each
flush shows in the trace as its own region, the program finishes and prints what it
prints untraced, and the trace is complete (every task created and completed, every
region left) and readable by otf2-print and pompprof-timeline."""
import os
import shutil
import tempfile
import unittest

from trace_common import E2E_PROGS, Events, build, fib_task_calls, run, timeline



class Flush(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="pp_trace_flush_")

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def test_small_buffer(self):
        src = os.path.join(E2E_PROGS, "prof_fib.c")
        exe, plain = build(self.scratch, src), build(self.scratch, src, profiled=False)
        out = os.path.join(self.scratch, "small")
        proc = run(exe, out, args=(17,), env={"POMPPROF_TRACE_BUFFER": "16k"})
        self.assertEqual(proc.stdout, run(plain, out + ".plain", args=(17,), trace=False).stdout)
        ev = Events(os.path.join(out, "traces.otf2"))
        instances = 2 * fib_task_calls(17)
        self.assertEqual(ev.count("THREAD_TASK_CREATE"), instances)
        self.assertEqual(ev.count("THREAD_TASK_COMPLETE"), instances)
        for loc in ev.locations():
            self.assertEqual(ev.count("ENTER", loc), ev.count("LEAVE", loc))
        flushes = ev.count("ENTER", text='"pompprof trace flush"')
        self.assertEqual(flushes, ev.count("LEAVE", text='"pompprof trace flush"'))
        # far more events than one buffer holds: 16 KiB are 2048 words, a record 2-4
        enters = ev.count("ENTER")
        self.assertGreater(flushes, enters * 2 // 2048 // 2)
        raw_size = sum(os.path.getsize(os.path.join(out, "traces", f))
                       for f in os.listdir(os.path.join(out, "traces")))
        self.assertGreater(raw_size, 20 * 16384)
        self.assertFalse(os.path.exists(os.path.join(out, "traces.raw")))
        d = timeline(out)
        # pompprof's own time, not the program's overhead
        self.assertGreater(d["total"]["measurement"], 0)
        self.assertEqual(d["graph"]["tasks"], instances)


if __name__ == "__main__":
    unittest.main()
