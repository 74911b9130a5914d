#!/bin/sh
# Every construct OPARI2 instruments, built plain and through the wrapper:
# with 1, 2 and 4 threads the instrumented program prints exactly the same
# (stdout and exit status), says nothing on stderr, and writes a .cubex.
. "$top_srcdir/test/e2e/e2e_common.sh"

for prog in worksharing tasks locks user nested noomp; do
    src=$PROGS/$prog.c
    flags="$OPENMP_CFLAGS"
    [ "$prog" = noomp ] && flags=""
    # plain build: pompprof.h without the wrapper must compile to no-ops
    if ! $CC $flags -O1 -I"$top_srcdir/pomp2" "$src" -o "$SCRATCH/$prog.plain"; then
        fail "$prog: plain build"; continue
    fi
    if ! "$WRAPPER" $CC $flags -O1 -c "$src" -o "$SCRATCH/$prog.o" ||
       ! "$WRAPPER" $CC $flags "$SCRATCH/$prog.o" -o "$SCRATCH/$prog.inst"; then
        fail "$prog: build through pompprof"; continue
    fi
    if [ "$prog" != noomp ] && ! nm "$SCRATCH/$prog.o" | grep -q ' U POMP2_'; then
        fail "$prog: object is not instrumented"
    fi
    for t in 1 2 4; do
        env OMP_NUM_THREADS=$t OMP_MAX_ACTIVE_LEVELS=2 "$SCRATCH/$prog.plain" >"$SCRATCH/plain.out" 2>&1
        plain_rc=$?
        out=$SCRATCH/$prog-t$t.cubex
        env OMP_NUM_THREADS=$t OMP_MAX_ACTIVE_LEVELS=2 POMPPROF_OUTPUT="$out" \
            "$SCRATCH/$prog.inst" >"$SCRATCH/inst.out" 2>"$SCRATCH/inst.err"
        inst_rc=$?
        if ! cmp -s "$SCRATCH/plain.out" "$SCRATCH/inst.out"; then
            fail "$prog t=$t: output differs"; diff "$SCRATCH/plain.out" "$SCRATCH/inst.out" >&2
        elif [ "$plain_rc" != "$inst_rc" ]; then
            fail "$prog t=$t: exit status $inst_rc, plain $plain_rc"
            cat "$SCRATCH/inst.err" >&2 # (a sanitizer's report, under check-tsan)
        elif [ -s "$SCRATCH/inst.err" ]; then
            fail "$prog t=$t: unexpected messages:"; cat "$SCRATCH/inst.err" >&2
        elif [ "$prog" != noomp ] && ! is_cubex "$out"; then
            fail "$prog t=$t: no .cubex written to $out"
        else
            pass "$prog t=$t"
        fi
    done
done

# Regions are registered at start-up by the link step's POMP2_Init_regions,
# so even the task of "task if(0)" (never reported at run time: OPARI2
# skips its calls) is in the profile.
line=$(grep -n 'pragma omp task if (0)' "$PROGS/tasks.c" | cut -d: -f1)
if tar xOf "$SCRATCH/tasks-t1.cubex" anchor.xml 2>/dev/null | grep -q "<name>!\$omp task @tasks.c:$line</name>"; then
    pass "never-executed task region registered"
else
    fail "no region \"!\$omp task @tasks.c:$line\" in the profile"
fi
finish
