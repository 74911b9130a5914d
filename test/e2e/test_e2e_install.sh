#!/bin/bash
# `make install` works from this build tree, into a staging directory
# (DESTDIR): the commands, libpompprof, the header and pkg-config file, and
# with MPI support the MPI layer's libraries, which libtool relinks against
# the installed libpompprof (so that one must be installed first).
. "$top_srcdir/test/e2e/e2e_common.sh"

stage=$SCRATCH/stage
# a make of its own: not the jobserver of the make running the tests
if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$top_builddir" install DESTDIR="$stage" \
        >"$SCRATCH/install.log" 2>&1; then
    pass "make install DESTDIR=..."
else
    fail "make install DESTDIR=... failed: $(grep -m1 -iE 'error|cannot' "$SCRATCH/install.log")"
fi

prefix=$(sed -n "s/^prefix = //p" "$top_builddir/Makefile")
libdir=$(sed -n "s/^libdir = //p" "$top_builddir/Makefile" | sed "s|\${exec_prefix}|$prefix|")
root=$stage$prefix
want="bin/pompprof bin/pompprof-report bin/pompprof-diff bin/pompprof-scaling
      bin/pompprof-timeline bin/pompprof-score bin/pompprof-view include/pompprof.h"
for f in $want; do
    [ -e "$root/$f" ] && pass "installed $f" || fail "not installed: $f"
done
for f in libpompprof.so pkgconfig/pompprof.pc; do
    [ -e "$stage$libdir/$f" ] && pass "installed $f" || fail "not installed: $libdir/$f"
done
# a man page per installed command, made of its --help; `man pompprof-report` finds it
for c in $(cd "$root/bin" && ls pompprof*); do
    page=$(find "$root/share/man/man1" -name "$c.1*" 2>/dev/null | head -1)
    if [ -z "$page" ]; then
        fail "not installed: share/man/man1/$c.1"
        continue
    fi
    text=$(MANPATH="$root/share/man" MANWIDTH=100 man "$c" 2>&1)
    if printf '%s\n' "$text" | grep -q "^NAME" && printf '%s\n' "$text" | grep -q -- "--help" \
            && printf '%s\n' "$text" | grep -q "^ *$c  *- "; then
        pass "man $c"
    else
        fail "man $c: $(printf '%s\n' "$text" | head -3 | tr '\n' ' ')"
    fi
done
if [ -f "$top_builddir/libpompprof_mpi.la" ]; then
    lib=$stage$libdir/libpompprof_mpi.so
    if [ -e "$lib" ]; then
        readelf -d "$lib" | grep -q 'NEEDED.*libpompprof\.so' \
            && pass "libpompprof_mpi needs libpompprof" \
            || fail "libpompprof_mpi.so does not name libpompprof.so"
    else
        fail "not installed: $libdir/libpompprof_mpi.so"
    fi
fi
if [ -f "$top_builddir/libpompprof_ompt.la" ]; then
    # the OMPT tool: its own engine, ompt_start_tool its only export
    lib=$stage$libdir/libpompprof_ompt.so
    if [ -e "$lib" ]; then
        exports=$(nm -D --defined-only "$lib" | awk '{print $3}' | tr '\n' ' ')
        [ "$exports" = "ompt_start_tool " ] && pass "libpompprof_ompt exports ompt_start_tool only" \
            || fail "libpompprof_ompt.so exports: $exports"
    else
        fail "not installed: $libdir/libpompprof_ompt.so"
    fi
fi
[ "$failures" -eq 0 ]
