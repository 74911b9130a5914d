"""Runs one Python test (make check's PY_LOG_COMPILER), and in CI (CI=true) turns its
skips into failures.

A test skips when something it needs is missing: a dependency, or hardware.  On a
developer's machine that is a skip; in CI, whose image .ci/install-deps sets up, a
missing dependency means the image is wrong, and a green run that tested nothing of it
would hide that.  So with CI=true a skip fails the test -- a whole-script skip (exit 77)
as well as a skipped unittest case -- unless its reason starts with one of ALLOWED:
the hardware counters, which this VM's CPU does not expose (no PMU)."""

import io
import os
import runpy
import sys
import unittest

ALLOWED = (
    "no hardware counters here",   # no PMU: PAPI cannot count (test_e2e_counters.py)
)

CI = os.environ.get("CI") == "true"


class _Tee(io.TextIOBase):
    """stdout as written, and kept: a script's "SKIP: reason" line."""

    def __init__(self, out):
        self.out, self.text = out, []

    def write(self, s):
        self.text.append(s)
        return self.out.write(s)

    def flush(self):
        self.out.flush()


def _allowed(reason):
    return str(reason).strip().startswith(ALLOWED)


def main():
    path = sys.argv[1]
    sys.argv = sys.argv[1:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    if not CI:
        runpy.run_path(path, run_name="__main__")
        return 0
    refused = []
    add_skip = unittest.TestResult.addSkip

    def add_skip_in_ci(result, test, reason):
        if not _allowed(reason):
            refused.append("%s: %s" % (test, reason))
        return add_skip(result, test, reason)

    unittest.TestResult.addSkip = add_skip_in_ci
    tee = _Tee(sys.stdout)
    sys.stdout = tee
    status = 0
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.stdout = tee.out
    if status == 77:
        why = [line[6:] for line in "".join(tee.text).splitlines() if line.startswith("SKIP: ")]
        if not why or not all(_allowed(w) for w in why):
            print("FAIL (CI=true): the test skipped (%s); in CI a missing dependency that "
                  ".ci/install-deps installs is a failure" % ("; ".join(why) or "no reason"))
            return 1
    if refused:
        print("FAIL (CI=true): skipped in CI, where .ci/install-deps installs what they "
              "need: %s" % "; ".join(refused))
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
