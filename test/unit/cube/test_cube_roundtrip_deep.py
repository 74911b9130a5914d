"""C writer -> Python reader round trip of a call tree 10,000 levels deep.

CubeLib's cube_dump reads such a file; the reader must too, so it walks the call tree
and the INCLUSIVE row order iteratively (Python's recursion limit is ~1000 levels)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cube_roundtrip  # noqa: E402

sys.exit(cube_roundtrip.main(["deep"]))
