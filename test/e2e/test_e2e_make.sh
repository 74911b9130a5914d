#!/bin/sh
# CC="pompprof gcc" in a Makefile and in an autoconf-style configure script.
. "$top_srcdir/test/e2e/e2e_common.sh"
cd "$SCRATCH" || exit 99
command -v make >/dev/null || exit 77

cp "$PROGS/tasks.c" .
cat >Makefile <<'MK'
CFLAGS = -O2 -fopenmp
tasks: tasks.o
	$(CC) $(CFLAGS) -o $@ tasks.o
MK
make -s CC="$WRAPPER $CC" >make.log 2>&1 && nm tasks.o | grep -q ' U POMP2_Task_begin' &&
    OMP_NUM_THREADS=2 POMPPROF_OUTPUT=$SCRATCH/m.cubex ./tasks >run.out && is_cubex m.cubex &&
    pass "make CC=\"pompprof gcc\"" || { fail "make"; cat make.log >&2; }

# The probes a configure script makes, the way autoconf makes them.
cat >configure <<'SH'
#!/bin/sh
: "${CC:=cc}"
set -e
echo 'int main(void){return 0;}' >conftest.c
$CC --version >/dev/null 2>&1
$CC -v >/dev/null 2>&1 || true
$CC -E conftest.c >/dev/null                      # preprocessor works
$CC -o conftest conftest.c && ./conftest           # compiler works, no OpenMP
$CC -c conftest.c && test -f conftest.o            # object extension
cat >conftest.c <<'C'
#ifndef _OPENMP
 choke me
#endif
#include <omp.h>
int main(void){ int n = 0;
#pragma omp parallel reduction(+:n)
n++;
return n > 0 ? 0 : 1; }
C
$CC -fopenmp -o conftest conftest.c && ./conftest   # AC_OPENMP-style check, run
echo 'int f(void){return 1;}' >conftest.c
if $CC -c conftest.c -Wl,--no-such-linker-flag 2>/dev/null; then :; fi
rm -f conftest*
echo configured
SH
chmod +x configure
mkdir conf && cd conf && POMPPROF_OUTPUT=$SCRATCH/conf.cubex CC="$WRAPPER $CC" ../configure >conf.log 2>&1 &&
    grep -q configured conf.log && [ -z "$(ls)" -o "$(ls)" = conf.log ] &&
    pass "configure-style probes" || { fail "configure"; cat conf.log >&2; }
finish
