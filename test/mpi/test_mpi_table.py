"""The one table of MPI functions (mpi/pp_mpi_functions.tbl) against what Open
MPI provides, and the libraries generated from it:

- the table and the installed mpi.h declare the same functions with the same
  prototypes (pp_mpi_gen.py --check), and the check does see a function
  missing, one added and a changed prototype (a doctored copy of mpi.h);
- the generator refuses a table with an unknown bytes rule or a rule applied
  to parameters of the wrong kinds;
- libpompprof_mpi defines every function of the table (and exports nothing
  else named MPI_); libpompprof_mpif defines mpi_<name>_ exactly for the
  functions marked "f", and those are exactly the functions whose Fortran
  binding (pmpi_<name>_) Open MPI's libmpi_mpifh provides.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi_common as mc  # noqa: E402

GEN = os.path.join(mc.TOP_SRCDIR, "mpi", "pp_mpi_gen.py")
TABLE = os.path.join(mc.TOP_SRCDIR, "mpi", "pp_mpi_functions.tbl")
PYTHON = os.environ.get("PYTHON3") or sys.executable


def gen(*args):
    p = subprocess.run([PYTHON, GEN] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def table():
    rows = {}
    with open(TABLE) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                name, group, fortran, rule, proto = line.split(None, 4)
                rows[name] = (group, fortran, rule, proto.strip())
    return rows


def defined(lib, pattern):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True,
                         text=True).stdout
    return {ln.split()[-1] for ln in out.splitlines() if re.fullmatch(pattern, ln.split()[-1])}


def main():
    mc.require_mpi()
    errors = []
    mpi_h = os.path.join(os.environ.get("MPI_INCLUDEDIR", ""), "mpi.h")
    rc, out = gen("--table", TABLE, "--check", mpi_h)
    if rc != 0:
        errors.append("the table differs from %s:\n%s" % (mpi_h, out))
    rows = table()
    if len(rows) < 400:
        errors.append("only %d functions in the table" % len(rows))

    work = tempfile.mkdtemp(prefix="pp_mpi_table_")
    try:
        with open(mpi_h) as f:
            text = f.read()
        doctored = text.replace("int MPI_Barrier(MPI_Comm comm);", "", 1)
        doctored = doctored.replace("int MPI_Ibarrier(MPI_Comm comm,",
                                    "int MPI_Ibarrier(MPI_Comm comm, int extra,", 1)
        doctored += "\nOMPI_DECLSPEC int MPI_Pompprof_test(int x);\n"
        fake = os.path.join(work, "mpi.h")
        with open(fake, "w") as f:
            f.write(doctored)
        rc, out = gen("--table", TABLE, "--check", fake)
        for want in ("MPI_Barrier is in the table but not declared",
                     "MPI_Pompprof_test is declared", "MPI_Ibarrier: the table says"):
            if rc == 0 or want not in out:
                errors.append("--check against a doctored mpi.h does not report '%s':\n%s"
                              % (want, out))
        for bad, why in ((("send(count,datatype,dest)", "sendx(count,datatype,dest)"),
                          "unknown bytes rule"),
                         (("send(count,datatype,dest)", "send(datatype,count,dest)"), "takes")):
            with open(TABLE) as f:
                t = f.read().replace(bad[0], bad[1], 1)
            broken = os.path.join(work, "broken.tbl")
            with open(broken, "w") as f:
                f.write(t)
            rc, out = gen("--table", broken, "--c", os.path.join(work, "w.c"))
            if rc == 0 or why not in out:
                errors.append("a table with %s is accepted: %s" % (bad[1], out))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    libs = os.path.join(mc.TOP_BUILDDIR, ".libs")
    c_lib = os.path.join(libs, "libpompprof_mpi.so")
    got = defined(c_lib, r"MPI_\w+")
    if got != set(rows):
        errors.append("libpompprof_mpi: missing %s, extra %s"
                      % (sorted(set(rows) - got)[:10], sorted(got - set(rows))[:10]))
    if os.environ.get("MPI_FORTRAN_SUPPORT") == "yes":
        f_lib = os.path.join(libs, "libpompprof_mpif.so")
        marked = {n for n, r in rows.items() if r[1] == "f"}
        got = {s[:-1].upper() for s in defined(f_lib, r"mpi_\w+_")}
        want = {n.upper() for n in marked}
        if got != want:
            errors.append("libpompprof_mpif: missing %s, extra %s"
                          % (sorted(want - got)[:10], sorted(got - want)[:10]))
        ldd = subprocess.run(["ldd", f_lib], capture_output=True, text=True).stdout
        m = re.search(r"libmpi_mpifh\.so\S* => (\S+)", ldd)
        if not m:
            errors.append("libpompprof_mpif does not use libmpi_mpifh:\n" + ldd)
        else:
            binding = {s[5:-1].upper() for s in defined(m.group(1), r"pmpi_\w+_")
                       if not s.endswith("__")}
            names = {n.upper()[4:]: n for n in rows}
            have = {names[b] for b in binding if b in names}
            if have != marked:
                errors.append("Fortran column: libmpi_mpifh has %s unmarked, marked %s missing"
                              % (sorted(have - marked)[:10], sorted(marked - have)[:10]))
    print("%d functions, %d with the Fortran binding" % (len(rows), sum(r[1] == "f" for r in rows.values())))
    return mc.verdict(errors)


if __name__ == "__main__":
    sys.exit(main())
