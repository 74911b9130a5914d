#!/bin/sh
# libpompprof defines every function of OPARI2's pomp2_lib.h and
# pomp2_user_lib.h (except the four generated per program), every POMP2
# symbol an instrumented program references, and (when configure built the
# Fortran bindings) every POMP2 call OPARI2 writes into Fortran code.
. "$top_srcdir/test/e2e/e2e_common.sh"

inc=$(opari2-config --cflags | sed 's/^-I//')
[ -n "$inc" ] || inc=/usr/include
lib=$POMPPROF_LIBDIR/libpompprof.so
nm -D --defined-only "$lib" | awk '{print $NF}' | sort -u >"$SCRATCH/defined"

# functions declared in the headers: "extern T\nPOMP2_X(" and "POMP2_X( void )"
cat "$inc/opari2/pomp2_lib.h" "$inc/opari2/pomp2_user_lib.h" |
    grep -o '^POMP2_[A-Za-z0-9_]*' | sort -u |
    grep -v -x -e POMP2_Init_regions -e POMP2_Get_num_regions \
        -e POMP2_USER_Init_regions -e POMP2_USER_Get_num_regions >"$SCRATCH/declared"
n=$(wc -l <"$SCRATCH/declared")
[ "$n" -ge 60 ] || fail "only $n functions found in the OPARI2 headers"
missing=$(comm -23 "$SCRATCH/declared" "$SCRATCH/defined")
[ -z "$missing" ] && pass "$n header functions defined" || fail "not defined: $missing"
grep -q -x pomp_tpd "$SCRATCH/defined" && pass "pomp_tpd defined" || fail "pomp_tpd not defined"

# everything instrumented objects reference
for prog in worksharing tasks locks user nested; do
    "$WRAPPER" $CC $OPENMP_CFLAGS -c "$PROGS/$prog.c" -o "$SCRATCH/$prog.o" || fail "compile $prog"
done
"$WRAPPER" --opari2-arg=--omp-task-untied=keep $CC $OPENMP_CFLAGS -c "$PROGS/tasks.c" \
    -o "$SCRATCH/untied.o" || fail "compile tasks.c with untied tasks kept"
nm -u "$SCRATCH"/*.o | awk '{print $NF}' | grep -E '^(POMP2_|pompprof_|pomp_tpd$)' |
    sort -u >"$SCRATCH/used"
grep -q POMP2_Untied_task_begin "$SCRATCH/used" || fail "untied task entry points not exercised"
[ "$(wc -l <"$SCRATCH/used")" -ge 40 ] || fail "few POMP2 references: $(wc -l <"$SCRATCH/used")"
missing=$(comm -23 "$SCRATCH/used" "$SCRATCH/defined")
[ -z "$missing" ] && pass "all $(wc -l <"$SCRATCH/used") referenced symbols defined" ||
    fail "referenced but not defined: $missing"

# Fortran: progs/fcalls.f90 holds every construct and call OPARI2 instruments.
# Its instrumented object must reference exactly the Fortran twin of every
# header function (lower case, "for" is "do"), except the C-only ones below,
# so the probe is complete; the library must define each reference under the
# compiler's link name, and no other Fortran entry point.
if [ "${FORTRAN_BINDINGS:-no}" != yes ]; then
    echo "skip: Fortran bindings not built (configure found no working Fortran compiler)"
    finish
fi
FC=${FC:-gfortran}
"$WRAPPER" --opari2-arg=--omp-task-untied=keep "$FC" $OPENMP_CFLAGS -c "$PROGS/fcalls.f90" \
    -o "$SCRATCH/fcalls.o" || fail "compile fcalls.f90 with $FC"
nm -u "$SCRATCH/fcalls.o" | awk '{print $NF}' | grep -i '^pomp2_' | sort -u >"$SCRATCH/fused"
n=$(wc -l <"$SCRATCH/fused")
# C only: generated per program or called by the generated C init unit
# (init_regions, get_num_regions, get_opari2_version), or needed only by C
# task creation (get_new_task_handle).  OPARI2 also renames the hinted lock
# inits, which its headers do not declare.
{ tr 'A-Z' 'a-z' <"$SCRATCH/declared" | sed 's/^pomp2_for_/pomp2_do_/' |
    grep -v -x -e pomp2_get_opari2_version -e pomp2_get_new_task_handle
  echo pomp2_init_lock_with_hint
  echo pomp2_init_nest_lock_with_hint; } |
    sort -u >"$SCRATCH/fexpected"
tr 'A-Z' 'a-z' <"$SCRATCH/fused" | sed 's/_*$//' | sort -u >"$SCRATCH/fcalled"
[ "$n" -ge 60 ] && cmp -s "$SCRATCH/fexpected" "$SCRATCH/fcalled" &&
    pass "fcalls.f90 references all $n Fortran POMP2 calls" ||
    fail "fcalls.f90 references $n Fortran POMP2 calls; differences from the headers: $(
        diff "$SCRATCH/fexpected" "$SCRATCH/fcalled" | grep '^[<>]' | tr '\n' ' ')"
missing=$(comm -23 "$SCRATCH/fused" "$SCRATCH/defined")
[ -z "$missing" ] && pass "all $n Fortran POMP2 calls defined" ||
    fail "Fortran calls not defined: $missing"
# lower-case link names (gfortran): the C entry points are POMP2_*
if grep -q '^pomp2_' "$SCRATCH/fused"; then
    extra=$(grep '^pomp2_' "$SCRATCH/defined" | comm -23 - "$SCRATCH/fused")
    [ -z "$extra" ] && pass "no Fortran entry point OPARI2 never calls" ||
        fail "defined but never called by OPARI2's Fortran output: $extra"
fi
# the COMMON /pomp_tpd/ under the name the object gives it (pomp_tpd_)
tpd=$(nm "$SCRATCH/fcalls.o" | awk '$2 == "C" && tolower($3) ~ /^pomp_tpd_/ {print $3}')
[ -n "$tpd" ] && grep -q -x "$tpd" "$SCRATCH/defined" && pass "Fortran $tpd defined" ||
    fail "the COMMON /pomp_tpd/ (${tpd:-not in fcalls.o}) is not defined"
finish
