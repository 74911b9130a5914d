#!/bin/sh
# Fortran (workshare is Fortran-only): pompprof has no Fortran POMP2 bindings,
# so the wrapper compiles Fortran sources without instrumentation; the
# program must still build and behave exactly as without the wrapper.
. "$top_srcdir/test/e2e/e2e_common.sh"
command -v gfortran >/dev/null || { echo "gfortran not installed"; exit 77; }
cd "$SCRATCH" || exit 99
cp "$PROGS/workshare.f90" .
gfortran -fopenmp workshare.f90 -o plain || { echo "gfortran cannot build OpenMP"; exit 77; }
"$WRAPPER" gfortran -fopenmp workshare.f90 -o wrapped 2>note.txt || fail "build through pompprof"
grep -q 'pompprof: Fortran sources are compiled without instrumentation' note.txt &&
    pass "says Fortran is not instrumented" || fail "no note about Fortran"
for t in 1 2; do
    OMP_NUM_THREADS=$t ./plain >p.out; OMP_NUM_THREADS=$t ./wrapped >w.out
    cmp -s p.out w.out && pass "t=$t same output" || fail "t=$t output differs"
done
[ -z "$(ls | grep -v -e plain -e wrapped -e workshare.f90 -e note.txt -e '\.out$')" ] ||
    fail "stray files: $(ls)"
finish
