"""The wrapper's link step for MPI programs (scripts/pompprof_tools/wrapper/mpi.py):

- `pompprof mpicxx` builds a C++ hybrid program that runs like its plain build
  and leaves one profile with its MPI calls;
- a program compiled by `pompprof gcc` and linked by `pompprof gcc` with Open
  MPI's flags given by hand and --as-needed still gets libpompprof_mpi, ahead
  of libmpi among its libraries, so its MPI calls are measured;
- an OpenMP program without MPI linked by the same wrapper does not get it.
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi_common as mc  # noqa: E402

CXX_PROGRAM = r"""
#include <mpi.h>
#include <cstdio>
#include <vector>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::vector<long> v(64, rank + 1);
    long sum = 0;
#pragma omp parallel
#pragma omp single
    for (std::size_t i = 0; i < v.size(); i++) {
#pragma omp task shared(v)
        v[i] *= 2;
    }
    for (long x : v)
        sum += x;
    long total = 0;
    MPI_Allreduce(&sum, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        std::printf("total %ld\n", total);
    MPI_Finalize();
    return 0;
}
"""


def needed(path):
    out = subprocess.run(["readelf", "-d", path], capture_output=True, text=True).stdout
    return [ln.split("[")[1].split("]")[0] for ln in out.splitlines() if "(NEEDED)" in ln]


def showme(what):
    return subprocess.run(["mpicc", "--showme:" + what], capture_output=True,
                          text=True).stdout.split()


def run(cmd, errors):
    p = subprocess.run(cmd, env=mc.ENV, capture_output=True, text=True)
    if p.returncode != 0:
        errors.append("%s failed:\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    return p.returncode == 0


def main():
    mc.require_mpi()
    work = tempfile.mkdtemp(prefix="pp_mpi_wrapper_")
    errors = []
    try:
        src = os.path.join(work, "sum.cpp")
        with open(src, "w") as f:
            f.write(CXX_PROGRAM)
        prof = mc.build("mpicxx", src, os.path.join(work, "sum"), True)
        plain = mc.build("mpicxx", src, os.path.join(work, "sum_plain"), False)
        out = os.path.join(work, "out")
        want, got = mc.mpirun(2, 2, plain), mc.mpirun(2, 2, prof, output=out)
        if got[:2] != want[:2] or "total 384" not in want[1]:
            errors.append("mpicxx: %r, plain build %r" % (got[:2], want[:2]))
        path = os.path.join(out, "profile.cubex")
        if os.path.exists(path):
            cube = mc.cubex.load(path)
            if sum(cube.row("visits", mc.node(cube, "MPI_Allreduce"))) != 2:
                errors.append("mpicxx: MPI_Allreduce not visited once per rank")
            if not cube.task_roots():
                errors.append("mpicxx: no task construct in the profile")
        else:
            errors.append("mpicxx: no profile")

        # gcc with Open MPI's flags by hand, --as-needed
        hyb = os.path.join(mc.PROGS, "hybrid.c")
        obj = os.path.join(work, "hybrid.o")
        exe = os.path.join(work, "hybrid_gcc")
        cc = mc.ENV.get("CC", "gcc").split()
        if run([mc.WRAPPER] + cc + mc.OPENMP + showme("compile") + ["-c", hyb, "-o", obj], errors) \
                and run([mc.WRAPPER] + cc + mc.OPENMP + ["-Wl,--as-needed", obj, "-o", exe]
                        + showme("link"), errors):
            libs = needed(exe)
            first = lambda name: next((i for i, n in enumerate(libs) if n.startswith(name)), None)
            if first("libpompprof_mpi") is None or first("libmpi.") is None \
                    or first("libpompprof_mpi") > first("libmpi."):
                errors.append("gcc link: libraries in order %s" % libs)
            out = os.path.join(work, "out_gcc")
            status = mc.mpirun(2, 1, exe, output=out)
            path = os.path.join(out, "profile.cubex")
            if status[0] != 0 or not os.path.exists(path):
                errors.append("gcc link: status %d, files %s" % (status[0], os.listdir(work)))
            elif not mc.find(mc.cubex.load(path), "MPI_Sendrecv"):
                errors.append("gcc link: the MPI calls are not measured")

        # no MPI: no MPI layer
        noomp = os.path.join(work, "plain.c")
        with open(noomp, "w") as f:
            f.write("int main(void)\n{\n    int n = 0;\n#pragma omp parallel\n    n++;\n"
                    "    return n < 0;\n}\n")
        exe = os.path.join(work, "no_mpi")
        if run([mc.WRAPPER] + cc + mc.OPENMP + [noomp, "-o", exe], errors):
            if any(n.startswith("libpompprof_mpi") for n in needed(exe)):
                errors.append("a program without MPI gets libpompprof_mpi: %s" % needed(exe))
            if not any(n.startswith("libpompprof.") for n in needed(exe)):
                errors.append("a program without MPI lacks libpompprof: %s" % needed(exe))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for e in errors:
        print("FAIL: " + e)
    print("checked" if not errors else "")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
