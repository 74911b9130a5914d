#!/bin/sh
# The library under AddressSanitizer + UBSan: a nested build with
# --enable-sanitizers, then the unit tests and the robustness end-to-end tests
# (their programs compiled and linked with the same sanitizers) in it.  Any
# report fails: UBSan halts on the first error, ASan always does.
#
# Runs from 'make check' (as a test) and from 'make check-sanitize'.  The
# sources are copied without build products first (test/clean_copy.sh).
#
# ASAN_OPTIONS: no leak check (libgomp keeps its thread pool until exit by
# design); handle_segv=0 keeps a program's own SIGSEGV a SIGSEGV (faults.py
# checks exactly that); verify_asan_link_order=0 for programs that get the
# runtime through libpompprof.
# Environment: SANITIZE_DIR (default $top_builddir/_sanitize), GT_SEEDS (2).
set -u
: "${top_srcdir:?run through make check}" "${top_builddir:?run through make check}"
if [ -n "${ROBUST_EXTRA_CFLAGS:-}" ]; then
    echo "SKIP: already inside the sanitizer build"
    exit 77
fi
dir=${SANITIZE_DIR:-$top_builddir/_sanitize}
src=$dir/src
rm -rf "$dir" && mkdir -p "$src" || exit 99

# a clean copy of the sources
sh "$top_srcdir/test/clean_copy.sh" "$src" || { echo "FAIL: cannot copy the sources"; exit 99; }

# the inner make must not join the outer make's job server
unset MAKEFLAGS MFLAGS MAKELEVEL
cd "$src" || exit 99
if ! ./configure --enable-sanitizers CC="${CC:-gcc}" CFLAGS="-g -O1" >"$dir/configure.log" 2>&1; then
    tail -20 "$dir/configure.log"; echo "FAIL: configure --enable-sanitizers"; exit 1
fi
if ! make -j2 >"$dir/build.log" 2>&1; then
    grep -E 'error|Error' "$dir/build.log" | head -20; echo "FAIL: sanitizer build"; exit 1
fi
tests=
for t in $(make -s print-sanitize-tests); do
    case $t in
        *.py|*.sh) [ -f "$t" ] || { echo "note: $t is listed but missing; not run"; continue; } ;;
    esac
    tests="$tests $t"
done
echo "sanitizer run: $tests"
ASAN_OPTIONS=detect_leaks=0:handle_segv=0:abort_on_error=0:verify_asan_link_order=0 \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
ROBUST_EXTRA_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
GT_SEEDS=${GT_SEEDS:-2} \
    make -j2 check TESTS="$tests" >"$dir/check.log" 2>&1
status=$?
grep -E '^(PASS|FAIL|SKIP|ERROR|XPASS):' "$dir/check.log"
if [ $status -ne 0 ]; then
    for log in $(grep -E '^(FAIL|ERROR):' "$dir/check.log" | sed 's/^[A-Z]*: //'); do
        echo "--- ${log%.*}.log"; tail -40 "${log%.*}.log"
    done
    echo "FAIL: tests fail under the sanitizers (logs in $src)"
    exit 1
fi
grep -q '^PASS:' "$dir/check.log" || { echo "FAIL: nothing ran"; exit 1; }
echo "PASS: unit and robustness tests clean under ASan + UBSan"
rm -rf "$dir"
exit 0
