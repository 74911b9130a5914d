"""Reader for CUBE4 profiles (`.cubex`), as written by pompprof and by the reference
implementation (Score-P 8.4 / cubew 4.8.2).

The rules are those of doc/cube4-layout.md, as CubeLib applies them:

* Container: a tar archive.  Members are located the way CubeLib does it (next header at
  ``pos + 512 + (size//512 + 1) * 512`` for a non-empty member, i.e. cubew's padding that
  always adds at least one byte), but standard tar padding is accepted too: when the two
  rules disagree (member size a multiple of 512) the standard position is taken if a valid
  ustar header (magic and checksum) sits there.  The last occurrence of a name wins.
* ``anchor.xml``: definitions (metrics, regions, call tree, system tree, attributes).
* ``<id>.data`` / ``<id>.index``: per metric, rows of one value per location; the row of a
  cnode is found through the per-metric enumeration of the call tree (EXCLUSIVE: pre-order;
  INCLUSIVE and SIMPLE: level-per-parent order), dense or sparse index, byte order
  from the index's endianness marker.  A metric without both members reads as all zero
  (CubeLib does the same); a member shorter than its index demands is an error.

Call-tree semantics (CubeLib's): a direct child of a root cnode whose region is named
``TASKS`` with role ``artificial`` is split off as the root of the task tree.  It is not a
child of the root in the main tree, so it is *not* subtracted when the root's exclusive
value is computed, and it does not count into the root's inclusive value of an EXCLUSIVE
metric.

What ``cube_dump`` prints (checked against the golden dumps in test/tools/golden):
``-z stored`` prints, per cnode and location, the raw stored value for EXCLUSIVE metrics
(e.g. Score-P's 7.1e9 filler in ``min_time`` of never-visited paths) but the *exclusive*
value for INCLUSIVE metrics (stored minus the stored values of the main-tree children);
``-z excl -t aggr`` prints exclusive values summed over all locations.

Every problem with the input raises :class:`CubexError` with a one-line message.
"""

from __future__ import annotations

import glob
import gzip
import os
import struct
import sys
import zlib
from array import array

from .cubex_defs import (DATA_TYPES, DTYPES as _DTYPES, Cnode, CubexError, Location, Metric,
                         Region, parse_anchor)

__all__ = ["CubexError", "Cube", "Metric", "Region", "Cnode", "Location",
           "load", "resolve_profile_path", "row_enumeration"]

NATIVE = "<" if sys.byteorder == "little" else ">"
TAR_BLOCK = 512
DATA_MARKER = b"CUBEX.DATA"
ZDATA_MARKER = b"ZCUBEX.DATA"
INDEX_MARKER = b"CUBEX.INDEX"
INDEX_DENSE = 3
INDEX_SPARSE = 1


def resolve_profile_path(path: str) -> str:
    """A profile directory or a file path.  A directory with one .cubex: that one; with
    several (a rerun into the same POMPPROF_OUTPUT, processes of one job, a program and
    the programs it ran): the newest, said on stderr with the others' names."""
    if os.path.isdir(path):
        found = [p for p in glob.glob(os.path.join(glob.escape(path), "*.cubex"))
                 if os.path.isfile(p)]
        if not found:
            raise CubexError("%s: directory holds no .cubex file" % path)
        if len(found) == 1:
            return found[0]

        def written(p):
            try:
                return (os.stat(p).st_mtime_ns, p)
            except OSError:
                return (0, p)
        found.sort(key=written)
        newest = found[-1]
        others = [os.path.basename(p) for p in reversed(found[:-1])]
        sys.stderr.write("%s: %s holds %d profiles; reading the newest, %s (the others: %s; "
                         "name a file to read another)\n"
                         % (os.path.basename(sys.argv[0]) or "pompprof", path, len(found),
                            os.path.basename(newest), ", ".join(others[:5])
                            + (", ..." if len(others) > 5 else "")))
        return newest
    if not os.path.exists(path):
        # CubeLib accepts the name without the extension
        if not path.endswith(".cubex") and os.path.isfile(path + ".cubex"):
            return path + ".cubex"
        raise CubexError("%s: no such file or directory" % path)
    if not os.path.isfile(path):
        raise CubexError("%s: not a regular file" % path)
    return path


def load(path: str) -> Cube:
    """Read a profile (directory or .cubex file) and return a :class:`Cube`."""
    return Cube(resolve_profile_path(path))


# --------------------------------------------------------------------------- tar

def _octal(field):
    """Parse a tar numeric field (octal text, or GNU base-256); None when malformed."""
    if field and field[0] & 0x80:
        value = field[0] & 0x3F
        for b in field[1:]:
            value = (value << 8) | b
        return value
    text = field.split(b"\0", 1)[0].strip(b" ")
    if not text:
        return 0
    try:
        return int(text.decode("ascii"), 8)
    except (UnicodeDecodeError, ValueError):
        return None


def _is_ustar_header(data, pos):
    """True when a complete header with ustar magic and a correct checksum starts at pos."""
    if pos + TAR_BLOCK > len(data):
        return False
    hdr = data[pos:pos + TAR_BLOCK]
    if hdr[257:262] != b"ustar":
        return False
    stored = _octal(hdr[148:156])
    if stored is None:
        return False
    return stored == sum(hdr[:148]) + 8 * 0x20 + sum(hdr[156:])


def read_tar_members(data, where):
    """Map member name -> (offset, size) following CubeLib's walk (see module doc)."""
    if not data:
        raise CubexError("%s: empty file" % where)
    if len(data) < TAR_BLOCK:
        raise CubexError("%s: not a .cubex file or truncated (only %d bytes)"
                         % (where, len(data)))
    if data[257:262] != b"ustar":
        raise CubexError("%s: not a .cubex file (no tar header)" % where)
    members = {}
    pos, end = 0, len(data)
    closed = False
    pax_size = None
    while pos < end:
        if pos + TAR_BLOCK > end:
            raise CubexError("%s: truncated (file ends inside a tar header at byte %d)"
                             % (where, pos))
        hdr = data[pos:pos + TAR_BLOCK]
        if hdr[0] == 0:                 # zero block: padding or end of archive
            closed = True
            pos += TAR_BLOCK
            continue
        closed = False
        if hdr[257:262] != b"ustar":
            raise CubexError("%s: corrupt tar header at byte %d" % (where, pos))
        name = hdr[:100].split(b"\0", 1)[0].decode("utf-8", "replace")
        size = _octal(hdr[124:136])
        if size is None:
            raise CubexError("%s: corrupt size field in tar header of '%s'" % (where, name))
        start = pos + TAR_BLOCK
        if start + size > end:
            raise CubexError("%s: truncated member '%s' (%d of %d bytes present)"
                             % (where, name, max(0, end - start), size))
        if hdr[156:157] == b"x":        # PAX header: carries the size of the next member
            record = data[start:start + size].decode("ascii", "replace")
            pax_size = None
            for line in record.split("\n"):
                _, _, kv = line.partition(" ")
                if kv.startswith("size="):
                    try:
                        pax_size = int(kv[5:])
                    except ValueError:
                        raise CubexError("%s: corrupt PAX header before byte %d"
                                         % (where, pos)) from None
            pos = start + -(-size // TAR_BLOCK) * TAR_BLOCK
            continue
        if pax_size is not None:
            size, pax_size = pax_size, None
            if start + size > end:
                raise CubexError("%s: truncated member '%s' (%d of %d bytes present)"
                                 % (where, name, max(0, end - start), size))
        members[name] = (start, size)
        if size == 0:
            nxt = start
        else:
            nxt = start + (size // TAR_BLOCK + 1) * TAR_BLOCK
            standard = start + -(-size // TAR_BLOCK) * TAR_BLOCK
            if standard != nxt and _is_ustar_header(data, standard):
                nxt = standard
        if nxt > end:
            raise CubexError("%s: truncated after member '%s' (padding missing)" % (where, name))
        pos = nxt
    if not closed:
        raise CubexError("%s: truncated (no end-of-archive block)" % where)
    return members


def row_enumeration(roots: list, mtype: str) -> list:
    """Cnodes in the order of their rows for a metric of type mtype (format doc 3.3).

    CubeLib 4.8 has no order of its own for SIMPLE metrics: it treats them as
    INCLUSIVE (verified with cube_dump), so they share the level-per-parent order.
    Both walks are iterative: call trees can be far deeper than Python's stack."""
    order = []
    if mtype in ("INCLUSIVE", "SIMPLE"):
        for r in roots:
            order.append(r)
            # visit(n) = emit all children of n, then visit each child in turn
            stack = [r]
            while stack:
                n = stack.pop()
                order.extend(n.children)
                stack.extend(reversed(n.children))
    else:
        stack = list(reversed(roots))
        while stack:
            n = stack.pop()
            order.append(n)
            stack.extend(reversed(n.children))
    return order


# --------------------------------------------------------------------------- the cube

class Cube:
    """A loaded profile: definitions plus stored values.

    Metric arguments may be a :class:`Metric`, its uniq_name or its id; cnode arguments a
    :class:`Cnode` or its id; locations are ids (columns).
    """

    def __init__(self, path: str):
        self.path = path
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise CubexError("%s: cannot read: %s" % (path, e.strerror or e)) from None
        members = read_tar_members(data, path)
        self.member_names = list(members)
        if "anchor.xml" not in members:
            raise CubexError("%s: no anchor.xml member (not a CUBE4 profile)" % path)
        off, size = members["anchor.xml"]
        anchor = data[off:off + size]
        if anchor[:2] == b"\x1f\x8b":
            try:
                anchor = gzip.decompress(anchor)
            except (OSError, EOFError, zlib.error):
                raise CubexError("%s: compressed anchor.xml is corrupt" % path) from None
        self._parse_anchor(anchor)
        self._rows = {}
        for m in self.metrics:
            if m.type in DATA_TYPES:
                self._load_metric(m, data, members)
        self._memo = {}

    # ---- definitions -------------------------------------------------------------
    def _parse_anchor(self, text):
        a = parse_anchor(text, self.path)
        self.version, self.attrs = a.version, a.attrs
        self.metrics: list[Metric] = a.metrics
        self._metric_by_id = {m.id: m for m in a.metrics}
        self._metric_by_name = {}
        for m in a.metrics:
            self._metric_by_name.setdefault(m.uniq_name, m)
        self.regions: dict[int, Region] = a.regions
        self.cnodes: dict[int, Cnode] = a.cnodes
        self.roots: list[Cnode] = a.roots
        self.locations: list[Location] = a.locations
        self.nlocs = self.locations[-1].id + 1
        # values are kept per metric in one array, a row of nlocs values per cnode slot
        if sorted(self.cnodes) == list(range(len(self.cnodes))):
            self._slot = None           # dense ids: the slot is the id
        else:
            self._slot = {cid: k for k, cid in enumerate(self.cnodes)}

    # ---- metric data --------------------------------------------------------------
    def _load_metric(self, m, data, members):
        where = self.path
        prefix = "ghost_" if m.viztype == "GHOST" else ""
        dname, iname = "%s%d.data" % (prefix, m.id), "%s%d.index" % (prefix, m.id)
        if dname not in members and iname not in members:
            self._rows[m.id] = None         # CubeLib: all values zero
            return
        if dname not in members or iname not in members:
            raise CubexError("%s: metric '%s': member %s is missing"
                             % (where, m.uniq_name, iname if dname in members else dname))
        if m.dtype not in _DTYPES:
            raise CubexError("%s: metric '%s' has unsupported dtype %s"
                             % (where, m.uniq_name, m.dtype))
        code, esize, _ = _DTYPES[m.dtype]
        ioff, isize = members[iname]
        index = data[ioff:ioff + isize]
        if len(index) < 18 or index[:11] != INDEX_MARKER:
            raise CubexError("%s: metric '%s': %s is not a CUBE index" % (where, m.uniq_name, iname))
        if index[11:15] == b"\x01\x00\x00\x00":
            endian = "<"
        elif index[11:15] == b"\x00\x00\x00\x01":
            endian = ">"
        else:
            raise CubexError("%s: metric '%s': bad endianness marker in %s"
                             % (where, m.uniq_name, iname))
        order = row_enumeration(self.roots, m.type)
        ncnodes = len(order)
        fmt = index[17]
        if fmt == INDEX_DENSE:
            positions = list(range(ncnodes))
        elif fmt == INDEX_SPARSE:
            if len(index) < 22:
                raise CubexError("%s: metric '%s': %s is truncated" % (where, m.uniq_name, iname))
            (n,) = struct.unpack_from(endian + "I", index, 18)
            if len(index) < 22 + 4 * n:
                raise CubexError("%s: metric '%s': %s is truncated (%d of %d positions)"
                                 % (where, m.uniq_name, iname, (len(index) - 22) // 4, n))
            positions = list(struct.unpack_from("%s%dI" % (endian, n), index, 22))
            if any(p >= ncnodes for p in positions):
                raise CubexError("%s: metric '%s': %s names a row beyond the %d call paths"
                                 % (where, m.uniq_name, iname, ncnodes))
        else:
            raise CubexError("%s: metric '%s': unsupported index format %d in %s"
                             % (where, m.uniq_name, fmt, iname))
        doff, dsize = members[dname]
        body = data[doff:doff + dsize]
        rowsize = self.nlocs * esize
        need = len(positions) * rowsize
        if body[:11] == ZDATA_MARKER:
            body = self._inflate(body, need, m, dname, endian)
        elif body[:10] == DATA_MARKER:
            body = body[10:]
        else:
            raise CubexError("%s: metric '%s': %s has no CUBEX.DATA marker"
                             % (where, m.uniq_name, dname))
        if len(body) < need:
            raise CubexError("%s: metric '%s': %s is truncated (%d of %d value bytes)"
                             % (where, m.uniq_name, dname, len(body), need))
        self._rows[m.id] = self._values(m, body, code, esize, endian,
                                        [self._slot_of(order[p].id) for p in positions])
        m.has_data = True

    def _slot_of(self, cid):
        return cid if self._slot is None else self._slot[cid]

    def _values(self, m, body, code, esize, endian, slots):
        """One array of all values of a metric, row k of body at slot slots[k]."""
        nl = self.nlocs
        tc = "d" if code in ("d", "Idddd") else "Q" if code == "Q" else "q"
        if code in "dqQ" and endian == NATIVE:
            stored = array(tc)
            stored.frombytes(body[:len(slots) * nl * esize])
        elif code == "Idddd":
            # TAU_ATOMIC tuples: use the sum component
            tup = struct.Struct(endian + "Idddd")
            stored = array("d", (tup.unpack_from(body, i * esize)[3]
                                 for i in range(len(slots) * nl)))
        else:
            stored = array(tc, struct.unpack_from("%s%d%s" % (endian, len(slots) * nl, code),
                                                  body))
        if slots == list(range(len(self.cnodes))):
            return stored
        values = array(tc, bytes(len(self.cnodes) * nl * stored.itemsize))
        for k, slot in enumerate(slots):
            values[slot * nl:(slot + 1) * nl] = stored[k * nl:(k + 1) * nl]
        return values

    def _inflate(self, body, need, m, dname, endian):
        where = self.path
        try:
            (n,) = struct.unpack_from(endian + "Q", body, 11)
            table = struct.unpack_from("%s%dQ" % (endian, 3 * n), body, 19)
            blobs = 19 + 24 * n
            out = bytearray(need)
            for k in range(n):
                ustart, cstart, csize = table[3 * k:3 * k + 3]
                chunk = zlib.decompress(body[blobs + cstart:blobs + cstart + csize])
                out[ustart:ustart + len(chunk)] = chunk
            return bytes(out[:need]) if len(out) >= need else bytes(out)
        except (struct.error, zlib.error, ValueError, OverflowError, MemoryError):
            raise CubexError("%s: metric '%s': compressed %s is corrupt or truncated"
                             % (where, m.uniq_name, dname)) from None

    # ---- lookup ---------------------------------------------------------------------
    def metric(self, key: Metric | str | int) -> Metric:
        """A Metric by object, uniq_name or id; CubexError when absent."""
        if isinstance(key, Metric):
            return key
        m = self._metric_by_id.get(key) if isinstance(key, int) else self._metric_by_name.get(key)
        if m is None:
            raise CubexError("%s: no metric '%s' in this profile" % (self.path, key))
        return m

    def has_metric(self, name: str) -> bool:
        return name in self._metric_by_name

    def cnode(self, key: Cnode | int) -> Cnode:
        return key if isinstance(key, Cnode) else self.cnodes[key]

    def cnodes_in_order(self) -> list[Cnode]:
        """All cnodes in depth-first pre-order of the full tree (TASKS included)."""
        return row_enumeration(self.roots, "EXCLUSIVE")

    # ---- the TASKS convention -----------------------------------------------------
    @staticmethod
    def is_tasks_node(c: Cnode) -> bool:
        return (c.parent is not None and c.parent.parent is None
                and c.region.name == "TASKS" and c.region.role == "artificial")

    def main_children(self, c: Cnode | int) -> list[Cnode]:
        """Children in CubeLib's view: a root loses its TASKS children."""
        c = self.cnode(c)
        if c.parent is None:
            return [ch for ch in c.children if not self.is_tasks_node(ch)]
        return list(c.children)

    def tasks_nodes(self) -> list[Cnode]:
        return [ch for r in self.roots for ch in r.children if self.is_tasks_node(ch)]

    def task_roots(self) -> list[Cnode]:
        """The roots of the task tree: children of the TASKS nodes."""
        return [t for n in self.tasks_nodes() for t in n.children]

    # ---- values ---------------------------------------------------------------------
    def _zero(self, m):
        return 0 if m.is_integer else 0.0

    def row(self, metric: Metric | str | int, cnode: Cnode | int) -> tuple:
        """Stored values of one cnode, one per location (zeros where nothing is stored)."""
        m = self.metric(metric)
        if m.id not in self._rows:
            raise CubexError("%s: metric '%s' has no stored data (type %s)"
                             % (self.path, m.uniq_name, m.type))
        values = self._rows[m.id]
        if values is None:
            return (self._zero(m),) * self.nlocs
        k = self._slot_of(cnode.id if isinstance(cnode, Cnode) else cnode) * self.nlocs
        return tuple(values[k:k + self.nlocs])

    def stored(self, metric: Metric | str | int, cnode: Cnode | int, loc: int):
        return self.row(metric, cnode)[loc]

    def exclusive_row(self, metric: Metric | str | int, cnode: Cnode | int) -> list:
        m = self.metric(metric)
        if m.type not in ("INCLUSIVE", "SIMPLE"):   # CubeLib treats SIMPLE as INCLUSIVE
            return list(self.row(m, cnode))
        return self._flavour_row(m, cnode, False)

    def inclusive_row(self, metric: Metric | str | int, cnode: Cnode | int) -> list:
        m = self.metric(metric)
        if m.type in ("INCLUSIVE", "SIMPLE"):
            return list(self.row(m, cnode))
        return self._flavour_row(m, cnode, True)

    def _flavour_row(self, m, cnode, inclusive):
        """A row of the flavour a metric does not store, from one pass over the whole
        tree when first asked for (so every later row costs a slice)."""
        key = ("i" if inclusive else "x", m.id)
        values = self._memo.get(key)
        if values is None:
            values = self._memo[key] = self._derive(m, inclusive)
        k = self._slot_of(cnode.id if isinstance(cnode, Cnode) else cnode) * self.nlocs
        return values[k:k + self.nlocs]

    def _derive(self, m, inclusive):
        """All values of m in the other flavour, in CubeLib's view of the tree (a root's
        TASKS children split off): exclusive = stored minus the children's stored;
        inclusive = stored combined (sum, min or max) with the children's inclusive."""
        nl, slot = self.nlocs, self._slot_of
        stored = self._rows[m.id]
        if stored is None:
            return [self._zero(m)] * (len(self.cnodes) * nl)
        out = stored.tolist()
        order = self.cnodes_in_order()
        if inclusive:
            comb = {"sum": lambda a, b: a + b, "min": min, "max": max}[m.aggregation]
            src, order = out, reversed(order)       # children before their parents
        else:
            src = stored
        for c in order:
            kids = self.main_children(c) if c.parent is None else c.children
            if not kids:
                continue
            a = slot(c.id) * nl
            for ch in kids:
                b = slot(ch.id) * nl
                for i in range(nl):
                    out[a + i] = comb(out[a + i], src[b + i]) if inclusive \
                        else out[a + i] - src[b + i]
        return out

    def exclusive(self, metric: Metric | str | int, cnode: Cnode | int, loc: int):
        return self.exclusive_row(metric, cnode)[loc]

    def inclusive(self, metric: Metric | str | int, cnode: Cnode | int, loc: int):
        return self.inclusive_row(metric, cnode)[loc]

    def aggregate(self, metric, values):
        """Combine per-location values the way the metric's dtype says (sum/min/max)."""
        m = self.metric(metric)
        values = list(values)
        if not values:
            return self._zero(m)
        return {"sum": sum, "min": min, "max": max}[m.aggregation](values)
