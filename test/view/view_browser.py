"""What the browser tests of pompprof-view share (not a test itself): the build tree's
tools and environment, building an example with the wrapper, running it, writing its
page with pompprof-view, reading a number the page shows, and PageTest, a TestCase
whose class keeps one browser (self.b) for all its checks."""

import os
import shutil
import subprocess
import sys
import unittest

import browser as B

TOP_SRCDIR = os.environ.get("top_srcdir")
TOP_BUILDDIR = os.environ.get("top_builddir")
if not TOP_SRCDIR or not TOP_BUILDDIR:
    sys.exit("run through make check (top_srcdir/top_builddir unset)")
WRAPPER = os.path.join(TOP_BUILDDIR, "scripts", "pompprof")
VIEW = os.path.join(TOP_BUILDDIR, "scripts", "pompprof-view")
TIMELINE = os.path.join(TOP_BUILDDIR, "scripts", "pompprof-timeline")
REPLAY = os.path.join(TOP_BUILDDIR, "replay", "pompprof-replay")
ENV = dict(os.environ, POMPPROF_LIBDIR=os.path.join(TOP_BUILDDIR, ".libs"),
           POMPPROF_INCDIR=os.path.join(TOP_SRCDIR, "pomp2"), OMP_NUM_THREADS="2")
for var in ("POMPPROF_TRACE", "POMPPROF_METRICS", "POMPPROF_OUTPUT", "POMPPROF_FUNCTIONS",
            "POMPPROF_FILTER", "CHAINS"):
    ENV.pop(var, None)
CC = os.environ.get("CC", "gcc").split()
OPENMP = os.environ.get("OPENMP_CFLAGS", "-fopenmp").split()


def build(scratch, name, opts=()):
    """The example of that name (a .c file in examples/) built with the wrapper
    (wrapper options opts) into scratch."""
    exe = os.path.join(scratch, name)
    subprocess.run([WRAPPER] + list(opts) + CC + OPENMP + ["-O2", "-g", os.path.join(
                   TOP_SRCDIR, "examples", name + ".c"), "-o", exe, "-lm"], env=ENV,
                   check=True, cwd=scratch, stdout=subprocess.DEVNULL)
    return exe


def run(exe, out, args, trace=False):
    """Runs exe with args, its profile (and trace) into out; returns out."""
    env = dict(ENV, POMPPROF_OUTPUT=out)
    if trace:
        env["POMPPROF_TRACE"] = "1"
    subprocess.run([exe] + [str(a) for a in args], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    return out


def view(*args):
    p = subprocess.run([VIEW] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0:
        raise AssertionError("pompprof-view %s: %s" % (" ".join(args), p.stderr))
    return p


# the page's units (util.js PP.fmt): a time in s, ms, \u00b5s or ns, bytes, a share
UNITS = {"s": 1.0, "ms": 1e-3, "\u00b5s": 1e-6, "ns": 1e-9, "B": 1.0, "kB": 1e3, "MB": 1e6,
         "GB": 1e9, "%": 1.0, "x": 1.0}


def number(text):
    """A value as the page shows it (a difference with its sign, a unit); None for '-'."""
    text = text.strip().replace("+", "")
    if text in ("-", ""):
        return None
    value, _, unit = text.partition(" ")
    if not unit and value.endswith("x"):
        value, unit = value[:-1], "x"
    return float(value) * UNITS[unit] if unit else float(value)


def shown_tolerance(text):
    """Half a unit in the last digit the page shows of a number (text as shown)."""
    value, _, unit = text.strip().replace("+", "").partition(" ")
    mant = value.lower().split("e")[0].lstrip("-")
    exp = int(value.lower().split("e")[1]) if "e" in value.lower() else 0
    decimals = len(mant.split(".")[1]) if "." in mant else 0
    return 0.5 * 10.0 ** (exp - decimals) * UNITS.get(unit, 1.0) * 1.000001 + 1e-300


class PageTest(unittest.TestCase):
    """setUpClass of a subclass makes cls.tmp, then calls start_browser()."""

    @classmethod
    def start_browser(cls):
        cls.b = B.Browser()
        cls.shots = os.environ.get("POMPPROF_VIEW_SHOTS")

    @classmethod
    def tearDownClass(cls):
        cls.b.quit()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def shot(self, name):
        """A screenshot into the scratch directory, and to $POMPPROF_VIEW_SHOTS when set."""
        path = os.path.join(self.tmp, name + ".png")
        self.b.shot(path)
        self.assertGreater(os.path.getsize(path), 5000)
        if self.shots:
            shutil.copy(path, os.path.join(self.shots, name + ".png"))

    def open(self, page):
        """Opens page: no console error, and it asks for nothing but itself."""
        self.b.requests()       # forget what came before
        self.assertEqual(self.b.open(page), "1", self.b.console_errors())
        self.assertEqual(self.b.console_errors(), [])
        url = "file://" + os.path.abspath(page)
        others = [u for u in self.b.requests() if u != url]
        self.assertEqual(others, [], "the page asked for more than itself")

    def assertClose(self, shown, expected, msg=None, rel=5e-4):
        """shown (a number the page shows: 4 significant digits) is expected, within
        its precision."""
        self.assertIsNotNone(shown, msg)
        self.assertAlmostEqual(shown, expected, delta=max(1e-12, abs(expected) * rel), msg=msg)

    def assertShown(self, text, expected, msg=None):
        """text, a number as the page shows it, is expected within half a unit of its last
        digit (0 for a value the page rounds to zero)."""
        shown = number(text)
        self.assertIsNotNone(shown, msg)
        tol = shown_tolerance(text) if shown else 5e-13
        self.assertLessEqual(abs(shown - expected), tol, "%s: page %r, expected %r"
                             % (msg or "", text, expected))
