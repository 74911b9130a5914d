"""The seven commands, three ways in: scripts/pyproject.toml's console entry points,
`python3 -m pompprof_tools.<module>`, and the stubs make generates from
scripts/command-stub.in (with the configured interpreter in their #! line).  All three
must name the same functions, and make must install every module of the package."""

import importlib
import os
import re
import subprocess
import sys
import unittest

import toolstest as T

PYPROJECT = os.path.join(T.SCRIPTS, "pyproject.toml")
COMMANDS = {"pompprof": "wrapper.main", "pompprof-report": "analysis.report",
            "pompprof-diff": "analysis.diff", "pompprof-scaling": "analysis.scaling",
            "pompprof-timeline": "analysis.timeline", "pompprof-score": "analysis.score",
            "pompprof-view": "view.main"}


def entry_points():
    """[project.scripts] of pyproject.toml: {command: "module:function"}."""
    try:
        import tomllib
    except ImportError:             # Python < 3.11
        raise unittest.SkipTest("no tomllib in Python %d.%d" % sys.version_info[:2])
    with open(PYPROJECT, "rb") as f:
        return tomllib.load(f)["project"]["scripts"]


def python_path():
    dirs = [T.SCRIPTS] + ([os.path.join(T.TOP_BUILDDIR, "scripts")] if T.TOP_BUILDDIR else [])
    return os.pathsep.join(dirs)


class EntryPoints(unittest.TestCase):
    def test_pyproject_names_every_command(self):
        eps = entry_points()
        self.assertEqual(eps, {c: "pompprof_tools.%s:entry" % m for c, m in COMMANDS.items()})
        for command, target in eps.items():
            module, function = target.split(":")
            with self.subTest(command):
                self.assertTrue(callable(getattr(importlib.import_module(module), function)))

    def test_pyproject_version_is_the_configured_one(self):
        try:
            import tomllib
        except ImportError:
            raise unittest.SkipTest("no tomllib")
        with open(PYPROJECT, "rb") as f:
            meta = tomllib.load(f)
        self.assertIn("version", meta["project"]["dynamic"])
        attr = meta["tool"]["setuptools"]["dynamic"]["version"]["attr"]
        module, name = attr.rsplit(".", 1)
        version = getattr(importlib.import_module(module), name)
        self.assertRegex(version, r"^\d+\.\d+")
        out = subprocess.run([sys.executable, "-m", "pompprof_tools.wrapper.main", "--version"],
                             capture_output=True, text=True,
                             env=dict(os.environ, PYTHONPATH=python_path())).stdout
        self.assertEqual(out, "pompprof %s\n" % version)

    def test_python_m_runs_each_command(self):
        env = dict(os.environ, PYTHONPATH=python_path())
        for command, module in COMMANDS.items():
            with self.subTest(command):
                p = subprocess.run([sys.executable, "-m", "pompprof_tools." + module, "--help"],
                                   capture_output=True, text=True, env=env, timeout=60)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertTrue(p.stdout.startswith("usage: %s " % command), p.stdout[:80])
        p = subprocess.run([sys.executable, "-m", "pompprof_tools.analysis.report",
                            T.golden("tasks_t1")], capture_output=True, text=True, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("Call tree", p.stdout)

    def test_generated_stubs(self):
        if not T.TOP_BUILDDIR:
            raise unittest.SkipTest("no build tree (run through make check)")
        python = os.environ.get("PYTHON3") or sys.executable
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)
        for command, module in COMMANDS.items():
            with self.subTest(command):
                stub = os.path.join(T.TOP_BUILDDIR, "scripts", command)
                with open(stub) as f:
                    text = f.read()
                self.assertEqual(text.split("\n")[0], "#!" + python)
                self.assertIn("from pompprof_tools.%s import entry\n" % module, text)
                self.assertNotRegex(text, r"@\w+@")     # every placeholder filled
                p = subprocess.run([stub, "--help"], capture_output=True, text=True, env=env)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertTrue(p.stdout.startswith("usage: %s " % command))

    def test_make_installs_every_module(self):
        with open(os.path.join(T.SCRIPTS, "local.mk")) as f:
            listed = set(re.findall(r"scripts/pompprof_tools/((?:\w+/)*\w+\.py)\b", f.read()))
        package = os.path.join(T.SCRIPTS, "pompprof_tools")
        present = {os.path.relpath(os.path.join(d, n), package)
                   for d, _, names in os.walk(package) for n in names
                   if n.endswith(".py") and "__pycache__" not in d} | {"build_config.py"}
        self.assertEqual(listed, present)

    def test_every_subpackage_installs_into_its_own_directory(self):
        """automake installs a _DATA list into one directory: a module listed under
        another subpackage's directory would land beside the wrong package."""
        with open(os.path.join(T.SCRIPTS, "local.mk")) as f:
            text = f.read()
        for sub in ("wrapper", "cube", "analysis", "launcher"):
            with self.subTest(sub):
                block = re.search(r"dist_pompprof_tools_%s_DATA = (.*?)\n(?!\t)" % sub, text, re.S)
                self.assertIsNotNone(block)
                names = re.findall(r"scripts/pompprof_tools/(\S+)\.py", block.group(1))
                self.assertTrue(names)
                self.assertTrue(all(n.startswith(sub + "/") for n in names), names)


if __name__ == "__main__":
    T.main()
