#!/usr/bin/env python3
"""Replays every input the fuzzers ever found (test/robust/regressions/) and
the region-string seed corpus: the region-string parser through the
harness's checks (built with the normal compiler, no libFuzzer needed), the
.cubex inputs through the reader and the report."""

import glob
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import robust_util as ru  # noqa: E402

n = 0
replay = os.path.join(ru.builddir(), "test", "robust", "replay_region_string")
inputs = sorted(glob.glob(ru.robust_src("regressions", "region_string", "*")) +
                glob.glob(ru.robust_src("corpus", "region_string", "*")))
if os.access(replay, os.X_OK) and inputs:
    r = subprocess.run([replay] + inputs, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        ru.fail("region-string regression input fails (status %d):\n%s"
                % (r.returncode, r.stdout.decode(errors="replace")))
    n += len(inputs)

cubex_inputs = sorted(glob.glob(ru.robust_src("regressions", "cubex", "*")))
if os.environ.get("ROBUST_EXTRA_CFLAGS"):
    cubex_inputs = []  # sanitizer run: the Python reader gains nothing from it
if cubex_inputs and os.path.exists(os.path.join(ru.srcdir(), "scripts", "pompprof_tools",
                                                "cube", "cubex.py")):
    r = subprocess.run([sys.executable, ru.robust_src("fuzz_cubex.py"), "--replay"] +
                       cubex_inputs, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = r.stdout.decode(errors="replace")
    if r.returncode != 0:
        ru.fail(".cubex regression inputs fail:\n" + out)
    n += len(cubex_inputs)
if n == 0:
    ru.skip("nothing to replay yet (parser or reader not built)")
print("PASS: %d regression inputs replayed" % n)
