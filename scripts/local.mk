# scripts/: the pompprof wrapper and the analysis tools (Python 3, stdlib only).

# ---- analysis tools: pompprof-report, pompprof-diff, pompprof-scaling --------
# The Python package is installed as data; the entry scripts get its location
# substituted at build time (they fall back to their own directory when run
# uninstalled from the source tree).
pompprof_pythondir = $(pkgdatadir)/python
pompprof_toolsdir = $(pompprof_pythondir)/pompprof_tools
dist_pompprof_tools_DATA = \
	scripts/pompprof_tools/__init__.py \
	scripts/pompprof_tools/cli.py \
	scripts/pompprof_tools/cubex.py \
	scripts/pompprof_tools/cubex_write.py \
	scripts/pompprof_tools/diff.py \
	scripts/pompprof_tools/overhead.py \
	scripts/pompprof_tools/profile_model.py \
	scripts/pompprof_tools/report.py \
	scripts/pompprof_tools/scaling.py \
	scripts/pompprof_tools/svg.py \
	scripts/pompprof_tools/textfmt.py
pompprof_tool_scripts = scripts/pompprof-report scripts/pompprof-diff scripts/pompprof-scaling
bin_SCRIPTS += $(pompprof_tool_scripts)
CLEANFILES += $(pompprof_tool_scripts)
EXTRA_DIST += scripts/pompprof-report.in scripts/pompprof-diff.in scripts/pompprof-scaling.in
pompprof_tools_edit = sed -e 's|[@]pkgpythondir[@]|$(pompprof_pythondir)|g' \
	-e 's|[@]abs_top_srcdir[@]|$(abs_top_srcdir)|g'
scripts/pompprof-report: $(srcdir)/scripts/pompprof-report.in Makefile
	@$(MKDIR_P) scripts
	$(AM_V_GEN)$(pompprof_tools_edit) $(srcdir)/scripts/pompprof-report.in >$@.tmp && \
	chmod +x $@.tmp && mv -f $@.tmp $@
scripts/pompprof-diff: $(srcdir)/scripts/pompprof-diff.in Makefile
	@$(MKDIR_P) scripts
	$(AM_V_GEN)$(pompprof_tools_edit) $(srcdir)/scripts/pompprof-diff.in >$@.tmp && \
	chmod +x $@.tmp && mv -f $@.tmp $@
scripts/pompprof-scaling: $(srcdir)/scripts/pompprof-scaling.in Makefile
	@$(MKDIR_P) scripts
	$(AM_V_GEN)$(pompprof_tools_edit) $(srcdir)/scripts/pompprof-scaling.in >$@.tmp && \
	chmod +x $@.tmp && mv -f $@.tmp $@
# ---- end of analysis tools ----------------------------------------------------

# ---- the pompprof compiler wrapper (owner: pomp2 issue) -------------------
# Generated from pompprof.in with the configured tools and directories.
bin_SCRIPTS += scripts/pompprof
EXTRA_DIST += scripts/pompprof.in
CLEANFILES += scripts/pompprof
scripts/pompprof: $(top_srcdir)/scripts/pompprof.in Makefile
	$(AM_V_GEN)$(MKDIR_P) scripts && sed \
	  -e 's|[@]OPARI2[@]|$(OPARI2)|g' \
	  -e 's|[@]OPARI2_CONFIG[@]|$(OPARI2_CONFIG)|g' \
	  -e 's|[@]libdir[@]|$(libdir)|g' \
	  -e 's|[@]includedir[@]|$(includedir)|g' \
	  -e 's|[@]OPENMP_CFLAGS[@]|$(OPENMP_CFLAGS)|g' \
	  -e 's|[@]PACKAGE_VERSION[@]|$(PACKAGE_VERSION)|g' \
	  $(top_srcdir)/scripts/pompprof.in > $@.tmp && chmod +x $@.tmp && mv -f $@.tmp $@
# ---- end of the pompprof compiler wrapper ------------------------------------
