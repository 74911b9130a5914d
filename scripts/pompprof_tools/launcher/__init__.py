"""pompprof run: measuring a program as it is, without rebuilding it: on
libgomp through the interposer libpompprof_gomp.so, on LLVM's libomp through
the OpenMP tools interface (OMPT)."""
