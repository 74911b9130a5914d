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


def echo(cmd: list[str]) -> None:
    if verbose:
        note(" ".join(shlex.quote(c) for c in cmd))


def _status(returncode: int) -> int:
    """128 + signal number when a signal ended the command, as a shell reports it."""
    return 128 - returncode if returncode < 0 else returncode


def run(cmd: list[str]) -> int:
    """Run cmd with stdout/stderr passing through; return its exit status."""
    echo(cmd)
    try:
        proc = subprocess.run(cmd)
    except OSError as e:
        note("cannot run %s: %s" % (cmd[0], e.strerror))
        return 127
    return _status(proc.returncode)


def run_quiet(cmd: list[str]) -> tuple[int, str]:
    """Run cmd with its output (stdout and stderr) captured: (status, output).
    For the wrapper's own steps, whose messages the user only sees when they fail
    (or with --verbose)."""
    echo(cmd)
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, errors="replace")
    except OSError as e:
        return 127, "cannot run %s: %s" % (cmd[0], e.strerror)
    if verbose and proc.stdout:
        sys.stderr.write(proc.stdout)
    return _status(proc.returncode), proc.stdout


def capture(cmd: list[str]) -> str | None:
    """Run cmd and return its stdout (stderr passes through), None on failure."""
    echo(cmd)
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, universal_newlines=True)
    except OSError:
        return None
    return proc.stdout if proc.returncode == 0 else None
