"""The Fortran MPI binding (test/mpi/progs/fhybrid.f90, `use mpi`) built with
`pompprof mpif90`, on 2 and 3 ranks of 2 threads:

- libpompprof_mpif and libpompprof_mpi are linked in, and the program prints
  and exits as its plain build does (CHARACTER arguments reach MPI intact);
- one profile, ranks x threads locations, with the Fortran calls as the MPI
  regions of the C binding (MPI_Sendrecv, MPI_Wtime, MPI_Comm_set_name ...),
  MPI_Allreduce visited once per rank;
- the bytes: the Sendrecv ring, a receive with MPI_STATUS_IGNORE (its size
  still comes from the status), collectives with MPI_IN_PLACE;
- a program of the mpi_f08 module, which pompprof does not measure: the link
  says so in one line (the `use mpi` program's says nothing), the program runs
  as its plain build, and each of its 2 ranks writes a profile of its own.
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi_common as mc  # noqa: E402


F08_PROGRAM = """
program f08
  use mpi_f08
  implicit none
  integer :: rank, total
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Allreduce(rank + 1, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0) print '(a, i0)', 'total ', total
  call MPI_Finalize()
end program
"""


def link_lines(source, out):
    """The pompprof lines of building source with pompprof mpif90."""
    cmd = [mc.WRAPPER, "mpif90"] + mc.OPENMP + [source, "-o", out]
    p = subprocess.run(cmd, env=mc.ENV, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("FAIL: %s\n%s" % (" ".join(cmd), p.stderr))
    return mc.pompprof_lines(p.stderr)


def check_f08(work, errors):
    src = os.path.join(work, "f08.f90")
    with open(src, "w") as f:
        f.write(F08_PROGRAM)
    said = link_lines(src, os.path.join(work, "f08"))
    if len(said) != 1 or "mpi_f08" not in said[0]:
        errors.append("mpi_f08 program: the link said %r" % said)
    plain = mc.build("mpif90", src, os.path.join(work, "f08_plain"), False)
    out = os.path.join(work, "f08_out")
    want = mc.mpirun(2, 1, plain)
    got = mc.mpirun(2, 1, os.path.join(work, "f08"), output=out)
    if got[:2] != want[:2] or "total 3" not in want[1]:
        errors.append("mpi_f08 program: status/output %r, plain build %r" % (got[:2], want[:2]))
    files = sorted(os.listdir(out)) if os.path.isdir(out) else []
    if len([f for f in files if f.endswith(".cubex")]) != 2:
        errors.append("mpi_f08 program: 2 ranks left %s, not a profile each" % files)
    said = link_lines(os.path.join(mc.PROGS, "fhybrid.f90"), os.path.join(work, "fhybrid2"))
    if said:
        errors.append("use mpi program: the link said %r" % said)


def main():
    mc.require_mpi(fortran=True)
    work = tempfile.mkdtemp(prefix="pp_mpi_fortran_")
    errors = []
    try:
        src = os.path.join(mc.PROGS, "fhybrid.f90")
        prof = mc.build("mpif90", src, os.path.join(work, "fhybrid"), True)
        plain = mc.build("mpif90", src, os.path.join(work, "fhybrid_plain"), False)
        ldd = subprocess.run(["ldd", prof], capture_output=True, text=True, env=mc.ENV).stdout
        for lib in ("libpompprof_mpif", "libpompprof_mpi"):
            if lib not in ldd:
                errors.append("%s is not linked in:\n%s" % (lib, ldd))
        for ranks in (2, 3):
            out = os.path.join(work, "r%d" % ranks)
            want = mc.mpirun(ranks, 2, plain)
            got = mc.mpirun(ranks, 2, prof, output=out)
            if got[:2] != want[:2] or "name fortran dup" not in want[1]:
                errors.append("%d ranks: status/output %r, plain build %r" % (ranks, got[:2], want[:2]))
            if mc.pompprof_lines(got[2]):
                errors.append("%d ranks: pompprof said %s" % (ranks, mc.pompprof_lines(got[2])))
            path = os.path.join(out, "profile.cubex")
            if not os.path.exists(path):
                errors.append("%d ranks: no profile" % ranks)
                continue
            cube = mc.cubex.load(path)
            if cube.nlocs != 2 * ranks:
                errors.append("%d ranks: %d locations" % (ranks, cube.nlocs))
            names = {c.region.name for c in cube.cnodes_in_order() if c.region.paradigm == "mpi"}
            for want_name in ("MPI_Init_thread", "MPI_Wtime", "MPI_Sendrecv", "MPI_Send",
                              "MPI_Recv", "MPI_Allreduce", "MPI_Allgather", "MPI_Comm_set_name",
                              "MPI_Comm_get_name", "MPI_Finalize"):
                if want_name not in names:
                    errors.append("%d ranks: no region %s" % (ranks, want_name))
            R = range(ranks)
            prev = {r: (r + ranks - 1) % ranks for r in R}

            def expect(name, sent, received):
                c = mc.find(cube, name)
                got = (mc.per_rank(cube, "bytes_sent", c), mc.per_rank(cube, "bytes_received", c))
                want = ({r: sent(r) for r in R}, {r: received(r) for r in R})
                if got != want:
                    errors.append("%d ranks: %s bytes %s, expected %s" % (ranks, name, got, want))

            expect("MPI_Sendrecv", lambda r: 800 * (r + 1), lambda r: 800 * (prev[r] + 1))
            expect("MPI_Send", lambda r: 20 if r == 0 else 0, lambda r: 0)
            expect("MPI_Recv", lambda r: 0, lambda r: 20 if r == 1 else 0)
            expect("MPI_Allreduce", lambda r: 8 * (ranks - 1), lambda r: 8 * (ranks - 1))
            expect("MPI_Allgather", lambda r: 8 * (ranks - 1), lambda r: 8 * (ranks - 1))
            visits = sum(cube.row("visits", mc.node(cube, "MPI_Allreduce")))
            if visits != ranks:
                errors.append("%d ranks: MPI_Allreduce visits %d" % (ranks, visits))
            print("%d ranks x 2 threads: checked" % ranks)
        check_f08(work, errors)
        print("mpi_f08: checked")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return mc.verdict(errors)


if __name__ == "__main__":
    sys.exit(main())
