# cube-writer/: generic CUBE4 writer (owner: CUBE4 issue).
noinst_LTLIBRARIES += cube-writer/libpp_cube.la
cube_writer_libpp_cube_la_SOURCES = cube-writer/pp_cube.h
