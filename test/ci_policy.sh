#!/bin/sh
# Runs one shell test (make check's SH_LOG_COMPILER: ci_policy.sh SHELL TEST); in CI
# (CI=true) a skip (exit 77) fails unless its "SKIP: " line says there are no hardware
# counters here (test/ci_policy.py says why).
shell=$1
shift
if [ "${CI:-}" != true ]; then
    exec "$shell" "$@"
fi
out=$(mktemp "${TMPDIR:-/tmp}/pp_ci_XXXXXX") || exit 99
"$shell" "$@" >"$out" 2>&1
status=$?
cat "$out"
if [ $status -eq 77 ]; then
    if grep '^SKIP: ' "$out" | grep -qv '^SKIP: no hardware counters here' ||
       ! grep -q '^SKIP: ' "$out"; then
        echo "FAIL (CI=true): the test skipped; in CI a missing dependency that" \
             ".ci/install-deps installs is a failure"
        status=1
    fi
fi
rm -f "$out"
exit $status
