# pomp2/: POMP2 entry points, region registry, task handles (owner: foundation issue).
noinst_LTLIBRARIES += pomp2/libpp_pomp2.la
pomp2_libpp_pomp2_la_SOURCES = pomp2/pp_pomp2_entry.c
pomp2_libpp_pomp2_la_CPPFLAGS = $(AM_CPPFLAGS) $(OPARI2_CFLAGS)
pomp2_libpp_pomp2_la_CFLAGS = $(AM_CFLAGS) $(OPENMP_CFLAGS)
