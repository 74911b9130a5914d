"""The wrapper's source rewrites, module by module: line origins and statement
extents in preprocessed C (ctext), directives and the distribution of a
combined construct's clauses (directive), the C/C++ text OPARI2 gets
(rewrite), OPARI2's output made compilable (instrument, prelude) and the
Fortran directives (fortran, fortran_text, fortran_output), all in
scripts/pompprof_tools/wrapper/.  The coverage suite (test/coverage) runs all of this on real
programs; these tests pin the rules down one by one."""

import os
import re
import shutil
import subprocess
import tempfile
import unittest

import toolstest as T
from pompprof_tools import build_config
from pompprof_tools.wrapper import ctext as ct
from pompprof_tools.wrapper import directive as wd
from pompprof_tools.wrapper import fortran as wf
from pompprof_tools.wrapper import fortran_output as wfo
from pompprof_tools.wrapper import fortran_text as wft
from pompprof_tools.wrapper import instrument as wi
from pompprof_tools.wrapper import prelude as wp
from pompprof_tools.wrapper import rewrite as wr

CC = os.environ.get("CC") or "gcc"
STRICT_C = ["-Wall", "-Wextra", "-Wmissing-prototypes", "-Wstrict-prototypes",
            "-Wold-style-definition", "-Wmissing-declarations", "-Werror"]


def code_lines(text, main="m.c"):
    """{(file, line): text} of the lines that are code (not markers, not directives)."""
    lines = text.split("\n")
    out = {}
    for line, origin in zip(lines, ct.line_origins(lines, main)):
        if line.strip() and not line.lstrip().startswith("#"):
            out.setdefault((origin.file, origin.line), []).append(line.strip())
    return out


class Text(unittest.TestCase):
    def test_origins_follow_markers(self):
        lines = ['# 1 "m.c"', "int a;", '# 1 "/usr/include/x.h" 1 3 4', "int b;",
                 '# 7 "m.c" 2', "int c;", "int d;"]
        got = [(o.file, o.line, o.system) for o in ct.line_origins(lines, "m.c")]
        self.assertEqual(got[1], ("m.c", 1, False))
        self.assertEqual(got[3], ("/usr/include/x.h", 1, True))
        self.assertEqual(got[5:], [("m.c", 7, False), ("m.c", 8, False)])
        self.assertEqual(ct.line_origins(lines, "m.c")[3].marker(9), '# 9 "/usr/include/x.h" 3 4')

    def test_tokens(self):
        toks = ct.tokenize('a = "x;{" + \'}\';\n#pragma omp task\nR"d(\n;)d" u8"q" 1.5e+3f')
        self.assertEqual([t.kind for t in toks],
                         ["id", "punct", "str", "punct", "chr", "punct", "directive", "str",
                          "str", "num"])
        self.assertEqual(toks[6].line, 1)
        self.assertEqual(toks[8].line, 3)

    def extent(self, text):
        sc = ct.Code(text).scan(0)
        end = sc.statement_end(0, lambda d: "omp task" in d or "omp parallel" in d)
        return text[sc.toks[0].start:sc.toks[end].end]

    def test_statement_extents(self):
        cases = {
            "x++; y++;": "x++;",
            "{ a; { b; } } c;": "{ a; { b; } }",
            "if (a) b; else if (c) d; else { e; } f;": "if (a) b; else if (c) d; else { e; }",
            "for (i = 0; i < n; i++) for (;;) s += a[i]; t;": "for (i = 0; i < n; i++) for (;;) s += a[i];",
            "while (x) { x--; } y;": "while (x) { x--; }",
            "do { x--; } while (x); y;": "do { x--; } while (x);",
            "switch (c) { case 1: break; } d;": "switch (c) { case 1: break; }",
            "label: x = {1, 2}[0]; y;": "label: x = {1, 2}[0];",
            "auto f = [&](int v) { return v; }; g;": "auto f = [&](int v) { return v; };",
            "try { a(); } catch (int) { } catch (...) { } b;": "try { a(); } catch (int) { } catch (...) { }",
            "[[likely]] x; y;": "[[likely]] x;",
            "if constexpr (A) { a; } b;": "if constexpr (A) { a; }",
            "#pragma omp task\nx++; y++;": "#pragma omp task\nx++;",
        }
        for text, expected in cases.items():
            with self.subTest(text):
                self.assertEqual(self.extent(text), expected)

    def test_unbalanced_text_is_refused(self):
        for text in ("{ a;", "( ]", "a"):
            with self.subTest(text):
                self.assertRaises(ct.TextError, ct.Code(text).scan(0).statement_end, 0,
                                  lambda d: False)

    def test_directive_lines(self):
        code = ct.Code('# 1 "m.c"\n  #pragma omp parallel\nx;\nauto s = R"(\n#pragma omp task\n)";\n')
        self.assertEqual([(t.text, t.line) for t in code.directives],
                         [("#pragma omp parallel", 1)])


class Directives(unittest.TestCase):
    def test_parse(self):
        d = wd.parse(" parallel for simd num_threads(n + 1) reduction(+ : s) nowait")
        self.assertEqual(d.words, ["parallel", "for", "simd"])
        self.assertEqual([c.text() for c in d.clauses],
                         ["num_threads(n + 1)", "reduction(+ : s)", "nowait"])
        self.assertEqual(wd.parse("critical (name) hint(2)").argument, "(name)")
        self.assertEqual(wd.parse("ordered simd").words, ["ordered"])
        self.assertEqual(wd.parse("cancellation point for").words, ["cancellation", "point"])
        self.assertEqual(wd.parse("declare variant(f) match(construct={parallel})").argument,
                         "(f)")
        self.assertEqual(wd.parse("END PARALLEL DO", fortran=True).words,
                         ["end", "parallel", "do"])
        d = wd.parse('error at(execution) message("a (b")')
        self.assertEqual(d.clause("message").args, '"a (b"')
        for bad in ("", "(x)", "parallel num_threads(2"):
            with self.subTest(bad):
                self.assertRaises(wd.DirectiveError, wd.parse, bad)

    def test_clause_lists(self):
        self.assertEqual(wd.Clause("reduction", "task, + : a[0:n], b").list_bases(), ["a", "b"])
        self.assertEqual(wd.Clause("linear", "j, val(k) : 2").list_bases(), ["j", "k"])
        self.assertEqual(wd.Clause("if", "parallel: n > 1").modifier_and_list(),
                         ("parallel", "n > 1"))
        self.assertEqual(wd.Clause("shared", "std::x").modifier_and_list(), (None, "std::x"))

    def split(self, text, leaf="parallel"):
        d = wd.parse(text)
        outer, inner = wd.split_leaf(d, leaf, d.words[1:])
        return outer.text(), inner.text()

    def test_combined_clauses_go_where_openmp_says(self):
        self.assertEqual(self.split("parallel for simd num_threads(2) schedule(static) "
                                    "safelen(4) private(t) firstprivate(f) lastprivate(l) "
                                    "reduction(+ : s) collapse(2) copyin(c) proc_bind(close)"),
                         ("parallel num_threads(2) copyin(c) proc_bind(close)",
                          "for simd schedule(static) safelen(4) private(t) firstprivate(f) "
                          "lastprivate(l) reduction(+ : s) collapse(2)"))
        # default(none): what the inner leaf reads or writes is shared by the team
        self.assertEqual(self.split("parallel for default(none) shared(a) firstprivate(f) "
                                    "reduction(+ : s) linear(j : 1)"),
                         ("parallel default(none) shared(a) shared(f, s, j)",
                          "for firstprivate(f) reduction(+ : s) linear(j : 1)"))
        # if: by modifier, else to every leaf that takes it
        self.assertEqual(self.split("parallel master taskloop if(taskloop: a) if(parallel: b)"),
                         ("parallel if(b)", "master taskloop if(taskloop: a)"))
        self.assertEqual(self.split("parallel master taskloop if(c) shared(x) default(shared)"),
                         ("parallel if(c) shared(x) default(shared)",
                          "master taskloop if(taskloop: c) shared(x) default(shared)"))
        # nothing inside takes it: the parallel does
        self.assertEqual(self.split("parallel master firstprivate(f) reduction(+ : s)"),
                         ("parallel firstprivate(f) reduction(+ : s)", "master"))
        self.assertEqual(self.split("masked taskloop filter(1) grainsize(4)", "masked"),
                         ("masked filter(1)", "taskloop grainsize(4)"))
        self.assertRaises(wd.DirectiveError, self.split, "parallel for bogus(1)")
        self.assertRaises(wd.DirectiveError, self.split, "parallel for allocate(x) private(x)")

    def test_expand_and_treat(self):
        def plan(text, inside=frozenset()):
            return [(leaf.name, wd.treatment(leaf, inside).action,
                     wd.treatment(leaf, inside).region_type)
                    for leaf in wd.expand(wd.parse(text), set(inside))]
        self.assertEqual(plan("parallel for schedule(dynamic)"),
                         [("parallel for", wd.OPARI2, None)])
        self.assertEqual(plan("parallel for order(concurrent)"),
                         [("parallel", wd.OPARI2, None), ("for", wd.OPARI2, None)])
        self.assertEqual(plan("parallel master taskloop simd"),
                         [("parallel", wd.OPARI2, None), ("master", wd.OPARI2, None),
                          ("taskloop simd", wd.OWN, "taskloop")])
        self.assertEqual(plan("parallel loop"), [("parallel", wd.OPARI2, None),
                                                 ("loop", wd.NOTE_ALL, None)])
        self.assertEqual(plan("masked filter(2)"), [("masked", wd.OWN, "masked")])
        self.assertEqual(plan("ordered depend(sink: i - 1)"), [("ordered", wd.OWN, "ordered")])
        self.assertEqual(plan("ordered threads"), [("ordered", wd.OPARI2, None)])
        self.assertEqual(plan("for reduction(task, + : x)"), [("for", wd.OWN, "for+barrier")])
        self.assertEqual(plan("sections", {"cancel sections"}),
                         [("sections", wd.OWN, "sections+barrier")])
        self.assertEqual(plan("for", {wd.RANGE_FOR}), [("for", wd.OWN, "for")])
        self.assertEqual(plan("target teams distribute"),
                         [("target teams distribute", wd.NOTE_ALL, None)])
        for hidden in ("declare simd", "requires atomic_default_mem_order(seq_cst)", "nothing",
                       "scan inclusive(x)", "cancel for", "depobj(o) destroy"):
            with self.subTest(hidden):
                self.assertEqual(plan(hidden)[0][1], wd.HIDE)
        self.assertTrue(wd.treatment(wd.parse("for simd")).hide_inside)
        self.assertTrue(wd.treatment(wd.parse("for reduction(inscan, + : s)")).hide_inside)
        self.assertEqual(wd.for_opari2(wd.parse("task untied final(x) if(task: c)")).text(),
                         "task final(x) if(c) untied")
        self.assertEqual(wd.facts(wd.parse("task depend(in: x) priority(1)")),
                         {"hasDepend": "1", "hasPriority": "1"})


MAIN = '# 0 "m.c"\n# 1 "m.c"\n'


class Rewrite(unittest.TestCase):
    def prepare(self, body, cplusplus=False):
        return wr.prepare(MAIN + body, "m.c", cplusplus)

    def test_every_code_line_keeps_its_origin(self):
        body = ("int main(void)\n{\n    int x = 0, s = 0;\n"
                "#pragma omp parallel master num_threads(2)\n    x++;\n"
                "#pragma omp parallel for simd reduction(+ : s)\n"
                "    for (int i = 0; i < 9; i++) s += i;\n"
                "#pragma omp parallel\n    {\n#pragma omp taskloop\n"
                "        for (int i = 0; i < 9; i++) x += i;\n"
                "#pragma omp atomic\n        x++; }\n    return x + s;\n}\n")
        before = code_lines(MAIN + body)
        after = code_lines(self.prepare(body).text)
        for where, lines in before.items():
            # a line may have been split (a block ends its line), not moved
            got = "".join(after.get(where, [])).replace(" ", "")
            for line in lines:
                self.assertIn(line.replace(" ", ""), got, "%r lost %s:%d" % (line, *where))

    def test_split_and_braced_blocks(self):
        p = self.prepare("void f(void)\n{\n#pragma omp parallel master\n    g();\n}\n")
        lines = p.text.split("\n")
        i = lines.index("#pragma omp parallel")
        self.assertEqual(lines[i:i + 5], ["#pragma omp parallel", "{", '# 3 "m.c"',
                                          "#pragma omp master", "{"])
        self.assertIn("}\n}", p.text)
        self.assertEqual(p.notes, [])

    def test_statement_and_brace_on_one_line(self):
        # OPARI2 2.0.7: "could not determine end of construct"; the block gets its own lines
        p = self.prepare("void f(int *x)\n{\n    {\n#pragma omp atomic\n        (*x)++; }\n}\n")
        after = p.text.split("#pragma omp atomic\n")[1].split("\n")
        code = [line.strip() for line in after if line.strip() and not line.startswith("#")]
        self.assertEqual(code[:3], ["(*x)++;", "}", "}"])

    def test_hidden_constructs_and_notes(self):
        p = self.prepare("void f(int *a)\n{\n#pragma omp target teams distribute parallel for\n"
                         "    for (int i = 0; i < 4; i++) {\n#pragma omp atomic\n a[0]++; }\n"
                         "#pragma omp declare simd\n}\n")
        self.assertEqual(p.notes, ["m.c:3: offload 'target teams distribute parallel for' is "
                                   "not measured, nor anything inside it"])
        self.assertNotIn("#pragma omp", p.text)
        self.assertEqual(p.text.count("#pragma pompprof_omp"), 3)
        self.assertEqual(wr.restore_hidden(p.text).count("#pragma omp"), 3)

    def test_own_regions(self):
        p = self.prepare("void f(void)\n{\n#pragma omp taskloop grainsize(2)\n"
                         "    for (int i = 0; i < 9; i++) g(i);\n"
                         "#pragma omp taskgroup\n    h();\n}\n")
        self.assertEqual([r.ctc.split("*")[1] for r in p.regions],
                         ["regionType=taskloop", "regionType=taskgroup"])
        self.assertRegex(p.regions[0].ctc, r"\*sscl=.*m\.c:3:3\*escl=.*m\.c:4:4\*\*$")
        self.assertIn("POMP2_Taskwait_begin(pompprof_handle_1(), &pompprof_old_task, ", p.text)
        self.assertIn("#pragma pompprof_omp taskloop grainsize(2)", p.text)
        # the taskgroup's region is its wait: after its block, before its end
        self.assertRegex(p.text, r"h\(\);\n# 6 \"m.c\"\nPOMP2_Taskwait_begin\(pompprof_handle_2")
        self.assertEqual(p.notes, ["m.c:3: taskloop is measured as one region (creating its "
                                   "tasks and waiting for them); its tasks are not measured "
                                   "one by one"])

    def test_system_headers_stay_alone(self):
        p = wr.prepare('# 1 "/usr/include/par.h" 1 3 4\nstatic void g(void)\n{\n'
                       "#pragma omp parallel\n    ;\n}\n", "m.c", False)
        self.assertEqual(p.text.count("#pragma pompprof_omp parallel"), 1)
        self.assertEqual((p.regions, p.notes), ([], []))

    def test_cplusplus_attributes_and_raw_strings(self):
        p = self.prepare('int f()\n{\n    int n = 0;\n'
                         '    [[omp::sequence(directive(parallel), directive(single))]] n++;\n'
                         '    const char *s = R"x(\n#pragma omp parallel\n{)x";\n'
                         '    [[omp::directive(parallel), gnu::hot]] n++;\n'
                         '    return n + s[0];\n}\n', cplusplus=True)
        lines = p.text.split("\n")
        origins = ct.line_origins(lines, "m.c")
        pragmas = [(line, o.line) for line, o in zip(lines, origins) if line.startswith("#pragma")]
        self.assertEqual(pragmas, [("#pragma omp parallel", 4), ("#pragma omp single", 4)])
        self.assertIn('pompprof_raw_string_0\n\n;', p.text)
        self.assertEqual(p.raw_strings, ['R"x(\n#pragma omp parallel\n{)x"'])
        self.assertEqual(wr.restore_raw_strings('s = pompprof_raw_string_0\n\n;', p.raw_strings),
                         's = R"x(\n#pragma omp parallel\n{)x";')
        self.assertEqual(len(p.notes), 1)
        self.assertIn("m.c:8: this OpenMP attribute shares its [[...]]", p.notes[0])

    def test_range_for_is_the_wrappers(self):
        p = self.prepare("void f(int (&v)[4])\n{\n#pragma omp parallel for\n"
                         "    for (int &x : v) x = 0;\n}\n", cplusplus=True)
        self.assertIn("#pragma pompprof_omp for nowait", p.text)
        self.assertIn("POMP2_Implicit_barrier_enter(pompprof_handle_1()", p.text)
        self.assertIn("#pragma pompprof_omp barrier", p.text)


class Instrument(unittest.TestCase):
    def test_region_strings(self):
        s = wr.region_string([("regionType", "taskloop"), ("sscl", "/a/b.c:3:3"),
                              ("escl", "/a/b.c:4:4")])
        self.assertEqual(s, "%d*regionType=taskloop*sscl=/a/b.c:3:3*escl=/a/b.c:4:4**" % len(s))
        for n in (8, 9, 10, 97, 98, 99, 100, 995, 996, 997):
            s = wr.region_string([("k", "v" * n)])
            self.assertEqual(int(s.split("*")[0]), len(s))
        ctc = '"80*regionType=task*sscl=/a/t.c:9:9*escl=/a/t.c:10:10*hasIf=1**"'
        facts = {("/a/t.c", 9, "task"): {"hasDepend": "1"}}
        out = wi.add_facts(ctc, facts).strip('"')
        self.assertTrue(out.endswith("*hasIf=1*hasDepend=1**"))
        self.assertEqual(int(out.split("*")[0]), len(out))
        self.assertEqual(wi.add_facts(ctc, {}), ctc)

    def test_markers_get_the_users_spelling(self):
        cwd = os.getcwd()
        names = wi.spellings('# 1 "src/x.c"\n# 3 "src/../src/y.h" 1\n')
        self.assertEqual(names[os.path.join(cwd, "src/x.c")], "src/x.c")
        self.assertEqual(names[os.path.join(cwd, "src/y.h")], "src/../src/y.h")
        absolute = wi.absolute_markers('# 1 "src/x.c"\n# 5 "<built-in>"\n# 2 "/abs/z.h" 2\n')
        self.assertEqual(absolute.split("\n")[:3],
                         ['# 1 "%s"' % os.path.join(cwd, "src/x.c"), '# 5 "<built-in>"',
                          '# 2 "/abs/z.h" 2'])
        out = wi.user_markers('#line 4 "%s"\n#line 9 "/work/opari.in.c"\nx;\n# 2 "%s" 2'
                              % (os.path.join(cwd, "src/x.c"), os.path.join(cwd, "src/x.c")),
                              names)
        self.assertEqual(out.split("\n"), ['# 4 "src/x.c"', '# 9 "src/x.c"', "x;",
                                           '# 2 "src/x.c" 2'])

    def test_output_made_compilable(self):
        inc = ('#include <opari2/pomp2_lib.h>\n#define POMP2_DLIST_00001 shared(opari2_region_1)\n'
               'static OPARI2_Region_handle opari2_region_1 = NULL;\n'
               '#define opari2_ctc_1 "54*regionType=parallel*sscl=/m.c:3:3*escl=/m.c:5:5**"\n'
               'void POMP2_Init_reg_abc_1()\n{\n'
               '    POMP2_Assign_handle( &opari2_region_1, opari2_ctc_1 );\n}\n')
        out = ('#include "m.opari.c.opari.inc"\n#line 1 "/w/m.opari.c"\n# 0 "m.c"\n# 1 "m.c"\n'
               'int main(void)\n{\n{\n  int pomp2_num_threads = omp_get_max_threads();\n'
               '  POMP2_Parallel_fork(&opari2_region_1, 1, pomp2_num_threads, 0, opari2_ctc_1 );\n'
               '#pragma omp parallel POMP2_DLIST_00001 num_threads(pomp2_num_threads) '
               'copyin(pomp_tpd)\n{ if (pomp2_if)  POMP2_Task_begin( &opari2_region_1, 0 ); }\n'
               '#pragma pompprof_omp nothing\n}\nreturn 0;\n}\n')
        text = wi.finish_c(out, inc, wr.Prepared(""), False, "u1", {})
        self.assertNotIn("opari2_ctc_1", text)
        self.assertNotIn("POMP2_DLIST", text)
        self.assertNotIn("num_threads(pomp2_num_threads)", text)
        self.assertIn("int pomp2_num_threads = 0;", text)
        # the guard gone, the call in the library's form for the wrapper's calls
        self.assertIn("{ POMP2_Task_begin_wrapped( &opari2_region_1, 0 ); }", text)
        self.assertIn("#pragma omp nothing", text)
        self.assertIn("void POMP2_Init_reg_u1_1(void)", text)
        self.assertEqual(text.split("\n")[:2], ['# 0 "m.c"', '# 1 "<pompprof>"'])
        self.assertNotIn("#include", text)
        # the result compiles as preprocessed text, without a warning
        tmp = tempfile.mkdtemp()
        try:
            path = os.path.join(tmp, "m.i")
            with open(path, "w") as f:
                f.write(text.replace("POMP2_Task_begin( &opari2_region_1, 0 )",
                                     "POMP2_Task_begin( &opari2_region_1, 0LL )"))
            p = subprocess.run([CC, "-fopenmp", "-x", "cpp-output"] + STRICT_C
                               + ["-c", path, "-o", os.path.join(tmp, "m.o")],
                               capture_output=True, text=True)
            self.assertEqual((p.returncode, p.stderr), (0, ""))
            # GCC calls the POMP2 entry points through the GOT (noplt), no PLT stub
            if CC == "gcc":
                p = subprocess.run(["objdump", "-dr", os.path.join(tmp, "m.o")],
                                   capture_output=True, text=True)
                self.assertRegex(p.stdout, r"R_X86_64_GOTPCRELX?\s+POMP2_Parallel_fork")
                self.assertNotRegex(p.stdout, r"R_X86_64_PLT32\s+POMP2_")
            # clang ignores the attribute, and the pragmas keep that silent (the
            # prelude alone: clang 14 has no '#pragma omp nothing')
            if shutil.which("clang"):
                body = "void f(void);\nvoid f(void)\n{\n    POMP2_Task_end(&opari2_region_1);\n}"
                with open(os.path.join(tmp, "c.i"), "w") as f:
                    f.write("\n".join(wp.prelude(body, ["opari2_region_1"], 0, [], False)
                                      + [body, ""]))
                p = subprocess.run(["clang", "-x", "cpp-output"] + STRICT_C
                                   + ["-Wunknown-attributes", "-c", os.path.join(tmp, "c.i"),
                                      "-o", os.path.join(tmp, "c.o")],
                                   capture_output=True, text=True)
                self.assertEqual((p.returncode, p.stderr), (0, ""))
        finally:
            shutil.rmtree(tmp)

    def test_prelude_declares_what_is_called(self):
        lines = wp.prelude("POMP2_Set_lock(&l); POMP2_Task_end(&h);", ["opari2_region_1"], 1,
                           [("POMP2_Init_reg_x_2", [("POMP2_Assign_handle", "&opari2_region_1",
                                                     '"s"')])], True)
        text = "\n".join(lines)
        self.assertIn('extern "C" {', text)
        self.assertIn("void POMP2_Set_lock(void *) __attribute__((noplt));", text)
        self.assertIn("void POMP2_Task_end(POMP2_Region_handle *) __attribute__((noplt));", text)
        # the declarations stand between the diagnostic pragmas
        self.assertLess(text.index("#pragma GCC diagnostic push"),
                        text.index('#pragma GCC diagnostic ignored "-Wunknown-attributes"'))
        self.assertLess(text.index('#pragma GCC diagnostic ignored "-Wunknown-attributes"'),
                        text.index("void POMP2_Set_lock("))
        self.assertLess(text.index("void POMP2_Task_end("),
                        text.index("#pragma GCC diagnostic pop"))
        self.assertNotIn("POMP2_Parallel_fork", text)
        self.assertIn("static POMP2_Region_handle *pompprof_handle_1(void)", text)
        self.assertIsNone(wp.declaration("No_such_call"))
        for name in wp.SIGNATURES:
            with self.subTest(name):
                self.assertRegex(wp.declaration(name), r"^(void|int) POMP2_%s\(.*\);$" % name)


class Fortran(unittest.TestCase):
    def test_directive_lines(self):
        free = ["x = 1", "  !$omp parallel do &", "  !$omp& private(i) &", "  !$omp schedule(static)",
                "!$ x = 2"]
        (d,) = wft.directives(free, fixed=False)
        self.assertEqual((d.first, d.last, d.indent), (1, 3, "  "))
        self.assertEqual(" ".join(d.text.split()), "parallel do private(i) schedule(static)")
        fixed = ["      x = 1", "c$omp parallel", "!$omp+private(i)", "*$omp end parallel"]
        got = wft.directives(fixed, fixed=True)
        self.assertEqual([(g.first, g.last, " ".join(g.text.split())) for g in got],
                         [(1, 2, "parallel private(i)"), (3, 3, "end parallel")])

    def test_loop_ends(self):
        lines = ["!$omp do", "do i = 1, n", "  do j = 1, m", "    a = 1", "  enddo",
                 "end do", "x = 1"]
        self.assertEqual(wft.loop_end(lines, False, 0), 5)
        labelled = ["c$omp do", "      do 10 i = 1, n", "      do 10 j = 1, n",
                    "   10 a(i, j) = 0", "      x = 1"]
        self.assertEqual(wft.loop_end(labelled, True, 0), 3)
        self.assertIsNone(wft.loop_end(["!$omp do", "x = 1"], False, 0))

    def test_rewrites(self):
        text = "\n".join(["program p", "integer :: i, s", "s = 0",
                          "!$omp parallel do simd reduction(+:s)",
                          "do i = 1, 10", "  s = s + i", "end do",
                          "!$omp taskloop", "do i = 1, 3", "end do",
                          "!$omp target", "!$omp parallel", "!$omp end parallel",
                          "!$omp end target", "end program"])
        p = wf.prepare(text, "p.f90", fixed=False)
        out = p.text.split("\n")
        self.assertEqual(out[0], '# 1 "p.f90"')
        self.assertIn("!$omp parallel", out)
        self.assertIn("!$omp do simd reduction(+:s)", out)
        self.assertIn("!$omp end do simd", out)
        self.assertIn("!$omp end parallel", out)
        self.assertIn("!$pomp inst begin(pompprof_1)", out)
        self.assertEqual(p.own, {"pompprof_1": "taskloop"})
        self.assertEqual(sum(1 for line in out if line.startswith("!pompprof_hidden_")), 5)
        self.assertEqual(wfo.restore_hidden("!pompprof_hidden_2", p.hidden), p.hidden[2])
        self.assertEqual(len(p.notes), 2)
        # every code line keeps its line: the marker after each change says so
        origins = ct.line_origins(out, "p.f90")
        for k, line in enumerate(out):
            if line.strip() == "s = s + i":
                self.assertEqual(origins[k].line, 6)
            if line.strip() == "end program":
                self.assertEqual(origins[k].line, 15)

    def test_comments_on_directive_lines(self):
        free = ["!$omp parallel & ! the team", "!$omp   num_threads(2) ! two",
                "!$omp task ! it's firstprivate", "!$omp critical (a) hint(1)"]
        got = wft.directives(free, fixed=False)
        self.assertEqual([(g.first, g.last, " ".join(g.text.split()), g.commented) for g in got],
                         [(0, 1, "parallel num_threads(2)", True), (2, 2, "task", True),
                          (3, 3, "critical (a) hint(1)", False)])
        self.assertEqual(wft.without_comment("error message('a!b') ! c"),
                         ("error message('a!b')", True))
        fixed = ["!$omp parallel      ! c", "!$omp&private(i)    ! d", "!$omp end parallel ! e"]
        got = wft.directives(fixed, fixed=True)
        self.assertEqual([(" ".join(g.text.split()), g.commented) for g in got],
                         [("parallel private(i)", True), ("end parallel", True)])
        # OPARI2 gets them without the comments
        text = "\n".join(["program p", "!$omp parallel ! c", "!$omp task ! d", "x = 1",
                          "!$omp end task ! e", "!$omp end parallel", "end program"])
        out = wf.prepare(text, "p.f90", fixed=False).text.split("\n")
        self.assertEqual([line for line in out if "!$omp" in line],
                         ["!$omp parallel", "!$omp task", "!$omp end task", "!$omp end parallel"])

    def test_strictly_structured_blocks(self):
        text = "\n".join(["program p", "!$omp parallel", "block", "  integer :: k",
                          "!$omp single", "  block", "  end block", "!$omp end single",
                          "end block", "!$omp critical", "block", "end block",
                          "end program"])
        out = wf.prepare(text, "p.f90", fixed=False).text.split("\n")
        directives = [line for line in out if line.startswith("!$omp")]
        self.assertEqual(directives, ["!$omp parallel", "!$omp single", "!$omp end single",
                                      "!$omp end parallel", "!$omp critical",
                                      "!$omp end critical"])
        self.assertEqual(out.index("!$omp end parallel"), out.index("end block", 8) + 1)
        self.assertEqual(wft.block_end(["!$omp task", "x = 1"], False, 0), None)
        self.assertEqual(wft.block_end(["c$omp task", "      b: block", "      endblock b"],
                                      True, 0), 2)

    def test_hidden_lines_after_fixed_form_directives(self):
        text = "\n".join(["      program p", "!$omp parallel", "!$omp masked", "      x = 1",
                          "!$omp end masked", "!$omp end parallel", "      end"])
        out = wf.prepare(text, "p.f", fixed=True).text.split("\n")
        for k, line in enumerate(out):
            if line.startswith("!pompprof_hidden_"):
                self.assertFalse(wf.FIXED_SENTINEL.match(out[k - 1]), out)

    def test_unreadable_directive_hides_its_construct(self):
        text = "\n".join(["program p", "!$omp parallel num_threads(", "!$omp do",
                          "do i = 1, 2", "end do", "!$omp end parallel",
                          "!$omp single", "!$omp end single", "end program"])
        p = wf.prepare(text, "p.f90", fixed=False)
        out = p.text.split("\n")
        self.assertEqual([line for line in out if line.startswith("!$omp")],
                         ["!$omp single", "!$omp end single"])
        self.assertEqual(p.notes, ["p.f90:2: this OpenMP directive is not measured (pompprof "
                                   "cannot read it), nor anything inside it"])

    def test_include_files(self):
        d = tempfile.mkdtemp(prefix="pp_test_include_")
        try:
            os.mkdir(os.path.join(d, "inc"))
            with open(os.path.join(d, "inc", "omp.inc"), "w") as f:
                f.write("!$omp parallel\nx = 1\n!$omp end parallel\n")
            with open(os.path.join(d, "decl.inc"), "w") as f:
                f.write("integer :: x\n")
            src = os.path.join(d, "p.f90")
            text = "\n".join(["program p", "  include 'decl.inc'", "  INCLUDE \"omp.inc\"",
                              "  y = 2", "end program"])
            out = wf.prepare(text, src, False, [os.path.join(d, "inc")]).text.split("\n")
            self.assertIn("  include 'decl.inc'", out)
            self.assertIn("!$omp parallel", out)
            origins = ct.line_origins(out, src)
            k = out.index("!$omp parallel")
            self.assertEqual((origins[k].file, origins[k].line),
                             (os.path.join(d, "inc", "omp.inc"), 1))
            k = out.index("  y = 2")
            self.assertEqual((origins[k].file, origins[k].line), (src, 4))
        finally:
            shutil.rmtree(d, ignore_errors=True)
        self.assertEqual(wft.include_dirs(["-I", "a", "-Ib", "-O2"]), ["a", "b"])

    def test_default_private_split(self):
        d = wd.parse("parallel do default(private) private(j) lastprivate(a) reduction(+:s)",
                     fortran=True)
        self.assertEqual([leaf.text() for leaf in wd.expand(d)],
                         ["parallel default(private) shared(a, s)",
                          "do private(j) lastprivate(a) reduction(+:s)"])
        d = wd.parse("parallel do default(shared) lastprivate(a)", fortran=True)
        self.assertEqual(wd.expand(d), [d])

    def test_main_program_without_program_statement(self):
        out = wf.prepare("x = 1\n!$omp parallel\n!$omp end parallel\nend", "m.f90",
                         fixed=False).text.split("\n")
        self.assertEqual(out[:3], ['# 1 "m.f90"', "program pompprof_main", '# 1 "m.f90"'])
        for text in ("program p", "subroutine s(a)", "recursive integer function f(x)",
                     "module m", "block data b"):
            self.assertTrue(wft.UNIT_HEADER.match(text), text)
        self.assertFalse(wft.UNIT_HEADER.match("x = function_value(2)"))
        out = wf.prepare("      x = 1\n      end", "m.f", fixed=True).text
        self.assertNotIn("pompprof_main", out)     # no directive: left alone

    def test_statements_on_one_line(self):
        self.assertEqual(wft.split_statements("do i = 1, n; a(i) = ';'; end do ! x; y"),
                         ["do i = 1, n", "a(i) = ';'", "end do"])
        self.assertEqual(wft.loop_end(["!$omp do", "do i = 1, n; a(i) = 0; end do", "x = 1"],
                                     False, 0), 1)

    def test_shared_termination(self):
        text = "\n".join(["      program p", "      do 100 i = 1, 2", "!$omp do",
                          "      do 100 j = 1, 2", "        x = j", "  100 continue",
                          "      do 200 i = 1, 2", "!$omp do", "      do 200 j = 1, 2",
                          "  200 a(j) = i", "      end"])
        out = [line for line in wf.prepare(text, "p.f", fixed=True).text.split("\n")
               if not line.startswith("#")]
        self.assertEqual(out[3:7], ["      do j = 1, 2", "        x = j", "      end do",
                                    "!$omp  end do"])
        self.assertEqual(out[7], "  100 continue")
        self.assertEqual(out[10:15], ["      do j = 1, 2", "      a(j) = i", "      end do",
                                      "!$omp  end do", "  200 continue"])
        # a branch to the label inside the loop: left alone
        goto = text.replace("        x = j", "        if (j > 1) goto 100")
        out = wf.prepare(goto, "p.f", fixed=True).text
        self.assertIn("      do 100 j = 1, 2", out)

    def test_external_max_threads(self):
        inc = "      integer ( kind=4 ) :: pomp2_lib_get_max_threads\n"
        self.assertEqual(wfo.fix_include(inc),
                         "      integer*4 pomp2_lib_get_max_threads\n"
                         "      external pomp2_lib_get_max_threads\n")
        self.assertIn("external", wfo.fix_include("      integer*4 pomp2_lib_get_max_threads"))


@unittest.skipUnless(os.path.exists(build_config.OPARI2), "OPARI2 not found")
class WithOpari2(unittest.TestCase):
    """The C path end to end, on OPARI2 itself: the result compiles without warnings."""

    def test_strictly_warning_free(self):
        tmp = tempfile.mkdtemp()
        try:
            src = os.path.join(tmp, "w.c")
            with open(src, "w") as f:
                f.write("#include <stdio.h>\nint main(void)\n{\n    int s = 0;\n"
                        "#pragma omp parallel master\n#pragma omp taskloop reduction(+ : s)\n"
                        "    for (int i = 0; i < 10; i++) s += i;\n"
                        "#pragma omp parallel\n#pragma omp single\n#pragma omp task if(0) shared(s)\n"
                        "    s++;\n    printf(\"%d\\n\", s);\n    return 0;\n}\n")
            pre = subprocess.run([CC, "-fopenmp", "-E", src], capture_output=True, text=True,
                                 cwd=tmp, check=True).stdout
            prepared = wr.prepare(pre, "w.c", False)
            opari_in = os.path.join(tmp, "w.opari.c")
            with open(opari_in, "w") as f:
                f.write(wi.absolute_markers(prepared.text))
            out_path = os.path.join(tmp, "w.out.i")
            self.assertIsNone(wi.run_opari2(opari_in, out_path, ["--c"], []))
            with open(out_path) as f:
                out = f.read()
            with open(opari_in + ".opari.inc") as f:
                inc = f.read()
            text = wi.finish_c(out, inc, prepared, False, "t1", wi.spellings(prepared.text))
            final = os.path.join(tmp, "w.i")
            with open(final, "w") as f:
                f.write(text)
            for opt in ("-O0", "-O2"):
                p = subprocess.run([CC, "-fopenmp", opt, "-x", "cpp-output"] + STRICT_C
                                   + ["-c", final, "-o", os.path.join(tmp, "w.o")],
                                   capture_output=True, text=True)
                self.assertEqual((p.returncode, p.stderr), (0, ""))
            self.assertNotIn("if (pomp2_if)", text)
        finally:
            shutil.rmtree(tmp)


if __name__ == "__main__":
    T.main()
