#!/usr/bin/env python3
"""libFuzzer on the OPARI2 region-string parser for a bounded time
(FUZZ_SECONDS, default 20).  Needs clang with the fuzzer runtime (Debian:
clang, libclang-rt-14-dev); skipped without.  A crashing input is left in the
build tree: copy it to the seed corpus, test/robust/corpus/region_string/,
which regressions.py replays in every 'make check'."""

import glob
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import robust_util as ru  # noqa: E402

clang = os.environ.get("FUZZ_CC") or shutil.which("clang")
if not clang:
    ru.skip("clang is not installed (needed for libFuzzer)")
parser = os.path.join(ru.srcdir(), "pomp2", "pp_pomp2_region_string.c")
if not os.path.exists(parser):
    ru.skip("the region-string parser is not there")
work = ru.workdir("fuzz_region_string")
exe = os.path.join(work, "fuzz_region_string")
build = subprocess.run([clang, "-g", "-O1", "-fsanitize=fuzzer,address,undefined",
                        "-fno-sanitize-recover=undefined", "-I" + ru.srcdir(),
                        ru.robust_src("fuzz_region_string.c"), parser, "-o", exe],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
if build.returncode != 0:
    out = build.stdout.decode(errors="replace")
    if "libclang_rt.fuzzer" in out or "cannot find" in out or "unsupported" in out:
        ru.skip("clang has no libFuzzer runtime (Debian: libclang-rt-14-dev)")
    ru.fail("harness does not build:\n" + out)

corpus = os.path.join(work, "corpus")
shutil.copytree(ru.robust_src("corpus", "region_string"), corpus)
for f in glob.glob(ru.robust_src("regressions", "region_string", "*")):
    shutil.copy(f, corpus)
crashes = os.path.join(work, "crashes") + os.sep
os.makedirs(crashes)
seconds = os.environ.get("FUZZ_SECONDS", "20")
r = subprocess.run([exe, "-max_total_time=" + seconds, "-timeout=10", "-rss_limit_mb=1024",
                    "-max_len=4096", "-print_final_stats=1",
                    "-dict=" + ru.robust_src("corpus", "region_string.dict"),
                    "-artifact_prefix=" + crashes, corpus],
                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                   env=dict(os.environ, ASAN_OPTIONS="detect_leaks=1"))
out = r.stdout.decode(errors="replace")
stats = [l for l in out.splitlines() if l.startswith("stat::number_of_executed_units")]
if r.returncode != 0:
    print(out[-4000:])
    ru.fail("libFuzzer found a failing input: %s (copy it to "
            "test/robust/corpus/region_string/)" % os.listdir(crashes))
print("PASS: region-string parser fuzzed %s s, %s" % (seconds, stats[0] if stats else ""))
ru.cleanup(work)
