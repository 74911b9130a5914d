"""What a program needs of its OpenMP runtime, read from its files before it
runs: which runtimes it loads (ldd), the versioned OpenMP entry points it and
the libraries it loads import (readelf), and whether it calls a libgomp entry
point in a way LLVM's libomp aborts on (objdump).

Used by `pompprof run --runtime=llvm`, which runs a program built for libgomp
on libomp: refused, with the reason, when libomp lacks what the program
imports or would abort on what it calls."""

from __future__ import annotations

import re
import shutil
import subprocess

# the symbol versions of libgomp's entry points (libgomp.map)
OPENMP_VERSION = re.compile(r"^(GOMP|OMP|GOACC)_[0-9.]+$")


def _run(cmd: list[str]) -> str:
    try:
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              universal_newlines=True).stdout
    except OSError:
        return ""


def loaded_libraries(program: str) -> list[str]:
    """The paths of the shared libraries the program loads (ldd)."""
    libs = []
    for line in _run(["ldd", program]).splitlines():
        parts = line.strip().split()
        if "=>" in parts and len(parts) > parts.index("=>") + 1:
            path = parts[parts.index("=>") + 1]
            if path.startswith("/"):
                libs.append(path)
        elif parts and parts[0].startswith("/"):
            libs.append(parts[0])
    return libs


def _loaded(program: str, libs: list[str] | None) -> list[str]:
    return loaded_libraries(program) if libs is None else libs


def _names(program: str, libs: list[str] | None) -> list[str]:
    return [path.rsplit("/", 1)[-1] for path in _loaded(program, libs)]


def openmp_runtimes(program: str, libs: list[str] | None = None) -> set[str]:
    """The OpenMP runtimes the program loads: "gomp", "omp" (libs: its
    loaded_libraries, when known)."""
    found = set()
    for name in _names(program, libs):
        if name.startswith("libgomp.so"):
            found.add("gomp")
        elif name.startswith(("libomp.so", "libiomp5.so")):
            found.add("omp")
    return found


def mpi_bindings(program: str, libs: list[str] | None = None) -> set[str]:
    """The MPI bindings the program loads: "c" (libmpi), "fortran" (Open
    MPI's mpif.h and `use mpi` binding, libmpi_mpifh)."""
    found = set()
    for name in _names(program, libs):
        if name.startswith("libmpi.so"):
            found.add("c")
        elif name.startswith("libmpi_mpifh.so"):
            found.add("fortran")
    return found


def links_pompprof(program: str, libs: list[str] | None = None) -> bool:
    """Whether the program is built with the pompprof wrapper (it loads
    libpompprof, which OPARI2's calls and its MPI wrappers feed)."""
    return any(name.startswith("libpompprof.so") for name in _names(program, libs))


# programs that start an MPI job's processes (pompprof run goes after them)
MPI_LAUNCHERS = ("mpirun", "mpiexec", "orterun", "mpiexec.hydra", "srun", "aprun", "prun")


def _dynamic_symbols(path: str):
    """(name, version, defined) of each versioned dynamic symbol of an ELF file."""
    for line in _run(["readelf", "-W", "--dyn-syms", path]).splitlines():
        parts = line.split()
        if len(parts) < 8 or "@" not in parts[7]:
            continue
        name, _, version = parts[7].partition("@")
        version = version.lstrip("@")
        yield name, version, parts[6] != "UND"


def _users(program: str) -> list[str]:
    """The program and the libraries it loads, but the OpenMP runtimes."""
    return [program] + [p for p in loaded_libraries(program)
                        if not p.rsplit("/", 1)[-1].startswith(("libgomp.so", "libomp.so"))]


def _imports(path: str) -> set[str]:
    return {"%s@%s" % (n, v) for n, v, defined in _dynamic_symbols(path)
            if not defined and OPENMP_VERSION.match(v)}


def openmp_imports(program: str) -> set[str]:
    """name@VERSION of every libgomp entry point the program and the libraries
    it loads (but the runtimes) import."""
    wanted = set()
    for path in _users(program):
        wanted |= _imports(path)
    return wanted


def exported(library: str) -> set[str]:
    """name@VERSION of every versioned symbol a library defines."""
    return {"%s@%s" % (n, v) for n, v, defined in _dynamic_symbols(library) if defined}


def missing_in(program: str, libomp: str) -> list[str]:
    """The program's OpenMP imports that libomp does not export."""
    return sorted(openmp_imports(program) - exported(libomp))


# GOMP_loop_start(start, end, incr, sched, chunk, istart, iend, reductions, mem):
# gcc passes `mem` (the last argument) for a loop with scan (an inscan
# reduction), and libomp 14 aborts on any call with mem set ("libgomp
# compatibility layer does not support OpenMP feature: scan").  On x86-64 the
# last three arguments (four for the unsigned long long form) are pushed
# before the call, mem first: a push of anything but $0x0 there is a mem.
_MEM_PUSHES = {"GOMP_loop_start": 3, "GOMP_loop_ull_start": 4}
_CALL = re.compile(r"\bcall\s+[0-9a-f]+ <(GOMP_loop(?:_ull)?_start)@plt>")
_PUSH = re.compile(r"\bpush\s+(\S+)")


def scan_calls(path: str) -> int:
    """How many calls of GOMP_loop_start/GOMP_loop_ull_start in an x86-64 ELF
    file pass the memory argument of a scan (0 when objdump is missing or the
    file is for another machine)."""
    if not shutil.which("objdump"):
        return 0
    header = _run(["readelf", "-h", path])
    if "X86-64" not in header:
        return 0
    count, recent = 0, []
    for line in _run(["objdump", "-d", "--no-show-raw-insn", path]).splitlines():
        m = _CALL.search(line)
        if m:
            pushes = [p for p in recent if p is not None]
            n = _MEM_PUSHES[m.group(1)]
            if len(pushes) >= n and pushes[-n] != "$0x0":
                count += 1
            recent = []
            continue
        if re.search(r"\b(call|ret|jmp)\b", line):
            recent = []
            continue
        p = _PUSH.search(line)
        recent.append(p.group(1) if p else None)
        recent = recent[-16:]
    return count


def scan_users(program: str) -> list[str]:
    """The program and libraries it loads that call a loop with scan (only
    files that import GOMP_loop_start or GOMP_loop_ull_start are read)."""
    return [f for f in _users(program)
            if {i.split("@")[0] for i in _imports(f)} & set(_MEM_PUSHES) and scan_calls(f)]
