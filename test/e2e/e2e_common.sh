# Sourced by the e2e tests: the build-tree wrapper and library, a scratch
# directory removed at exit, and small assertion helpers.
# Needs top_srcdir and top_builddir (set by the test harness).

: "${top_srcdir:?run through make check}" "${top_builddir:?run through make check}"
CC=${CC:-gcc}
OPENMP_CFLAGS=${OPENMP_CFLAGS:--fopenmp}
PROGS=$top_srcdir/test/e2e/progs
WRAPPER=$top_builddir/scripts/pompprof
POMPPROF_LIBDIR=$top_builddir/.libs
POMPPROF_INCDIR=$top_srcdir/pomp2
export POMPPROF_LIBDIR POMPPROF_INCDIR

if [ ! -x "$WRAPPER" ] || [ ! -f "$POMPPROF_LIBDIR/libpompprof.so" ]; then
    echo "FAIL: build scripts/pompprof and libpompprof.la first" >&2
    exit 99
fi

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/pp_e2e_XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

pass() {
    echo "ok: $*"
}

# A .cubex is a tar archive: "ustar" at offset 257 of a non-empty file.
is_cubex() {
    [ -s "$1" ] && [ "$(dd if="$1" bs=1 skip=257 count=5 2>/dev/null)" = "ustar" ]
}

finish() {
    if [ "$failures" -ne 0 ]; then
        echo "$failures check(s) failed" >&2
        exit 1
    fi
    exit 0
}
