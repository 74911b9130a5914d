# test/mpi: the MPI layer (doc/mpi.md) with Open MPI's mpirun, oversubscribed
# and allowed as root; every run under a timeout.  The tests skip (77) when
# configure built no MPI support; test_mpi_configure.sh checks that path.
MPI_TESTS = \
	test/mpi/test_mpi_table.py \
	test/mpi/test_mpi_hybrid.py \
	test/mpi/test_mpi_run.py \
	test/mpi/test_mpi_example.py \
	test/mpi/test_mpi_exit.py \
	test/mpi/test_mpi_fortran.py \
	test/mpi/test_mpi_wrapper.py \
	test/mpi/test_mpi_report.py \
	test/mpi/test_mpi_trace.py \
	test/mpi/test_mpi_trace_faults.py \
	test/mpi/test_mpi_configure.sh
TESTS += $(MPI_TESTS)
EXTRA_DIST += $(MPI_TESTS) test/mpi/mpi_common.py \
	test/mpi/progs/hybrid.c test/mpi/progs/exit_early.c test/mpi/progs/fhybrid.f90 \
	test/mpi/progs/trace_msgs.c test/mpi/progs/trace_fault.c
