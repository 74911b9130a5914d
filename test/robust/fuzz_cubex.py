#!/usr/bin/env python3
"""Coverage-guided mutation fuzzer for the .cubex reader path of the tools
(scripts/pompprof_tools: cube/cubex.py and the report built on it).

Property: for any input file, loading it and building the report either
succeeds or raises the reader's own one-line error (CubexError, or the
tools' ToolError); any other exception is a bug.  On a sample of mutants the
installed entry point (scripts/pompprof-report in the build tree) also runs
as a subprocess: a non-zero exit must come with exactly one line on stderr,
no traceback and no "internal error".

Seeds: the reference profiles (test/tools/*.cubex, shared/golden/*.cubex,
with the bulky opaque members dropped) and a profile written by a build-tree
program.  Mutations: byte flips, interesting bytes, truncation, block
duplication/deletion, tar header field edits (size, name, type, checksum),
and edits inside anchor.xml and the data/index members with the archive
re-packed so they get past the container checks.  Coverage: line pairs
(arcs) executed in pompprof_tools, traced with sys.settrace; an input that
reaches new arcs joins the corpus.

Environment: FUZZ_SECONDS (default 20), FUZZ_SEED (random seed, default
time-based; printed so a run can be repeated), FUZZ_CRASH_DIR (where
crashing inputs go; default below the build tree).  Usage outside make:
    top_srcdir=... top_builddir=... python3 fuzz_cubex.py [--replay FILES...]
"""

import glob
import io
import os
import random
import re
import subprocess
import sys
import tarfile
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import robust_util as ru  # noqa: E402

ru.require_reader()
sys.path.insert(0, os.path.join(ru.srcdir(), "scripts"))
from pompprof_tools.cube import cubex  # noqa: E402

try:
    from pompprof_tools.analysis import report  # noqa: E402
    from pompprof_tools.cli import ToolError  # noqa: E402
except ImportError:  # the report may land later than the reader
    report = None
    ToolError = cubex.CubexError

EXPECTED = (cubex.CubexError, ToolError)
TOOLS_DIR = os.path.dirname(os.path.abspath(cubex.__file__))


# ---- the property -----------------------------------------------------------------

def exercise(path):
    """Load and use a profile the way the tools do.  Returns None when the
    property holds, else a one-line description of the failure."""
    try:
        cube = cubex.load(path)
        for c in cube.cnodes_in_order():
            for m in cube.metrics:
                if m.type in cubex.DATA_TYPES:
                    cube.inclusive_row(m, c)
                    cube.exclusive_row(m, c)
        if report is not None:
            out = io.StringIO()
            old = sys.stdout
            sys.stdout = out
            try:
                report.main([path, "--format", "json"])
            finally:
                sys.stdout = old
    except EXPECTED as e:
        msg = str(e)
        if "\n" in msg.strip() or not msg.strip():
            return "error message is not one line: %r" % msg
        return None
    except RecursionError:
        return "RecursionError"  # caught by the CLI as one line, but a crash in-process
    except Exception as e:
        tb = traceback.extract_tb(e.__traceback__)
        where = "%s:%d" % (os.path.basename(tb[-1].filename), tb[-1].lineno) if tb else "?"
        return "%s at %s: %s" % (type(e).__name__, where, str(e)[:200])
    return None


# ---- coverage -----------------------------------------------------------------------

class Coverage:
    def __init__(self):
        self.seen = set()
        self.cur = set()

    def _tracer(self, frame, event, arg):
        if not frame.f_code.co_filename.startswith(TOOLS_DIR):
            return None
        last = [None]

        def local(frame, event, arg):
            if event == "line":
                self.cur.add((frame.f_code.co_filename, last[0], frame.f_lineno))
                last[0] = frame.f_lineno
            return local
        return local

    def run(self, fn, *args):
        self.cur = set()
        sys.settrace(self._tracer)
        try:
            return fn(*args)
        finally:
            sys.settrace(None)

    def new(self):
        fresh = self.cur - self.seen
        self.seen |= self.cur
        return len(fresh)


# ---- tar handling (enough to re-pack mutated members) -------------------------------

def members_of(data):
    """[(name, bytes)] of a well-formed archive, or None."""
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tf:
            out = []
            for m in tf.getmembers():
                if not m.isfile():
                    return None
                out.append((m.name, tf.extractfile(m).read()))
            return out
    except (tarfile.TarError, OSError, EOFError, ValueError):
        return None


def pack(members):
    """A plain ustar archive (standard padding, two zero blocks at the end)."""
    out = bytearray()
    for name, body in members:
        if isinstance(name, str):
            name = name.encode("utf-8", "surrogateescape")
        h = bytearray(512)
        h[0:100] = (name[:100] + b"\0" * 100)[:100]
        h[100:108] = b"0000600\0"
        h[108:116] = b"0000000\0"
        h[116:124] = b"0000000\0"
        h[124:136] = b"%011o\0" % len(body)
        h[136:148] = b"00000000000\0"
        h[156] = ord("0")
        h[257:263] = b"ustar\0"
        h[263:265] = b"00"
        h[148:156] = b" " * 8
        h[148:155] = b"%06o\0" % (sum(h) & 0o777777)
        out += h + body + b"\0" * (-len(body) % 512)
    return bytes(out + b"\0" * 1024)


def header_offsets(data):
    return [m.start() - 257 for m in re.finditer(b"ustar", data) if m.start() >= 257]


def fix_checksum(data, off):
    h = bytearray(data[off:off + 512])
    if len(h) < 512:
        return data
    h[148:156] = b" " * 8
    h[148:155] = ("%06o\0" % (sum(h) & 0o777777)).encode()
    return data[:off] + bytes(h) + data[off + 512:]


# ---- mutations ----------------------------------------------------------------------

INTERESTING = [b"\0", b"\xff", b"0", b"7", b"9", b" ", b"-", b"<", b">", b"\"", b"&",
               b"\x80", b"\x7f"]
NUMBERS = [b"0", b"-1", b"1", b"4294967295", b"18446744073709551616", b"999999999",
           b"-999999999999", b"1e308", b"nan", b"inf", b"", b"0x10", b"007"]


def mut_bytes(rng, data):
    d = bytearray(data)
    if not d:
        return bytes(rng.choice(INTERESTING))
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(d))
        if rng.random() < 0.5:
            d[i] ^= 1 << rng.randrange(8)
        else:
            d[i] = rng.choice(INTERESTING)[0]
    return bytes(d)


def mut_truncate(rng, data):
    if rng.random() < 0.5:
        cut = rng.randrange(len(data) + 1)
    else:
        cut = rng.randrange(len(data) // 512 + 1) * 512 + rng.choice([0, 0, 1, 511, 257])
    return data[:cut]


def mut_blocks(rng, data):
    n = max(1, len(data) // 512)
    a, b = rng.randrange(n) * 512, rng.randrange(n) * 512
    blk = data[a:a + 512 * rng.randint(1, 3)]
    if rng.random() < 0.5:
        return data[:b] + blk + data[b:]          # duplicate
    return data[:a] + data[a + len(blk):]          # delete


def mut_header(rng, data):
    offs = header_offsets(data)
    if not offs:
        return mut_bytes(rng, data)
    off = rng.choice(offs)
    d = bytearray(data)
    field = rng.choice(["size", "name", "type", "magic", "size", "size"])
    if field == "size":
        v = rng.choice([b"00000000000", b"77777777777", b"%011o" % rng.randrange(1 << 20),
                        b"zzz", b"\x80\0\0\0\0\0\0\0\0\0\0\x01", b"-1", b""])
        d[off + 124:off + 136] = (v + b"\0" * 12)[:12]
    elif field == "name":
        v = rng.choice([b"anchor.xml", b"0.data", b"0.index", b"1.data", b"1.index",
                        b"../x", b"", b"a" * 100])
        d[off:off + 100] = (v + b"\0" * 100)[:100]
    elif field == "type":
        d[off + 156] = rng.choice(b"x5g0\0L7")
    else:
        d[off + 257:off + 263] = rng.choice([b"ustar\0", b"USTAR\0", b"\0" * 6])
    data = bytes(d)
    return fix_checksum(data, off) if rng.random() < 0.8 else data


def mut_xml(rng, text):
    """Structure-aware edits of anchor.xml."""
    choice = rng.randrange(7)
    if choice == 0:   # a numeric attribute or text gets a bad number
        nums = list(re.finditer(rb"(?<=[\">])-?\d+(?=[\"<])", text))
        if nums:
            m = rng.choice(nums)
            return text[:m.start()] + rng.choice(NUMBERS) + text[m.end():]
    if choice == 1:   # drop an element (open tag to its close, or a self-closing one)
        tags = list(re.finditer(rb"<(\w+)[^>]*?/>|<(\w+)[^>]*>.*?</\2>", text, re.S))
        if tags:
            m = rng.choice(tags)
            return text[:m.start()] + text[m.end():]
    if choice == 2:   # duplicate an element
        tags = list(re.finditer(rb"<(cnode|region|metric|location|systemtreenode|"
                                rb"locationgroup)\b[^>]*?(/>|>.*?</\1>)", text, re.S))
        if tags:
            m = rng.choice(tags)
            return text[:m.end()] + text[m.start():m.end()] + text[m.end():]
    if choice == 3:   # change a string attribute (names, types, roles)
        attrs = list(re.finditer(rb"(\w+)=\"([^\"]*)\"", text))
        if attrs:
            m = rng.choice(attrs)
            v = rng.choice([b"", b"TASKS", b"INCLUSIVE", b"EXCLUSIVE", b"SIMPLE",
                            b"POSTDERIVED", b"MINDOUBLE", b"UINT64", b"artificial",
                            b"\xff\xfe", b"&amp;", b"x" * 300])
            return text[:m.start(2)] + v + text[m.end(2):]
    if choice == 4:   # swap contents of two text elements
        els = list(re.finditer(rb">([^<]+)<", text))
        if len(els) > 1:
            a, b = rng.sample(els, 2)
            if a.start() > b.start():
                a, b = b, a
            return (text[:a.start(1)] + b.group(1) + text[a.end(1):b.start(1)] +
                    a.group(1) + text[b.end(1):])
    if choice == 5:   # nest deeply
        m = re.search(rb"<cnode\b[^>]*>", text)
        if m:
            depth = rng.choice([50, 2000])
            return text[:m.end()] + m.group(0) * depth + b"</cnode>" * depth + text[m.end():]
    if choice == 6 and text:   # truncate the XML itself
        return text[:rng.randrange(len(text))]
    return mut_bytes(rng, text)


def mut_members(rng, data):
    mem = members_of(data)
    if not mem:
        return mut_bytes(rng, data)
    i = rng.randrange(len(mem))
    name, body = mem[i]
    r = rng.random()
    if name == "anchor.xml" or (r < 0.4 and any(n == "anchor.xml" for n, _ in mem)):
        j = [k for k, (n, _) in enumerate(mem) if n == "anchor.xml"][0]
        mem[j] = ("anchor.xml", mut_xml(rng, mem[j][1]))
    elif r < 0.6:   # damage a data/index member
        mem[i] = (name, rng.choice([mut_bytes, mut_truncate])(rng, body))
    elif r < 0.75:  # drop a member
        del mem[i]
    elif r < 0.9:   # duplicate a member (the last one wins)
        mem.append((name, mut_bytes(rng, body)))
    else:           # rename a member
        mem[i] = (rng.choice(["anchor.xml", "0.index", "1.data", "2.index", "x"]), body)
    return pack(mem)


MUTATORS = [mut_bytes, mut_truncate, mut_blocks, mut_header, mut_members, mut_members,
            mut_members]


def mutate(rng, data):
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        data = rng.choice(MUTATORS)(rng, data)
    return data


# ---- seeds ---------------------------------------------------------------------------

def slim(data):
    """A reference profile without its opaque members (remapping.spec...),
    so each run spends its time in the code that matters."""
    mem = members_of(data)
    if not mem:
        return data
    keep = [(n, b) for n, b in mem if n == "anchor.xml" or n.endswith((".data", ".index"))]
    return pack(keep)


def seed_files():
    found = []
    for pat in (os.path.join(ru.srcdir(), "test", "tools", "*.cubex"),
                os.path.join(ru.srcdir(), "test", "tools", "golden", "*.cubex"),
                os.path.join(ru.srcdir(), "..", "shared", "golden", "*.cubex"),
                os.path.join(ru.srcdir(), "test", "robust", "corpus", "cubex", "*")):
        found += sorted(glob.glob(pat))
    return found


def own_profile(work):
    """A profile written by pompprof itself, when the build tree has it."""
    if not (os.access(ru.wrapper(), os.X_OK) and
            glob.glob(os.path.join(ru.libdir(), "libpompprof.so*"))):
        return []
    src = ru.robust_src("progs", "tasks_small.c")
    exe = ru.build(src, os.path.join(work, "tasks_small"), True)
    r = ru.run([exe], work, ru.clean_env({"TMPDIR": work}))
    if r.returncode != 0:
        return []
    return ru.find_profiles(work)


# ---- driver --------------------------------------------------------------------------

def report_entry():
    p = os.path.join(ru.builddir(), "scripts", "pompprof-report")
    return p if os.access(p, os.X_OK) else None


def check_entry_point(entry, path):
    r = subprocess.run([entry, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=60, env=ru.clean_env())
    err = r.stderr.decode(errors="replace")
    if r.returncode == 0:
        return None
    lines = err.splitlines()
    if "Traceback" in err or "internal error" in err or len(lines) != 1:
        return "pompprof-report exit %d with stderr %r" % (r.returncode, err[:300])
    return None


def replay(paths):
    bad = 0
    for p in paths:
        problem = exercise(p)
        if problem:
            print("%s: %s" % (p, problem))
            bad += 1
    return bad


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--replay":
        bad = replay(sys.argv[2:])
        print("replayed %d input(s), %d failing" % (len(sys.argv) - 2, bad))
        return 1 if bad else 0

    seconds = float(os.environ.get("FUZZ_SECONDS", "20"))
    rseed = int(os.environ.get("FUZZ_SEED", str(int(time.time()))))
    rng = random.Random(rseed)
    work = ru.workdir("fuzz_cubex")
    crash_dir = os.environ.get("FUZZ_CRASH_DIR") or os.path.join(work, "crashes")
    os.makedirs(crash_dir, exist_ok=True)

    seeds = []
    for f in seed_files() + own_profile(work):
        with open(f, "rb") as fh:
            seeds.append(slim(fh.read()))
    if not seeds:
        ru.skip("no seed profiles (test/tools/*.cubex, shared/golden) and no build-tree profile")

    cov = Coverage()
    scratch = os.path.join(work, "input.cubex")
    corpus, crashes, execs = [], {}, 0

    def one(data):
        nonlocal execs
        with open(scratch, "wb") as fh:
            fh.write(data)
        problem = cov.run(exercise, scratch)
        execs += 1
        return problem

    for s in seeds:
        problem = one(s)
        if problem:
            ru.fail("a seed profile already fails: %s" % problem)
        cov.new()
        corpus.append(s)

    entry = report_entry()
    entry_checks = 0
    deadline = time.time() + seconds
    while time.time() < deadline:
        parent = rng.choice(corpus)
        child = mutate(rng, parent)
        problem = one(child)
        if problem:
            key = problem.split(": ")[0]  # exception type and where it was raised
            if key not in crashes:
                path = os.path.join(crash_dir, "crash-%d" % len(crashes))
                with open(path, "wb") as fh:
                    fh.write(child)
                crashes[key] = (path, problem)
            continue
        if cov.new():
            corpus.append(child)
        # the real entry point, on a small sample (a process per input is slow)
        if entry and rng.random() < 0.01 and entry_checks < 40:
            entry_checks += 1
            problem = check_entry_point(entry, scratch)
            if problem and problem not in crashes:
                path = os.path.join(crash_dir, "entry-%d" % len(crashes))
                with open(path, "wb") as fh:
                    fh.write(child)
                crashes[problem] = (path, problem)

    print("fuzz_cubex: seed %d, %.0f s, %d executions, corpus %d, %d arcs covered, "
          "%d entry-point runs" % (rseed, seconds, execs, len(corpus), len(cov.seen),
                                  entry_checks))
    if crashes:
        for path, problem in crashes.values():
            print("CRASH %s: %s" % (path, problem))
        print("FAIL: %d distinct failure(s); copy the inputs into test/robust/regressions/cubex/"
              " (they are replayed by regressions.py)" % len(crashes))
        return 1
    ru.cleanup(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
