"""Every repository file that a comment or document names must exist.

Scans the documents, and the comments (and Python docstrings) of the
project's sources, scripts and build files, for
  - paths below a top-level folder of the project (profile/pp_profile_task.c,
    doc/engine.md, test/unit/..., globs such as test/tools/*.cubex), and
  - bare names in the project's own naming styles (pp_*.c / pp_*.h, *.md),
and fails naming each one that matches no file of the source tree (or of the
build tree, for generated files)."""
import fnmatch
import os
import re
import sys

TOP_DIRS = ("lib", "pomp2", "profile", "cube-writer", "scripts", "test", "examples", "doc",
            ".ci", "trace", "mpi", "replay")
TEXT_SUFFIXES = (".c", ".h", ".py", ".sh", ".in", ".am", ".ac", ".mk", ".md", ".toml",
                 ".f90", ".f", ".F90", ".txt", ".cmake")
SKIP_DIRS = {".git", "autom4te.cache", ".libs", ".deps", "__pycache__"}
# data and generated folders: their files exist, but nothing in them is read
NOT_SCANNED = ("build-aux/", "m4/", "_build/", "_install/", "_sanitize/", "test/robust/corpus/",
               "test/robust/regressions/", "test/tools/golden/")
HASH_COMMENTS = (".py", ".sh", ".in", ".am", ".ac", ".mk", ".toml", ".cmake", ".txt")
GENERATED = {"Makefile.in", "configure", "aclocal.m4", "config.h.in", "Makefile", "config.h",
             "config.status", "libtool"}

PATH_REF = re.compile(r"(?<![\w./-])((?:%s)/[\w.*+/-]*[\w*])" % "|".join(re.escape(d) for d in TOP_DIRS))
NAME_REF = re.compile(r"(?<![\w.-])(pp_\w+\.[ch]|[\w-]+\.md)\b")


def commentary(rel, text):
    """The parts of a file that are prose: all of a document, the comments of
    code (and Python's docstrings)."""
    if rel.endswith(".md") or os.path.basename(rel) == "README":
        return text
    parts = []
    if rel.endswith((".c", ".h")):
        parts += re.findall(r"/\*.*?\*/", text, re.S)
        parts += re.findall(r"//[^\n]*", text)
    elif rel.endswith((".f90", ".F90", ".f")):
        parts += re.findall(r"![^\n]*", text)
    if rel.endswith(HASH_COMMENTS):
        parts += re.findall(r"(?:^|\s)#[^\n]*", text)
    if rel.endswith(".py"):
        parts += re.findall(r'"""(?:.|\n)*?"""', text)
    return "\n".join(parts)


def build_products(src):
    """Patterns of what a build makes (the .gitignore files): a comment may
    name those without the build having run."""
    patterns = []
    for rel in walk(src):
        if os.path.basename(rel) != ".gitignore":
            continue
        base = os.path.dirname(rel)
        with open(os.path.join(src, rel), encoding="utf-8") as f:
            for line in f:
                line = line.strip().rstrip("/")
                if not line or line.startswith(("#", "!")):
                    continue
                if line.startswith("/"):
                    patterns.append(os.path.join(base, line[1:]))
                elif "/" not in line:  # a name anywhere below
                    patterns.append(os.path.join(base, "**", line) if base else "*" + line)
    return patterns


def walk(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames
                       if d not in SKIP_DIRS and not d.startswith("pompprof-")]
        for f in filenames:
            yield os.path.relpath(os.path.join(dirpath, f), root)


def main():
    src = os.path.abspath(os.environ.get("top_srcdir", "."))
    build = os.path.abspath(os.environ.get("top_builddir", src))
    known = set(walk(src)) | set(walk(build))
    known_dirs = {os.path.dirname(p) for p in known}
    for p in list(known_dirs):
        while p:
            p = os.path.dirname(p)
            known_dirs.add(p)
    basenames = {os.path.basename(p) for p in known}
    products = build_products(src)
    scanned, problems = 0, []
    for rel in sorted(set(walk(src))):
        base = os.path.basename(rel)
        if base in GENERATED or rel.startswith(NOT_SCANNED) \
                or not (base.endswith(TEXT_SUFFIXES) or base == "README"):
            continue
        try:
            with open(os.path.join(src, rel), encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError):
            continue
        scanned += 1
        for line in commentary(rel, text).splitlines():
            for ref in PATH_REF.findall(line):
                ref = ref.rstrip(".")
                if "*" in ref:
                    ok = any(fnmatch.fnmatch(p, ref) for p in known)
                else:
                    # a module may be named without its suffix (lib/pp_signals)
                    ok = ref in known or ref.rstrip("/") in known_dirs \
                        or any(p.startswith(ref + ".") for p in known) \
                        or any(fnmatch.fnmatch(ref, p) or ref.startswith(p + "/")
                               for p in products)
                if not ok:
                    problems.append("%s: names %s, which does not exist" % (rel, ref))
            for ref in NAME_REF.findall(line):
                if ref not in basenames:
                    problems.append("%s: names %s, which does not exist" % (rel, ref))
    for p in problems:
        print("FAIL: " + p)
    print("%d files scanned, %d dangling references" % (scanned, len(problems)))
    if scanned < 50:
        print("FAIL: only %d files scanned: is top_srcdir right?" % scanned)
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
