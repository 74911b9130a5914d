"""A rank that calls exit(1) before MPI_Finalize (test/mpi/progs/exit_early.c),
with 2 and 4 ranks of 2 threads, the leaving rank first or last, the others
waiting for it in the program's MPI_Barrier or in MPI_Finalize (where they hold
their profiles for the job's):

- the job's exit status and standard output are those of the plain build, and so
  is its standard error but for pompprof's lines (and mpirun's job id);
- nothing hangs (every run is under coreutils' timeout: mpi_common.py);
- no job profile is written, but every rank leaves its own, profile.rank<r>.cubex,
  whose system tree holds that rank ("MPI Rank r", rank r) and its threads,
  and each rank says so in exactly one line naming its file;
- each rank's profile has its parallel region and MPI_Barrier; the others' were
  cut short where the launcher ended them.
"""
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi_common as mc  # noqa: E402


def main():
    mc.require_mpi()
    work = tempfile.mkdtemp(prefix="pp_mpi_exit_")
    errors = []
    try:
        src = os.path.join(mc.PROGS, "exit_early.c")
        prof = mc.build("mpicc", src, os.path.join(work, "exit_early"), True)
        plain = mc.build("mpicc", src, os.path.join(work, "exit_early_plain"), False)
        for ranks, leaving, mode in ((2, 1, []), (4, 0, []), (4, 3, []), (4, 2, ["finalize"])):
            what = "%d ranks, rank %d leaves %s" % (ranks, leaving, mode)
            out = os.path.join(work, "r%dl%d%s" % (ranks, leaving, "".join(mode)))
            args = [str(leaving)] + mode
            want = mc.mpirun(ranks, 2, plain, args)
            got = mc.mpirun(ranks, 2, prof, args, output=out)
            if got[:2] != want[:2] or want[0] == 0:
                errors.append("%s: status/output %r, plain build %r" % (what, got[:2], want[:2]))
            if mc.launcher_text(got[2]) != mc.launcher_text(want[2]):
                errors.append("%s: standard error\n%s\nplain build\n%s" % (
                    what, mc.launcher_text(got[2]), mc.launcher_text(want[2])))
            files = sorted(os.listdir(out)) if os.path.isdir(out) else []
            expected = sorted("profile.rank%d.cubex" % r for r in range(ranks))
            if files != expected:
                errors.append("%s: the run left %s, expected %s" % (what, files, expected))
            lines = mc.pompprof_lines(got[2])
            for r in range(ranks):
                mine = [ln for ln in lines if re.match(r"pompprof: rank %d\b" % r, ln)]
                path = os.path.join(out, "profile.rank%d.cubex" % r)
                if len(mine) != 1 or not mine[0].endswith(path):
                    errors.append("%s: rank %d said %r" % (what, r, mine))
                if not os.path.exists(path):
                    continue
                cube = mc.cubex.load(path)
                locs = [(loc.group_name, loc.group_rank) for loc in cube.locations]
                if locs != [("MPI Rank %d" % r, r)] * 2:
                    errors.append("%s: rank %d's profile has locations %s" % (what, r, locs))
                regions = {c.region.name.split(" @")[0] for c in cube.cnodes_in_order()}
                for name in ("MPI_Init", "!$omp parallel", "MPI_Barrier"):
                    if name not in regions:
                        errors.append("%s: rank %d's profile lacks %s" % (what, r, name))
            if len(lines) != ranks:
                errors.append("%s: %d pompprof lines: %s" % (what, len(lines), lines))
            print("%s: checked" % what)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return mc.verdict(errors)


if __name__ == "__main__":
    sys.exit(main())
