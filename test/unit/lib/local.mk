# test/unit/lib: configuration, messages, timer.
if HAVE_CHECK
check_PROGRAMS += test/unit/lib/test_lib_config
TESTS += test/unit/lib/test_lib_config
test_unit_lib_test_lib_config_SOURCES = $(CHECK_MAIN) test/unit/lib/test_lib_config.c
test_unit_lib_test_lib_config_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_lib_test_lib_config_LDADD = lib/libpp_util.la $(CHECK_LIBS) -lpthread
endif
