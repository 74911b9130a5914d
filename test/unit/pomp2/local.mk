# test/unit/pomp2: region-string parser and the POMP2 adapter (against a
# recording fake engine, pp_fake_profile.c, which is test-only).
EXTRA_DIST += test/unit/pomp2/constructs.c
if HAVE_CHECK
check_PROGRAMS += test/unit/pomp2/test_pomp2_region_string test/unit/pomp2/test_pomp2_adapter
TESTS += test/unit/pomp2/test_pomp2_region_string test/unit/pomp2/test_pomp2_adapter

test_unit_pomp2_test_pomp2_region_string_SOURCES = $(CHECK_MAIN) \
	test/unit/pomp2/test_pomp2_region_string.c \
	pomp2/pp_pomp2_region_string.c pomp2/pp_pomp2_region_string.h
test_unit_pomp2_test_pomp2_region_string_CPPFLAGS = $(AM_CPPFLAGS) \
	-DPP_TEST_SRCDIR='"$(abs_top_srcdir)"' -DPP_TEST_OPARI2='"$(OPARI2)"'
test_unit_pomp2_test_pomp2_region_string_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_pomp2_test_pomp2_region_string_LDADD = $(CHECK_LIBS)

test_unit_pomp2_test_pomp2_adapter_SOURCES = $(CHECK_MAIN) \
	test/unit/pomp2/test_pomp2_adapter.c \
	test/unit/pomp2/pp_fake_profile.c test/unit/pomp2/pp_fake_profile.h
test_unit_pomp2_test_pomp2_adapter_CPPFLAGS = $(AM_CPPFLAGS) $(OPARI2_CFLAGS) \
	-DPP_TEST_OPARI2_VERSION='"$(OPARI2_VERSION)"'
test_unit_pomp2_test_pomp2_adapter_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(OPENMP_CFLAGS)
test_unit_pomp2_test_pomp2_adapter_LDFLAGS = $(OPENMP_CFLAGS)
test_unit_pomp2_test_pomp2_adapter_LDADD = pomp2/libpp_pomp2.la lib/libpp_util.la \
	$(CHECK_LIBS) -lpthread
endif
