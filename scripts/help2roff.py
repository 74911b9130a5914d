#!/usr/bin/env python3
"""Make a man page (roff, section 1) of a command's --help text: the build runs
`COMMAND --help | help2roff.py COMMAND VERSION SUMMARY > man/COMMAND.1`, so every
command's page says what its --help says, and stays so.

The usage lines become SYNOPSIS, the rest DESCRIPTION, kept as the help lays it out
(a no-fill block: the help texts are laid out for a terminal already); the settings
of libpompprof (README.md's table) are not repeated: SEE ALSO points to the README."""
import sys


def roff_escape(line: str) -> str:
    line = line.replace("\\", "\\e")
    if line.startswith((".", "'")):
        line = "\\&" + line
    return line.replace("-", "\\-")


def main(argv):
    if len(argv) != 4:
        sys.exit("usage: help2roff.py COMMAND VERSION SUMMARY < help-text")
    name, version, summary = argv[1:]
    lines = sys.stdin.read().rstrip("\n").split("\n")
    usage = []
    while lines and (not usage or lines[0].startswith(" ")) and lines[0].strip():
        text = lines.pop(0)
        usage.append(text[len("usage: "):] if text.startswith("usage: ") else text.strip())
    out = ['.TH "%s" 1 "" "pompprof %s" "pompprof"' % (name.upper(), version),
           ".nh", ".ad l", ".SH NAME", "%s \\- %s" % (name, roff_escape(summary)),
           ".SH SYNOPSIS", ".nf"] + [roff_escape(u) for u in usage] + [".fi",
           ".SH DESCRIPTION", ".nf"]
    out += [roff_escape(x) for x in lines]
    out += [".fi", ".SH SEE ALSO",
            "pompprof(1), pompprof\\-report(1), pompprof\\-diff(1), pompprof\\-scaling(1), "
            "pompprof\\-timeline(1); the README in the pompprof documentation directory "
            "(settings, metrics, examples)."]
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(sys.argv)
