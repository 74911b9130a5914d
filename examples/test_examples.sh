#!/bin/sh
# test_examples.sh: every example, built plain and with the build-tree
# pompprof wrapper, must behave identically at its small input.
#
# For each example and OMP_NUM_THREADS=1 and 2 (and 4 for fib and treewalk):
#   - stdout, stderr and exit status of the instrumented run equal the
#     plain run's, byte for byte (pompprof stays silent when all is well);
#   - the output says OK (the example's own self-check);
#   - the instrumented run wrote a non-empty .cubex profile (ustar magic, an
#     anchor.xml member) into the directory named by POMPPROF_OUTPUT.
# Skips (77) when the wrapper or the library is not built.
#
# Environment (set by the Automake harness): top_srcdir, top_builddir, CC,
# OPENMP_CFLAGS.
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$(pwd)}
CC=${CC:-cc}
OPENMP_CFLAGS=${OPENMP_CFLAGS:--fopenmp}

wrapper=$top_builddir/scripts/pompprof
library=$top_builddir/.libs/libpompprof.so
if [ ! -x "$wrapper" ] || [ ! -f "$library" ]; then
    echo "SKIP: $wrapper or $library not built"
    exit 77
fi

# The uninstalled library and headers, also at run time.
POMPPROF_LIBDIR=$top_builddir/.libs
POMPPROF_INCDIR=$top_srcdir/pomp2
LD_LIBRARY_PATH=$top_builddir/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export POMPPROF_LIBDIR POMPPROF_INCDIR LD_LIBRARY_PATH
# Settings from the caller's environment must not change the runs.
unset POMPPROF_OUTPUT POMPPROF_ENABLE POMPPROF_METRICS POMPPROF_MAX_DEPTH \
      POMPPROF_MEMORY POMPPROF_VERBOSE 2>/dev/null || true

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pompprof-examples.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/plain" "$tmp/prof" "$tmp/out"

failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

examples="fib fib_cutoff nqueens nqueens_cutoff nqueens_depth mergesort sparselu treewalk prodcons worksharing wavefront uts floorplan"

for name in $examples; do
    src=$top_srcdir/examples/$name.c
    # shellcheck disable=SC2086 # OPENMP_CFLAGS may hold several words
    if ! $CC -std=gnu11 $OPENMP_CFLAGS -O2 "$src" -o "$tmp/plain/$name" -lm; then
        fail "$name: plain build"
        continue
    fi
    # shellcheck disable=SC2086
    if ! "$wrapper" $CC -std=gnu11 $OPENMP_CFLAGS -O2 "$src" -o "$tmp/prof/$name" -lm; then
        fail "$name: build with pompprof"
        continue
    fi

    case $name in
        fib|treewalk) threads="1 2 4" ;;
        *) threads="1 2" ;;
    esac
    for t in $threads; do
        run=$tmp/out/$name.$t
        mkdir "$run.profile"
        # Default (small) input; the exit status is appended to stdout.
        OMP_NUM_THREADS=$t "$tmp/plain/$name" >"$run.plain" 2>"$run.plain.err"
        echo "exit status $?" >>"$run.plain"
        OMP_NUM_THREADS=$t POMPPROF_OUTPUT=$run.profile "$tmp/prof/$name" \
            >"$run.prof" 2>"$run.prof.err"
        echo "exit status $?" >>"$run.prof"

        if ! cmp -s "$run.plain" "$run.prof"; then
            fail "$name, $t threads: output differs with pompprof"
            diff "$run.plain" "$run.prof" | head -20
        fi
        if ! grep -qx OK "$run.plain" || ! grep -qx "exit status 0" "$run.plain"; then
            fail "$name, $t threads: self-check did not say OK"
            cat "$run.plain"
        fi
        # pompprof prints nothing unless something goes wrong, and nothing
        # goes wrong here: stderr must match too.
        if ! cmp -s "$run.plain.err" "$run.prof.err"; then
            fail "$name, $t threads: stderr differs with pompprof"
            diff "$run.plain.err" "$run.prof.err" | head -4
        fi
        profile=$(find "$run.profile" -name '*.cubex' -size +0c | head -1)
        if [ -z "$profile" ]; then
            fail "$name, $t threads: no non-empty .cubex in $run.profile"
            ls -lR "$run.profile"
        elif [ "$(dd if="$profile" bs=1 skip=257 count=5 2>/dev/null)" != ustar ] ||
             ! grep -qa anchor.xml "$profile"; then
            fail "$name, $t threads: $profile is not a tar archive holding anchor.xml"
        fi
    done
    echo "checked $name (threads: $threads)"
done

if [ "$failures" -ne 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
echo "all examples behave identically with pompprof"
exit 0
