#!/usr/bin/env python3
"""calibration/calibrate.py, the build's event costs (event-costs.txt): each
per-event figure is the median over the calibration program's runs, not
one run's (the machine's speed drifts between runs: doc/functions.md), in
the order the program prints them, the -finstrument-functions build's
function figures renamed *_address_ns, run_fixed_ns from the --nothing
runs.  The programs here are scripts whose every run prints other figures
(a counter file in the scratch directory), so a calibration that takes one
run, the least or the mean gives other figures than the medians below."""
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

TOP_SRCDIR = os.environ.get("top_srcdir", ".")
CALIBRATE = os.path.join(TOP_SRCDIR, "calibration", "calibrate.py")

# per run of the plugin build: (function_pair_ns, task_binary_ns); the
# medians of the 5 runs are 20.0 and 40.0, their means 24.0 and 36.0
PLUGIN_RUNS = [(20.0, 70.0), (18.0, 10.0), (40.0, 40.0), (19.0, 20.0), (23.0, 50.0)]
# per run of the -finstrument-functions build: function_pair_ns (median 22.0)
ADDRESS_RUNS = [30.0, 21.0, 22.0]

STUB = """#!/bin/sh
if [ "$1" = "--nothing" ]; then exit 0; fi
n=$(cat "{counter}" 2>/dev/null || echo 0)
echo $((n + 1)) > "{counter}"
case $n in
{cases}
*) echo "ran too often" >&2; exit 3 ;;
esac
"""


def stub(path, counter, outputs):
    cases = "\n".join("%d) printf '%s' ;;" % (i, text.replace("\n", "\\n"))
                      for i, text in enumerate(outputs))
    with open(path, "w") as f:
        f.write(STUB.format(counter=counter, cases=cases))
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)


class Calibrate(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="pp_calibrate_")
        self.addCleanup(shutil.rmtree, self.dir, ignore_errors=True)
        self.plugin = os.path.join(self.dir, "plugin")
        self.address = os.path.join(self.dir, "address")
        self.plain = os.path.join(self.dir, "plain")
        self.out = os.path.join(self.dir, "event-costs.txt")
        stub(self.plugin, os.path.join(self.dir, "n_plugin"),
             ["function_pair_ns %.2f\nfiltered_pair_ns 5.00\ntask_binary_ns %.2f\n" % r
              for r in PLUGIN_RUNS])
        stub(self.address, os.path.join(self.dir, "n_address"),
             ["function_pair_ns %.2f\nfiltered_pair_ns 6.00\ntask_binary_ns 99.00\n" % v
              for v in ADDRESS_RUNS])
        stub(self.plain, os.path.join(self.dir, "n_plain"), [])
        self.filter = os.path.join(self.dir, "f.filter")
        with open(self.filter, "w") as f:
            f.write("SCOREP_REGION_NAMES_BEGIN\nEXCLUDE *_filtered\nSCOREP_REGION_NAMES_END\n")

    def run_calibrate(self):
        """calibrate.py over the scripts: the finished process."""
        return subprocess.run([sys.executable, CALIBRATE, "--plugin", self.plugin,
                               "--address", self.address, "--plain", self.plain,
                               "--filter", self.filter, "-o", self.out],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True)

    def calibrate(self):
        proc = self.run_calibrate()
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(self.out) as f:
            return [line.split() for line in f if not line.startswith("#")]

    def test_medians_over_runs(self):
        lines = self.calibrate()
        self.assertEqual([k for k, _ in lines],
                         ["function_pair_ns", "filtered_pair_ns", "task_binary_ns",
                          "function_pair_address_ns", "filtered_pair_address_ns",
                          "run_fixed_ns"])
        figures = {k: float(v) for k, v in lines}
        self.assertEqual(figures["function_pair_ns"], 20.0)
        self.assertEqual(figures["task_binary_ns"], 40.0)
        self.assertEqual(figures["filtered_pair_ns"], 5.0)
        self.assertEqual(figures["function_pair_address_ns"], 22.0)
        self.assertEqual(figures["filtered_pair_address_ns"], 6.0)
        self.assertGreaterEqual(figures["run_fixed_ns"], 0)
        # every run of each build was used, and no more
        for name, runs in (("n_plugin", PLUGIN_RUNS), ("n_address", ADDRESS_RUNS)):
            with open(os.path.join(self.dir, name)) as f:
                self.assertEqual(int(f.read()), len(runs), name)

    def test_failed_run(self):
        """A calibration program that fails stops the calibration with its
        message, and writes no file."""
        with open(os.path.join(self.dir, "n_plugin"), "w") as f:
            f.write("%d" % len(PLUGIN_RUNS))   # the next run fails
        proc = self.run_calibrate()
        self.assertEqual(proc.returncode, 1)
        self.assertIn("ran too often", proc.stderr)
        self.assertFalse(os.path.exists(self.out))


if __name__ == "__main__":
    unittest.main()
