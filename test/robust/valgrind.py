#!/usr/bin/env python3
"""A small instrumented task program under valgrind (memcheck): zero reports,
profiled and then traced (POMPPROF_TRACE=1, small buffers: flushes and the
OTF2 archive at the end).  Uninitialised reads, invalid accesses and bad frees
in the library show up here even where the sanitizer build is not run."""

import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import robust_util as ru  # noqa: E402

if os.environ.get("ROBUST_EXTRA_CFLAGS"):
    ru.skip("sanitizer build: valgrind and AddressSanitizer do not mix")
valgrind = shutil.which("valgrind")
if not valgrind:
    ru.skip("valgrind is not installed")
ru.require_all()
work = ru.workdir("valgrind")
src = ru.robust_src("progs", "tasks_small.c")
plain = ru.build(src, os.path.join(work, "tasks_plain"), False)
instr = ru.build(src, os.path.join(work, "tasks_small"), True)
# passive waiting: libgomp's spinning threads make valgrind crawl
env = ru.clean_env({"OMP_NUM_THREADS": "2", "OMP_WAIT_POLICY": "passive",
                    "TMPDIR": work})
ref = ru.run([plain], work, env)
r = ru.run([valgrind, "-q", "--error-exitcode=99", "--leak-check=no",
            "--track-origins=yes", instr], work, env, timeout=300)
if r.returncode == 99 or re.search(r"^==\d+==", r.stderr, re.M):
    ru.fail("valgrind reports errors:\n" + r.stderr)
ru.same_behaviour(ref, r, "under valgrind")
ru.Profile(ru.one_profile(work, "valgrind run")).require_regions(
    ["!$omp parallel @tasks_small.c", "!$omp task @tasks_small.c"], "valgrind run")

traced = os.path.join(work, "traced")
r = ru.run([valgrind, "-q", "--error-exitcode=99", "--leak-check=no",
            "--track-origins=yes", instr], work,
           dict(env, POMPPROF_TRACE="1", POMPPROF_TRACE_BUFFER="16k", POMPPROF_OUTPUT=traced),
           timeout=300)
if r.returncode == 99 or re.search(r"^==\d+==", r.stderr, re.M):
    ru.fail("valgrind reports errors with tracing:\n" + r.stderr)
ru.same_behaviour(ref, r, "traced under valgrind")
if "without OTF2" not in r.stderr:
    if r.pompprof_lines():
        ru.fail("traced under valgrind: %s" % r.pompprof_lines())
    if not os.path.isfile(os.path.join(traced, "traces.otf2")):
        ru.fail("traced under valgrind: no trace in %s" % traced)
    if shutil.which("otf2-print"):
        p = subprocess.run(["otf2-print", os.path.join(traced, "traces.otf2")],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           universal_newlines=True)
        if p.returncode != 0 or p.stderr:
            ru.fail("otf2-print cannot read the trace written under valgrind: " + p.stderr)
print("PASS: no valgrind reports")
ru.cleanup(work)
