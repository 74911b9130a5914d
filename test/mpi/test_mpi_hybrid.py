"""One profile for a hybrid MPI + OpenMP program with tasks, on 1, 2, 4 and 8
ranks (oversubscribed) of 1 and 2 threads (test/mpi/progs/hybrid.c), read back
with the project's reader:

- the program prints and exits as its plain build does, and pompprof says nothing;
- the run leaves exactly one profile.cubex, whose locations are ranks x threads:
  process "MPI Rank r" of rank r in rank order, threads 0..t-1 in each;
- MPI_Allreduce has as many visits as there are ranks, one on each master
  thread; MPI_Finalize one per rank;
- MPI_Query_thread, called by every thread of a team, has one visit on each
  location (calls are measured on the calling thread);
- bytes_sent and bytes_received at each MPI call are what the program moved,
  rank by rank, by the rules of doc/mpi.md;
- the task instances summed over ranks (visits of the task constructs below
  TASKS) are the program's: fib(n) creates 2 tasks per call with n >= 2, and
  rank r computes fib(8 + r % 3);
- the first task construct names its argument as parameter n: its instances
  per value, summed over ranks, are the program's, each value one node;
- the MPI functions' regions are in module "MPI" (no line), as the reference
  names them, so CubeLib's cube_sanity lists no region the README does not
  name (test/tools/sanity_rule.py).
"""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi_common as mc  # noqa: E402
sys.path.insert(0, os.path.join(mc.TOP_SRCDIR, "test", "tools"))
import sanity_rule  # noqa: E402


def tasks(n):
    return 0 if n < 2 else 2 + tasks(n - 1) + tasks(n - 2)


def calls(top):
    """{n: how often fib(n) is called} while computing fib(top)."""
    out, todo = {}, [top]
    while todo:
        n = todo.pop()
        out[n] = out.get(n, 0) + 1
        if n >= 2:
            todo += [n - 1, n - 2]
    return out


def check_profile(path, ranks, threads, errors):
    def expect(what, got, want):
        if got != want:
            errors.append("%d x %d: %s: %r, expected %r" % (ranks, threads, what, got, want))

    cube = mc.cubex.load(path)
    expect("locations", [(loc.group_name, loc.group_rank, loc.rank) for loc in cube.locations],
           [("MPI Rank %d" % r, r, t) for r in range(ranks) for t in range(threads)])
    masters = [loc.id for loc in cube.locations if loc.rank == 0]
    allreduce = mc.node(cube, "MPI_Allreduce")
    if allreduce is None:
        errors.append("%d x %d: no MPI_Allreduce below the root" % (ranks, threads))
        return
    row = cube.row("visits", allreduce)
    expect("MPI_Allreduce visits", sum(row), ranks)
    expect("MPI_Allreduce visits of the masters", [row[i] for i in masters], [1] * ranks)
    expect("MPI_Finalize visits", mc.per_rank(cube, "visits", mc.find(cube, "MPI_Finalize")),
           {r: 1 for r in range(ranks)})
    query = mc.find(cube, "MPI_Query_thread")
    expect("MPI_Query_thread below the parallel region",
           [c.parent.region.name.split(" @")[0] for c in query], ["!$omp parallel"])
    expect("MPI_Query_thread visits per location",
           [sum(cube.row("visits", c)[i] for c in query) for i in range(cube.nlocs)],
           [1] * (ranks * threads))

    def bytes_at(name):
        c = mc.find(cube, name)
        return (mc.per_rank(cube, "bytes_sent", c), mc.per_rank(cube, "bytes_received", c))

    R = range(ranks)
    prev = {r: (r + ranks - 1) % ranks for r in R}
    others = ranks - 1
    expect("MPI_Sendrecv bytes", bytes_at("MPI_Sendrecv"),
           ({r: 800 * (r + 1) for r in R}, {r: 800 * (prev[r] + 1) for r in R}))
    expect("MPI_Isend bytes", bytes_at("MPI_Isend"), ({r: 40 for r in R}, {r: 0 for r in R}))
    expect("MPI_Irecv bytes", bytes_at("MPI_Irecv"), ({r: 0 for r in R}, {r: 40 for r in R}))
    expect("MPI_Bcast bytes", bytes_at("MPI_Bcast"),
           ({r: 64 * others if r == 0 else 0 for r in R}, {r: 0 if r == 0 else 64 for r in R}))
    expect("MPI_Allreduce bytes", bytes_at("MPI_Allreduce"),
           ({r: 8 * others for r in R}, {r: 8 * others for r in R}))
    expect("MPI_Gather bytes", bytes_at("MPI_Gather"),
           ({r: 0 if r == 0 else 16 for r in R}, {r: 16 * others if r == 0 else 0 for r in R}))
    expect("bytes of calls that move none", bytes_at("MPI_Waitall"),
           ({r: 0 for r in R}, {r: 0 for r in R}))
    instances = sum(sum(cube.row("visits", t)) for t in cube.task_roots())
    expect("task instances", instances, sum(tasks(8 + r % 3) for r in R))
    want, got, nodes = {}, {}, {}
    for r in R:
        for n, k in calls(8 + r % 3).items():
            if n >= 2:  # the first task computes fib(n - 1)
                want[str(n - 1)] = want.get(str(n - 1), 0) + k
    for t in cube.task_roots():
        value = {key: v for _, key, v in t.parameters}.get("n")
        if value is not None:
            got[value] = got.get(value, 0) + sum(cube.row("visits", t))
            nodes[value] = nodes.get(value, 0) + 1
    expect("instances per value of parameter n", got, want)
    expect("nodes per value of parameter n", nodes, {v: 1 for v in want})
    expect("the MPI regions' module",
           {c.region.mod for c in cube.cnodes_in_order() if c.region.paradigm == "mpi"}, {"MPI"})
    expect("cube_sanity's region findings the README does not name",
           sorted("%s: %s" % (check, cube.regions[r].name)
                  for check, r in sanity_rule.region_findings(cube)
                  if not sanity_rule.documented(cube, check, r)), [])


def main():
    mc.require_mpi()
    work = tempfile.mkdtemp(prefix="pp_mpi_hybrid_")
    errors = []
    try:
        src = os.path.join(mc.PROGS, "hybrid.c")
        prof = mc.build("mpicc", src, os.path.join(work, "hybrid"), True)
        plain = mc.build("mpicc", src, os.path.join(work, "hybrid_plain"), False)
        for ranks in (1, 2, 4, 8):
            for threads in (1, 2):
                out = os.path.join(work, "r%dt%d" % (ranks, threads))
                want = mc.mpirun(ranks, threads, plain)
                got = mc.mpirun(ranks, threads, prof, output=out)
                if got[:2] != want[:2]:
                    errors.append("%d x %d: status/output %r, plain build %r"
                                  % (ranks, threads, got[:2], want[:2]))
                if mc.pompprof_lines(got[2]):
                    errors.append("%d x %d: pompprof said %s" % (ranks, threads, mc.pompprof_lines(got[2])))
                files = sorted(os.listdir(out)) if os.path.isdir(out) else []
                if files != ["profile.cubex"]:
                    errors.append("%d x %d: the run left %s" % (ranks, threads, files))
                    continue
                check_profile(os.path.join(out, "profile.cubex"), ranks, threads, errors)
                print("%d ranks x %d threads: checked" % (ranks, threads))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return mc.verdict(errors)


if __name__ == "__main__":
    sys.exit(main())
