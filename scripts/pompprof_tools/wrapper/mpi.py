"""MPI programs at the wrapper's link step: libpompprof_mpi (and for the
Fortran binding libpompprof_mpif) go onto the link line of a program that uses
MPI, and only then (doc/mpi.md).

A program uses MPI when it is linked by an MPI compiler wrapper (mpicc,
mpicxx, mpif90, ...), links libmpi by name, or links objects that call MPI
functions.  The libraries come first on the link line, before the program's
own and before libmpi, so the dynamic linker finds their MPI_Send before
libmpi's (PMPI interposition); --no-as-needed keeps them although nothing
before them calls them.
"""

from __future__ import annotations

import os
import re

from .. import build_config
from .link import symbols
from .run import note

MPI_DRIVERS = ("mpicc", "mpicxx", "mpic++", "mpiCC", "mpif77", "mpif90", "mpifort")
FORTRAN_DRIVERS = ("mpif77", "mpif90", "mpifort")

C_CALL = re.compile(r"\bU P?MPI_[A-Z][a-z_0-9]+\b")
FORTRAN_CALL = re.compile(r"\bU (?:mpi|MPI)_[a-zA-Z0-9_]+_\b")
F08_CALL = re.compile(r"\bU mpi_[a-z0-9_]+_f08_\b")


def _driver(compiler: list[str]) -> str:
    return os.path.basename(compiler[-1])


def mpi_use(compiler: list[str], args: list[str], files: list[str]) -> tuple[bool, bool]:
    """(uses MPI, uses the Fortran MPI binding) for a link line."""
    driver = _driver(compiler)
    fortran = driver in FORTRAN_DRIVERS
    c = driver in MPI_DRIVERS or any(a in ("-lmpi", "-lmpi_mpifh") for a in args)
    if files and not (c and fortran):
        listing = symbols(files)
        fortran = fortran or FORTRAN_CALL.search(listing) is not None \
            or "-lmpi_mpifh" in args
        c = c or fortran or C_CALL.search(listing) is not None
    return c, fortran


def uses_mpi_f08(files: list[str]) -> bool:
    """Whether the linked objects call the mpi_f08 module's routines, which
    pompprof does not measure (doc/mpi.md)."""
    return F08_CALL.search(symbols(files)) is not None


def mpi_link_flags(compiler: list[str], args: list[str], files: list[str],
                   libdir: str) -> list[str]:
    """What goes in front of a link line's arguments: nothing for a program
    without MPI."""
    c, fortran = mpi_use(compiler, args, files)
    if not c:
        return []
    if build_config.MPI_SUPPORT != "yes":
        note("this pompprof was built without MPI support: the MPI calls are not measured "
             "and every rank writes its own profile")
        return []
    libs = ["-lpompprof_mpi"]
    if fortran and uses_mpi_f08(files):
        note("the program calls MPI through the mpi_f08 module, whose calls pompprof does "
             "not measure: they count in the enclosing regions, and every rank writes its "
             "own profile (doc/mpi.md)")
    if fortran:
        if build_config.MPI_FORTRAN_SUPPORT == "yes":
            libs = ["-lpompprof_mpif"] + libs
        else:
            note("this pompprof was built without the Fortran MPI binding: the MPI calls of "
                 "Fortran code are not measured")
    return ["-L" + libdir, "-Wl,-rpath," + libdir,
            "-Wl,--push-state,--no-as-needed"] + libs + ["-Wl,--pop-state"]
