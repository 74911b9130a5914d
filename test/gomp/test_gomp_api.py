#!/usr/bin/env python3
"""The interposer takes libgomp's old parallel API too (gcc before 4.9:
GOMP_parallel_start, the function called on the primary by the program,
GOMP_parallel_end): legacy.c's two regions, each with a single that creates
ten tasks, are measured as a parallel region, its single and tasks, at 1, 2
and 4 threads; counts only (the wrapper rebuilds no such program).  Without
the interposer taking it the regions were missing and their constructs hung
at the top of the tree."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sources as S  # noqa: E402


@unittest.skipUnless(os.path.exists(S.GOMP_LIB), "no libpompprof_gomp.so")
class OldParallelApi(unittest.TestCase):
    def test_regions_of_the_old_api(self):
        scratch = S.scratch_dir("pp_gomp_api_")
        try:
            exe = S.build(scratch, "legacy.c", "plain")
            for t in (1, 2, 4):
                with self.subTest(threads=t):
                    r = S.run(exe, "gomp", t, scratch=scratch)
                    self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "total=90\n", ""))
                    p = S.Profile(r.cube)
                    par = [k for k in p.calls if k.startswith("!$omp parallel @legacy.c:")
                           and " > " not in k]
                    self.assertEqual(len(par), 1, p.calls)
                    region = par[0]
                    self.assertEqual(p.calls[region], 2 * t)
                    single = [k for k in p.calls if k.startswith(region + " > !$omp single @")
                              and k.count(" > ") == 1]
                    self.assertEqual([p.calls[k] for k in single], [2 * t])
                    self.assertEqual(sum(p.instances.values()), 20)
                    self.assertTrue(all(not k.startswith("!$omp single") for k in p.calls))
        finally:
            S.remove(scratch)


if __name__ == "__main__":
    unittest.main(verbosity=2)
