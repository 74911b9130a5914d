"""C writer -> Python reader round trip of SIMPLE metrics.

CubeLib 4.8 reads a metric of type SIMPLE exactly like an INCLUSIVE one (its
Metric::create() has no SIMPLE case), so the writer stores SIMPLE rows in the
inclusive order (checked with cube_dump, although cubew stores them by id), and
the reader must read them back in that order."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cube_roundtrip  # noqa: E402

sys.exit(cube_roundtrip.main(["simple"]))
