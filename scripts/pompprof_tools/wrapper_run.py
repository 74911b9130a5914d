"""Running the compiler, OPARI2 and nm for the pompprof wrapper: their output and
exit status pass through unchanged; --verbose echoes every command on stderr."""

from __future__ import annotations

import shlex
import subprocess
import sys

# Set by the wrapper's --verbose option.
verbose = False


def note(message: str) -> None:
    sys.stderr.write("pompprof: %s\n" % message)


def _echo(cmd: list[str]) -> None:
    if verbose:
        note(" ".join(shlex.quote(c) for c in cmd))


def run(cmd: list[str]) -> int:
    """Run cmd with stdout/stderr passing through; return its exit status
    (128 + signal number when a signal ended it, as a shell reports it)."""
    _echo(cmd)
    try:
        proc = subprocess.run(cmd)
    except OSError as e:
        note("cannot run %s: %s" % (cmd[0], e.strerror))
        return 127
    if proc.returncode < 0:
        return 128 - proc.returncode
    return proc.returncode


def capture(cmd: list[str]) -> str | None:
    """Run cmd and return its stdout (stderr passes through), None on failure."""
    _echo(cmd)
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, universal_newlines=True)
    except OSError:
        return None
    return proc.stdout if proc.returncode == 0 else None
