"""trace/ sits below profile/ (doc/trace.md): no object of the trace layer
uses a symbol of the engine or of the POMP2 adapter, and the engine reaches
the trace only through trace/pp_trace.h.  Reads the built objects with nm."""
import glob
import os
import subprocess
import sys

top_builddir = os.environ.get("top_builddir", ".")


def undefined(obj):
    out = subprocess.run(["nm", "-u", obj], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def main():
    objs = glob.glob(os.path.join(top_builddir, "trace", "*pp_trace_*.o"))
    errors = []
    if len(objs) < 3:
        errors.append("found only %d trace objects in %s/trace: is the tree built?"
                      % (len(objs), top_builddir))
    for o in sorted(objs):
        bad = sorted(s for s in undefined(o) if s.startswith(("pp_profile", "pp_pomp2", "POMP2")))
        print("%-50s uses %d engine/adapter symbols" % (os.path.basename(o), len(bad)))
        if bad:
            errors.append("%s calls upwards: %s" % (os.path.basename(o), ", ".join(bad)))
    for e in errors:
        print("FAIL: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
