"""The page's data: one JSON document and typed arrays, gzip-compressed and base64-coded
into the HTML (the browser inflates them with DecompressionStream, no library)."""

from __future__ import annotations

import base64
import gzip
import json
import math
from array import array

# typed arrays as the page's script reads them: array typecode -> (JS type, bytes)
_TYPES = {"d": ("Float64Array", 8), "i": ("Int32Array", 4), "B": ("Uint8Array", 1)}


class Blob:
    """Arrays laid out one after another, each at a multiple of 8 bytes."""

    def __init__(self):
        self.parts: list[bytes] = []
        self.size = 0
        self.index: dict[str, dict] = {}

    def add(self, name: str, values, typecode: str) -> None:
        data = values if isinstance(values, array) else array(typecode, values)
        if data.itemsize != _TYPES[typecode][1]:
            raise ValueError("array type %s has %d bytes here" % (typecode, data.itemsize))
        raw = data.tobytes()     # the machine's order; the page checks it is little-endian
        self.index[name] = {"type": _TYPES[typecode][0], "offset": self.size,
                            "length": len(data)}
        pad = (-len(raw)) % 8
        self.parts.append(raw + b"\0" * pad)
        self.size += len(raw) + pad

    def packed(self) -> str:
        return base64.b64encode(gzip.compress(b"".join(self.parts), 6)).decode("ascii")


def packed_json(doc) -> str:
    text = json.dumps(_finite(doc), separators=(",", ":"), allow_nan=False, default=_plain)
    return base64.b64encode(gzip.compress(text.encode("utf-8"), 6)).decode("ascii")


def _finite(v):
    """The document with NaN and infinities as null (JSON has neither)."""
    if isinstance(v, float):
        return v if math.isfinite(v) else None
    if isinstance(v, dict):
        return {k: _finite(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_finite(x) for x in v]
    return v


def _plain(v):
    """Values json cannot write itself (sets of the report's data)."""
    if isinstance(v, (set, frozenset, tuple)):
        return list(v)
    raise TypeError("not JSON: %r" % type(v).__name__)
