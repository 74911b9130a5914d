#!/bin/sh
# libpompprof defines every function of OPARI2's pomp2_lib.h and
# pomp2_user_lib.h (except the four generated per program), and every POMP2
# symbol an instrumented program references.
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
finish
