"""A traced MPI job one of whose ranks dies (doc/trace.md, "Hybrid traces"):
test/mpi/progs/trace_fault.c at 3 ranks x 2 threads, rank 1 ending after 20 rounds of a
ring while the others wait for it, under mpirun with POMPPROF_TRACE=1:

- killed (SIGKILL) with its records still in its buffers: the job leaves its ranks' raw
  files in DIR/traces.raw/rank<r> and no archive; pompprof-salvage makes the job's one
  archive of them, saying that rank 1 is missing, in one line and in the archive's
  POMPPROF::MISSING_RANKS; the other ranks' locations and their messages to each other
  are there, matched, none received before it was sent;
- killed after some buffers reached the disk (POMPPROF_TRACE_BUFFER=16k): rank 1 is in
  the archive, named cut short (POMPPROF::CUT_RANKS);
- MPI_Abort: every rank wrote what it held, none is missing or cut, and every message
  of the ring is matched;
- a crash (SIGSEGV): pompprof's handler saves what rank 1's buffers hold beside its raw
  files (tails).  With no time for more (POMPPROF_CRASH_WAIT=0) the tails are all there
  is of rank 1 (its buffers never reached the disk), and pompprof-salvage reads them:
  rank 1 is neither missing nor cut short, and says so; with time, the rank also writes
  all it holds to its raw files, and the tails' records are not counted twice: in both,
  every message of the ring once, matched;
- pompprof-timeline DIR salvages the leftovers itself and reads the archive, saying how
  the run ended.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi_common as mc  # noqa: E402
import test_mpi_trace as tt  # noqa: E402

SALVAGE = os.path.join(mc.TOP_BUILDDIR, "salvage", "pompprof-salvage")
RANKS, ROUNDS = 3, 20  # ROUNDS as trace_fault.c


def properties(archive):
    text = tt.otf2_print(archive, "-I")
    return dict(re.findall(r"^Property name\s+(\S+)\s*\nProperty value\s+(.*)$", text, re.M))


def mpirun_failing(exe, how, out, env):
    """The job's exit status (mc.mpirun takes 137, a rank's SIGKILL passed on, for the
    timeout's): only coreutils' timeout status 124 means it hung."""
    e = dict(mc.ENV, OMP_NUM_THREADS="2", POMPPROF_OUTPUT=out, POMPPROF_TRACE="1", **env)
    cmd = [mc.MPIRUN, "--oversubscribe", "-np", str(RANKS), exe, how]
    p = subprocess.run(["timeout", "-k", "10", str(mc.TIMEOUT)] + cmd, env=e,
                       capture_output=True, text=True)
    return p.returncode


def run_case(work, exe, how, env, errors):
    """Run the job, salvage it; the archive's Trace, or None (errors said why)."""
    out = os.path.join(work, "-".join([how] + ["%s=%s" % kv for kv in sorted(env.items())]))
    status = mpirun_failing(exe, how, out, env)
    if status in (0, 124):
        errors.append("%s: the job %s" % (how, "hung" if status else "ended with status 0"))
        return None, None
    raw = os.path.join(out, "traces.raw")
    have = sorted(os.listdir(raw)) if os.path.isdir(raw) else []
    if have != ["rank%d" % r for r in range(RANKS)]:
        errors.append("%s: the raw directories %r" % (how, have))
        return None, None
    if os.path.exists(os.path.join(out, "traces.otf2")):
        errors.append("%s: an archive was written although the job did not end together" % how)
    p = subprocess.run([SALVAGE, raw], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0:
        errors.append("%s: pompprof-salvage exit %d: %s" % (how, p.returncode, p.stderr))
        return None, None
    archive = os.path.join(out, "traces.otf2")
    if p.stdout.split("\n")[0] != archive:
        errors.append("%s: pompprof-salvage says %r" % (how, p.stdout))
    if os.path.exists(raw):
        errors.append("%s: the raw files stay after the salvage" % how)
    return tt.Trace(archive), (archive, p.stderr, out)


def check_ring(how, tr, ranks, errors):
    """The ring's messages among the ranks present: all of them, matched, in order."""
    sends = [s for s in tr.sends if tr.rank_of(s[1]) in ranks
             and tr.comms[s[3]][1][s[2]] in ranks]
    want = ROUNDS * sum(1 for r in ranks if (r + 1) % RANKS in ranks)
    if len(sends) != want:
        errors.append("%s: %d messages between the ranks present, expected %d"
                      % (how, len(sends), want))
    pairs, _ = tr.matched()
    if len(pairs) != want:
        errors.append("%s: %d matched, expected %d" % (how, len(pairs), want))
    # (beyond the clocks' stated uncertainty, as in test_mpi_trace: 0 on one host)
    if any(s - r > tr.uncertainty.get(sl, 0.0) + tr.uncertainty.get(rl, 0.0)
           for s, r, _, _, sl, rl in pairs):
        errors.append("%s: a message received before it was sent" % how)


def check_crash(work, exe, wait, errors):
    """Rank 1 crashes: its buffers saved as tails, salvaged, its records there once."""
    how = "segv, POMPPROF_CRASH_WAIT=%s" % wait
    tr, info = run_case(work, exe, "segv", {"POMPPROF_CRASH_WAIT": wait}, errors)
    if not tr:
        return
    archive, said, _ = info
    props = properties(archive)
    if (props.get("POMPPROF::MISSING_RANKS"), props.get("POMPPROF::CUT_RANKS")) != \
            ("none", "none"):
        errors.append("%s: missing %r, cut %r" % (how, props.get("POMPPROF::MISSING_RANKS"),
                                                  props.get("POMPPROF::CUT_RANKS")))
    if "nothing recorded before the end is missing" not in said or \
            (wait == "0") != ("saved from the buffers by a crash handler" in said):
        errors.append("%s: pompprof-salvage says %r" % (how, said))
    check_ring(how, tr, set(range(RANKS)), errors)


def main():
    work = tempfile.mkdtemp(prefix="pp-mpi-trace-faults-")
    errors = []
    try:
        exe = mc.build("mpicc", os.path.join(mc.PROGS, "trace_fault.c"),
                       os.path.join(work, "trace_fault"), True)
        # killed before any buffer reached the disk: missing
        tr, info = run_case(work, exe, "kill", {}, errors)
        if tr:
            archive, said, out = info
            if "missing: rank(s) 1 " not in said:
                errors.append("kill: pompprof-salvage does not name rank 1 missing: %r" % said)
            props = properties(archive)
            if props.get("POMPPROF::MISSING_RANKS") != "1":
                errors.append("kill: POMPPROF::MISSING_RANKS %r" % props.get("POMPPROF::MISSING_RANKS"))
            if sorted(tr.groups.values()) != ["rank 0", "rank 2"]:
                errors.append("kill: location groups %r" % sorted(tr.groups.values()))
            check_ring("kill", tr, {0, 2}, errors)
            # the timeline reads it (salvaged already) and says how the run ended
            p = subprocess.run([tt.TIMELINE, out], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, universal_newlines=True)
            if p.returncode != 0 or "missing rank(s) 1" not in p.stdout:
                errors.append("kill: pompprof-timeline: %s%s" % (p.stdout[:300], p.stderr))
        # killed after some of its buffers reached the disk: cut short
        tr, info = run_case(work, exe, "kill", {"POMPPROF_TRACE_BUFFER": "16k"}, errors)
        if tr:
            props = properties(info[0])
            if props.get("POMPPROF::CUT_RANKS") != "1" or \
                    props.get("POMPPROF::MISSING_RANKS") != "none":
                errors.append("kill with small buffers: cut %r, missing %r" % (
                    props.get("POMPPROF::CUT_RANKS"), props.get("POMPPROF::MISSING_RANKS")))
            if "rank 1" not in tr.groups.values():
                errors.append("kill with small buffers: rank 1's flushed records are not there")
        # MPI_Abort: everyone wrote what it held
        tr, info = run_case(work, exe, "abort", {}, errors)
        if tr:
            props = properties(info[0])
            if (props.get("POMPPROF::MISSING_RANKS"), props.get("POMPPROF::CUT_RANKS")) != \
                    ("none", "none"):
                errors.append("abort: missing %r, cut %r" % (
                    props.get("POMPPROF::MISSING_RANKS"), props.get("POMPPROF::CUT_RANKS")))
            check_ring("abort", tr, set(range(RANKS)), errors)
            d = json.loads(tt.timeline(info[2], "--format", "json"))
            if d["mpi"]["receives_before_send"] or not d["trace"]["end"].startswith("interrupted"):
                errors.append("abort: pompprof-timeline: %r, %r" % (d["mpi"], d["trace"]["end"]))
        for wait in ("0", "10"):
            check_crash(work, exe, wait, errors)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return mc.verdict(errors)


if __name__ == "__main__":
    sys.exit(main())
