"""What each pass over OPARI2's output matched, against what it should have
matched (doc/wrapper.md, "When OPARI2's output changes").

The passes after OPARI2 (adjacent.py, c_depend.py, fortran_depend.py,
fortran_depend_marks.py, the task guards of instrument.py, the wrapper's own
regions in fortran_output.py) recognise the text OPARI2 2.0.7 writes.  An
OPARI2 that wrote it differently would make them match less, or nothing, and
the build would still succeed: dependences not recorded, calls not merged.  So
each pass counts what it expected (from the source OPARI2 was given, or from a
loose reading of OPARI2's output) and what it matched, into the source's Tally;
after the passes, each shortfall is one `pompprof:` line naming the file and
what was lost.  The counts themselves go to stderr with --verbose, and to the
file $POMPPROF_WRAPPER_COUNTS (one JSON object per line and source), which the
tests read; the normal path prints nothing."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from .. import build_config
from . import run as wrapper_run

# a wrapper setting, and one the library knows (lib/pp_config.c): a program run
# with it set says nothing
ENVIRONMENT = "POMPPROF_WRAPPER_COUNTS"


@dataclass
class Count:
    name: str             # the pass
    expected: int         # what it should have matched
    matched: int          # what it matched
    what: str             # what it expected, in the plural ("task constructs with ...")
    lost: str             # what a shortfall costs ("their dependences are not recorded")
    extra: dict[str, int] = field(default_factory=dict)   # other counts of the pass

    def shortfall(self, source: str) -> str | None:
        """The line that says what was lost, or None when nothing was."""
        if self.matched >= self.expected:
            return None
        return ("%s: %d of %d %s not recognised in OPARI2's output (pompprof reads "
                "OPARI2 %s's): %s" % (source, self.expected - self.matched, self.expected,
                                      self.what, tested_version(), self.lost))


def tested_version() -> str:
    return build_config.OPARI2_TESTED


class Tally:
    """The counts of the passes over one source's OPARI2 output."""

    def __init__(self) -> None:
        self.counts: list[Count] = []

    def add(self, name: str, expected: int, matched: int, what: str, lost: str,
            **extra: int) -> None:
        self.counts.append(Count(name, expected, matched, what, lost, dict(extra)))

    def shortfalls(self, source: str) -> list[str]:
        return [s for s in (c.shortfall(source) for c in self.counts) if s]

    def as_dict(self) -> dict[str, dict[str, int]]:
        return {c.name: dict(expected=c.expected, matched=c.matched, **c.extra)
                for c in self.counts}

    def report(self, source: str) -> None:
        """Say what was lost (one line per pass that fell short); the counts to
        --verbose and $POMPPROF_WRAPPER_COUNTS."""
        for line in self.shortfalls(source):
            wrapper_run.note(line)
        if not self.counts:
            return
        if wrapper_run.verbose:
            wrapper_run.note("%s: passes over OPARI2's output: %s" % (source, "; ".join(
                "%s %s" % (c.name, " ".join("%s=%d" % kv for kv in counts.items()))
                for c, counts in zip(self.counts, self.as_dict().values()))))
        path = os.environ.get(ENVIRONMENT)
        if path:
            # one write of one line, appended: parallel builds do not interleave it
            line = json.dumps({"source": source, "counts": self.as_dict()}, sort_keys=True)
            try:
                with open(path, "a", encoding="utf-8") as f:
                    f.write(line + "\n")
            except OSError as e:
                wrapper_run.note("cannot write the pass counts to %s: %s" % (path, e.strerror))
