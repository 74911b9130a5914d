"""The wrapper's merge of adjacent task events (scripts/pompprof_tools/wrapper/adjacent.py,
doc/wrapper.md "Adjacent task events"), on real OPARI2 output: the wrapper's text of a
source with the pass off (POMPPROF_MERGE_CALLS=0, --keep), merged by the pass.  Exactly
the expected pairs are merged (found by the source lines in their region strings), with
the expected `pomp2_if = 1;`; nothing else changes; every line keeps its place, so every
line marker and every line of user code keeps its file:line; braces balance at every
function's end; the merged text compiles with -Wall -Wextra -Werror and warns with
-Wshadow no more than the unmerged one; merging again changes nothing.  The pass counts
OPARI2's task creations and taskwaits (as many as the source has), those in the layout
it reads (all of them) and its merges (the expected pairs).  OPARI2's output with other
spacing merges the same pairs; with a layout the pass does not read (a task block's
brace and pomp2_if on one line) it merges none and its count says what it missed."""

import glob
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import toolstest as T
from pompprof_tools.wrapper import adjacent, prelude
from pompprof_tools.wrapper.ctext import MARKER, line_origins, tokenize
from pompprof_tools.wrapper.tally import Tally

# Each construct is tagged with a comment naming it (the comment's line is the
# construct's); EXPECT lists the merges: (first, second, first's if needs resetting).
SOURCE = """int work(int);
void f(int n, int c, int *a)
{
    int x = 0, y = 0;
#pragma omp task if(c) shared(x) /* T1 */
    x = work(1);
#pragma omp task shared(y) /* T2 */
    y = work(2);
#pragma omp task if(n > 2) shared(y) /* T3 */
    y += work(3);
#pragma omp task untied shared(x) /* T4 */
    x += work(4);
    x++;
#pragma omp task depend(out: a[0]) shared(a) /* T5 */
    a[0] = work(5);
#pragma omp task depend(in: a[0]) shared(a) /* T6 */
    a[1] = work(6);
#pragma omp taskwait depend(in: a[1]) /* W1 */
    if (c)
#pragma omp task /* T7 */
        work(7);
#pragma omp task /* T8 */
    work(8);
#pragma omp task /* T9 */
    {
#pragma omp task /* T10 */
        work(9);
#pragma omp task /* T11 */
        work(10);
#pragma omp taskwait /* W2 */
    }
#pragma omp taskwait /* W3 */
    for (int i = 0; i < n; i++) {
#pragma omp task firstprivate(i) /* T12 */
        work(i);
#pragma omp task firstprivate(i) /* T13 */
        work(i + 1);
#pragma omp task firstprivate(i) /* T14 */
        work(i + 2);
    }
#pragma omp taskwait /* W4 */
#pragma omp task if(0) /* T15 */
    work(11);
#pragma omp task /* T16 */
    work(12);
#pragma omp taskyield
#pragma omp task /* T17 */
    work(13);
#pragma omp taskwait /* W5 */
#pragma omp task /* T18 */
    work(14);
again:
#pragma omp task /* T19 */
    work(15);
    if (x > 100) { x = 0; goto again; }
#pragma omp taskgroup
    {
#pragma omp task /* T20 */
        work(16);
    }
#pragma omp task /* T21 */
    work(17);
#pragma omp scope
#pragma omp task /* T22 */
    work(18);
#pragma omp task /* T23 */
    work(19);
#pragma omp taskwait /* W7 */
    work(x + y);
}
"""
EXPECT = {
    ("T1", "T2", True),     # the first's if clause: its pomp2_if set to 1
    ("T3", "T4", True),     # T2 -> T3: an if clause on the second
    # T4 -> T5: user code between
    ("T5", "T6", False),    # depend clauses: recorded after the creation
    # T6 -> W1: the taskwait's depend recording between
    # T7 -> T8: T7 is the body of `if (c)`
    ("T8", "T9", False),
    ("T10", "T11", False),  # inside T9's body
    ("T11", "W2", False),   # a chain: T10's block
    ("T9", "W3", False),    # nested tasks inside the first's body
    ("T12", "T13", False),
    ("T13", "T14", False),  # a chain of three: T12's block
    # T14 -> W4: the loop's brace between
    ("T15", "T16", True),   # if(0) on the first
    # T16 -> T17: the taskyield (pompprof_old_task) between
    ("T17", "W5", False),
    # T18 -> T19: a label between
    # T20 -> T21: the taskgroup's end between; T22 is the body of `scope`
    ("T23", "W7", False),
}
# the same with untied tasks kept (POMP2_Untied_task_*)
UNTIED = """int work(int);
void g(void)
{
#pragma omp task untied /* U1 */
    work(1);
#pragma omp task untied /* U2 */
    work(2);
#pragma omp task /* U3 */
    work(3);
#pragma omp taskwait /* U4 */
}
"""
UNTIED_EXPECT = {("U1", "U2", False), ("U2", "U3", False), ("U3", "U4", False)}

NEXT = re.compile(r"^(pomp2_if = 1; )?POMP2_Task_create_next\( &(opari2_region_\d+), "
                  r"pomp2_old_task, &(opari2_region_\d+), &pomp2_new_task, \"")
WAIT = re.compile(r"^POMP2_Task_create_end_wait\( &(opari2_region_\d+), pomp2_old_task, "
                  r"&(opari2_region_\d+), \"")
REGION = re.compile(r"&(opari2_region_\d+), &pomp2_\w+_task, [^\n]*?"
                    r"\"\d+\*regionType=\w+\*sscl=[^:\"]*:(\d+):")


CONSTRUCTS = re.compile(r"#pragma omp (?:task|taskwait)\b")


def respaced(text):
    """OPARI2's task lines of text with other spacing (its tokens and lines kept)."""
    def one(line):
        if "omp2" not in line.lower() or line.lstrip().startswith("#"):
            return line
        line = re.sub(r"\s*([(),;&{}=])\s*", r"\1", line)
        return line.replace("(", " ( ").replace("=", " =  ")
    return "\n".join(one(line) for line in text.split("\n"))


def joined_headers(text):
    """text with each task block's `{` and `int pomp2_if = ...;` on one line."""
    return re.sub(r"^\{\n(\s*int pomp2_if = )", r"{ \1", text, flags=re.M)


def wrapper():
    return os.path.abspath(os.path.join(T.TOP_BUILDDIR or T.TOP_SRCDIR, "scripts", "pompprof"))


class Adjacent(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="pp_adjacent_")
        self.kept = []

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)
        for d in self.kept:
            shutil.rmtree(d, ignore_errors=True)

    def unmerged(self, name, source, extra=()):
        """The wrapper's text of source with the pass off."""
        src = os.path.join(self.tmp, name)
        with open(src, "w") as f:
            f.write(source)
        env = dict(os.environ, POMPPROF_MERGE_CALLS="0")
        proc = subprocess.run([T.PYTHON, wrapper(), "--keep"] + list(extra)
                              + ["gcc", "-fopenmp", "-c", src, "-o", src + ".o"],
                              env=env, cwd=self.tmp, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        m = re.search(r"kept intermediate files in (\S+)", proc.stderr)
        self.assertTrue(m, proc.stderr)
        self.kept.append(m.group(1))
        texts = [p for p in glob.glob(os.path.join(m.group(1), "*", "*.i"))
                 if not p.endswith((".pre.i", ".out.i"))]
        self.assertEqual(len(texts), 1, texts)
        with open(texts[0]) as f:
            return f.read()

    @staticmethod
    def tags(source):
        """tag -> source line of the construct it names."""
        return {m.group(1): source[:m.start()].count("\n") + 1
                for m in re.finditer(r"/\* (\w+) \*/", source)}

    def merged_pairs(self, before, text, source):
        """{(first tag, second tag, pomp2_if reset)} of the merged calls in text
        (the merge of before)."""
        by_line = {line: tag for tag, line in self.tags(source).items()}
        handle = {h: by_line.get(int(line)) for h, line in REGION.findall(before)}
        pairs = set()
        for line in text.split("\n"):
            m = NEXT.match(line)
            if m:
                pairs.add((handle[m.group(2)], handle[m.group(3)], bool(m.group(1))))
            m = WAIT.match(line)
            if m:
                pairs.add((handle[m.group(1)], handle[m.group(2)], False))
        return pairs

    def check_layout(self, before, after):
        """Same lines, markers and origins; only the pass's lines changed; braces
        balance at every function's end (depth 0 at a line that is `}` alone at
        depth 1, as the functions of the sources end)."""
        b, a = before.split("\n"), after.split("\n")
        self.assertEqual(len(a), len(b))
        self.assertEqual(line_origins(a, "x"), line_origins(b, "x"))
        for old, new in zip(b, a):
            if MARKER.match(old) or old.startswith("#pragma"):
                self.assertEqual(new, old)
            elif new != old:
                # deleted, or one of the three rewritten kinds of line
                self.assertTrue(
                    new == "" and re.match(r"^\s*(\{|\}|int pomp2_if = .*;|\{ POMP2_Task_handle "
                                           r"pomp2_old_task;|POMP2_Task_handle pomp2_new_task;|"
                                           r"POMP2_(Untied_task|Task)_create_end(_wrapped)?\(.*\); \})"
                                           r"\s*$",
                                           old)
                    or NEXT.match(new) and "_create_begin" in old
                    or WAIT.match(new) and "POMP2_Taskwait_begin" in old
                    or new == old + " }" and "POMP2_Taskwait_end" in old, (old, new))
        for text in (before, after):
            depth, ends = 0, 0
            for tok in tokenize(text):
                if tok.is_("{"):
                    depth += 1
                elif tok.is_("}"):
                    depth -= 1
                    self.assertGreaterEqual(depth, 0)
                    ends += depth == 0
            self.assertEqual(depth, 0)
            self.assertGreaterEqual(ends, 1)

    def compile_text(self, text, name, *flags):
        """gcc's exit status and number of warnings on text, with the merged calls
        declared (text from a wrapper run with the pass off lacks them)."""
        tpd = "extern __thread POMP2_Task_handle pomp_tpd;"
        self.assertIn(tpd, text)
        text = text.replace(tpd, " ".join([tpd] + [prelude.declaration(n) for n in (
            "Task_create_next", "Task_create_end_wait")]), 1)
        path = os.path.join(self.tmp, name + ".i")
        with open(path, "w") as f:
            f.write(text)
        proc = subprocess.run(["gcc", "-fopenmp", "-fpreprocessed", "-O2", "-c", path,
                               "-o", path + ".o"] + list(flags),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True)
        if proc.returncode:
            print(proc.stderr)
        return proc.returncode, proc.stderr.count("warning:")

    def counted(self, text, source, expect, tally=None):
        """text merged; the pass's counts checked against source and expect."""
        tally = tally or Tally()
        after = adjacent.merge(text, tally)
        n = len(CONSTRUCTS.findall(source))
        waits = {m.group(1) for m in re.finditer(r"taskwait.*/\* (\w+) \*/", source)}
        self.assertEqual(tally.as_dict(), {"adjacent": {
            "expected": n, "matched": n,
            "create_next": sum(1 for _, second, _ in expect if second not in waits),
            "create_end_wait": sum(1 for _, second, _ in expect if second in waits)}})
        self.assertEqual(tally.shortfalls(""), [])
        return after

    def check(self, name, source, expect, extra=()):
        before = self.unmerged(name, source, extra)
        self.assertNotIn("create_next", before)
        after = self.counted(before, source, expect)
        self.assertEqual(self.merged_pairs(before, after, source), expect)
        self.check_layout(before, after)
        self.assertEqual(adjacent.merge(after), after)
        for text, what in ((before, "unmerged"), (after, "merged")):
            status, _ = self.compile_text(text, what, "-Wall", "-Wextra", "-Werror")
            self.assertEqual(status, 0, what)
        self.assertLessEqual(self.compile_text(after, "m", "-Wshadow")[1],
                             self.compile_text(before, "u", "-Wshadow")[1])
        os.environ[adjacent.ENVIRONMENT] = "0"
        try:
            self.assertEqual(adjacent.merge(before), before)
        finally:
            del os.environ[adjacent.ENVIRONMENT]
        return after

    def test_cases(self):
        after = self.check("cases.c", SOURCE, EXPECT)
        # the wrapper's own scheduling point stays as it was
        self.assertIn("POMP2_Taskwait_begin(pompprof_handle_", after)

    def test_wrapped_forms(self):
        """OPARI2's task calls come out under the library's _wrapped names (the
        wrapper's own calls and an untied begin keep theirs), and the same merges
        happen with the POMP2 names."""
        before = self.unmerged("cases.c", SOURCE)
        for call in ("Task_create_begin", "Task_create_end", "Task_begin", "Task_end",
                     "Taskwait_begin", "Taskwait_end"):
            self.assertIn("POMP2_%s_wrapped( &opari2_region_" % call, before)
            self.assertNotIn("POMP2_%s( &opari2_region_" % call, before)
        self.assertIn("POMP2_Taskwait_end(pompprof_handle_", before)
        plain = before.replace("_wrapped(", "(")
        after = adjacent.merge(plain)
        self.assertEqual(self.merged_pairs(plain, after, SOURCE), EXPECT)
        self.assertEqual(after, adjacent.merge(before).replace("_wrapped(", "("))

    def test_spacing(self):
        """OPARI2's output with other spacing: the same merges, the same counts."""
        before = self.unmerged("cases.c", SOURCE)
        spaced = respaced(before)
        self.assertNotEqual(spaced, before)
        self.assertNotIn("POMP2_Task_create_begin_wrapped( &", spaced)
        after = self.counted(spaced, SOURCE, EXPECT)
        self.assertEqual(self.merged_pairs(before, after, SOURCE), EXPECT)
        status, _ = self.compile_text(after, "spaced", "-Wall", "-Wextra", "-Werror")
        self.assertEqual(status, 0)

    def test_unknown_layout(self):
        """A task block's header in another layout: nothing merged, and the count of
        what the pass read falls short by the task creations."""
        before = self.unmerged("cases.c", SOURCE)
        joined = joined_headers(before)
        tasks = len(re.findall(r"#pragma omp task\b", SOURCE))
        self.assertEqual(len(re.findall(r"^\{ \s*int pomp2_if", joined, re.M)), tasks)
        tally = Tally()
        self.assertEqual(adjacent.merge(joined, tally), joined)
        n = len(CONSTRUCTS.findall(SOURCE))
        self.assertEqual(tally.as_dict()["adjacent"], {
            "expected": n, "matched": n - tasks, "create_next": 0, "create_end_wait": 0})
        self.assertEqual(tally.shortfalls("cases.c"), [
            "cases.c: %d of %d task creations and taskwaits not recognised in OPARI2's output "
            "(pompprof reads OPARI2 2.0.7's): their adjacent events are not merged into one "
            "call (the profile is the same, the measurement costs more)" % (tasks, n)])

    def test_untied(self):
        after = self.check("untied.c", UNTIED, UNTIED_EXPECT,
                           ["--opari2-arg=--omp-task-untied=keep"])
        # an untied begin keeps its entry point (it tells the engine); the untied
        # creation is the tied one under a second name, and goes to its _wrapped form
        self.assertIn("POMP2_Untied_task_begin( &", after)
        self.assertNotIn("POMP2_Untied_task_create_begin(", after)
        self.assertIn("POMP2_Task_create_begin_wrapped( &", after)

    def test_cplusplus_and_on_by_default(self):
        """The wrapper itself merges (C++ too) unless told not to."""
        src = os.path.join(self.tmp, "fib.cpp")
        with open(src, "w") as f:
            f.write("long fib(int n)\n{\n    long x, y;\n    if (n < 2)\n        return n;\n"
                    "#pragma omp task shared(x)\n    x = fib(n - 1);\n"
                    "#pragma omp task shared(y)\n    y = fib(n - 2);\n"
                    "#pragma omp taskwait\n    return x + y;\n}\n")
        env = dict(os.environ)
        env.pop(adjacent.ENVIRONMENT, None)
        for setting, calls in ((None, {"POMP2_Task_create_next", "POMP2_Task_create_end_wait"}),
                               ("0", set())):
            if setting:
                env[adjacent.ENVIRONMENT] = setting
            subprocess.run([T.PYTHON, wrapper(), "g++", "-fopenmp", "-c", src, "-o", src + ".o"],
                           env=env, check=True, cwd=self.tmp)
            nm = subprocess.run(["nm", "-u", src + ".o"], stdout=subprocess.PIPE, check=True,
                                universal_newlines=True).stdout
            self.assertEqual(set(re.findall(r"POMP2_Task_create_(?:next|end_wait)", nm)), calls)
            self.assertIn("POMP2_Task_create_begin", nm)


if __name__ == "__main__":
    unittest.main()
