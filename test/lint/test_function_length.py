"""Every Python function of the tools (scripts/) and of the tests' modules other than the
tests themselves (test/**/*.py not named test_*.py: helpers such as toolstest.py) is at
most LIMIT lines long, from its `def` line to its last line, nested functions included:
a longer one does more than a reader takes in at once and gets split along its seams
(issue 32).  Lengths are measured with Python's own parser (ast).  The C functions are
measured by a test of their own."""
import ast
import os
import sys

LIMIT = 79
ROOTS = ("scripts", "test")
SKIP_DIRS = {"__pycache__", ".libs", ".deps"}


def python_files(src):
    """The measured files, relative to src, in order."""
    for root in ROOTS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(src, root)):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
            for name in sorted(filenames):
                rel = os.path.relpath(os.path.join(dirpath, name), src)
                if name.endswith(".py") and not (root == "test" and name.startswith("test_")):
                    yield rel


def long_functions(text, where):
    """(name, first line, length) of every function of the source text above LIMIT."""
    for node in ast.walk(ast.parse(text, where)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > LIMIT:
                yield node.name, node.lineno, length


def measures_right():
    """The measure itself: of two functions, LIMIT and LIMIT + 1 lines long (a
    docstring, a nested function and blank lines included), only the second is found."""
    def function(name, lines):
        body = ['    """%s."""' % name, "    def inner():", "        return 1", ""]
        body += ["    x = %d" % k for k in range(lines - 1 - len(body) - 1)]
        return "\n".join(["def %s():" % name] + body + ["    return x"])
    text = function("fits", LIMIT) + "\n\n\n" + function("too_long", LIMIT + 1) + "\n"
    return list(long_functions(text, "<sample>")) == [("too_long", LIMIT + 3, LIMIT + 1)]


def main():
    src = os.path.abspath(os.environ.get("top_srcdir", "."))
    if not measures_right():
        print("FAIL: the measure of a function's length is wrong")
        return 1
    found, scanned = [], 0
    for rel in python_files(src):
        scanned += 1
        with open(os.path.join(src, rel), encoding="utf-8") as f:
            text = f.read()
        for name, line, length in long_functions(text, rel):
            found.append("%s:%d: %s is %d lines long (at most %d)"
                         % (rel, line, name, length, LIMIT))
    for line in found:
        print("FAIL: " + line)
    if scanned < 50:
        print("FAIL: only %d files measured: is top_srcdir right?" % scanned)
        return 1
    print("%d files measured, %d functions longer than %d lines" % (scanned, len(found), LIMIT))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
