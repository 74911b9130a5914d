# test/unit/ompt: the OMPT layer's task handles (ompt/pp_ompt_handle.h), packed
# and unpacked at the limits of their fields.
if HAVE_CHECK
check_PROGRAMS += test/unit/ompt/test_ompt_handle
TESTS += test/unit/ompt/test_ompt_handle
test_unit_ompt_test_ompt_handle_SOURCES = $(CHECK_MAIN) test/unit/ompt/test_ompt_handle.c \
	ompt/pp_ompt_handle.h
test_unit_ompt_test_ompt_handle_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_ompt_test_ompt_handle_LDADD = $(CHECK_LIBS)
endif
