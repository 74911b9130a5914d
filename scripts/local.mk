# scripts/: the pompprof wrapper and the analysis tools (Python 3, stdlib only).
