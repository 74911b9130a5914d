#!/bin/sh
# The compiler behaves as without pompprof: for erroneous and warning-producing
# sources (C, C++, Fortran; errors in macro expansions with their notes, an
# error in a template, warnings from a header, -Wmaybe-uninitialized that only
# the optimizer gives, -Werror) the wrapper prints exactly the plain build's
# messages and exits with its status.  Also: __FILE__/__LINE__ and a failing
# assert print the same, -x c sources and response files are instrumented,
# --as-needed keeps the library, and the code pompprof adds compiles without a
# warning under -Wall -Wextra -Wmissing-prototypes -Wstrict-prototypes
# -Wold-style-definition -Wmissing-declarations -Werror.
. "$top_srcdir/test/e2e/e2e_common.sh"
cd "$SCRATCH" || exit 99
CXX=${CXX:-$(echo "$CC" | sed 's/gcc/g++/')}
FC=${FC:-gfortran}
STRICT_C="-Wall -Wextra -Wmissing-prototypes -Wstrict-prototypes -Wold-style-definition -Wmissing-declarations -Werror"
STRICT_CXX="-Wall -Wextra -Wmissing-declarations -Werror"

cat >macro_error.c <<'C'
#include <stdio.h>
#define SQUARE(x) ((x) * (y))
int main(void)
{
    int s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < 10; i++)
        s += SQUARE(i);
    printf("%d\n", s);
    return 0;
}
C
cat >maybe_uninit.c <<'C'
#include <stdio.h>
static int pick(int c)
{
    int v;
    if (c > 3) v = c;
    return v;
}
int main(int argc, char **argv)
{
    int s = 0;
    (void)argv;
#pragma omp parallel reduction(+ : s)
    s += pick(argc);
    printf("%d\n", s);
    return 0;
}
C
cat >template_error.cpp <<'C'
#include <vector>
template <typename T> T total(const std::vector<T> &v)
{
    T s{};
#pragma omp parallel for reduction(+ : s)
    for (long i = 0; i < (long)v.size(); i++) s += v[i].missing;
    return s;
}
int main() { std::vector<int> v(3); return total(v); }
C
cat >warn.h <<'C'
static int unused_in_header(void) { return 1; }
#warning "a warning from the header"
C
cat >header_warning.c <<'C'
#include "warn.h"
int main(void)
{
    int x = 0;
#pragma omp parallel
    x = 1;
    return x - 1;
}
C
cat >fortran_warning.f90 <<'F'
program fw
  implicit none
  integer :: unused, x
  real :: r
  x = 0
!$omp parallel
  x = 1
!$omp end parallel
  r = x
  print *, r
end program
F

same_messages() { # compiler source flags...
    cc=$1 src=$2
    shift 2
    $cc $OPENMP_CFLAGS "$@" -c "$src" -o plain.o 2>plain.err
    p=$?
    "$WRAPPER" $cc $OPENMP_CFLAGS "$@" -c "$src" -o wrapped.o 2>wrapped.err
    w=$?
    if [ "$p" != "$w" ]; then
        fail "$src [$*]: status $w, plain $p"; cat wrapped.err >&2
    elif ! cmp -s plain.err wrapped.err; then
        fail "$src [$*]: messages differ from the plain build's"; diff plain.err wrapped.err >&2
    elif [ ! -s plain.err ]; then
        fail "$src [$*]: the plain build says nothing (the test expects messages)"
    else
        pass "$src [$*]: same $(wc -l <plain.err) lines, status $p"
    fi
}
for flags in "-Wall -Wextra" "-O2 -Wall" "-O2 -Wall -Werror"; do
    # shellcheck disable=SC2086
    same_messages "$CC" macro_error.c $flags
    # shellcheck disable=SC2086
    same_messages "$CXX" template_error.cpp $flags
    # shellcheck disable=SC2086
    same_messages "$CC" header_warning.c $flags
done
# -Wmaybe-uninitialized comes from the optimizer only
same_messages "$CC" maybe_uninit.c -O2 -Wall
same_messages "$CC" maybe_uninit.c -O2 -Wall -Werror
grep -q "macro_error.c:2:.*note: in definition of macro" wrapped.err 2>/dev/null ||
    grep -q "maybe-uninitialized" plain.err || fail "the messages are not the expected kind"
if command -v "$FC" >/dev/null; then
    same_messages "$FC" fortran_warning.f90 -Wall -Wextra
fi

# __FILE__, __LINE__ and assert after #include <omp.h> and inside a region
cat >lines.c <<'C'
#include <omp.h>
#include <assert.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    (void)argv;
#pragma omp parallel num_threads(2)
#pragma omp single
    printf("%s:%d\n", __FILE__, __LINE__);
    fflush(stdout);
    assert(argc > 1);
    return 0;
}
C
$CC $OPENMP_CFLAGS lines.c -o lines_plain && "$WRAPPER" $CC $OPENMP_CFLAGS lines.c -o lines_wrapped ||
    fail "build lines.c"
(./lines_plain >plain.out 2>plain.err); p=$?
(POMPPROF_OUTPUT=$SCRATCH/lines.cubex ./lines_wrapped >wrapped.out 2>wrapped.err); w=$?
sed 's/lines_wrapped/lines_plain/' wrapped.err >wrapped.norm
if [ "$p" = "$w" ] && cmp -s plain.out wrapped.out && cmp -s plain.err wrapped.norm &&
   grep -q "lines.c:9" plain.out && grep -q "lines.c:11: main: Assertion" plain.err; then
    pass "__FILE__, __LINE__ and assert as in a plain build (status $p)"
else
    fail "__FILE__/__LINE__/assert differ"; cat plain.out plain.err wrapped.out wrapped.err >&2
fi

# -x c on a file without a C suffix; a response file; --as-needed
cp lines.c lines.txt
"$WRAPPER" $CC $OPENMP_CFLAGS -x c -c lines.txt -o x.o && nm x.o | grep -q ' U POMP2_Parallel_fork' &&
    pass "-x c source instrumented" || fail "-x c source not instrumented"
printf '%s\n' "$OPENMP_CFLAGS" "-O1" "-c" "lines.c" >args.rsp
"$WRAPPER" $CC @args.rsp -o rsp.o && nm rsp.o | grep -q ' U POMP2_Parallel_fork' &&
    pass "response file" || fail "response file"
cat >wtime.c <<'C'
#include <omp.h>
#include <stdio.h>
int main(void) { printf("%d\n", omp_get_wtime() >= 0.0); return 0; }
C
"$WRAPPER" $CC $OPENMP_CFLAGS -Wl,--as-needed wtime.c -o wtime &&
    POMPPROF_OUTPUT=$SCRATCH/wtime.cubex ./wtime >/dev/null && is_cubex "$SCRATCH/wtime.cubex" &&
    pass "--as-needed: a program without constructs still writes a profile" ||
    fail "--as-needed: no profile"

# the code pompprof adds never warns (C and C++), whatever the warning flags
cat >clean.c <<'C'
#include <stdio.h>
int main(void)
{
    int s = 0;
#pragma omp parallel master
#pragma omp taskloop reduction(+ : s)
    for (int i = 0; i < 10; i++)
        s += i;
#pragma omp parallel for schedule(dynamic) reduction(+ : s)
    for (int i = 0; i < 10; i++)
        s += i;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task if(0) shared(s)
        s++;
#pragma omp taskwait
    }
    printf("%d\n", s);
    return 0;
}
C
cp clean.c clean.cpp
for src in clean.c clean.cpp; do
    case $src in *.c) cc=$CC flags=$STRICT_C lang=cpp-output ext=i ;;
                 *) cc=$CXX flags=$STRICT_CXX lang=c++-cpp-output ext=ii ;; esac
    for opt in -O0 -O2; do
        # shellcheck disable=SC2086
        "$WRAPPER" --keep $cc $OPENMP_CFLAGS $opt $flags -c "$src" -o clean.o 2>keep.txt ||
            { fail "$src $opt: build"; cat keep.txt >&2; continue; }
        kept=$(sed -n 's/^pompprof: kept intermediate files in //p' keep.txt)
        text=$(ls "$kept"/src*/clean.$ext)
        # shellcheck disable=SC2086
        if $cc $OPENMP_CFLAGS $opt $flags -x $lang -c "$text" -o strict.o 2>strict.err &&
           [ ! -s strict.err ] && nm strict.o | grep -q POMP2_Parallel_fork; then
            pass "$src $opt: the instrumented text compiles without a warning under $flags"
        else
            fail "$src $opt: the instrumented text warns"; cat strict.err >&2
        fi
        rm -rf "$kept"
    done
done
finish
