#!/bin/sh
# demo.sh: profile one example with the INSTALLED pompprof and show the report.
#
#     bash examples/demo.sh [example]      (default: fib_cutoff)
#
# Needs pompprof and pompprof-report on PATH ('make install'; the default
# prefix /usr/local puts them in /usr/local/bin).  Compiles the example with
# 'pompprof gcc -fopenmp -O2', runs it on 2 threads writing the profile into
# a fresh directory under /tmp, prints the program's output and then the
# report.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
example=${1:-fib_cutoff}
case $example in
    fib_cutoff) args="40 10" ;;
    treewalk) args="11" ;;
    *) args="" ;;
esac
src=$here/$example.c
if [ ! -f "$src" ]; then
    echo "demo.sh: no example named '$example' in $here" >&2
    exit 1
fi
if ! command -v pompprof >/dev/null 2>&1; then
    echo "demo.sh: 'pompprof' is not on PATH; run 'make install' first (default prefix /usr/local: add /usr/local/bin to PATH)" >&2
    exit 1
fi
if ! command -v gcc >/dev/null 2>&1; then
    echo "demo.sh: 'gcc' is not on PATH (Debian package: gcc)" >&2
    exit 1
fi

work=$(mktemp -d /tmp/pompprof-demo.XXXXXX)
echo "== pompprof gcc -fopenmp -O2 $src -o $work/$example -lm"
pompprof gcc -fopenmp -O2 "$src" -o "$work/$example" -lm

echo "== OMP_NUM_THREADS=2 POMPPROF_OUTPUT=$work/profile $work/$example $args"
mkdir "$work/profile"
# shellcheck disable=SC2086 # args holds several words on purpose
OMP_NUM_THREADS=2 POMPPROF_OUTPUT=$work/profile "$work/$example" $args

profile=$(find "$work/profile" -name '*.cubex' | head -1)
if [ -z "$profile" ]; then
    echo "demo.sh: the run wrote no profile into $work/profile" >&2
    exit 1
fi
echo "== profile: $profile ($(wc -c <"$profile") bytes)"

if ! command -v pompprof-report >/dev/null 2>&1; then
    echo "demo.sh: 'pompprof-report' is not on PATH, cannot show the report (is the installation complete?)" >&2
    exit 1
fi
echo "== pompprof-report $profile"
pompprof-report "$profile"
echo "== done; the profile also opens in the Cube GUI: cube $profile"
