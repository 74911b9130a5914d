#!/usr/bin/env python3
"""Unusable output locations.  Tests run as root in CI, where permission
bits do not stop writes, so unwritable means: a path below a plain file, a
read-only tmpfs mount; full means: a tiny tmpfs filled up, or a file size
limit (ulimit -f) when mounting is not possible.

In each case: one clear pompprof: line, the program's output and status
unchanged, any profile that exists reads back completely (written
atomically: no half-written .cubex anywhere), and no existing file is ever
overwritten or truncated."""

import hashlib
import os
import re
import resource
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import robust_util as ru  # noqa: E402

ru.require_all()
work = ru.workdir("output_dir")
src = ru.robust_src("progs", "tasks_small.c")
plain = ru.build(src, os.path.join(work, "tasks_plain"), False)
instr = ru.build(src, os.path.join(work, "tasks_small"), True)
ref = ru.run([plain], work, ru.clean_env())
mounts = []


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def snapshot(top):
    """sha256 of every regular file below top (to prove nothing changed)."""
    out = {}
    for d, _, files in os.walk(top):
        for f in files:
            p = os.path.join(d, f)
            if os.path.isfile(p) and not os.path.islink(p):
                out[p] = digest(p)
    return out


def all_profiles_read_back(top, what, old=()):
    for p in ru.find_profiles(top):
        if p not in old:
            ru.Profile(p)  # fails the test if it does not read back
    for d, _, files in os.walk(top):
        for f in files:
            if ".cubex" in f and not f.endswith(".cubex"):
                ru.fail("%s: temporary file left behind: %s" % (what, os.path.join(d, f)))


def run_case(what, output, rdir, expect_lines=1, preexec=None, mention=None):
    os.makedirs(os.path.join(rdir, "tmp"), exist_ok=True)
    env = ru.clean_env({"TMPDIR": os.path.join(rdir, "tmp")})
    if output is not None:
        env["POMPPROF_OUTPUT"] = output
    before = snapshot(rdir)
    r = ru.run([instr], rdir, env, preexec=preexec)
    ru.same_behaviour(ref, r, what)
    lines = r.pompprof_lines()
    lo, hi = expect_lines if isinstance(expect_lines, tuple) else (expect_lines, expect_lines)
    if not lo <= len(lines) <= hi:
        ru.fail("%s: expected %s pompprof: line(s), got %s" % (what, expect_lines, lines))
    if mention and lines and not any(mention in l for l in lines):
        ru.fail("%s: the message does not name %s: %s" % (what, mention, lines))
    after = snapshot(rdir)
    for p, h in before.items():
        if after.get(p) != h:
            ru.fail("%s: existing file %s was %s" % (what, p,
                                                     "removed" if p not in after else "changed"))
    all_profiles_read_back(rdir, what, before)
    return r, [p for p in after if p not in before and p.endswith(".cubex")]


def try_mount(path, opts):
    os.makedirs(path, exist_ok=True)
    if os.geteuid() != 0:
        return False
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", path],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if r.returncode == 0:
        mounts.append(path)
        return True
    return False


try:
    n = 0
    # 1. the output directory would be below a plain file: fallback to $TMPDIR
    rdir = os.path.join(work, "below_file")
    os.makedirs(rdir)
    blocker = os.path.join(rdir, "plainfile")
    with open(blocker, "w") as f:
        f.write("not a directory\n")
    for target in (os.path.join(blocker, "out"), os.path.join(blocker, "sub", "p.cubex")):
        _, new = run_case("output below a plain file (%s)" % target, target, rdir,
                          mention="plainfile")
        if not any(p.startswith(os.path.join(rdir, "tmp")) for p in new):
            ru.fail("no fallback profile in $TMPDIR after %s: %s" % (target, new))
        n += 1

    # 2. the profile file exists already: never overwritten, another name used
    rdir = os.path.join(work, "existing")
    os.makedirs(os.path.join(rdir, "out"))
    with open(os.path.join(rdir, "out", "profile.cubex"), "wb") as f:
        f.write(b"precious, not a profile\n")
    with open(os.path.join(rdir, "mine.cubex"), "wb") as f:
        f.write(b"also precious\n" * 100)
    # (a directory: a profile of its own, profile.<program>.<pid>.cubex, without a word on
    # the program's stderr; a named file: NAME.1.cubex, said in one line)
    for target, tag in ((os.path.join(rdir, "out"), "existing directory"),
                        (os.path.join(rdir, "mine.cubex"), "existing .cubex file")):
        for rep in range(2):  # twice: the second run must not take the first's name
            dir_case = not target.endswith(".cubex")
            r, new = run_case("%s, run %d" % (tag, rep + 1), target, rdir,
                              expect_lines=0 if dir_case else 1,
                              mention=None if dir_case else "exists")
            if len(new) != 1:
                ru.fail("%s: expected one new profile, got %s" % (tag, new))
            elif dir_case and not re.search(r"/profile\.[^/]+\.\d+\.cubex$", new[0]):
                ru.fail("%s: the new profile is not named by program and process: %s"
                        % (tag, new[0]))
            n += 1

    # 3. a read-only file system (unwritable even for root)
    rdir = os.path.join(work, "readonly")
    os.makedirs(rdir)
    ro = os.path.join(rdir, "ro")
    if try_mount(ro, "size=1m,ro"):
        _, new = run_case("read-only file system", os.path.join(ro, "out"), rdir,
                          mention=ro)
        if not any(p.startswith(os.path.join(rdir, "tmp")) for p in new):
            ru.fail("read-only target: no fallback profile in $TMPDIR: %s" % new)
        n += 1
    else:
        print("note: cannot mount a tmpfs (not root?): read-only case skipped")

    # 4. a full file system: a 64 KiB tmpfs, filled up
    rdir = os.path.join(work, "full")
    os.makedirs(rdir)
    full = os.path.join(rdir, "full")
    if try_mount(full, "size=64k"):
        fd = os.open(os.path.join(full, "filler"), os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            while True:
                os.write(fd, b"x" * 512)
        except OSError:
            pass
        os.close(fd)
        # the fallback ($TMPDIR) may work: either a readable profile or none
        run_case("full file system", os.path.join(full, "out"), rdir, mention=full)
        # fallback on the same full file system too: no profile at all
        os.makedirs(os.path.join(full, "tmp"), exist_ok=True)
        r = ru.run([instr], rdir, ru.clean_env({"TMPDIR": os.path.join(full, "tmp"),
                                                "POMPPROF_OUTPUT": os.path.join(full, "o2")}))
        ru.same_behaviour(ref, r, "full file system and full fallback")
        if not 1 <= len(r.pompprof_lines()) <= 2:
            ru.fail("full file system and full fallback: expected one or two lines "
                    "(target, fallback), got %s" % r.pompprof_lines())
        all_profiles_read_back(full, "full file system and full fallback")
        n += 2
    else:
        print("note: cannot mount a tmpfs: full file system tested with ulimit -f only")

    # 5. a file size limit (works without privileges): writes fail with EFBIG;
    #    SIGXFSZ ignored as a shell does with `trap '' XFSZ`
    def small_fsize():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))

    rdir = os.path.join(work, "fsize")
    os.makedirs(rdir)
    ref_x = ru.run([plain], rdir, ru.clean_env(), preexec=small_fsize)
    if (ref_x.returncode, ref_x.stdout) != (ref.returncode, ref.stdout):
        ru.fail("the plain program behaves differently under ulimit -f")
    r, new = run_case("file size limit", os.path.join(rdir, "out"), rdir,
                      preexec=small_fsize, expect_lines=(1, 2))
    n += 1
    print("PASS: %d unusable-output cases handled" % n)
finally:
    for m in reversed(mounts):
        subprocess.run(["umount", "-l", m])
ru.cleanup(work)
