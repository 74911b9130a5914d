#!/bin/sh
# Copy the source tree $top_srcdir without build products to $1 (created),
# for a nested build: CI configures in-tree, and a configured source tree
# cannot host another (VPATH) build.  Used by test/robust/sanitize.sh and
# test/mpi/test_mpi_configure.sh.
set -u
: "${top_srcdir:?run through make check}" "${1:?usage: clean_copy.sh DEST}"
mkdir -p "$1" || exit 1
(cd "$top_srcdir" && tar -cf - --exclude=.git --exclude=_sanitize --exclude=_tsan --exclude=_nompi \
    --exclude='work-*' \
    --exclude='*.o' --exclude='*.lo' --exclude='*.la' --exclude=.libs --exclude=.deps \
    --exclude=.dirstamp --exclude=config.status --exclude=config.log --exclude=config.h \
    --exclude=stamp-h1 --exclude=libtool --exclude=Makefile --exclude='*.log' \
    --exclude='*.trs' --exclude=pompprof.pc --exclude=autom4te.cache .) |
    (cd "$1" && tar -xf -)
