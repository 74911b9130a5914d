"""profile/ is a one-way chain of layers: every object file of the engine
calls (or reads data of) only files listed above its own line in the index at
the top of profile/pp_profile_internal.h, so the index stays true and no cycle
can creep in.  The folders form such a chain too (doc/engine.md, "Layers"):
the event sources call the shared call-site layer (callsite/) and the engine,
callsite/ calls the engine, the engine calls cube-writer/ and trace/, and
everything calls lib/; no event source calls another.  Reads the symbols of
the built objects with nm."""
import glob
import os
import re
import subprocess
import sys

top_srcdir = os.environ.get("top_srcdir", ".")
top_builddir = os.environ.get("top_builddir", ".")


def layers():
    """File stem -> layer rank, from the index comment."""
    with open(os.path.join(top_srcdir, "profile", "pp_profile_internal.h")) as f:
        text = f.read()
    index = text[text.index("lowest layer first"):text.index("*/")]
    rank, level = {}, 0
    for line in index.splitlines():
        m = re.match(r"\s*\*\s{3}(\w[\w, ]*?)\s{2,}\S", line)
        if not m or m.group(1).endswith(".h"):
            continue
        for name in m.group(1).split(","):
            rank["pp_profile_" + name.strip()] = level
        level += 1
    return rank


def symbols(obj):
    out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBRVC":
            defined.add(parts[2])
        elif len(parts) == 2 and parts[0] == "U":
            used.add(parts[1])
    return defined, used


# folder -> rank: a folder's objects may use only symbols of lower ranks
FOLDERS = {"lib": 0, "cube-writer": 1, "trace": 1, "profile": 2, "callsite": 3,
           "pomp2": 4, "functions": 4, "mpi": 4, "ompt": 4, "gomp": 4,
           "replay": 4, "salvage": 4}


def folder_errors():
    """The calls between folders that go up or sideways, and the edges found."""
    syms = {}
    for folder in FOLDERS:
        for obj in glob.glob(os.path.join(top_builddir, folder, "*.o")):
            syms.setdefault(folder, []).append(symbols(obj))
    # the project's own symbols (pp_...): the runtime's entry points an event
    # source defines to interpose them (gomp/'s GOMP_*, omp_*) are libgomp's
    owner = {}
    for folder, objs in syms.items():
        for defined, _ in objs:
            for sym in defined:
                if sym.startswith("pp_"):
                    owner.setdefault(sym, set()).add(folder)
    errors, edges = [], set()
    for folder, objs in sorted(syms.items()):
        for _, used in objs:
            for sym in used:
                for callee in owner.get(sym, ()):
                    if callee == folder:
                        continue
                    edges.add((folder, callee))
                    if FOLDERS[callee] >= FOLDERS[folder]:
                        errors.append("%s/ uses %s of %s/, which is not below it" %
                                      (folder, sym, callee))
    for a, b in sorted(edges):
        print("%-12s -> %s/" % (a + "/", b))
    if ("callsite", "profile") not in edges:
        errors.append("callsite/ calls nothing of profile/: are its objects built?")
    return sorted(set(errors))


def main():
    rank = layers()
    objs = glob.glob(os.path.join(top_builddir, "profile", "libpp_profile_la-pp_profile_*.o"))
    stems = {re.sub(r".*la-(pp_profile_\w+)\.o$", r"\1", o): o for o in objs}
    sources = {os.path.basename(p)[:-2]
               for p in glob.glob(os.path.join(top_srcdir, "profile", "pp_profile_*.c"))}
    errors = []
    if set(stems) != sources:
        errors.append("objects %s do not match sources %s" % (sorted(stems), sorted(sources)))
    unlisted = sorted(sources - set(rank))
    if unlisted:
        errors.append("files missing from the index in pp_profile_internal.h: %s" % unlisted)
    syms = {s: symbols(o) for s, o in stems.items()}
    owner = {sym: s for s, (d, _) in syms.items() for sym in d}
    edges = 0
    for s, (_, used) in sorted(syms.items()):
        for callee in sorted({owner[u] for u in used if u in owner and owner[u] != s}):
            edges += 1
            print("%-22s -> %s" % (s, callee))
            if s in rank and callee in rank and rank[callee] >= rank[s]:
                errors.append("%s calls %s, which is not above it in the index" % (s, callee))
    if edges < 10:
        errors.append("only %d calls between engine files found: is nm reading the objects?" % edges)
    errors += folder_errors()
    for e in errors:
        print("FAIL: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
