#!/bin/sh
# The pompprof wrapper's command-line behaviour: compile-only, link-only,
# compile+link, several sources, -o/-c/-I/-D/-L/-l, response files, errors
# and warnings pointing at the user's file, --keep, --help/--version, and no
# files left next to the sources.
. "$top_srcdir/test/e2e/e2e_common.sh"

W=$WRAPPER
cd "$SCRATCH" || exit 99
mkdir src inc lib
cat >src/main.c <<'C'
#include <stdio.h>
#include "helper.h"
#include "conf.h"
int main(void)
{
    int n = 0;
#pragma omp parallel reduction(+ : n)
    n += 1;
    printf("%s %d %d\n", GREETING, twice(21), n > 0);
    return 0;
}
C
cat >src/helper.h <<'C'
int twice(int x);
C
cat >src/helper.c <<'C'
#include "helper.h"
int twice(int x)
{
    int r = 0;
#pragma omp parallel
#pragma omp single
    r = 2 * x;
    return r;
}
C
cat >inc/conf.h <<'C'
#define GREETING "hello"
C
ls src >before.txt

# --help / --version
"$W" --help | grep -q '^usage: pompprof' && pass "--help" || fail "--help"
"$W" --version | grep -q "^pompprof [0-9]" && pass "--version" || fail "--version"
"$W" 2>/dev/null; [ $? -eq 2 ] && pass "no compiler: usage, status 2" || fail "no compiler"

# compile-only with several sources: objects in the cwd, like gcc
"$W" $CC $OPENMP_CFLAGS -Iinc -DUNUSED=1 -c src/main.c src/helper.c &&
    [ -f main.o ] && [ -f helper.o ] && pass "-c with two sources" || fail "-c with two sources"
nm main.o | grep -q ' U POMP2_Parallel_fork' && pass "main.o instrumented" || fail "main.o not instrumented"
# link-only, with -L/-l
ar rc lib/libhelper.a helper.o
"$W" $CC $OPENMP_CFLAGS main.o -Llib -lhelper -o prog1 && ./prog1 >out1 &&
    [ "$(cat out1)" = "hello 42 1" ] && pass "link-only with -L/-l" || fail "link-only"
# the archive's regions are initialised too (its POMP2_Init_reg_ is linked in)
[ "$(nm prog1 | grep -c ' T POMP2_Init_reg_')" -eq 2 ] && pass "init functions of object and archive" ||
    fail "expected 2 POMP2_Init_reg_ functions in prog1: $(nm prog1 | grep POMP2_Init_reg_)"
# compile+link in one line, -o
"$W" $CC $OPENMP_CFLAGS -Iinc src/main.c src/helper.c -o prog2 && ./prog2 >out2 &&
    cmp -s out1 out2 && pass "compile+link" || fail "compile+link"
[ ! -f main.o.tmp ] && [ ! -f a.out ] || fail "stray outputs"
# -c -o to another directory
mkdir objs
"$W" $CC $OPENMP_CFLAGS -Iinc -c src/main.c -o objs/m.o && [ -f objs/m.o ] &&
    pass "-c -o elsewhere" || fail "-c -o elsewhere"
# response file with flags and a source
printf '%s\n' "$OPENMP_CFLAGS -Iinc" '-DGREETING_UNUSED="a b"' src/helper.c >args.rsp
"$W" $CC -c @args.rsp -o objs/h.o && nm objs/h.o | grep -q ' U POMP2_Single_enter' &&
    pass "response file" || fail "response file"
"$W" $CC $OPENMP_CFLAGS objs/m.o objs/h.o -o prog3 && ./prog3 >out3 && cmp -s out1 out3 &&
    pass "link of -c -o objects" || fail "link of -c -o objects"

# nothing left next to the sources
ls src >after.txt
cmp -s before.txt after.txt && pass "no files next to sources" || fail "files left in src: $(ls src)"

# a compile error: status and message point at the user's file:line
cat >src/bad.c <<'C'
int main(void)
{
#pragma omp parallel
    {
        int x = undeclared_name;
        (void)x;
    }
    return 0;
}
C
"$W" $CC $OPENMP_CFLAGS -c src/bad.c -o bad.o 2>err.txt
rc=$?
[ $rc -ne 0 ] && pass "compile error: status $rc" || fail "compile error not reported"
grep -q '^src/bad.c:5:[0-9]*: error:.*undeclared_name' err.txt && pass "error at src/bad.c:5" ||
    { fail "error message does not name src/bad.c:5"; cat err.txt >&2; }
grep -q pompprof- err.txt && fail "temporary path in error message" || true
# a warning points at the user's file too
cat >src/warn.c <<'C'
int main(void)
{
    int s = 0;
#pragma omp parallel
    {
#pragma omp atomic
        s++;
    }
    int unused_var;
    return s > 0 ? 0 : 1;
}
C
"$W" $CC $OPENMP_CFLAGS -Wall -c src/warn.c -o warn.o 2>warn.txt &&
    grep -q '^src/warn.c:9:[0-9]*: warning:.*unused_var' warn.txt && pass "warning at src/warn.c:9" ||
    { fail "warning does not point at src/warn.c:9"; cat warn.txt >&2; }
# __FILE__ reads as in a plain build
printf '#include <stdio.h>\nint main(void){\n#pragma omp parallel\n#pragma omp master\nputs(__FILE__);\nreturn 0;}\n' >src/file.c
"$W" $CC $OPENMP_CFLAGS src/file.c -o file_prog && [ "$(./file_prog)" = "src/file.c" ] &&
    pass "__FILE__ unchanged" || fail "__FILE__ is $(./file_prog)"

# --keep keeps the instrumented copy and says where
"$W" --keep $CC $OPENMP_CFLAGS -Iinc -c src/main.c -o keep.o 2>keep.txt
kept=$(sed -n 's/^pompprof: kept intermediate files in //p' keep.txt)
[ -n "$kept" ] && grep -q POMP2_Parallel_fork "$kept"/src*/main.i &&
    pass "--keep" || fail "--keep: $(cat keep.txt)"
[ -n "$kept" ] && rm -rf "$kept"
# --verbose shows the commands
"$W" --verbose $CC $OPENMP_CFLAGS -Iinc -c src/main.c -o v.o 2>verbose.txt &&
    grep -q '^pompprof: .*opari2 --omp-tpd' verbose.txt && pass "--verbose" || fail "--verbose"

# no -fopenmp: compiled unchanged, runs without the library
printf '#include <stdio.h>\nint main(void){\n#pragma omp parallel\nputs("x");\nreturn 0;}\n' >src/serial.c
"$W" $CC -c src/serial.c -o serial.o 2>/dev/null && ! nm serial.o | grep -q POMP2 &&
    "$W" $CC serial.o -o serial && ! ldd ./serial | grep -q pompprof && [ "$(./serial)" = x ] &&
    pass "no -fopenmp: not instrumented" || fail "no -fopenmp"
# queries pass straight through
"$W" $CC --version | head -1 >v1; $CC --version | head -1 >v2
cmp -s v1 v2 && pass "--version of the compiler" || fail "compiler --version"
"$W" $CC $OPENMP_CFLAGS -E -Iinc src/main.c | grep -q 'printf("%s %d %d\\n", "hello"' &&
    pass "-E preprocesses unchanged" || fail "-E"
"$W" $CC -dumpmachine >/dev/null && pass "-dumpmachine" || fail "-dumpmachine"
# the compiler's failure status passes through unchanged
"$W" $CC -c does-not-exist.c 2>/dev/null; rc=$?
$CC -c does-not-exist.c 2>/dev/null; [ $rc -eq $? ] && pass "status of a missing file" || fail "status $rc"
finish
