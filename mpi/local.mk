# mpi/: the MPI measurement layer (doc/mpi.md), built when configure found an
# MPI compiler wrapper.  The wrappers of every MPI function are generated
# from one table (pp_mpi_functions.tbl) by pp_mpi_gen.py; libpompprof_mpi
# holds the C ones and the job's unification, libpompprof_mpif the Fortran
# binding's.  The pompprof wrapper links them only into MPI programs.
EXTRA_DIST += mpi/pp_mpi_gen.py mpi/pp_mpi_functions.tbl mpi/pp_mpi_trace.tbl
PP_MPI_GEN = $(PYTHON) $(srcdir)/mpi/pp_mpi_gen.py --table $(srcdir)/mpi/pp_mpi_functions.tbl \
	--trace-table $(srcdir)/mpi/pp_mpi_trace.tbl

if HAVE_MPI
noinst_LTLIBRARIES += mpi/libpp_mpi.la
mpi_libpp_mpi_la_SOURCES = \
	mpi/pp_mpi.h mpi/pp_mpi_region.c \
	mpi/pp_mpi_bytes.h mpi/pp_mpi_bytes.c \
	mpi/pp_mpi_lifecycle.h mpi/pp_mpi_lifecycle.c \
	mpi/pp_mpi_pack.h mpi/pp_mpi_pack.c mpi/pp_mpi_merge.c \
	mpi/pp_mpi_unify.h mpi/pp_mpi_unify.c \
	mpi/pp_mpi_trace.h mpi/pp_mpi_trace.c mpi/pp_mpi_comm.c mpi/pp_mpi_request.c \
	mpi/pp_mpi_clock.c mpi/pp_mpi_otf2.c
nodist_mpi_libpp_mpi_la_SOURCES = mpi/pp_mpi_wrappers.c mpi/pp_mpi_index.h
# the removed MPI-1 functions are declared too (libmpi still has them)
# OTF2's headers for OTF2_MPI_Collectives.h (pp_mpi_otf2.c); no OTF2 library
mpi_libpp_mpi_la_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CFLAGS) $(OTF2_CFLAGS) \
	-DOMPI_OMIT_MPI1_COMPAT_DECLS=0
mpi_libpp_mpi_la_CFLAGS = $(AM_CFLAGS) -Wno-deprecated-declarations

# for programs built with the pompprof wrapper: beside libpompprof's engine
lib_LTLIBRARIES += libpompprof_mpi.la
libpompprof_mpi_la_SOURCES =
nodist_EXTRA_libpompprof_mpi_la_SOURCES = dummy.c
libpompprof_mpi_la_LIBADD = mpi/libpp_mpi.la libpompprof.la $(MPI_LIBS)
libpompprof_mpi_la_LDFLAGS = $(AM_LDFLAGS) -version-info 0:0:0 \
	-export-symbols-regex '^(MPI_|pp_mpi_)'

# for `pompprof run` (doc/mpi.md, "Without rebuilding"): the layer in one
# library with an event source and its engine, preloaded for an MPI program
lib_LTLIBRARIES += libpompprof_gomp_mpi.la
libpompprof_gomp_mpi_la_SOURCES =
nodist_EXTRA_libpompprof_gomp_mpi_la_SOURCES = dummy.c
libpompprof_gomp_mpi_la_LIBADD = mpi/libpp_mpi.la $(PP_GOMP_LIBADD) $(MPI_LIBS)
libpompprof_gomp_mpi_la_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version -shared \
	-export-symbols-regex '^($(PP_GOMP_EXPORTS)|MPI_)'
if HAVE_OMPT
lib_LTLIBRARIES += libpompprof_ompt_mpi.la
libpompprof_ompt_mpi_la_SOURCES =
nodist_EXTRA_libpompprof_ompt_mpi_la_SOURCES = dummy.c
libpompprof_ompt_mpi_la_LIBADD = mpi/libpp_mpi.la $(PP_OMPT_LIBADD) $(MPI_LIBS)
libpompprof_ompt_mpi_la_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version -shared \
	-export-symbols-regex '^(ompt_start_tool|MPI_)'
endif
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
noinst_LTLIBRARIES += mpi/libpp_mpif.la
mpi_libpp_mpif_la_SOURCES = mpi/pp_mpi_fortran.h mpi/pp_mpi_fortran.c
nodist_mpi_libpp_mpif_la_SOURCES = mpi/pp_mpi_fortran_wrappers.c
mpi_libpp_mpif_la_CPPFLAGS = $(mpi_libpp_mpi_la_CPPFLAGS)
mpi_libpp_mpif_la_CFLAGS = $(mpi_libpp_mpi_la_CFLAGS)

lib_LTLIBRARIES += libpompprof_mpif.la
libpompprof_mpif_la_SOURCES =
nodist_EXTRA_libpompprof_mpif_la_SOURCES = dummy.c
libpompprof_mpif_la_LIBADD = mpi/libpp_mpif.la libpompprof_mpi.la libpompprof.la $(MPI_FLIBS)
libpompprof_mpif_la_LDFLAGS = $(AM_LDFLAGS) -version-info 0:0:0 \
	-export-symbols-regex '^(mpi_|MPI_)'

# `pompprof run` for a program that calls MPI from Fortran (mpif.h, use mpi)
lib_LTLIBRARIES += libpompprof_gomp_mpif.la
libpompprof_gomp_mpif_la_SOURCES =
nodist_EXTRA_libpompprof_gomp_mpif_la_SOURCES = dummy.c
libpompprof_gomp_mpif_la_LIBADD = mpi/libpp_mpif.la mpi/libpp_mpi.la $(PP_GOMP_LIBADD) \
	$(MPI_FLIBS)
libpompprof_gomp_mpif_la_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version -shared \
	-export-symbols-regex '^($(PP_GOMP_EXPORTS)|MPI_|mpi_)'
mpi/pp_mpi_fortran_wrappers.c: $(srcdir)/mpi/pp_mpi_functions.tbl $(srcdir)/mpi/pp_mpi_gen.py
	@$(MKDIR_P) mpi
	$(AM_V_GEN)$(PP_MPI_GEN) --fortran $@
endif
endif
