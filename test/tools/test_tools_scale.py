"""The tools are linear in the size of the profile: report, diff and scaling on profiles
of 300 and 3,000 task constructs (examples/bench/synth_profile.py).  A linear tool takes
about 10x the CPU time for 10x the constructs, a quadratic one about 100x; the bar is
set at 30x, far from both (`make bench` prints the figures up to 50,000 constructs).
The results are checked too: every construct in the report, the diff of a profile with
itself zero."""

import json
import os
import resource
import sys
import tempfile
import unittest

import toolstest as T

sys.path.insert(0, os.path.join(T.TOP_SRCDIR, "examples", "bench"))
import synth_profile  # noqa: E402

SMALL, LARGE = 300, 3000


def cpu_of(cmd):
    """CPU seconds (user + system) of a tool run as a command; its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = T.run_tool(*cmd, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), p.stdout


class Scale(unittest.TestCase):
    def test_linear(self):
        with tempfile.TemporaryDirectory() as tmp:
            cpu = {}
            for n in (SMALL, LARGE):
                a, b = os.path.join(tmp, "a%d.cubex" % n), os.path.join(tmp, "b%d.cubex" % n)
                synth_profile.write_profile(a, n, 4, counters=True, seed=1)
                synth_profile.write_profile(b, n, 2, counters=True, seed=2)
                t, out = cpu_of(("report", "--format", "json", a))
                d = json.loads(out)
                self.assertEqual(len(d["tasks"]), n)
                self.assertEqual(sum(1 for e in d["flat"] if e["kind"] == "task"), n)
                cpu[("report", n)] = t
                t, _ = cpu_of(("report", a))
                cpu[("text", n)] = t
                t, out = cpu_of(("diff", "--format", "json", a, a))
                self.assertTrue(all(r["delta"] == 0 for r in json.loads(out)["rows"]))
                cpu[("diff", n)] = t
                t, out = cpu_of(("scaling", "--format", "json", a, b))
                self.assertEqual(len(json.loads(out)["tasks"]), n)
                cpu[("scaling", n)] = t
            for tool in ("report", "text", "diff", "scaling"):
                small, large = cpu[(tool, SMALL)], cpu[(tool, LARGE)]
                print("%-8s %6.2f s for %d constructs, %6.2f s for %d"
                      % (tool, small, SMALL, large, LARGE))
                # the interpreter's start-up is part of both; 0.1 s keeps tiny runs fair
                self.assertLess(large, 30 * max(small, 0.1), tool)


if __name__ == "__main__":
    unittest.main()
