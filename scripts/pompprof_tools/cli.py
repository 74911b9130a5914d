"""Error handling shared by the tool entry points: the user sees one line, never a
traceback.  Usage errors are argparse's business (exit code 2)."""

import gc
import os
import sys

from .cube.cubex import CubexError
from .cube.cubex_write import WriteError


class ToolError(Exception):
    """A problem the tool reports as one line (bad option combination, output exists...)."""


def run(prog, main, argv=None):
    """Call main(argv); map every failure to `prog: message` on stderr and exit code 1.
    The tools walk call trees without recursion, so deep trees need no higher limit.

    The cyclic garbage collector is off while a tool runs: a profile is hundreds of
    thousands of long-lived objects, which every collection would walk again (a third of
    the time of a large report); what a tool discards is freed by reference counting,
    and the process ends when the tool does."""
    gc.disable()
    try:
        return main(argv)
    except (CubexError, ToolError, WriteError) as e:
        msg = str(e)
    except BrokenPipeError:
        # reader went away (e.g. `| head`): not an error of ours
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    except KeyboardInterrupt:
        msg = "interrupted"
    except OSError as e:
        msg = "%s%s" % (e.strerror or e, (": %s" % e.filename) if e.filename else "")
    except MemoryError:
        msg = "out of memory"
    except RecursionError:
        msg = "call tree too deep to analyse"
    except Exception as e:      # a bug of ours: still one line, and say what it was
        msg = "internal error (%s: %s)" % (type(e).__name__, e)
    finally:
        gc.enable()
    sys.stderr.write("%s: %s\n" % (prog, " ".join(msg.split())))
    return 1


def main_guard(prog, main):
    """For entry scripts: sys.exit(main_guard('pompprof-report', report.main))."""
    code = run(prog, main)
    try:
        sys.stdout.flush()
    except (BrokenPipeError, OSError):
        pass
    return code
