#!/bin/sh
# make check-tsan: the library, the unit tests and the e2e programs of both
# event sources under ThreadSanitizer, with LLVM's Archer for the OpenMP
# runtime's synchronisation; any report fails (doc/engine.md,
# "ThreadSanitizer").
#
# A nested build of a clean copy of the sources (test/clean_copy.sh) in
# _tsan/src: ./configure --enable-tsan CC=clang (libomp), then, with clang
# -fsanitize=thread as the tests' compiler:
#   - every unit test (Check programs: the engine with its assertions);
#   - test/tsan/tsan_programs.py: the e2e programs in OPARI2 mode (Archer as
#     the OMPT tool) and in OMPT mode (test/tsan/archer_chain.so: Archer with
#     pompprof's OMPT tool chained behind it);
#   - test/e2e/test_e2e_programs.sh (every construct, 1, 2 and 4 threads);
#   - test/robust/exit_race.py (exit() beside events in flight, 60 runs) and
#     test/robust/signals.py (SIGINT/SIGTERM while tasks run).
# TSAN_OPTIONS: exitcode=66 on any report; ignore_noninstrumented_modules=1
# (libomp itself is not instrumented: Archer stands for it, as its manual
# asks); report_thread_leaks=0 (libomp's worker threads are never joined: a
# program that calls exit() leaves them, by design, with or without
# pompprof); the suppressions in test/tsan/suppressions.txt (each says why).
# Environment: TSAN_DIR (default $top_builddir/_tsan).
set -u
: "${top_srcdir:?run through make check-tsan}" "${top_builddir:?run through make check-tsan}"
ARCHER=${PP_TSAN_ARCHER:-/usr/lib/llvm-14/lib/libarcher.so}
MULTIPLEX_INC=${PP_TSAN_MULTIPLEX_INC:-/usr/lib/llvm-14/include}
missing=
command -v clang >/dev/null 2>&1 || missing="$missing clang"
[ -f "$ARCHER" ] || missing="$missing $ARCHER (libomp-14-dev)"
[ -f "$MULTIPLEX_INC/ompt-multiplex.h" ] || missing="$missing $MULTIPLEX_INC/ompt-multiplex.h (libomp-14-dev)"
if [ -n "$missing" ]; then
    echo "FAIL: check-tsan needs:$missing (.ci/install-deps installs them)"
    exit 1
fi
dir=${TSAN_DIR:-$top_builddir/_tsan}
src=$dir/src
rm -rf "$dir" && mkdir -p "$src" || exit 99
sh "$top_srcdir/test/clean_copy.sh" "$src" || { echo "FAIL: cannot copy the sources"; exit 99; }

unset MAKEFLAGS MFLAGS MAKELEVEL
cd "$src" || exit 99
start=$(date +%s)
if ! ./configure --enable-tsan CC=clang CFLAGS="-g -O1" >"$dir/configure.log" 2>&1; then
    tail -20 "$dir/configure.log"; echo "FAIL: configure --enable-tsan"; exit 1
fi
if ! make -j2 >"$dir/build.log" 2>&1; then
    grep -E 'error|Error' "$dir/build.log" | head -20; echo "FAIL: ThreadSanitizer build"; exit 1
fi
# the chaining tool: not instrumented itself (its bookkeeping is no program's)
if ! clang -shared -fPIC -O1 -g -I"$MULTIPLEX_INC" "$top_srcdir/test/tsan/archer_chain.c" \
        -o "$dir/archer_chain.so" -ldl >"$dir/chain.log" 2>&1; then
    cat "$dir/chain.log"; echo "FAIL: test/tsan/archer_chain.c"; exit 1
fi
echo "built in $(($(date +%s) - start)) s"
unit=$(make -s print-tsan-tests)
TSAN="-fsanitize=thread -fno-omit-frame-pointer"
TSAN_OPTIONS="exitcode=66 halt_on_error=0 ignore_noninstrumented_modules=1 report_thread_leaks=0 second_deadlock_stack=1 suppressions=$top_srcdir/test/tsan/suppressions.txt" \
PP_TSAN_CHAIN="$dir/archer_chain.so" PP_TSAN_ARCHER="$ARCHER" \
OMP_TOOL_LIBRARIES="$ARCHER" ROBUST_EXTRA_CFLAGS="$TSAN" EXIT_RACE_RUNS=${EXIT_RACE_RUNS:-60} \
    make -j2 check CC="clang $TSAN" TESTS="$unit test/tsan/tsan_programs.py \
        test/e2e/test_e2e_programs.sh test/robust/exit_race.py test/robust/signals.py" \
    >"$dir/check.log" 2>&1
status=$?
grep -E '^(PASS|FAIL|SKIP|ERROR|XPASS):' "$dir/check.log"
if [ $status -ne 0 ] || grep -qE '^(SKIP|ERROR|FAIL):' "$dir/check.log"; then
    for log in $(grep -E '^(FAIL|ERROR|SKIP):' "$dir/check.log" | sed 's/^[A-Z]*: //'); do
        echo "--- ${log%.*}.log"; tail -60 "${log%.*}.log"
    done
    echo "FAIL: check-tsan (logs in $src)"
    exit 1
fi
grep -q '^PASS:' "$dir/check.log" || { echo "FAIL: nothing ran"; exit 1; }
echo "PASS: no report of ThreadSanitizer ($(($(date +%s) - start)) s)"
rm -rf "$dir"
exit 0
