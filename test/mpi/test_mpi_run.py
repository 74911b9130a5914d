"""`pompprof run` under mpirun: an MPI program measured without rebuilding it
(doc/mpi.md, "Without rebuilding") gives the job's one profile, as the rebuild
does, on libgomp (gcc, mpicc) and through OMPT on libomp (clang, OMPI_CC=clang),
and a Fortran program's MPI calls (mpif90) too:

- the program prints and exits as plain, pompprof says nothing;
- the run leaves exactly one profile.cubex: locations are ranks x threads, in
  rank order; every MPI call path of the rebuild's profile (test/mpi/progs/
  hybrid.c built with the wrapper) is there with the same visits on each rank,
  and no other; the bytes each call moved are the rebuild's; the task
  instances per rank are the rebuild's (fib's count);
- with --trace, one OTF2 archive for the job: a location group per rank and as
  many MPI send, receive and collective records as the rebuild's trace has;
- with POMPPROF_ENABLE=0 nothing is written and the output is plain's;
- a program built with the wrapper stays measured by OPARI2 and its own MPI
  layer (one profile of the job);
- `pompprof run -- mpirun ...` is refused in one line that says where it goes.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi_common as mc  # noqa: E402

RUN = [mc.WRAPPER, "run", "--"]
CLANG = shutil.which("clang")
OMPT_TOOL = os.path.join(mc.TOP_BUILDDIR, ".libs", "libpompprof_ompt_mpi.so")


def tasks(n):
    return 0 if n < 2 else 2 + tasks(n - 1) + tasks(n - 2)


def mpi_paths(cube):
    """{call path of region names ending in an MPI call: (visits, bytes sent,
    bytes received) per rank}."""
    out = {}
    for c in cube.cnodes_in_order():
        if c.region.paradigm != "mpi":
            continue
        path, n = [], c
        while n is not None:
            path.append(n.region.name)
            n = n.parent
        key = " / ".join(reversed(path[:-1]))  # the program's name differs
        out[key] = tuple(mc.per_rank(cube, metric, [c])
                         for metric in ("visits", "bytes_sent", "bytes_received"))
    return out


def instances_per_rank(cube):
    return mc.per_rank(cube, "visits", cube.task_roots())


def one_profile(out, label, errors):
    files = sorted(os.listdir(out)) if os.path.isdir(out) else []
    if "profile.cubex" not in files or any(f.startswith("profile.rank") for f in files):
        errors.append("%s: the run left %s" % (label, files))
        return None
    return mc.cubex.load(os.path.join(out, "profile.cubex"))


def compare(label, got, want, ranks, threads, errors):
    """A run's profile against the rebuild's."""
    locs = [(loc.group_name, loc.group_rank, loc.rank) for loc in got.locations]
    if locs != [("MPI Rank %d" % r, r, t) for r in range(ranks) for t in range(threads)]:
        errors.append("%s: locations %s" % (label, locs))
    g, w = mpi_paths(got), mpi_paths(want)
    for path in sorted(set(g) | set(w)):
        if g.get(path) != w.get(path):
            errors.append("%s: %s: (visits, sent, received) per rank %s, the rebuild's %s"
                          % (label, path, g.get(path), w.get(path)))
    expect = {r: tasks(8 + r % 3) for r in range(ranks)}
    for name, cube in (("measured", got), ("rebuild", want)):
        if instances_per_rank(cube) != expect:
            errors.append("%s (%s): task instances per rank %s, fib makes %s"
                          % (label, name, instances_per_rank(cube), expect))
    if not g:
        errors.append("%s: no MPI call measured" % label)


def otf2_counts(archive):
    """(location groups, {MPI record kind: how many}) as otf2-print shows them."""
    defs = subprocess.run(["otf2-print", "-G", archive], capture_output=True, text=True).stdout
    groups = sorted(re.findall(r"^LOCATION_GROUP\s+\d+\s+Name: \"([^\"]*)\"", defs, re.M))
    kinds = {}
    for line in subprocess.run(["otf2-print", archive], capture_output=True,
                               text=True).stdout.splitlines():
        ev = line.split(None, 1)[0] if line.strip() else ""
        if ev.startswith("MPI_"):
            kinds[ev] = kinds.get(ev, 0) + 1
    return groups, kinds


def run_checked(label, program, ranks, threads, plain, errors, output, env=None, args=()):
    got = mc.mpirun(ranks, threads, RUN[0], RUN[1:] + [program] + list(args), output=output,
                    env=env)
    if got[:2] != plain[:2]:
        errors.append("%s: status/output %r, plain %r" % (label, got[:2], plain[:2]))
    if mc.pompprof_lines(got[2]):
        errors.append("%s: pompprof said %s" % (label, mc.pompprof_lines(got[2])))
    return got


def main():
    mc.require_mpi()
    work = tempfile.mkdtemp(prefix="pp_mpi_run_")
    errors = []
    try:
        src = os.path.join(mc.PROGS, "hybrid.c")
        rebuild = mc.build("mpicc", src, os.path.join(work, "hybrid_rebuild"), True)
        # -g: constructs named by file and line, as the rebuild names them
        builds = [("gcc", mc.build("mpicc", src, os.path.join(work, "hybrid_gcc"), False, ["-g"]))]
        if CLANG and os.path.exists(OMPT_TOOL):
            os.environ["OMPI_CC"] = "clang"
            mc.ENV["OMPI_CC"] = "clang"
            builds.append(("clang", mc.build("mpicc", src, os.path.join(work, "hybrid_clang"),
                                             False, ["-g"])))
            del mc.ENV["OMPI_CC"], os.environ["OMPI_CC"]
        else:
            print("no clang or no OMPT tool: the clang build is left out")
        for ranks, threads in ((1, 2), (2, 2), (3, 1)):
            want_dir = os.path.join(work, "rebuild_%d_%d" % (ranks, threads))
            plain = mc.mpirun(ranks, threads, builds[0][1])
            mc.mpirun(ranks, threads, rebuild, output=want_dir)
            want = one_profile(want_dir, "rebuild %dx%d" % (ranks, threads), errors)
            for compiler, exe in builds:
                label = "%s %dx%d" % (compiler, ranks, threads)
                out = os.path.join(work, "%s_%d_%d" % (compiler, ranks, threads))
                run_checked(label, exe, ranks, threads, plain, errors, out)
                got = one_profile(out, label, errors)
                if got and want:
                    compare(label, got, want, ranks, threads, errors)
                print("%s: checked" % label)

        # one trace for the job, with the rebuild's MPI records
        if shutil.which("otf2-print"):
            plain = mc.mpirun(2, 2, builds[0][1])
            traced = {"POMPPROF_TRACE": "1"}
            mc.mpirun(2, 2, rebuild, output=os.path.join(work, "trace_rebuild"), env=traced)
            want = otf2_counts(os.path.join(work, "trace_rebuild", "traces.otf2"))
            for compiler, exe in builds:
                out = os.path.join(work, "trace_" + compiler)
                run_checked("traced " + compiler, exe, 2, 2, plain, errors, out, env=traced)
                archive = os.path.join(out, "traces.otf2")
                got = otf2_counts(archive) if os.path.exists(archive) else None
                if got != want or not want[1]:
                    errors.append("traced %s: (location groups, MPI records) %s, the "
                                  "rebuild's %s" % (compiler, got, want))
            print("traces: checked")

        # switched off: the program's own behaviour, nothing written
        for compiler, exe in builds:
            out = os.path.join(work, "off_" + compiler)
            plain = mc.mpirun(2, 2, exe)
            run_checked("off " + compiler, exe, 2, 2, plain, errors, out,
                        env={"POMPPROF_ENABLE": "0"})
            if os.path.exists(out):
                errors.append("off %s: wrote %s" % (compiler, os.listdir(out)))

        # a program built with the wrapper: OPARI2 and libpompprof's MPI layer
        out = os.path.join(work, "rebuilt_run")
        got = mc.mpirun(2, 2, RUN[0], RUN[1:] + [rebuild], output=out)
        want = mc.mpirun(2, 2, builds[0][1])
        if got[:2] != want[:2]:
            errors.append("rebuilt under run: status/output %r, plain %r" % (got[:2], want[:2]))
        cube = one_profile(out, "rebuilt under run", errors)
        if cube and instances_per_rank(cube) != {0: tasks(8), 1: tasks(9)}:
            errors.append("rebuilt under run: task instances %s" % instances_per_rank(cube))

        # Fortran's MPI calls (mpif.h and use mpi), on libgomp
        if os.environ.get("MPI_FORTRAN_SUPPORT") == "yes":
            fsrc = os.path.join(mc.PROGS, "fhybrid.f90")
            fplain = mc.build("mpif90", fsrc, os.path.join(work, "fhybrid"), False, ["-g"])
            frebuild = mc.build("mpif90", fsrc, os.path.join(work, "fhybrid_rebuild"), True)
            plain = mc.mpirun(2, 2, fplain)
            mc.mpirun(2, 2, frebuild, output=os.path.join(work, "f_rebuild"))
            run_checked("fortran 2x2", fplain, 2, 2, plain, errors, os.path.join(work, "f_run"))
            got = one_profile(os.path.join(work, "f_run"), "fortran 2x2", errors)
            want = one_profile(os.path.join(work, "f_rebuild"), "fortran rebuild", errors)
            if got and want:
                g, w = mpi_paths(got), mpi_paths(want)
                if g != w or not g:
                    errors.append("fortran 2x2: MPI call paths %s, the rebuild's %s" % (g, w))
            print("fortran: checked")

        # the launcher goes first, pompprof run after it
        p = subprocess.run(RUN + [mc.MPIRUN, "-np", "2", builds[0][1]], env=mc.ENV,
                           capture_output=True, text=True, timeout=60)
        lines = p.stderr.splitlines()
        if p.returncode != 2 or len(lines) != 1 or "pompprof run after it" not in lines[0]:
            errors.append("pompprof run -- mpirun: status %d, stderr %r" % (p.returncode, lines))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return mc.verdict(errors)


if __name__ == "__main__":
    sys.exit(main())
