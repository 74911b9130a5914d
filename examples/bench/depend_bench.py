"""make bench-depend: what recording dependences costs (prints, never fails on timing).

* the creating thread's cost per recorded list item (depend_bench.c), profile only, and
  with POMPPROF_TRACE=1 both within one buffer (64 MiB, 2000 calls per loop) and with
  8 MiB buffers written to disk as they fill (the default);
* examples/wavefront.c (8 chains of 20 tasks, and an 8 x 8 wavefront) and sparselu.c with
  depend clauses (28 x 28 blocks of 32 x 32, 4,827 dependent tasks) at 2 threads:
  plain, profiled, profiled and traced; median of BENCH_REPS runs (default 5),
  interleaved, with the overhead against plain.
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time


def figures(text):
    return {k: float(v) for k, v in (line.split() for line in text.splitlines() if line)}


def timed(argv, env):
    t0 = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--builddir", required=True)
    args = ap.parse_args()
    b = args.builddir
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(b, ".libs"), OMP_NUM_THREADS="2")
    for var in ("POMPPROF_TRACE", "POMPPROF_OUTPUT"):
        env.pop(var, None)
    reps = int(os.environ.get("BENCH_REPS", "5"))
    with tempfile.TemporaryDirectory(prefix="pp_bench_depend_") as tmp:
        print("== Recording dependences (ns on the creating thread)")
        bench = os.path.join(b, "examples", "bench", "depend_bench")
        for k, (label, calls, extra) in enumerate((
                ("profile only", "400000", {}),
                ("traced, in the buffer", "2000",
                 {"POMPPROF_TRACE": "1", "POMPPROF_TRACE_BUFFER": str(64 << 20)}),
                ("traced, flushed", "400000", {"POMPPROF_TRACE": "1"}))):
            e = dict(env, OMP_NUM_THREADS="1", POMPPROF_OUTPUT=os.path.join(tmp, "m%d" % k),
                     **extra)
            f = figures(subprocess.run([bench, calls], env=e, check=True,
                                       stdout=subprocess.PIPE, universal_newlines=True).stdout)
            print("  %-22s per item %.2f ns; a call with 4 items %.1f ns, with 16 %.1f ns"
                  % (label, f["depend_item_ns"], f["depend_call4_ns"], f["depend_call16_ns"]))
        print("\n== dependent-task examples at 2 threads (median of %d runs; overhead vs plain)"
              % reps)
        for c, (name, example, argv, extra) in enumerate((
                ("8 chains x 20", "wavefront", ["20", "300000"], {"CHAINS": "8"}),
                ("wavefront 8x8", "wavefront", ["8", "600000"], {}),
                ("sparselu depend", "sparselu", ["28", "32", "depend"], {}))):
            plain = os.path.join(b, "examples", "plain", example)
            prof = os.path.join(b, "examples", "prof", example)
            runs = {"plain": [], "profiled": [], "traced": []}
            for r in range(reps):
                e = dict(env, **extra)
                runs["plain"].append(timed([plain] + argv, e))
                runs["profiled"].append(timed([prof] + argv, dict(
                    e, POMPPROF_OUTPUT=os.path.join(tmp, "p%d.%d" % (c, r)))))
                runs["traced"].append(timed([prof] + argv, dict(
                    e, POMPPROF_OUTPUT=os.path.join(tmp, "t%d.%d" % (c, r)), POMPPROF_TRACE="1")))
            med = {k: statistics.median(v) for k, v in runs.items()}
            print("  %-14s plain %.4f s, profiled %.4f s (%+.1f %%), traced %.4f s (%+.1f %%)"
                  % (name, med["plain"], med["profiled"],
                     100 * (med["profiled"] / med["plain"] - 1), med["traced"],
                     100 * (med["traced"] / med["plain"] - 1)))


if __name__ == "__main__":
    main()
