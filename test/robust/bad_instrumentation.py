#!/usr/bin/env python3
"""Bad instrumentation input: hand-written POMP2 calls with malformed region
strings, NULL handle slots and pointers, unbalanced enter/exit, task end
without begin, task handles never handed out.

For each abuse (one run each, so one failure does not hide another): the
program ends normally with its own output, the pompprof warnings are few
(bounded, not one per bad call), and the normal part that follows is in the
profile exactly: 10 visits of the user region directly below the program
root, 5 + 6 task instances, the parallel region once per thread."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import robust_util as ru  # noqa: E402

ru.require_all()
work = ru.workdir("bad_instrumentation")
exe = ru.build(ru.robust_src("progs", "bad_pomp2.c"), os.path.join(work, "bad_pomp2"), True)

# at most one warning per distinct bad string (14 in 'malformed', each used
# in many calls) or per kind of misuse, plus a few: never one per call
MAX_WARNINGS = {"malformed": 18}
n = 0
for mode in ("none", "malformed", "null_slots", "null_pointers", "unbalanced"):
    for threads in ("1", "3"):
        what = "%s (OMP_NUM_THREADS=%s)" % (mode, threads)
        rdir = os.path.join(work, "run-%s-%s" % (mode, threads))
        os.makedirs(os.path.join(rdir, "tmp"))
        env = ru.clean_env({"OMP_NUM_THREADS": threads, "TMPDIR": os.path.join(rdir, "tmp")})
        r = ru.run([exe, mode], rdir, env, timeout=60)
        if r.returncode != 0 or r.stdout != "%s done, threads %s\n" % (mode, threads):
            ru.fail("%s: the program did not run as written: %s" % (what, r.describe()))
        lines = r.pompprof_lines()
        other = [l for l in r.stderr.splitlines() if not l.startswith("pompprof:")]
        if other:
            ru.fail("%s: stderr lines without the pompprof: prefix: %s" % (what, other))
        if mode == "none" and lines:
            ru.fail("%s: warnings for correct input: %s" % (what, lines))
        if mode in ("malformed", "unbalanced") and not lines:
            ru.fail("%s: misuse passed without any warning" % what)
        limit = MAX_WARNINGS.get(mode, 12)
        if len(lines) > limit:
            ru.fail("%s: %d warning lines (more than %d): %s" % (what, len(lines),
                                                                  limit, lines[:20]))
        if mode == "malformed" and not any("garbage" in l or "length" in l for l in lines):
            ru.fail("%s: no warning names the malformed string: %s" % (what, lines))

        prof = ru.Profile(ru.one_profile(rdir, what))
        users = prof.nodes_named(lambda s: s == "good_user")
        top = [c for c in users if c.parent is not None and c.parent.parent is None]
        if len(top) != 1 or prof.visits(top[0]) != 10:
            ru.fail("%s: expected 10 visits of good_user directly below the root, found %s"
                    % (what, [(prof.path_names(c), prof.visits(c)) for c in users]))
        if sum(prof.visits(c) for c in users) != 10:
            ru.fail("%s: good_user visits elsewhere: %s" % (
                what, [(prof.path_names(c), prof.visits(c)) for c in users]))
        hand = [t for t in prof.task_roots() if t.region.name.startswith("!$omp task @bad_pomp2.c:3")]
        got = sum(prof.visits(t) for t in hand)
        # the unbalanced mode begins two more instances of that construct with
        # handles we made up: they ran, so they may count
        want = (5, 7) if mode == "unbalanced" else (5,)
        if got not in want:
            ru.fail("%s: hand-written task construct has %d instances, expected %s"
                    % (what, got, want))
        real = [t for t in prof.task_roots()
                if t.region.name.startswith("!$omp task @bad_pomp2.c:") and t not in hand]
        if sum(prof.visits(t) for t in real) != 6:
            ru.fail("%s: the OpenMP task construct has %d instances, expected 6"
                    % (what, sum(prof.visits(t) for t in real)))
        par = prof.nodes_named(lambda s: s.startswith("!$omp parallel @bad_pomp2.c"))
        if sum(prof.visits(c) for c in par) != int(threads):
            ru.fail("%s: parallel region visits %d, expected %s" % (
                what, sum(prof.visits(c) for c in par), threads))
        for c in par:
            if c.parent is None or c.parent.parent is not None:
                ru.fail("%s: parallel region not directly below the root: %s"
                        % (what, prof.path_names(c)))
        n += 1

print("PASS: %d runs with bad POMP2 input: no crash, few warnings, profile intact" % n)
ru.cleanup(work)
