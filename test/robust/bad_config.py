#!/usr/bin/env python3
"""Every POMPPROF_* variable with invalid values.

For each value: the program prints exactly what it prints without pompprof
and exits the same, exactly one pompprof: line names the variable, and the
default takes over (the profile is still written and reads back).  All bad
values at once give one line per variable."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import robust_util as ru  # noqa: E402

ru.require_all()
work = ru.workdir("bad_config")
src = ru.robust_src("progs", "tasks_small.c")
plain = ru.build(src, os.path.join(work, "tasks_plain"), False)
instr = ru.build(src, os.path.join(work, "tasks_small"), True)

BAD = {
    "POMPPROF_ENABLE": ["maybe", "2", "-1", "yes please", "\x01"],
    "POMPPROF_OUTPUT": [""],
    "POMPPROF_TIMER": ["sundial", "TSC ", "clock,tsc"],
    "POMPPROF_METRICS": ["PAPI_TOT_INS;rm -rf", ",", "A" * 200, ",".join(["PAPI_TOT_INS"] * 33)],
    "POMPPROF_MAX_DEPTH": ["-3", "abc", "0", "99999999999999999999", "1.5"],
    "POMPPROF_MEMORY": ["lots", "12Q", "-5M", "1e9", "99999999999999999999G"],
    "POMPPROF_VERBOSE": ["7", "loud", "-1", "1x"],
    "POMPPROF_TRACE": ["sometimes", "2"],
    "POMPPROF_TRACE_BUFFER": ["big", "1k", "0", "-8M", "2048G"],
}

ref_dir = os.path.join(work, "ref")
os.makedirs(ref_dir)
ref = ru.run([plain], ref_dir, ru.clean_env())
if ref.returncode != 0:
    ru.fail("the plain program fails: " + ref.describe())


def check_run(env_extra, what, names):
    rdir = os.path.join(work, "run%d" % check_run.count)
    check_run.count += 1
    os.makedirs(os.path.join(rdir, "tmp"))
    env = ru.clean_env(env_extra)
    env["TMPDIR"] = os.path.join(rdir, "tmp")
    r = ru.run([instr], rdir, env)
    ru.same_behaviour(ref, r, what)
    lines = r.pompprof_lines()
    if len(lines) != len(names):
        ru.fail("%s: expected %d pompprof: line(s), got %d: %s" % (what, len(names),
                                                                   len(lines), lines))
    for name in names:
        if not any(name in l for l in lines):
            ru.fail("%s: no pompprof: line names %s: %s" % (what, name, lines))
    prof = ru.Profile(ru.one_profile(rdir, what))
    prof.require_regions(["!$omp parallel @tasks_small.c", "!$omp task @tasks_small.c"], what)


check_run.count = 0
n = 0
for var, values in BAD.items():
    for v in values:
        check_run({var: v}, "%s=%r" % (var, v), [var])
        n += 1
# all at once: one line per variable, still a profile
check_run({var: values[0] for var, values in BAD.items()}, "all invalid at once", list(BAD))
print("PASS: %d invalid settings: one line each, program unchanged, profile written" % (n + 1))
ru.cleanup(work)
