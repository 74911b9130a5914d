#!/usr/bin/env python3
"""Randomized ground truth: random task programs (gen_task_program.py) built
with the wrapper and run at 1, 2 and 4 threads.  Checked against the truth:

  - every task construct's instances (visits of its root below TASKS, summed
    over threads) equal the number the generated program creates;
  - every leaf (user region leaf_<n>) appears only at the call path the
    program structure gives it, with as many visits as it ran, and its time
    (inclusive, summed over threads) lies within 10% of what the program
    itself measured around the spin: at least 90% of the spin alone and at
    most 110% of the time measured from outside the user region's pragmas.
    (The program's own clock is the ground truth: a fixed nominal duration
    would make the test fail whenever the machine preempts a spinning
    thread.)

Environment: GT_SEEDS (default 5) seeds starting at GT_SEED_BASE (default 1);
GT_THREADS (default "1 2 4").  A failure names the seed and keeps the
generated program in the build tree for reproduction."""

import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import robust_util as ru  # noqa: E402

TOLERANCE = 0.10
NAME_RE = re.compile(r"^!\$omp (.+?) @(.*):(\d+)$")

ru.require_all()
seeds = int(os.environ.get("GT_SEEDS", "5"))
base = int(os.environ.get("GT_SEED_BASE", "1"))
thread_counts = os.environ.get("GT_THREADS", "1 2 4").split()
work = ru.workdir("ground_truth-%d-%d" % (base, seeds))
failures = []


def key_of(c):
    """[construct, line] of a call-tree node as the truth describes paths."""
    name = c.region.name
    if name == "TASKS":
        return ["TASKS", 0]
    m = NAME_RE.match(name)
    if m:
        construct = re.sub(r"\s*\(.*\)", "", m.group(1)).strip()
        return [construct, int(m.group(3))]
    return [name, None]


def path_of(c):
    keys = []
    while c.parent is not None:  # the program root is not part of the truth's paths
        k = key_of(c)
        if "sblock" not in k[0]:
            keys.append(k)
        c = c.parent
    return list(reversed(keys))


def check(seed, threads, truth, prog_out, prof, src_name):
    errs = []
    leaf_meas, task_meas = {}, {}
    for line in prog_out.splitlines():
        f = line.split()
        if f[0] == "leaf":
            leaf_meas[int(f[1])] = (int(f[2]), int(f[3]) * 1e-9, int(f[4]) * 1e-9)
        elif f[0] == "task":
            task_meas[int(f[1])] = int(f[2])
    # the generator's counts, checked against the program (tests the generator)
    for i, t in enumerate(truth["tasks"]):
        if task_meas.get(i) != t["count"]:
            errs.append("generator: task %d ran %s times, truth says %d"
                        % (i, task_meas.get(i), t["count"]))
    for leaf in truth["leaves"]:
        want = leaf["count"] * (threads if leaf["per_thread"] else 1)
        if leaf_meas[leaf["id"]][0] != want:
            errs.append("generator: leaf %d ran %d times, truth says %d"
                        % (leaf["id"], leaf_meas[leaf["id"]][0], want))
    if errs:
        return errs

    # task constructs: instances below TASKS
    for t in truth["tasks"]:
        name = "!$omp task @%s:%d" % (src_name, t["line"])
        roots = [r for r in prof.task_roots() if r.region.name == name]
        got = sum(prof.visits(r) for r in roots)
        if got != t["count"]:
            errs.append("%s: %d instances in the profile, the program created %d"
                        % (name, got, t["count"]))

    # leaves: call path, visits, time
    for leaf in truth["leaves"]:
        count, inner, outer = leaf_meas[leaf["id"]]
        nodes = prof.nodes_named(lambda s: s == leaf["name"])
        want_path = [k for k in leaf["path"][:-1]]
        for c in nodes:
            got_path = path_of(c)[:-1]
            if got_path != want_path:
                errs.append("%s at the wrong call path %s (expected %s; visits %d)"
                            % (leaf["name"], got_path, want_path, prof.visits(c)))
        visits = sum(prof.visits(c) for c in nodes)
        if visits != count:
            errs.append("%s: %d visits in the profile, the program ran it %d times"
                        % (leaf["name"], visits, count))
        t = sum(prof.time(c) for c in nodes)
        if not inner * (1 - TOLERANCE) <= t <= outer * (1 + TOLERANCE):
            errs.append("%s: %.6f s in the profile, the program measured %.6f s "
                        "(spin) .. %.6f s (around the region)"
                        % (leaf["name"], t, inner, outer))
    return errs


gen = ru.robust_src("gen_task_program.py")
runs = 0
for seed in range(base, base + seeds):
    sdir = os.path.join(work, "seed%d" % seed)
    os.makedirs(sdir)
    src_name = "gen_%d.c" % seed
    src = os.path.join(sdir, src_name)
    tjson = os.path.join(sdir, "truth.json")
    subprocess.run([sys.executable, gen, str(seed), src, tjson], check=True)
    with open(tjson) as f:
        truth = json.load(f)
    exe = ru.build(src, os.path.join(sdir, "gen"), True, cwd=sdir)
    for threads in thread_counts:
        rdir = os.path.join(sdir, "t%s" % threads)
        os.makedirs(os.path.join(rdir, "tmp"))
        env = ru.clean_env({"OMP_NUM_THREADS": threads, "TMPDIR": os.path.join(rdir, "tmp")})
        r = ru.run([exe], rdir, env, timeout=120)
        if r.returncode != 0 or r.pompprof_lines():
            failures.append("seed %d, %s threads: %s" % (seed, threads, r.describe()))
            continue
        prof = ru.Profile(ru.one_profile(rdir, "seed %d" % seed))
        for e in check(seed, int(threads), truth, r.stdout, prof, src_name):
            failures.append("seed %d, %s threads: %s" % (seed, threads, e))
        runs += 1

if failures:
    print("\n".join(failures[:60]))
    if len(failures) > 60:
        print("... %d more" % (len(failures) - 60))
    print("FAIL: %d problem(s); programs kept in %s (regenerate: gen_task_program.py SEED)"
          % (len(failures), work))
    sys.exit(1)
print("PASS: %d seeds x %d thread counts (%d runs) match the generated truth"
      % (seeds, len(thread_counts), runs))
ru.cleanup(work)
