#!/usr/bin/env python3
"""An OPARI2 that writes what the real one writes, reformatted (for
test_e2e_opari2_layout.py; not a test itself).

Run with the real OPARI2's arguments: it runs $REAL_OPARI2 with them, then rewrites
the output file (the last argument) and the include file next to the input (the
argument before it) as $OPARI2_REFORMAT says:

  spacing  other spacing and line lengths, the same tokens and lines: C/C++ task lines
           without blanks around punctuation (`if(pomp2_if)POMP2_Task_begin(&...`,
           `{POMP2_Task_handle pomp2_old_task;`), Fortran calls with extra blanks,
           the include file's region strings in pieces of 40 characters with other
           spacing.  The wrapper reads all of it as OPARI2's own.
  layout   layouts the wrapper does not read: C/C++ task calls guarded by
           `if (pomp2_if) {` ... `}` on lines of their own, Fortran region strings
           between apostrophes, comment lines between a Fortran task's creation and
           its directive.  The wrapper must say, per file, what it lost."""

import os
import re
import subprocess
import sys

GUARDED = re.compile(r"\bif \(pomp2_if\)\s+(POMP2_\w+\s*\([^;]*\);)")
F_CREATE = re.compile(r"^\s*call\s+POMP2_(?:Untied_task|Task)_create_begin\b", re.I)


def c_spacing(text):
    def one(line):
        if "omp2" not in line.lower() or line.lstrip().startswith("#"):
            return line
        return re.sub(r"\s*([(),;&{}=])\s*", r"\1", line)
    return "\n".join(one(line) for line in text.split("\n"))


def c_layout(text):
    return GUARDED.sub(lambda m: "if (pomp2_if) {\n%s\n}" % m.group(1), text)


def f_spacing(text):
    return re.sub(r"(?im)^(\s*)call\s+(POMP2_\w+)\(", r"\1call   \2 ( ", text)


def f_layout(text):
    """Ten comment lines after each task creation's END IF."""
    lines, out, after_create = text.split("\n"), [], False
    for line in lines:
        out.append(line)
        if F_CREATE.match(line):
            after_create = True
        elif after_create and line.strip().lower() == "end if":
            out += ["! ----"] * 10
            after_create = False
    return "\n".join(out)


def inc_spacing(text, fixed, width=40):
    """The include file's region strings in pieces of width characters, other spacing
    (test_wrapper_fortran_depend_marks.py uses it too)."""
    def one(m):
        s = "".join(re.findall(r'"([^"\n]*)"', m.group(2)))
        chunks = [s[k:k + width] for k in range(0, len(s), width)]
        if fixed:
            body = "//\n".join('     &"%s"' % c for c in chunks) + ")"
        else:
            body = "// &\n".join('   "%s"' % c for c in chunks)
        return m.group(1) + "\n" + body + "\n"
    text = re.sub(r"(opari2_ctc_\d+\s*=\s*&?)\s*\n(.*?)\n(?=\n)", one, text, flags=re.S)
    return text.replace("CHARACTER (LEN=", "CHARACTER( LEN = ").replace("), parameter :: ",
                                                                        " ),parameter::")


def inc_layout(text):
    return re.sub(r'"([^"\n]*)"', r"'\1'", text)


def rewrite(path, change):
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(change(text))


def main(argv):
    status = subprocess.run([os.environ["REAL_OPARI2"]] + argv).returncode
    if status or len(argv) < 2:
        return status
    mode, out, inc = os.environ["OPARI2_REFORMAT"], argv[-1], argv[-2] + ".opari.inc"
    fortran = "--f90" in argv or "--f77" in argv
    fixed = "--fix-form" in argv
    if fortran:
        rewrite(out, f_spacing if mode == "spacing" else f_layout)
        if os.path.exists(inc):
            rewrite(inc, (lambda t: inc_spacing(t, fixed)) if mode == "spacing" else inc_layout)
    else:
        rewrite(out, c_spacing if mode == "spacing" else c_layout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
