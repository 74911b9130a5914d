"""A hybrid job's one trace (doc/trace.md, "Hybrid traces"): test/mpi/progs/trace_msgs.c
at 2 and 4 ranks x 2 threads under mpirun with POMPPROF_TRACE=1, rank 1's trace clock
shifted by -0.3 s and drifting by 2 % (POMPPROF_TEST_CLOCK_SKEW, a test-only setting),
read back with otf2-print and pompprof-timeline:

- the program prints what its plain build prints;
- the job leaves one archive, traces.otf2, and no raw files; without POMPPROF_OUTPUT
  one directory, rank 0's (the other ranks' traces moved into it);
- a location group "rank R" per rank, a location "rank R thread T" per thread;
- every message the program sends is there (sends, receives, their sizes; each
  non-blocking request's start and completion), on the communicator it used (MPI_COMM_WORLD; the split by parity, by its members), matched
  send to receive by communicator, sender, receiver and tag in order;
- the skew is corrected: rank 1's ClockOffsets are the injected offset and drift, and
  on the corrected clock no message is received before it was sent by more than the
  two clocks' uncertainty (the ClockOffsets' standard deviation: half the ping-pong's
  least round trip, which a loaded machine stretches); on the clocks as recorded (the
  offsets taken out again) some are, so the check can fail;
- pompprof-timeline: every message matched, as many received before their send as the
  archive shows, the
  collectives counted; each thread's breakdown (its classes: work, serial code, overhead,
  idleness, undetermined, MPI time split into waiting and transfer, measurement) adds up
  to the thread's time, and the ranks' rows to their threads'; rank 0 waited for the
  late sender; the Chrome trace has a flow per message;
- without skew, each thread's time is the profile's for that rank and thread, as
  pompprof-report classifies it (with its fork/join wait), and so are its MPI time, its
  work and its serial code with fork/join and measurement (doc/trace.md, "One
  classification of a thread's time").
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
from pompprof_tools.analysis.overhead import Analysis  # noqa: E402
from pompprof_tools.analysis.profile_model import Profile  # noqa: E402

mc.require_mpi()
TIMELINE = os.path.join(mc.TOP_BUILDDIR, "scripts", "pompprof-timeline")
if not shutil.which("otf2-print") or not os.path.isfile(
        os.path.join(mc.TOP_BUILDDIR, "replay", "pompprof-replay")):
    print("SKIP: no otf2-print or no pompprof-replay (built without OTF2)")
    sys.exit(77)

SKEW_RANK, SKEW_OFFSET, SKEW_PPM = 1, -0.3, 20000
ITER = 5  # as trace_msgs.c


def expected(size):
    """(messages, collective calls) trace_msgs.c makes on `size` ranks."""
    halves = [len(range(p, size, 2)) for p in (0, 1)]
    messages = 2 * ITER * size + (1 if size > 1 else 0) + sum(h for h in halves if h > 1) + size
    return messages, 6 * size


def otf2_print(archive, *opts):
    p = subprocess.run(["otf2-print"] + list(opts) + [archive], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0 or p.stderr:
        raise AssertionError("otf2-print %s: %s" % (archive, p.stderr.strip()))
    return p.stdout


class Trace:
    """What otf2-print shows of an archive: locations, communicators, MPI events, clock
    offsets."""

    def __init__(self, archive):
        defs = otf2_print(archive, "-G")
        self.resolution = int(re.search(r"Ticks per Seconds: (\d+)", defs).group(1))
        self.groups = {int(m.group(1)): m.group(2) for m in re.finditer(
            r"^LOCATION_GROUP\s+(\d+)\s+Name: \"([^\"]*)\"", defs, re.M)}
        self.locations = {}  # id -> (name, group)
        for m in re.finditer(r"^LOCATION\s+(\d+)\s+Name: \"([^\"]*)\".*Group: \"[^\"]*\" <(\d+)>",
                             defs, re.M):
            self.locations[int(m.group(1))] = (m.group(2), int(m.group(3)))
        members = {}
        for m in re.finditer(r"^GROUP\s+(\d+)\s+Name: \"([^\"]*)\".*Paradigm: MPI.*Members?: (.*)$",
                             defs, re.M):
            members[int(m.group(1))] = [int(x) for x in re.findall(r"(\d+) \(", m.group(3))]
        self.comms = {}  # id -> (name, world ranks)
        for m in re.finditer(r"^COMM\s+(\d+)\s+Name: \"([^\"]*)\".*Group: \"[^\"]*\" <(\d+)>",
                             defs, re.M):
            if int(m.group(3)) in members:
                self.comms[int(m.group(1))] = (m.group(2), members[int(m.group(3))])
        self.sends, self.recvs = [], []  # (time, location, peer, comm, tag, length)
        self.collectives = 0
        self.kinds = {}  # MPI event -> how many
        for line in otf2_print(archive).splitlines():
            parts = line.split(None, 3)
            if len(parts) < 3 or not parts[1].isdigit():
                continue
            ev, loc, t, rest = parts[0], int(parts[1]), int(parts[2]), (parts[3:] or [""])[0]
            if ev.startswith("MPI_"):
                self.kinds[ev] = self.kinds.get(ev, 0) + 1
            if ev in ("MPI_SEND", "MPI_ISEND", "MPI_RECV", "MPI_IRECV"):
                peer = int(re.search(r"(?:Receiver|Sender): (\d+)", rest).group(1))
                comm = int(re.search(r"Communicator: \"[^\"]*\" <(\d+)>", rest).group(1))
                tag = int(re.search(r"Tag: (\d+)", rest).group(1))
                length = int(re.search(r"Length: (\d+)", rest).group(1))
                (self.sends if "SEND" in ev else self.recvs).append((t, loc, peer, comm, tag,
                                                                    length))
            elif ev == "MPI_COLLECTIVE_END":
                self.collectives += 1
        self.offsets = {}  # location -> [(local time, offset)]
        self.uncertainty = {}  # location -> the largest standard deviation of its offsets
        for m in re.finditer(r"^CLOCK_OFFSET\s+(\d+)\s+Time: (\d+), Offset: ([+-]?\d+)"
                             r"(?:, StdDev: ([0-9.eE+-]+))?",
                             otf2_print(archive, "-C"), re.M):
            loc = int(m.group(1))
            self.offsets.setdefault(loc, []).append((int(m.group(2)), int(m.group(3))))
            self.uncertainty[loc] = max(self.uncertainty.get(loc, 0.0),
                                        float(m.group(4) or 0))

    def rank_of(self, loc):
        return int(self.groups[self.locations[loc][1]].split()[1])

    def raw(self, loc, t):
        """The time as the location's clock recorded it: the correction taken out."""
        if loc not in self.offsets:
            return t
        (l1, o1), (l2, o2) = self.offsets[loc][0], self.offsets[loc][-1]
        slope = (o2 - o1) / (l2 - l1) if l2 > l1 else 0.0
        return (t - o1 + slope * l1) / (1 + slope)

    def matched(self, timeof=None):
        """Every message matched in order: [(send time, receive time)], the unmatched."""
        timeof = timeof or (lambda loc, t: t)
        queues = {}
        for t, loc, peer, comm, tag, length in self.sends:
            world = self.comms[comm][1]
            key = (comm, self.rank_of(loc), world[peer], tag)
            queues.setdefault(key, []).append((timeof(loc, t), length, loc))
        pairs, unmatched = [], 0
        for t, loc, peer, comm, tag, length in self.recvs:
            world = self.comms[comm][1]
            q = queues.get((comm, world[peer], self.rank_of(loc), tag))
            if not q:
                unmatched += 1
                continue
            ts, sent, sloc = q.pop(0)
            pairs.append((ts, timeof(loc, t), sent, length, sloc, loc))
        return pairs, unmatched + sum(len(q) for q in queues.values())


def timeline(path, *args):
    p = subprocess.run([TIMELINE, path] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0:
        raise AssertionError("pompprof-timeline %s: %s" % (path, p.stderr.strip()))
    return p.stdout


def check_skewed(work, exe, plain_out, size, errors):
    def expect(what, got, want):
        if got != want:
            errors.append("%d ranks: %s: %r, expected %r" % (size, what, got, want))

    out = os.path.join(work, "skewed%d" % size)
    status, stdout, stderr = mc.mpirun(size, 2, exe, output=out, env={
        "POMPPROF_TRACE": "1",
        "POMPPROF_TEST_CLOCK_SKEW": "%d:%g:%g" % (SKEW_RANK, SKEW_OFFSET, SKEW_PPM)})
    expect("exit status", status, 0)
    expect("output", stdout, plain_out)
    expect("pompprof's lines", mc.pompprof_lines(stderr), [])
    expect("files", sorted(os.listdir(out)),
           ["profile.cubex", "traces", "traces.def", "traces.otf2"])
    archive = os.path.join(out, "traces.otf2")
    tr = Trace(archive)
    expect("location groups", sorted(tr.groups.values()), ["rank %d" % r for r in range(size)])
    expect("locations", sorted(n for n, _ in tr.locations.values()),
           sorted("rank %d thread %d" % (r, t) for r in range(size) for t in range(2)))
    messages, collectives = expected(size)
    expect("sends", len(tr.sends), messages)
    expect("receives", len(tr.recvs), messages)
    expect("collectives", tr.collectives, collectives)
    # every non-blocking request's start and completion (the ring of MPI_Isend/MPI_Irecv)
    expect("non-blocking events",
           [tr.kinds.get(k, 0) for k in ("MPI_ISEND", "MPI_ISEND_COMPLETE", "MPI_IRECV_REQUEST",
                                         "MPI_IRECV", "MPI_COLLECTIVE_BEGIN")],
           [ITER * size] * 4 + [collectives])
    halves = sorted(w for n, w in tr.comms.values() if n.startswith("MPI_Comm_split"))
    expect("the split communicators' members",
           halves, sorted(list(range(p, size, 2)) for p in (0, 1)))
    pairs, unmatched = tr.matched()
    expect("unmatched messages", unmatched, 0)
    expect("matched sizes differing", [p for p in pairs if p[2] != p[3]], [])
    # A corrected clock is right within its offsets' uncertainty (half the least round
    # trip of the ping-pong: a few microseconds on a quiet machine, more beside a busy
    # build): a receive may precede its send by no more than the two clocks' together.
    early = [(s, r) for s, r, _, _, sl, rl in pairs if r < s]
    beyond = [(s, r) for s, r, _, _, sl, rl in pairs
              if s - r > tr.uncertainty.get(sl, 0.0) + tr.uncertainty.get(rl, 0.0)]
    expect("messages received before they were sent beyond the clocks' uncertainty "
           "(corrected clocks)", beyond, [])
    # the correction is the injected skew, and without it the check fails
    skewed = [loc for loc in tr.locations if tr.rank_of(loc) == SKEW_RANK]
    if skewed[0] not in tr.offsets:
        errors.append("%d ranks: rank %d has no clock offsets" % (size, SKEW_RANK))
        return
    (l1, o1), (l2, o2) = tr.offsets[skewed[0]][0], tr.offsets[skewed[0]][-1]
    first = o1 / tr.resolution
    if not -SKEW_OFFSET - 0.05 < first <= -SKEW_OFFSET + 1e-4:
        errors.append("%d ranks: rank %d's first offset %.6f s, expected about %.3f s (less "
                      "the drift)" % (size, SKEW_RANK, first, -SKEW_OFFSET))
    drift = (o2 - o1) / (l2 - l1)
    if not -1.3 * SKEW_PPM * 1e-6 < drift < -0.7 * SKEW_PPM * 1e-6:
        errors.append("%d ranks: rank %d's offsets drift %.6f, expected about %.6f"
                      % (size, SKEW_RANK, drift, -SKEW_PPM * 1e-6))
    raw_pairs, _ = tr.matched(tr.raw)
    if not any(s - r > tr.uncertainty.get(sl, 0.0) + tr.uncertainty.get(rl, 0.0)
               for s, r, _, _, sl, rl in raw_pairs):
        errors.append("%d ranks: on the clocks as recorded no message arrives before it was "
                      "sent: the test would not see a missing correction" % size)
    # pompprof-timeline reads the same
    chrome = os.path.join(work, "chrome%d.json" % size)
    d = json.loads(timeline(out, "--format", "json", "--chrome", chrome))
    m = d["mpi"]
    expect("timeline: ranks", m["ranks"], size)
    expect("timeline: messages matched", (m["matched"], m["sends"], m["receives"]),
           (messages, messages, messages))
    expect("timeline: unmatched", (m["unmatched_sends"], m["unmatched_receives"]), (0, 0))
    # (the same pairs as above, but for ties within a microsecond, which the tool's
    # conversion to seconds may order either way)
    ties = sum(1 for s, r, _, _, _, _ in pairs if abs(s - r) <= tr.resolution * 1e-6)
    if abs(m["receives_before_send"] - len(early)) > ties:
        errors.append("%d ranks: timeline: %d received before sent, the archive %d"
                      % (size, m["receives_before_send"], len(early)))
    expect("timeline: collective calls", m["collectives"], collectives)
    if m["late_senders"] < 1:
        errors.append("%d ranks: no late sender found (rank 1 sends %d ms after rank 0 waits)"
                      % (size, 200))
    for t in d["threads"]:
        parts = (t["work"] + t["serial"] + t["overhead"] + t["idleness"] + t["undetermined"]
                 + t["mpi"] + t["measurement"])
        if abs(parts - t["time"]) > 1e-6 + 1e-9 * t["time"]:
            errors.append("%d ranks: %s: the parts add up to %.9f, its time is %.9f"
                          % (size, t["name"], parts, t["time"]))
        if abs(t["mpi_wait"] + t["mpi_transfer"] - t["mpi"]) > 1e-6:
            errors.append("%d ranks: %s: MPI waiting + transfer != MPI" % (size, t["name"]))
        expect("%s: rank" % t["name"], t["rank"], int(t["name"].split()[1]))
    rank0 = [t for t in d["threads"] if t["name"] == "rank 0 thread 0"][0]
    if not rank0["mpi_wait"] > 0:
        errors.append("%d ranks: rank 0 waited no time for the late sender" % size)
    expect("timeline: rank rows", [r["rank"] for r in d["ranks"]], list(range(size)))
    for r in d["ranks"]:
        mine = [t for t in d["threads"] if t["rank"] == r["rank"]]
        expect("rank %d: threads" % r["rank"], r["threads"], len(mine))
        for k in ("time", "work", "serial", "overhead", "idleness", "mpi", "mpi_wait",
                  "measurement"):
            if abs(r[k] - sum(t[k] for t in mine)) > 1e-6:
                errors.append("%d ranks: rank %d's %s is not its threads' sum" % (size, r["rank"], k))
        if not r["pot"]:
            errors.append("%d ranks: rank %d has no POT quadrant" % (size, r["rank"]))
    with open(chrome) as f:
        flows = [e for e in json.load(f)["traceEvents"] if e.get("cat") == "message"]
    expect("Chrome trace: message flows (start, finish)",
           (sum(e["ph"] == "s" for e in flows), sum(e["ph"] == "f" for e in flows)),
           (messages, messages))
    expect("Chrome trace: processes", sorted({e["pid"] for e in flows}),
           [r + 1 for r in range(size)])
    text = timeline(out)
    for want in ("Ranks (", "rank %d thread 1" % (size - 1), "Messages: %d matched" % messages):
        if want not in text:
            errors.append("%d ranks: pompprof-timeline's text lacks %r" % (size, want))


def check_plain_layout(work, exe, errors):
    """Without POMPPROF_OUTPUT and without skew: one directory (rank 0's default) with
    the one archive, each thread's classes of time as the profile's."""
    cwd = os.path.join(work, "default")
    os.mkdir(cwd)
    e = dict(mc.ENV, OMP_NUM_THREADS="2", POMPPROF_TRACE="1")
    p = subprocess.run(["timeout", "-k", "10", str(mc.TIMEOUT), mc.MPIRUN, "--oversubscribe",
                        "-np", "2", exe], cwd=cwd, env=e, capture_output=True, text=True)
    if p.returncode != 0:
        errors.append("default output: exit %d: %s" % (p.returncode, p.stderr))
        return
    dirs = os.listdir(cwd)
    if len(dirs) != 1 or not dirs[0].startswith("pompprof-"):
        errors.append("default output: %r, expected rank 0's directory alone" % dirs)
        return
    out = os.path.join(cwd, dirs[0])
    if sorted(os.listdir(out)) != ["profile.cubex", "traces", "traces.def", "traces.otf2"]:
        errors.append("default output: %r" % sorted(os.listdir(out)))
        return
    d = json.loads(timeline(out, "--format", "json"))
    # the profile's classes of each thread's time, as pompprof-report makes them (its
    # fork/join gaps per rank's team: a worker's time is its time in the team and its
    # wait for the team's slowest, as the trace's)
    prof = Profile(out)
    classes = Analysis(prof).program
    names = ["rank %d thread %d" % (loc.group_rank, loc.rank) for loc in prof.cube.locations]
    for t in d["threads"]:
        i = names.index(t["name"])
        for what, got, want in (
                ("time", t["time"], classes.total(i)),
                ("MPI time", t["mpi"], classes.component("mpi", i)),
                ("work", t["work"], classes.component("work", i)),
                ("serial code, fork/join and measurement",
                 t["serial"] + t["overhead_forkjoin"] + t["measurement"],
                 classes.component("serial", i) + classes.component("forkjoin", i))):
            if abs(got - want) > 2e-6 + 1e-6 * want:
                errors.append("default output: %s: %s %.9f s in the trace, %.9f s in the "
                              "profile" % (t["name"], what, got, want))


def main():
    work = tempfile.mkdtemp(prefix="pp-mpi-trace-")
    errors = []
    try:
        src = os.path.join(mc.PROGS, "trace_msgs.c")
        exe = mc.build("mpicc", src, os.path.join(work, "trace_msgs"), True)
        plain = mc.build("mpicc", src, os.path.join(work, "trace_msgs_plain"), False)
        for size in (2, 4):
            status, plain_out, _ = mc.mpirun(size, 2, plain)
            if status != 0:
                errors.append("plain build at %d ranks: exit %d" % (size, status))
                continue
            check_skewed(work, exe, plain_out, size, errors)
        check_plain_layout(work, exe, errors)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return mc.verdict(errors)


if __name__ == "__main__":
    sys.exit(main())
