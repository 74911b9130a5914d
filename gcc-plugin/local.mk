# gcc-plugin/: pompprof's GCC plugin (doc/functions.md, "How"), which
# instruments the functions of `pompprof --functions gcc|g++|gfortran` with
# calls that carry each function's descriptor, leaving out exactly what the
# filter file names.  A C++ shared object that GCC loads (-fplugin=); it
# reads filter files with the library's reader (functions/pp_filter.c).
# Built when configure found GCC's plugin headers; installed in pkglibdir.
if HAVE_GCC_PLUGIN
pkglib_LTLIBRARIES += gcc-plugin/pompprof_gcc.la
gcc_plugin_pompprof_gcc_la_SOURCES = gcc-plugin/pp_plugin.h gcc-plugin/pp_plugin.cc \
	gcc-plugin/pp_plugin_names.cc gcc-plugin/pp_plugin_desc.cc gcc-plugin/pp_plugin_pass.cc
# GCC's own headers first (they include GCC's config.h); GCC is built
# without RTTI and exceptions
gcc_plugin_pompprof_gcc_la_CPPFLAGS = -I$(GCC_PLUGIN_DIR)/include $(AM_CPPFLAGS)
gcc_plugin_pompprof_gcc_la_CXXFLAGS = -fno-rtti -fno-exceptions -Wall -Wextra
gcc_plugin_pompprof_gcc_la_LIBADD = gcc-plugin/libpp_plugin_filter.la
gcc_plugin_pompprof_gcc_la_LDFLAGS = -module -avoid-version -shared
noinst_LTLIBRARIES += gcc-plugin/libpp_plugin_filter.la
gcc_plugin_libpp_plugin_filter_la_SOURCES = functions/pp_filter.c functions/pp_filter.h
# (without the sanitizers of a sanitizer build: GCC has no runtime of theirs)
gcc_plugin_libpp_plugin_filter_la_CFLAGS = -std=gnu11 -Wall -Wextra
endif
