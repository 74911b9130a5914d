"""The tools' text outputs, byte for byte: pompprof-report (also with --top),
pompprof-diff and pompprof-scaling on profiles this test writes with fixed values
(test/tools/report_profiles.py: every section of the report, a hybrid job and one
process; examples/bench/synth_profile.py: more regions and task constructs than the text
report lists one by one) and on a reference profile, compared with the texts in
test/tools/golden/text/.  Those were written by the tools before their renderers were
split into one function per section (issue 32): a refactoring must leave them as they
are.  The text report streamed from the lazily built sections (the command) equals the
one rendered from the whole data at once.

After an intended change of a text output, POMPPROF_WRITE_TEXTS=1 rewrites the
texts; read their diff before committing it."""

import difflib
import io
import os
import sys
import tempfile
import unittest

import toolstest as T
import report_profiles
from pompprof_tools.analysis import report
from pompprof_tools.analysis.profile_model import Profile

sys.path.insert(0, os.path.join(T.TOP_SRCDIR, "examples", "bench"))
import synth_profile  # noqa: E402

TEXTS = os.path.join(T.GOLDEN, "text")
WRITE = os.environ.get("POMPPROF_WRITE_TEXTS") == "1"

# name of the text: the tool and its arguments (profiles by their names in the scratch
# directory, the tools' working directory)
CASES = {
    "report-hybrid": ("report", "hybrid.cubex"),
    "report-hybrid-top3": ("report", "--top", "3", "hybrid.cubex"),
    "report-process": ("report", "process.cubex"),
    "report-wide": ("report", "wide.cubex"),
    "report-tasks_t2": ("report", "tasks_t2.cubex"),
    "diff-hybrid": ("diff", "hybrid.cubex", "hybrid-slower.cubex"),
    "diff-hybrid-top5-inclusive": ("diff", "--top", "5", "--inclusive", "hybrid.cubex",
                                   "hybrid-slower.cubex"),
    "diff-wide": ("diff", "--top", "12", "wide.cubex", "wide-other.cubex"),
    "scaling-threads": ("scaling", "process-1.cubex", "process.cubex"),
    "scaling-ranks": ("scaling", "process.cubex", "hybrid.cubex"),
    "scaling-wide": ("scaling", "wide-other.cubex", "wide.cubex"),
}


def write_profiles(tmp):
    report_profiles.hybrid_profile(os.path.join(tmp, "hybrid.cubex"))
    report_profiles.hybrid_profile(os.path.join(tmp, "hybrid-slower.cubex"), scale=2)
    report_profiles.hybrid_profile(os.path.join(tmp, "process.cubex"), ranks=1, threads=3)
    report_profiles.hybrid_profile(os.path.join(tmp, "process-1.cubex"), ranks=1, threads=1)
    synth_profile.write_profile(os.path.join(tmp, "wide.cubex"), 45, 3, counters=True, seed=1)
    synth_profile.write_profile(os.path.join(tmp, "wide-other.cubex"), 45, 2, counters=True,
                                seed=2)
    with open(T.golden("tasks_t2"), "rb") as src, \
            open(os.path.join(tmp, "tasks_t2.cubex"), "wb") as dst:
        dst.write(src.read())


class TextOutputs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="pp_texts_")
        write_profiles(cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_texts_unchanged(self):
        for name, (tool, *args) in CASES.items():
            with self.subTest(name):
                p = T.run_tool(tool, *args, cwd=self.tmp.name)
                got = p.stdout + ("(exit status %d)\n%s" % (p.returncode, p.stderr)
                                  if p.returncode else "")
                path = os.path.join(TEXTS, name + ".txt")
                if WRITE:
                    with open(path, "w") as f:
                        f.write(got)
                with open(path) as f:
                    want = f.read()
                if got != want:
                    command = "pompprof-%s %s" % (tool, " ".join(args))
                    diff = difflib.unified_diff(want.splitlines(), got.splitlines(),
                                                "expected", command, lineterm="", n=1)
                    self.fail("%s differs from %s:\n%s" % (name, path,
                                                          "\n".join(list(diff)[:40])))

    def test_streamed_report_equals_whole(self):
        """write_text over the lazily built sections (what the command prints) and
        render_text over the data built at once give the same text (for profiles of
        at most report.FLAT_DETAIL regions: the data built at once details every one)."""
        for name in ("hybrid.cubex", "process.cubex"):
            with self.subTest(name):
                path = os.path.join(self.tmp.name, name)
                profile = Profile(path)
                streamed = io.StringIO()
                report.write_text(report.Report(profile, paths=False).build(lazy=True),
                                  profile.thread_names, streamed)
                whole = report.render_text(report.Report(Profile(path)).build(),
                                           profile.thread_names)
                self.assertGreater(streamed.getvalue().count("\n"), 100)
                self.assertEqual(streamed.getvalue(), whole)


if __name__ == "__main__":
    T.main()
