"""The analyses behind the commands, each a module with an `entry()`:
report (with report_mpi), diff, scaling and timeline (the trace analysis; it runs the C
replay pompprof-replay, timeline_plot draws its pictures with matplotlib).
profile_model is the per-thread inclusive/exclusive view they share, overhead the
overhead categories; textfmt and svg are output helpers."""
