"""pompprof analysis tools: a CUBE4 (.cubex) reader and writer plus the
report, diff and scaling analyses built on them (Python 3 standard library only).

Modules:
  cubex          read a .cubex file (tar container, anchor.xml, metric data)
  cubex_write    write a .cubex file (used by pompprof-diff -o)
  profile_model  per-thread inclusive/exclusive view of a profile, roles of regions
  overhead       the overhead categories shared by report and scaling
  report, diff, scaling   the three tools; svg, textfmt: output helpers
  cli            error handling shared by the entry scripts
"""

__all__ = ["cubex", "cubex_write", "profile_model", "overhead",
           "report", "diff", "scaling", "svg", "textfmt", "cli"]
