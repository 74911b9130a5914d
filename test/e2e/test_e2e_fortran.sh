#!/bin/sh
# Fortran through pompprof: free-form (.f90), fixed-form (.f) and preprocessed
# (.F90) sources are instrumented by OPARI2 and linked with libpompprof's
# Fortran bindings; a program mixes Fortran and C.  Every program is built
# plain and through the wrapper (from another directory, as ../src/x.f90),
# run with 1, 2 and 4 threads: stdout and exit status must be identical, and
# the profile read back must hold each construct with the visit counts the
# program implies (counts derived from the sources, lines found in them).
. "$top_srcdir/test/e2e/e2e_common.sh"
if [ "${FORTRAN_BINDINGS:-no}" != yes ]; then
    echo "SKIP: Fortran bindings not built (configure found no working Fortran compiler)"
    exit 77
fi
FC=${FC:-gfortran}  # the compiler configure built the bindings for
cd "$SCRATCH" || exit 99
mkdir src plain wrapped
for f in workshare.f90 fconstructs.f90 fnested.f90 ffixed.f fmixed.F90 fmixed_c.c fapi.f90; do
    cp "$PROGS/$f" src/ || exit 99
done
"$FC" -fopenmp src/workshare.f90 -o plain/probe 2>/dev/null ||
    { echo "SKIP: $FC cannot build OpenMP programs"; exit 77; }
nm -D "$POMPPROF_LIBDIR/libpompprof.so" | grep -q ' T pomp2_parallel_fork_' || {
    fail "libpompprof.so does not export the Fortran bindings (pomp2_*_ symbols)"
    finish
}
ls src >before.txt

# build DIR COMPILER-DRIVER...: the same build steps, plain or wrapped
build() {
    (
        cd "$1" && shift &&
            "$@" "$FC" -fopenmp ../src/workshare.f90 -o workshare &&
            "$@" "$FC" -fopenmp -O1 ../src/fconstructs.f90 -o fconstructs &&
            "$@" "$FC" -fopenmp ../src/fnested.f90 -o fnested &&
            "$@" "$FC" -fopenmp -c ../src/ffixed.f &&
            "$@" "$FC" -fopenmp ffixed.o -o ffixed &&
            "$@" $CC $OPENMP_CFLAGS -c ../src/fmixed_c.c &&
            "$@" "$FC" -fopenmp -c ../src/fmixed.F90 &&
            "$@" "$FC" -fopenmp fmixed.o fmixed_c.o -o fmixed
    )
}
build plain || { fail "plain build"; finish; }
build wrapped "$WRAPPER" || { fail "build through pompprof"; finish; }
pass "built plain and through pompprof"
nm wrapped/ffixed.o | grep -q ' U pomp2_parallel_fork_' && pass "fixed-form object instrumented" ||
    fail "ffixed.o calls no pomp2_parallel_fork_"
nm wrapped/fmixed.o | grep -q ' T pomp2_init_reg_' && pass ".F90 object instrumented" ||
    fail "fmixed.o defines no pomp2_init_reg_*"

PROGRAMS="workshare fconstructs fnested ffixed fmixed"
for t in 1 2 4; do
    for p in $PROGRAMS; do
        OMP_NUM_THREADS=$t ./plain/$p >p.out 2>/dev/null
        ps=$?
        OMP_NUM_THREADS=$t POMPPROF_OUTPUT="$SCRATCH/prof_${p}_$t.cubex" ./wrapped/$p >w.out 2>w.err
        ws=$?
        [ "$ps" -eq "$ws" ] && cmp -s p.out w.out && pass "$p t=$t: same output, status $ws" ||
            fail "$p t=$t: status $ps/$ws or output differs: $(cat p.out) / $(cat w.out)"
        grep -q pompprof w.err && fail "$p t=$t: pompprof warned: $(cat w.err)"
        is_cubex "prof_${p}_$t.cubex" || fail "$p t=$t: no profile written"
    done
done
OMP_NUM_THREADS=2 OMP_MAX_ACTIVE_LEVELS=2 POMPPROF_OUTPUT="$SCRATCH/prof_nested.cubex" \
    ./wrapped/fnested >n.out || fail "nested run"
[ "$(cat n.out)" = "consistent=T" ] || fail "nested output: $(cat n.out)"

# The profiles, read back with the tools' reader.
PYTHONPATH=$top_srcdir/scripts "${PYTHON3:-python3}" - "$SCRATCH" <<'PY' || fail "profile contents"
import os
import re
import sys

from pompprof_tools.cube import cubex

scratch = sys.argv[1]
src = os.path.join(scratch, "src")
problems = []


def check(ok, what):
    if not ok:
        problems.append(what)
    return ok


def source_lines(fname):
    with open(os.path.join(src, fname)) as f:
        return f.read().splitlines()


def line_of(fname, pattern, nth=1):
    """Line number of the nth source line matching pattern (case-insensitive)."""
    hits = [i + 1 for i, text in enumerate(source_lines(fname))
            if re.search(pattern, text, re.I)]
    return hits[nth - 1]


def constant(fname, pattern):
    for text in source_lines(fname):
        m = re.search(pattern, text)
        if m:
            return int(m.group(1))
    raise SystemExit("%s: no match for %s" % (fname, pattern))


def region(what, fname, pattern, nth=1):
    return "!$omp %s @%s:%d" % (what, fname, line_of(fname, pattern, nth))


def nodes(cube, name):
    return [c for c in cube.cnodes_in_order() if c.region.name == name]


def visits(cube, c):
    return list(cube.row("visits", c))


def total_visits(cube, name):
    return sum(sum(visits(cube, c)) for c in nodes(cube, name))


def one_node(cube, name, where):
    found = nodes(cube, name)
    check(len(found) == 1, "%s: %d cnodes named %r, expected 1" % (where, len(found), name))
    return found[0] if found else None


def expect_visits(cube, name, expected, where):
    c = one_node(cube, name, where)
    if c is not None:
        check(visits(cube, c) == expected,
              "%s: %r visits %s, expected %s" % (where, name, visits(cube, c), expected))
    return c


def expect_total(cube, name, expected, where):
    got = total_visits(cube, name)
    check(got == expected, "%s: %r visited %d times in all, expected %d"
          % (where, name, got, expected))


def no_unknown(cube, where):
    for c in cube.cnodes_in_order():
        check("unknown" not in c.region.name, "%s: region %r" % (where, c.region.name))


F = "fconstructs.f90"
ntasks = constant(F, r"ntasks = (\d+)")
nordered = constant(F, r"nordered = (\d+)")
ncalls = constant("fmixed.F90", r"#define NCALLS (\d+)")

for t in (1, 2, 4):
    every = [1] * t
    cube = cubex.load(os.path.join(scratch, "prof_fconstructs_%d.cubex" % t))
    where = "fconstructs t=%d" % t
    check(len(cube.locations) == t, "%s: %d locations" % (where, len(cube.locations)))
    no_unknown(cube, where)
    par = expect_visits(cube, region("parallel", F, r"^!\$omp parallel do reduction"), every, where)
    loop = expect_visits(cube, region("do", F, r"^!\$omp parallel do reduction"), every, where)
    if par and loop:
        check(par.parent.parent is None and loop.parent is par, where + ": parallel do nesting")
    expect_visits(cube, region("parallel", F, r"^!\$omp parallel shared"), every, where)
    expect_total(cube, region("critical (count)", F, r"^!\$omp critical \(count\)"), t, where)
    expect_total(cube, region("critical sblock (count)", F, r"^!\$omp critical \(count\)"), t,
                 where)
    expect_visits(cube, region("single", F, r"^!\$omp single$"), every, where)
    expect_total(cube, region("single sblock", F, r"^!\$omp single$"), 1, where)
    master = expect_visits(cube, region("master", F, r"^!\$omp master$"), [1] + [0] * (t - 1),
                           where)
    expect_visits(cube, region("barrier", F, r"^!\$omp barrier$"), every, where)
    expect_visits(cube, region("sections", F, r"^!\$omp sections$"), every, where)
    expect_total(cube, region("section", F, r"^!\$omp sections$"), 2, where)
    for nth in (1, 2):
        expect_total(cube, region("atomic", F, r"^!\$omp atomic$", nth), 1, where)
    task = region("task", F, r"^!\$omp task ")
    roots = [c for c in cube.task_roots() if c.region.name == task]
    check(len(roots) == 1 and sum(visits(cube, roots[0])) == ntasks,
          "%s: task root %r: %s, expected %d instances"
          % (where, task, [visits(cube, c) for c in roots], ntasks))
    expect_total(cube, region("create task", F, r"^!\$omp task "), ntasks, where)
    expect_total(cube, region("taskwait", F, r"^!\$omp taskwait"), 1, where)
    expect_total(cube, region("ordered", F, r"^!\$omp ordered$"), nordered, where)
    expect_total(cube, region("ordered sblock", F, r"^!\$omp ordered$"), nordered, where)
    for name, n in (("omp_init_lock", 1), ("omp_init_nest_lock", 1), ("omp_set_lock", t),
                    ("omp_unset_lock", t), ("omp_set_nest_lock", 2 * t),
                    ("omp_unset_nest_lock", 2 * t), ("omp_destroy_lock", 1),
                    ("omp_destroy_nest_lock", 1)):
        expect_total(cube, name, n, where)

    W = "workshare.f90"
    cube = cubex.load(os.path.join(scratch, "prof_workshare_%d.cubex" % t))
    where = "workshare t=%d" % t
    no_unknown(cube, where)
    par = expect_visits(cube, region("parallel", W, r"^!\$omp parallel$"), every, where)
    ws = expect_visits(cube, region("workshare", W, r"^!\$omp workshare$"), every, where)
    if par and ws:
        check(ws.parent is par, where + ": workshare not inside the parallel region")

    X = "ffixed.f"
    cube = cubex.load(os.path.join(scratch, "prof_ffixed_%d.cubex" % t))
    where = "ffixed t=%d" % t
    no_unknown(cube, where)
    expect_visits(cube, region("parallel", X, r"^!\$OMP PARALLEL DO"), every, where)
    expect_visits(cube, region("do", X, r"^!\$OMP PARALLEL DO"), every, where)
    expect_visits(cube, region("parallel", X, r"^C\$OMP PARALLEL SECTIONS"), every, where)
    expect_visits(cube, region("sections", X, r"^C\$OMP PARALLEL SECTIONS"), every, where)
    expect_total(cube, region("section", X, r"^C\$OMP PARALLEL SECTIONS"), 2, where)
    for nth in (1, 2):
        expect_total(cube, region("critical", X, r"^C\$OMP CRITICAL$", nth), 1, where)

    M, MC = "fmixed.F90", "fmixed_c.c"
    cube = cubex.load(os.path.join(scratch, "prof_fmixed_%d.cubex" % t))
    where = "fmixed t=%d" % t
    no_unknown(cube, where)
    fpar = expect_visits(cube, region("parallel", M, r"^!\$omp parallel"), every, where)
    cpar = nodes(cube, region("parallel", MC, r"#pragma omp parallel"))
    serial = [c for c in cpar if c.parent.parent is None]
    inside = [c for c in cpar if c.parent is fpar]
    check(len(cpar) == 2 and len(serial) == 1 and len(inside) == 1,
          "%s: C parallel region at %s" % (where, [c.parent.region.name for c in cpar]))
    if serial and inside:
        check(visits(cube, serial[0]) == [ncalls] * t,
              "%s: serial calls %s" % (where, visits(cube, serial[0])))
        check(visits(cube, inside[0]) == every,
              "%s: calls from the Fortran team %s" % (where, visits(cube, inside[0])))

# nested Fortran parallel regions: the inner team hangs below the outer
# region on all 4 threads (the fork context travels in /pomp_tpd/)
N = "fnested.f90"
cube = cubex.load(os.path.join(scratch, "prof_nested.cubex"))
where = "fnested nested"
check(len(cube.locations) == 4, "%s: %d locations" % (where, len(cube.locations)))
outer = one_node(cube, region("parallel", N, r"^!\$omp parallel", 1), where)
inner = one_node(cube, region("parallel", N, r"^!\$omp parallel", 2), where)
if outer and inner:
    check(outer.parent.parent is None and inner.parent is outer, where + ": nesting")
    check(visits(cube, inner) == [1, 1, 1, 1], "%s: inner %s" % (where, visits(cube, inner)))
    check(sorted(visits(cube, outer)) == [0, 0, 1, 1],
          "%s: outer %s" % (where, visits(cube, outer)))

for p in problems:
    print("FAIL: " + p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY
pass "profiles read back"

# The rest of the API: every pomp2_*_ symbol the instrumented objects use is
# in the library, and untied tasks, test locks, user regions and inst off/on
# are measured.
(cd plain && "$FC" -fopenmp -c ../src/fapi.f90 && "$FC" -fopenmp fapi.o -o fapi) &&
    (cd wrapped && "$WRAPPER" --opari2-arg=--omp-task-untied=keep "$FC" -fopenmp -c \
        ../src/fapi.f90 2>/dev/null && "$WRAPPER" "$FC" -fopenmp fapi.o -o fapi) ||
    fail "build fapi"
nm -D --defined-only "$POMPPROF_LIBDIR/libpompprof.so" | awk '{print $NF}' | sort -u >defined
nm -u wrapped/*.o | awk '{print $NF}' | grep -E '^(pomp2_|pomp_tpd_)' | sort -u >used
grep -q -x pomp2_untied_task_begin_ used && [ "$(wc -l <used)" -ge 45 ] ||
    fail "few Fortran POMP2 references: $(wc -l <used)"
missing=$(comm -23 used defined)
[ -z "$missing" ] && pass "all $(wc -l <used) Fortran POMP2 references defined" ||
    fail "referenced but not defined: $missing"
OMP_NUM_THREADS=2 ./plain/fapi >p.out
OMP_NUM_THREADS=2 POMPPROF_OUTPUT="$SCRATCH/prof_fapi.cubex" ./wrapped/fapi >w.out 2>/dev/null
cmp -s p.out w.out && pass "fapi: same output" || fail "fapi output: $(cat p.out) / $(cat w.out)"
PYTHONPATH=$top_srcdir/scripts "${PYTHON3:-python3}" - "$SCRATCH" <<'PY' || fail "fapi profile"
import os
import re
import sys

from pompprof_tools.cube import cubex

scratch = sys.argv[1]
with open(os.path.join(scratch, "src", "fapi.f90")) as f:
    lines = f.read().splitlines()
task_line = next(i + 1 for i, t in enumerate(lines) if t.startswith("!$omp task untied"))
ntasks = int(next(re.search(r"do k = 1, (\d+)", t).group(1) for t in lines if "do k = 1," in t))
cube = cubex.load(os.path.join(scratch, "prof_fapi.cubex"))
problems = []
cn = cube.cnodes_in_order()
user = [c for c in cn if c.region.name == "fapi_user" and c.region.paradigm == "user"]
if len(user) != 1 or list(cube.row("visits", user[0])) != [1, 0]:
    problems.append("user region fapi_user: %s" % [list(cube.row("visits", c)) for c in user])
elif [c.region.role for c in user[0].children] != ["parallel"]:
    problems.append("user region children %s" % [c.region.name for c in user[0].children])
roots = [c for c in cube.task_roots()
         if c.region.name == "!$omp untied task @fapi.f90:%d" % task_line]
if len(roots) != 1 or sum(cube.row("visits", roots[0])) != ntasks:
    problems.append("untied task roots %s, expected %d instances"
                    % ([list(cube.row("visits", c)) for c in roots], ntasks))
tests = [c for c in cn if c.region.name in ("omp_test_lock", "omp_test_nest_lock")]
if len(tests) != 2 or any(list(cube.row("visits", c)) != [1, 1] for c in tests):
    problems.append("test lock wrappers %s" % [list(cube.row("visits", c)) for c in tests])
if any("workshare" in c.region.name for c in cn):
    problems.append("the workshare between inst off and inst on was measured")
for p in problems:
    print("FAIL: fapi: " + p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY

# Messages point at the user's file and line, as in a plain build: free form
# (compiled without the C preprocessor) and .F90 (with it).
printf 'program bad\n  integer :: x\n!$omp parallel\n  x = "a"\n!$omp end parallel\nend program\n' \
    >src/bad.f90
cp src/bad.f90 src/bad2.F90
for f in bad.f90 bad2.F90; do
    (cd plain && "$FC" -fopenmp -c ../src/$f 2>../p.err)
    (cd wrapped && "$WRAPPER" "$FC" -fopenmp -c ../src/$f 2>../w.err)
    grep -q "^\.\./src/$f:4:" w.err && cmp -s p.err w.err && pass "$f: same error message" ||
        fail "$f: messages differ: $(cat p.err) /// $(cat w.err)"
done
rm src/bad.f90 src/bad2.F90

ls src | cmp -s - before.txt && pass "no files left next to the sources" ||
    fail "stray files: $(ls src)"
finish
