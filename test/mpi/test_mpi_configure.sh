#!/bin/sh
# Without MPI: configure with MPICC=false (a clean copy of the sources)
# reports MPI support off, and the Makefile it writes builds neither
# libpompprof_mpi nor libpompprof_mpif, and tells the wrapper so.  With
# CHECK_NOMPI_BUILD=1 (make check-long) the copy is also built and its whole
# 'make check' must pass.
set -u
: "${top_srcdir:?run through make check}" "${top_builddir:?run through make check}"
dir=$top_builddir/_nompi
rm -rf "$dir"
sh "$top_srcdir/test/clean_copy.sh" "$dir" || { echo "FAIL: cannot copy the sources"; exit 99; }
unset MAKEFLAGS MFLAGS MAKELEVEL
cd "$dir" || exit 99
if ! ./configure MPICC=false >configure.log 2>&1; then
    tail -20 configure.log; echo "FAIL: configure MPICC=false"; exit 1
fi
fail=0
grep -q "MPI: *no (" configure.log || { echo "FAIL: the summary does not say MPI: no"; fail=1; }
grep -q '^MPI_SUPPORT = no$' Makefile || { echo "FAIL: MPI_SUPPORT is not 'no'"; fail=1; }
make -n all >dry-run.log 2>&1 || { echo "FAIL: make -n all"; fail=1; }
grep -q 'libpompprof\.la' dry-run.log || { echo "FAIL: make -n all does not build libpompprof"; fail=1; }
grep -q 'libpompprof_mpi' dry-run.log && { echo "FAIL: make would build libpompprof_mpi"; fail=1; }
# an MPI compiler wrapper that is not Open MPI's is refused with a reason
./configure MPICC=true >configure2.log 2>&1
grep -q "MPI: *no ('true' is not Open MPI" configure2.log ||
    { echo "FAIL: MPICC=true not refused with a reason"; grep "MPI:" configure2.log; fail=1; }
if [ "${CHECK_NOMPI_BUILD:-0}" = 1 ] && [ $fail = 0 ]; then
    ./configure MPICC=false >configure.log 2>&1 &&
        make -j2 >build.log 2>&1 && make -j2 check >check.log 2>&1 ||
        { grep -E '^(FAIL|ERROR):' check.log; tail -20 build.log; echo "FAIL: build or check without MPI"; fail=1; }
    grep -E '^# (TOTAL|PASS|SKIP|FAIL)' check.log
fi
[ $fail = 0 ] && rm -rf "$dir" && echo "PASS: configure without MPI"
exit $fail
