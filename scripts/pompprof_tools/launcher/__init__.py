"""pompprof run: measuring a program through the OpenMP tools interface (OMPT),
without rebuilding it."""
