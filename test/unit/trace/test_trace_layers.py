"""trace/ sits below profile/ (doc/trace.md): no object of the trace layer
uses a symbol of the engine or of the POMP2 adapter.  And the layers above
it and the tools that read traces (profile/, mpi/, salvage/, ...) reach it
through its public headers only (PUBLIC): no source outside trace/ includes
another trace header, a public header includes no other, and every symbol of
the trace objects that another folder's object uses is declared in a public
header -- so pompprof-salvage, which converts another process's raw files,
does it through trace/pp_trace_resume.h, not by setting the layer's private
state.  Reads the built objects with nm, the sources as text."""
import glob
import os
import re
import subprocess
import sys

top_srcdir = os.environ.get("top_srcdir", ".")
top_builddir = os.environ.get("top_builddir", ".")

# the headers other folders may include; the rest of trace/ is the layer's own
PUBLIC = ("pp_trace.h", "pp_trace_record.h", "pp_trace_job.h", "pp_trace_resume.h")
# the folders whose sources and objects are not consumers of the layer
NOT_CONSUMERS = {"trace", "test", "examples", "autom4te.cache"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"trace/([^"]+)"', re.M)


def symbols(obj, defined):
    out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
    found = set()
    for line in out.splitlines():
        parts = line.split()
        if defined and len(parts) == 3 and parts[1] in "TDBRC":
            found.add(parts[2])
        elif not defined and len(parts) == 2 and parts[0] == "U":
            found.add(parts[1])
    return found


def consumer_folders(root):
    return sorted(d for d in os.listdir(root)
                  if os.path.isdir(os.path.join(root, d)) and not d.startswith(".")
                  and d not in NOT_CONSUMERS)


def include_errors():
    """Includes of trace headers that are not public, outside trace/ and inside
    the public headers themselves; and how many consumer files include one."""
    errors, users = [], set()
    sources = [(f, os.path.join(top_srcdir, "trace", f)) for f in PUBLIC]
    for folder in consumer_folders(top_srcdir):
        for path in sorted(glob.glob(os.path.join(top_srcdir, folder, "*.[ch]"))):
            sources.append((os.path.join(folder, os.path.basename(path)), path))
    for name, path in sources:
        with open(path, encoding="utf-8", errors="replace") as f:
            included = INCLUDE.findall(f.read())
        if included and "/" in name:
            users.add(name.split("/")[0])
        for header in included:
            if header not in PUBLIC:
                errors.append("%s includes trace/%s, which is not one of trace/'s public "
                              "headers %s" % (name, header, ", ".join(PUBLIC)))
    if "salvage" not in users or "profile" not in users:
        errors.append("salvage/ and profile/ include no trace header: are the sources at %s?"
                      % top_srcdir)
    return errors


def declared_publicly():
    text = ""
    for f in PUBLIC:
        with open(os.path.join(top_srcdir, "trace", f), encoding="utf-8") as h:
            text += h.read()
    return set(re.findall(r"\b(pp_trace_\w+)\s*\(", text))


def symbol_errors(trace_objs):
    """Symbols of trace objects used by other folders' objects but not declared in a
    public header (a variable never is: the layer's state is its own)."""
    owned = set()
    for o in trace_objs:
        owned |= symbols(o, True)
    public = declared_publicly()
    errors, checked = [], set()
    for folder in consumer_folders(top_builddir):
        for o in sorted(glob.glob(os.path.join(top_builddir, folder, "*.o"))):
            used = symbols(o, False) & owned
            if used:
                checked.add(folder)
            for sym in sorted(used - public):
                errors.append("%s uses %s of trace/, which no public header declares"
                              % (os.path.join(folder, os.path.basename(o)), sym))
    print("objects using trace/ through its public headers: %s" % ", ".join(sorted(checked)))
    if "profile" not in checked:
        errors.append("no profile object uses trace/: is the tree built?")
    if os.path.exists(os.path.join(top_builddir, "salvage", "pompprof-salvage")) and \
            "salvage" not in checked:
        errors.append("pompprof-salvage is built, but no salvage object uses trace/")
    return errors


def main():
    objs = glob.glob(os.path.join(top_builddir, "trace", "*pp_trace_*.o"))
    errors = []
    if len(objs) < 3:
        errors.append("found only %d trace objects in %s/trace: is the tree built?"
                      % (len(objs), top_builddir))
    for o in sorted(objs):
        bad = sorted(s for s in symbols(o, False)
                     if s.startswith(("pp_profile", "pp_pomp2", "POMP2")))
        print("%-50s uses %d engine/adapter symbols" % (os.path.basename(o), len(bad)))
        if bad:
            errors.append("%s calls upwards: %s" % (os.path.basename(o), ", ".join(bad)))
    errors += include_errors()
    errors += symbol_errors(objs)
    for e in errors:
        print("FAIL: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
