"""CUBE4 profiles (.cubex) as files: reading (cubex, its types in cubex_defs), writing
(cubex_write) and the identity of parameter call paths (params).  Knows nothing of the
analyses built on them."""
