# mpi/: the MPI measurement layer (doc/mpi.md), built when configure found an
# MPI compiler wrapper.  The wrappers of every MPI function are generated
# from one table (pp_mpi_functions.tbl) by pp_mpi_gen.py; libpompprof_mpi
# holds the C ones and the job's unification, libpompprof_mpif the Fortran
# binding's.  The pompprof wrapper links them only into MPI programs.
EXTRA_DIST += mpi/pp_mpi_gen.py mpi/pp_mpi_functions.tbl mpi/pp_mpi_trace.tbl
PP_MPI_GEN = $(PYTHON) $(srcdir)/mpi/pp_mpi_gen.py --table $(srcdir)/mpi/pp_mpi_functions.tbl \
	--trace-table $(srcdir)/mpi/pp_mpi_trace.tbl

if HAVE_MPI
lib_LTLIBRARIES += libpompprof_mpi.la
libpompprof_mpi_la_SOURCES = \
	mpi/pp_mpi.h mpi/pp_mpi_region.c \
	mpi/pp_mpi_bytes.h mpi/pp_mpi_bytes.c \
	mpi/pp_mpi_lifecycle.h mpi/pp_mpi_lifecycle.c \
	mpi/pp_mpi_pack.h mpi/pp_mpi_pack.c mpi/pp_mpi_merge.c \
	mpi/pp_mpi_unify.h mpi/pp_mpi_unify.c \
	mpi/pp_mpi_trace.h mpi/pp_mpi_trace.c mpi/pp_mpi_comm.c mpi/pp_mpi_request.c \
	mpi/pp_mpi_clock.c mpi/pp_mpi_otf2.c
nodist_libpompprof_mpi_la_SOURCES = mpi/pp_mpi_wrappers.c mpi/pp_mpi_index.h
# the removed MPI-1 functions are declared too (libmpi still has them)
# OTF2's headers for OTF2_MPI_Collectives.h (pp_mpi_otf2.c); no OTF2 library
libpompprof_mpi_la_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CFLAGS) $(OTF2_CFLAGS) \
	-DOMPI_OMIT_MPI1_COMPAT_DECLS=0
libpompprof_mpi_la_CFLAGS = $(AM_CFLAGS) -Wno-deprecated-declarations
libpompprof_mpi_la_LIBADD = libpompprof.la $(MPI_LIBS)
libpompprof_mpi_la_LDFLAGS = $(AM_LDFLAGS) -version-info 0:0:0 \
	-export-symbols-regex '^(MPI_|pp_mpi_)'
BUILT_SOURCES += mpi/pp_mpi_index.h
CLEANFILES += mpi/pp_mpi_wrappers.c mpi/pp_mpi_index.h mpi/pp_mpi_fortran_wrappers.c

mpi/pp_mpi_wrappers.c: $(srcdir)/mpi/pp_mpi_functions.tbl $(srcdir)/mpi/pp_mpi_trace.tbl \
		$(srcdir)/mpi/pp_mpi_gen.py
	@$(MKDIR_P) mpi
	$(AM_V_GEN)$(PP_MPI_GEN) --c $@
mpi/pp_mpi_index.h: $(srcdir)/mpi/pp_mpi_functions.tbl $(srcdir)/mpi/pp_mpi_gen.py
	@$(MKDIR_P) mpi
	$(AM_V_GEN)$(PP_MPI_GEN) --index $@

if HAVE_MPI_FORTRAN
lib_LTLIBRARIES += libpompprof_mpif.la
libpompprof_mpif_la_SOURCES = mpi/pp_mpi_fortran.h mpi/pp_mpi_fortran.c
nodist_libpompprof_mpif_la_SOURCES = mpi/pp_mpi_fortran_wrappers.c
libpompprof_mpif_la_CPPFLAGS = $(libpompprof_mpi_la_CPPFLAGS)
libpompprof_mpif_la_CFLAGS = $(libpompprof_mpi_la_CFLAGS)
libpompprof_mpif_la_LIBADD = libpompprof_mpi.la libpompprof.la $(MPI_FLIBS)
libpompprof_mpif_la_LDFLAGS = $(AM_LDFLAGS) -version-info 0:0:0 \
	-export-symbols-regex '^(mpi_|MPI_)'
mpi/pp_mpi_fortran_wrappers.c: $(srcdir)/mpi/pp_mpi_functions.tbl $(srcdir)/mpi/pp_mpi_gen.py
	@$(MKDIR_P) mpi
	$(AM_V_GEN)$(PP_MPI_GEN) --fortran $@
endif
endif
