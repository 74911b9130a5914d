"""C writer -> Python reader round trip: worked example, escaping, a 20,000-wide tree,
several roots/processes with child metrics and all dtypes."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cube_roundtrip  # noqa: E402

sys.exit(cube_roundtrip.main(["example", "escape", "wide", "mixed"]))
