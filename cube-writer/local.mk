# cube-writer/: a generic CUBE4 writer (doc/cube4-layout.md).
noinst_LTLIBRARIES += cube-writer/libpp_cube.la
cube_writer_libpp_cube_la_SOURCES = \
	cube-writer/pp_cube.h cube-writer/pp_cube_internal.h \
	cube-writer/pp_cube.c \
	cube-writer/pp_cube_values.c \
	cube-writer/pp_cube_tree.c \
	cube-writer/pp_cube_rows.c \
	cube-writer/pp_cube_strbuf.c \
	cube-writer/pp_cube_xml.c \
	cube-writer/pp_cube_sink.c \
	cube-writer/pp_cube_tar.c \
	cube-writer/pp_cube_data.c \
	cube-writer/pp_cube_write.c
