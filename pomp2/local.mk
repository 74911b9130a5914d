# pomp2/: POMP2 entry points, region registry, task handles, lock wrappers.
noinst_LTLIBRARIES += pomp2/libpp_pomp2.la
pomp2_libpp_pomp2_la_SOURCES = \
	pomp2/pp_pomp2_entry.c \
	pomp2/pp_pomp2_internal.h \
	pomp2/pp_pomp2_parallel.c \
	pomp2/pp_pomp2_worksharing.c \
	pomp2/pp_pomp2_task.c \
	pomp2/pp_pomp2_lock.c pomp2/pp_pomp2_lock_table.h \
	pomp2/pp_pomp2_user.c pomp2/pp_pomp2_param.c \
	pomp2/pp_pomp2_depend.c pomp2/pp_pomp2_depend.h \
	pomp2/pp_pomp2_region.c pomp2/pp_pomp2_region.h \
	pomp2/pp_pomp2_region_names.c \
	pomp2/pp_pomp2_region_string.c pomp2/pp_pomp2_region_string.h
# The Fortran bindings, when configure found a Fortran compiler (automake
# distributes them either way).
if HAVE_FORTRAN
pomp2_libpp_pomp2_la_SOURCES += \
	pomp2/pp_pomp2_fortran.c pomp2/pp_pomp2_fortran_table.h
endif
pomp2_libpp_pomp2_la_CPPFLAGS = $(AM_CPPFLAGS) $(OPARI2_CFLAGS) \
	-DPP_OPARI2_VERSION='"$(OPARI2_VERSION)"'
pomp2_libpp_pomp2_la_CFLAGS = $(AM_CFLAGS) $(OPENMP_CFLAGS)

# The public header for optional user calls.
include_HEADERS += pomp2/pompprof.h
