# test/unit/cube: the CUBE4 writer (format, row order, error paths).
CUBE_TEST_HELPERS = \
	test/unit/cube/cube_test_util.h \
	test/unit/cube/cube_test_tar.c \
	test/unit/cube/cube_test_xml.c \
	test/unit/cube/cube_test_anchor.c \
	test/unit/cube/cube_test_file.c \
	test/unit/cube/cube_test_fixture.c

if HAVE_CHECK
check_PROGRAMS += test/unit/cube/test_cube_format test/unit/cube/test_cube_rows \
	test/unit/cube/test_cube_errors
TESTS += test/unit/cube/test_cube_format test/unit/cube/test_cube_rows \
	test/unit/cube/test_cube_errors

test_unit_cube_test_cube_format_SOURCES = $(CHECK_MAIN) test/unit/cube/test_cube_format.c $(CUBE_TEST_HELPERS)
test_unit_cube_test_cube_format_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_cube_test_cube_format_LDADD = cube-writer/libpp_cube.la $(CHECK_LIBS) -lm

test_unit_cube_test_cube_rows_SOURCES = $(CHECK_MAIN) test/unit/cube/test_cube_rows.c $(CUBE_TEST_HELPERS)
test_unit_cube_test_cube_rows_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_cube_test_cube_rows_LDADD = cube-writer/libpp_cube.la $(CHECK_LIBS) -lm

test_unit_cube_test_cube_errors_SOURCES = $(CHECK_MAIN) test/unit/cube/test_cube_errors.c $(CUBE_TEST_HELPERS)
test_unit_cube_test_cube_errors_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_cube_test_cube_errors_LDADD = cube-writer/libpp_cube.la $(CHECK_LIBS) -lm
endif

# Benchmark, not part of check: `make bench-cube`.
noinst_PROGRAMS += test/unit/cube/bench_cube_write
test_unit_cube_bench_cube_write_SOURCES = test/unit/cube/bench_cube_write.c
test_unit_cube_bench_cube_write_LDADD = cube-writer/libpp_cube.la

.PHONY: bench-cube
bench-cube: test/unit/cube/bench_cube_write$(EXEEXT)
	./test/unit/cube/bench_cube_write$(EXEEXT)

# Round trip through the Python reader (scripts/pompprof_tools/cube/cubex.py):
# cube_roundtrip_write writes several shapes plus the expected contents.
check_PROGRAMS += test/unit/cube/cube_roundtrip_write
test_unit_cube_cube_roundtrip_write_SOURCES = test/unit/cube/cube_roundtrip_write.c
test_unit_cube_cube_roundtrip_write_LDADD = cube-writer/libpp_cube.la
TESTS += test/unit/cube/test_cube_roundtrip.py test/unit/cube/test_cube_roundtrip_deep.py \
	test/unit/cube/test_cube_roundtrip_simple.py
EXTRA_DIST += test/unit/cube/cube_roundtrip.py test/unit/cube/test_cube_roundtrip.py \
	test/unit/cube/test_cube_roundtrip_deep.py test/unit/cube/test_cube_roundtrip_simple.py
