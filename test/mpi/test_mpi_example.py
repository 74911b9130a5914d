"""The README's hybrid example (examples/hybrid.c), built with `pompprof mpicc` as the
README says and run with mpirun on 1, 2 and 4 ranks of 2 threads (small sizes):

- it prints and exits as its plain build does, and pompprof says nothing;
- one profile.cubex with ranks x threads locations;
- per rank, from the program's loop (S steps, B blocks): MPI_Sendrecv 2 S visits,
  MPI_Allreduce S / 10, MPI_Reduce 1, all on the master thread; B x S task instances
  below TASKS and as many executions in the call tree's task stubs;
- the parallel region's and the single's implicit barriers, which end on the same line
  and so look alike, stay two call paths of two regions with S visits on every thread
  (the ranks' profiles are merged by region identity: doc/mpi.md);
- bytes: MPI_Sendrecv moves 8 bytes per step to and from each neighbour that exists
  (none beyond the ends of the rod), MPI_Allreduce 8 bytes to and from every other rank;
- pompprof-report's MPI section lists MPI_Sendrecv with 2 S x ranks calls.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi_common as mc  # noqa: E402

CELLS, STEPS, BLOCKS = 40000, 30, 8
PYTHON = os.environ.get("PYTHON3") or sys.executable


def check_profile(path, ranks, errors):
    def expect(what, got, want):
        if got != want:
            errors.append("%d ranks: %s: %r, expected %r" % (ranks, what, got, want))

    cube = mc.cubex.load(path)
    expect("locations", [(loc.group_rank, loc.rank) for loc in cube.locations],
           [(r, t) for r in range(ranks) for t in range(2)])
    R = range(ranks)
    for name, visits in (("MPI_Sendrecv", 2 * STEPS), ("MPI_Allreduce", STEPS // 10),
                         ("MPI_Reduce", 1)):
        cnodes = mc.find(cube, name)
        expect(name + " visits", mc.per_rank(cube, "visits", cnodes), {r: visits for r in R})
        workers = sum(cube.row("visits", c)[loc.id] for c in cnodes for loc in cube.locations
                      if loc.rank != 0)
        expect(name + " visits on worker threads", workers, 0)
    instances = mc.per_rank(cube, "visits", cube.task_roots())
    expect("task instances below TASKS", instances, {r: STEPS * BLOCKS for r in R})
    def below_tasks(c):
        while c is not None and not cube.is_tasks_node(c):
            c = c.parent
        return c is not None

    stubs = [c for c in cube.cnodes_in_order()
             if c.region.name.startswith("!$omp task @") and not below_tasks(c)]
    expect("task executions in the call tree", mc.per_rank(cube, "visits", stubs),
           {r: STEPS * BLOCKS for r in R})
    barriers = [c for c in cube.cnodes_in_order()
                if c.region.name.startswith("!$omp implicit barrier @hybrid.c")]
    expect("implicit barriers (parent construct)",
           sorted(c.parent.region.name.split(" @")[0] for c in barriers),
           ["!$omp parallel", "!$omp single"])
    expect("implicit barriers' regions are distinct", len({c.region.id for c in barriers}), 2)
    for c in barriers:
        expect("visits of the implicit barrier below %s" % c.parent.region.name,
               list(cube.row("visits", c)), [STEPS] * (2 * ranks))

    def neighbours(r):
        return (r > 0) + (r < ranks - 1)

    sendrecv = mc.find(cube, "MPI_Sendrecv")
    expect("MPI_Sendrecv bytes sent", mc.per_rank(cube, "bytes_sent", sendrecv),
           {r: 8 * STEPS * neighbours(r) for r in R})
    expect("MPI_Sendrecv bytes received", mc.per_rank(cube, "bytes_received", sendrecv),
           {r: 8 * STEPS * neighbours(r) for r in R})
    allreduce = mc.find(cube, "MPI_Allreduce")
    for metric in ("bytes_sent", "bytes_received"):
        expect("MPI_Allreduce " + metric, mc.per_rank(cube, metric, allreduce),
               {r: 8 * (ranks - 1) * (STEPS // 10) for r in R})


def main():
    mc.require_mpi()
    work = tempfile.mkdtemp(prefix="pp_mpi_example_")
    errors = []
    try:
        src = os.path.join(mc.TOP_SRCDIR, "examples", "hybrid.c")
        prof = mc.build("mpicc", src, os.path.join(work, "hybrid"), True)
        plain = mc.build("mpicc", src, os.path.join(work, "hybrid_plain"), False)
        args = [str(CELLS), str(STEPS), str(BLOCKS)]
        for ranks in (1, 2, 4):
            out = os.path.join(work, "r%d" % ranks)
            want = mc.mpirun(ranks, 2, plain, args)
            got = mc.mpirun(ranks, 2, prof, args, output=out)
            if got[:2] != want[:2] or want[0] != 0:
                errors.append("%d ranks: status/output %r, plain build %r"
                              % (ranks, got[:2], want[:2]))
            if mc.pompprof_lines(got[2]):
                errors.append("%d ranks: pompprof said %s" % (ranks, mc.pompprof_lines(got[2])))
            files = sorted(os.listdir(out)) if os.path.isdir(out) else []
            if files != ["profile.cubex"]:
                errors.append("%d ranks: the run left %s" % (ranks, files))
                continue
            check_profile(os.path.join(out, "profile.cubex"), ranks, errors)
            if ranks == 4:
                report = subprocess.run(
                    [PYTHON, "-m", "pompprof_tools.analysis.report", out],
                    env=dict(mc.ENV, PYTHONPATH=os.path.join(mc.TOP_SRCDIR, "scripts")),
                    capture_output=True, text=True)
                row = re.search(r"^MPI_Sendrecv +(\d+) ", report.stdout, re.M)
                if report.returncode != 0 or not row or int(row.group(1)) != 2 * STEPS * ranks:
                    errors.append("report: MPI_Sendrecv row %r (status %d) %s"
                                  % (row and row.group(0), report.returncode, report.stderr))
            print("%d ranks x 2 threads: checked" % ranks)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return mc.verdict(errors)


if __name__ == "__main__":
    sys.exit(main())
