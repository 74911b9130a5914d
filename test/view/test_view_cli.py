"""pompprof-view without a browser: where the page goes, that it holds everything (no
reference to anything outside it), that its packed data decode to the profile's call
paths and values (the arrays as the page's script reads them), and bad input: one line,
exit status 1 (2 for usage), nothing written."""
import base64
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from array import array

TOP_SRCDIR = os.environ.get("top_srcdir")
TOP_BUILDDIR = os.environ.get("top_builddir")
if not TOP_SRCDIR or not TOP_BUILDDIR:
    sys.exit("run through make check (top_srcdir/top_builddir unset)")
sys.path.insert(0, os.path.join(TOP_SRCDIR, "scripts"))
sys.path.insert(1, os.path.join(TOP_BUILDDIR, "scripts"))
from pompprof_tools.analysis.profile_model import Profile  # noqa: E402
from pompprof_tools.analysis.report import Report  # noqa: E402

VIEW = os.path.join(TOP_BUILDDIR, "scripts", "pompprof-view")
GOLDEN = os.path.join(TOP_SRCDIR, "test", "tools", "golden")


def view(*args, cwd=None):
    return subprocess.run([VIEW] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, cwd=cwd)


def unpack(page):
    """The page's JSON document and arrays, as its script reads them."""
    with open(page, encoding="utf-8") as f:
        text = f.read()
    part = lambda name: re.search(r'<script type="[^"]+" id="%s">(.*?)</script>' % name,  # noqa: E731
                                  text, re.S).group(1)
    doc = json.loads(gzip.decompress(base64.b64decode(part("pp-meta"))))
    raw = gzip.decompress(base64.b64decode(part("pp-arrays")))
    codes = {"Float64Array": "d", "Int32Array": "i", "Uint8Array": "B"}
    arrays = {}
    for name, a in json.loads(part("pp-index")).items():
        arr = array(codes[a["type"]])
        arr.frombytes(raw[a["offset"]:a["offset"] + a["length"] * arr.itemsize])
        arrays[name] = arr
    return text, doc, arrays


class ViewCli(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="pp-view-cli-")
        self.run_dir = os.path.join(self.tmp, "run")
        os.mkdir(self.run_dir)
        shutil.copy(os.path.join(GOLDEN, "tasks_t2.cubex"),
                    os.path.join(self.run_dir, "profile.cubex"))

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_page_holds_the_profile(self):
        p = view(self.run_dir)
        self.assertEqual(p.returncode, 0, p.stderr)
        page = os.path.join(self.run_dir, "view.html")
        text, doc, arrays = unpack(page)
        # nothing from elsewhere: no URL, no src/href attribute, a CSP that forbids it
        self.assertIsNone(re.search(r"https?://|\bsrc=|\bhref=", text))
        self.assertIn("default-src 'none'", text)
        prof = Profile(self.run_dir)
        nodes = prof.main_nodes + prof.task_nodes
        self.assertEqual(doc["mode"], "profile")
        self.assertEqual(doc["profile"]["nodes"], len(nodes))
        L = prof.nthreads
        for i, n in enumerate(nodes):
            par = arrays["parent"][i]
            if n.kind == "TASKS" or n.parent is None:
                self.assertEqual(par, -1)
            else:
                self.assertIs(nodes[par], n.parent)
            self.assertEqual(list(arrays["m:time"][i * L:(i + 1) * L]), n.excl)
            self.assertEqual(list(arrays["m:visits"][i * L:(i + 1) * L]),
                             [float(v) for v in n.visits])
            self.assertEqual(doc["profile"]["regions"]["name"][arrays["region"][i]], n.name)
        # the report's own task table, as pompprof-report computes it
        want = Report(prof, paths=False).build()["tasks"]
        got = doc["profile"]["report"]["tasks"]
        self.assertEqual([(t["id"], t["instances"], t["mean"]) for t in got],
                         [(t["id"], t["instances"], t["mean"]) for t in want])

    def test_comparison_default_name(self):
        p = view(self.run_dir, os.path.join(GOLDEN, "tasks_t1.cubex"), cwd=self.tmp)
        self.assertEqual(p.returncode, 0, p.stderr)
        _, doc, arrays = unpack(os.path.join(self.tmp, "view-compare.html"))
        self.assertEqual(doc["mode"], "compare")
        self.assertEqual(len(doc["compare"]["labels"]), doc["compare"]["nodes"])
        self.assertEqual(len(arrays["a:time"]), doc["compare"]["nodes"])

    def test_bad_input(self):
        bad = os.path.join(self.tmp, "bad.cubex")
        with open(bad, "w") as f:
            f.write("garbage")
        trace_bad = os.path.join(self.tmp, "tr")
        shutil.copytree(self.run_dir, trace_bad)
        with open(os.path.join(trace_bad, "traces.otf2"), "w") as f:
            f.write("x")
        out = os.path.join(self.tmp, "o.html")
        for args, code, words in (
                ((os.path.join(self.tmp, "none"),), 1, "no such file"),
                ((bad, "-o", out), 1, "bad.cubex"),
                ((self.run_dir, "-o", os.path.join(self.tmp, "no", "x.html")), 1, "cannot write"),
                ((self.run_dir, self.run_dir, self.run_dir), 2, "one run, or two"),
                ((trace_bad, "-o", out), 1, "--no-trace")):
            with self.subTest(args=args):
                p = view(*args)
                self.assertEqual(p.returncode, code, p.stderr)
                self.assertIn(words, p.stderr)
                if code == 1:
                    self.assertEqual(len(p.stderr.splitlines()), 1, p.stderr)
                self.assertFalse(os.path.exists(out))
        p = view(trace_bad, "--no-trace", "-o", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("trace", unpack(out)[1])


if __name__ == "__main__":
    unittest.main()
