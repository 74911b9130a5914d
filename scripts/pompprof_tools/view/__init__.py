"""pompprof-view: a profile (and its trace), or two profiles compared, as one
self-contained HTML file: data (profile_data, compare_data, trace_data) packed by page
into the page beside the hand-written script and style of assets/."""
