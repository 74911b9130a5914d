#!/usr/bin/env python3
"""libpompprof_ompt.so is loaded with dlopen (libomp reads OMP_TOOL_LIBRARIES), yet its
engine reaches the thread's location through initial-exec TLS, the one-load model of the
event path.  glibc serves such a library from the spare static TLS it reserves for late
loads (glibc.rtld.optional_static_tls, 512 bytes by default), shared with every other
library loaded so.  So the library's TLS stays far below that bound: at most 128 bytes,
read from its PT_TLS header, and it says it needs static TLS (DF_STATIC_TLS), as the
comment in profile/pp_profile_state.c states.  Then a clang program loads it that way with
the spare space cut to 128 bytes and writes its profile."""
import os
import shutil
import struct
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ompt_env as E  # noqa: E402

PT_DYNAMIC, PT_TLS = 2, 7
DT_FLAGS, DF_STATIC_TLS = 30, 0x10
BOUND = 128


def elf_tls(path):
    """(the PT_TLS segment's memory size or None, whether DT_FLAGS has DF_STATIC_TLS)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise AssertionError("%s is not a 64-bit ELF file" % path)
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    tls, static = None, False
    for i in range(phnum):
        p_type, _flags, p_offset, _vaddr, _paddr, _filesz, p_memsz, _align = \
            struct.unpack_from("<IIQQQQQQ", data, phoff + i * phentsize)
        if p_type == PT_TLS:
            tls = p_memsz
        elif p_type == PT_DYNAMIC:
            for at in range(p_offset, len(data) - 15, 16):
                tag, val = struct.unpack_from("<qQ", data, at)
                if tag == 0:
                    break
                if tag == DT_FLAGS and val & DF_STATIC_TLS:
                    static = True
    return tls, static


@unittest.skipUnless(E.have_ompt() or os.environ.get("CI") == "true",
                     "no OMPT tool, libomp or clang")
class StaticTls(unittest.TestCase):
    def test_tls_small_and_static(self):
        tls, static = elf_tls(E.TOOL)
        self.assertIsNotNone(tls, "no PT_TLS segment in %s" % E.TOOL)
        self.assertTrue(static, "DF_STATIC_TLS not set: the comment in pp_profile_state.c "
                                "no longer holds")
        self.assertLessEqual(tls, BOUND, "%s needs %d bytes of static TLS, over the %d this "
                             "test allows of glibc's 512 spare bytes" % (E.TOOL, tls, BOUND))

    def test_loaded_with_little_spare_tls(self):
        scratch = tempfile.mkdtemp(prefix="pp_ompt_tls_")
        try:
            exe = E.build(scratch, "prof_fib.c", "clang")
            tunables = "glibc.rtld.optional_static_tls=%d" % BOUND
            out, err, cube, _ = E.run(exe, "clang", 2, args=(12,), scratch=scratch,
                                      extra_env={"GLIBC_TUNABLES": tunables})
            self.assertNotIn("static TLS", err)
            tasks = sum(E.instances(cube).values())
            self.assertGreater(tasks, 0, "no task measured: %s" % err)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
