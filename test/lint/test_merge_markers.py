"""No text file of the project holds a leftover merge-conflict marker: a line
that is exactly seven '=' or starts with seven '<' or '>' and a space.  Such a
line in a document reads as part of it and in code may even compile (inside a
comment or a string), so nothing else catches it."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_file_references as refs  # noqa: E402

MARKER = re.compile(r"^(?:={7}|<{7} .*|>{7} .*)$", re.M)


def main():
    src = os.path.abspath(os.environ.get("top_srcdir", "."))
    found, scanned = [], 0
    for rel, text in refs.project_texts(src):
        scanned += 1
        for m in MARKER.finditer(text):
            found.append("%s:%d: %s" % (rel, text.count("\n", 0, m.start()) + 1, m.group(0)[:40]))
    for line in found:
        print("FAIL: merge-conflict marker at " + line)
    if scanned < 50:
        print("FAIL: only %d files scanned: is top_srcdir right?" % scanned)
        return 1
    print("%d files scanned" % scanned)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
