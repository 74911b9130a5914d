# test/unit/mpi: the MPI layer's packed profiles and their merge, which need
# no MPI (built and run with or without it).
if HAVE_CHECK
check_PROGRAMS += test/unit/mpi/test_mpi_merge
TESTS += test/unit/mpi/test_mpi_merge
test_unit_mpi_test_mpi_merge_SOURCES = $(CHECK_MAIN) test/unit/mpi/test_mpi_merge.c \
	mpi/pp_mpi_pack.h mpi/pp_mpi_pack.c mpi/pp_mpi_merge.c
test_unit_mpi_test_mpi_merge_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_mpi_test_mpi_merge_LDADD = profile/libpp_profile_debug.la cube-writer/libpp_cube.la \
	lib/libpp_util.la $(PAPI_LIBS) $(CHECK_LIBS) -lpthread -lm
endif
