# scripts/: the pompprof commands (Python 3; standard library only, except the
# pictures of pompprof-timeline, which use matplotlib).
#
# The code is the pompprof_tools package, installed as data in
# $(pkgdatadir)/python; each command is a small stub generated from one template
# (scripts/command-stub.in) that finds the package and calls its entry():
# pompprof runs pompprof_tools.wrapper.main, pompprof-view runs pompprof_tools.view.main,
# every other pompprof-NAME runs pompprof_tools.analysis.NAME.
# The configured paths and version reach the package through build_config.py.
pompprof_pythondir = $(pkgdatadir)/python
pompprof_toolsdir = $(pompprof_pythondir)/pompprof_tools
dist_pompprof_tools_DATA = \
	scripts/pompprof_tools/__init__.py \
	scripts/pompprof_tools/cli.py \
	scripts/pompprof_tools/filterfile.py
# One subpackage per concern: the compiler wrapper, CUBE reading and writing,
# the analyses behind the commands.
pompprof_tools_wrapperdir = $(pompprof_toolsdir)/wrapper
dist_pompprof_tools_wrapper_DATA = \
	scripts/pompprof_tools/wrapper/__init__.py \
	scripts/pompprof_tools/wrapper/main.py \
	scripts/pompprof_tools/wrapper/noopenmp.py \
	scripts/pompprof_tools/wrapper/adjacent.py \
	scripts/pompprof_tools/wrapper/c_depend.py \
	scripts/pompprof_tools/wrapper/cmdline.py \
	scripts/pompprof_tools/wrapper/compile.py \
	scripts/pompprof_tools/wrapper/ctext.py \
	scripts/pompprof_tools/wrapper/depend_items.py \
	scripts/pompprof_tools/wrapper/directive.py \
	scripts/pompprof_tools/wrapper/fortran.py \
	scripts/pompprof_tools/wrapper/fortran_depend.py \
	scripts/pompprof_tools/wrapper/fortran_depend_marks.py \
	scripts/pompprof_tools/wrapper/fortran_output.py \
	scripts/pompprof_tools/wrapper/fortran_text.py \
	scripts/pompprof_tools/wrapper/functions.py \
	scripts/pompprof_tools/wrapper/instrument.py \
	scripts/pompprof_tools/wrapper/link.py \
	scripts/pompprof_tools/wrapper/mpi.py \
	scripts/pompprof_tools/wrapper/prelude.py \
	scripts/pompprof_tools/wrapper/rewrite.py \
	scripts/pompprof_tools/wrapper/run.py \
	scripts/pompprof_tools/wrapper/switches.py \
	scripts/pompprof_tools/wrapper/tally.py
pompprof_tools_launcherdir = $(pompprof_toolsdir)/launcher
dist_pompprof_tools_launcher_DATA = \
	scripts/pompprof_tools/launcher/__init__.py \
	scripts/pompprof_tools/launcher/run.py \
	scripts/pompprof_tools/launcher/runtimes.py
pompprof_tools_cubedir = $(pompprof_toolsdir)/cube
dist_pompprof_tools_cube_DATA = \
	scripts/pompprof_tools/cube/__init__.py \
	scripts/pompprof_tools/cube/cubex.py \
	scripts/pompprof_tools/cube/cubex_defs.py \
	scripts/pompprof_tools/cube/cubex_write.py \
	scripts/pompprof_tools/cube/params.py
pompprof_tools_analysisdir = $(pompprof_toolsdir)/analysis
dist_pompprof_tools_analysis_DATA = \
	scripts/pompprof_tools/analysis/__init__.py \
	scripts/pompprof_tools/analysis/costs.py \
	scripts/pompprof_tools/analysis/score.py \
	scripts/pompprof_tools/analysis/diff.py \
	scripts/pompprof_tools/analysis/overhead.py \
	scripts/pompprof_tools/analysis/profile_model.py \
	scripts/pompprof_tools/analysis/report.py \
	scripts/pompprof_tools/analysis/report_mpi.py \
	scripts/pompprof_tools/analysis/runfacts.py \
	scripts/pompprof_tools/analysis/scaling.py \
	scripts/pompprof_tools/analysis/svg.py \
	scripts/pompprof_tools/analysis/textfmt.py \
	scripts/pompprof_tools/analysis/timeline.py \
	scripts/pompprof_tools/analysis/timeline_mpi.py \
	scripts/pompprof_tools/analysis/timeline_plot.py
# pompprof-view: the page's data (Python) and its script and style (assets/, read when
# a page is written and put inside it)
pompprof_tools_viewdir = $(pompprof_toolsdir)/view
dist_pompprof_tools_view_DATA = \
	scripts/pompprof_tools/view/__init__.py \
	scripts/pompprof_tools/view/main.py \
	scripts/pompprof_tools/view/blob.py \
	scripts/pompprof_tools/view/page.py \
	scripts/pompprof_tools/view/profile_data.py \
	scripts/pompprof_tools/view/compare_data.py \
	scripts/pompprof_tools/view/trace_data.py
pompprof_tools_view_assetsdir = $(pompprof_tools_viewdir)/assets
dist_pompprof_tools_view_assets_DATA = \
	scripts/pompprof_tools/view/assets/body.html \
	scripts/pompprof_tools/view/assets/view.css \
	scripts/pompprof_tools/view/assets/util.js \
	scripts/pompprof_tools/view/assets/profile.js \
	scripts/pompprof_tools/view/assets/flame.js \
	scripts/pompprof_tools/view/assets/tables.js \
	scripts/pompprof_tools/view/assets/compare.js \
	scripts/pompprof_tools/view/assets/trace.js scripts/pompprof_tools/view/assets/graph.js \
	scripts/pompprof_tools/view/assets/main.js
nodist_pompprof_tools_DATA = scripts/pompprof_tools/build_config.py
pompprof_commands = scripts/pompprof scripts/pompprof-report scripts/pompprof-diff \
	scripts/pompprof-scaling scripts/pompprof-timeline scripts/pompprof-score \
	scripts/pompprof-view
bin_SCRIPTS += $(pompprof_commands)
CLEANFILES += $(pompprof_commands) scripts/pompprof_tools/build_config.py
EXTRA_DIST += scripts/command-stub.in scripts/pompprof_tools/build_config.py.in \
	scripts/pyproject.toml

# man pages, one per command, made of its --help (scripts/help2roff.py): a page never
# says other than the command does
pompprof_mans = man/pompprof.1 man/pompprof-report.1 man/pompprof-diff.1 \
	man/pompprof-scaling.1 man/pompprof-timeline.1 man/pompprof-score.1 man/pompprof-view.1
man_MANS = $(pompprof_mans) man/pompprof-run.1
CLEANFILES += $(pompprof_mans) man/pompprof-run.1
EXTRA_DIST += scripts/help2roff.py
# (the command runs: the package's build_config.py must be there, which a
# parallel make would otherwise write only later)
$(pompprof_mans): man/%.1: scripts/% scripts/pompprof_tools/build_config.py \
		$(srcdir)/scripts/help2roff.py
	@$(MKDIR_P) man
	$(AM_V_GEN)case $* in \
	  pompprof) what='build OpenMP programs for profiling with pompprof' ;; \
	  pompprof-report) what='report of a pompprof profile: flat profile, call and task trees, overheads' ;; \
	  pompprof-diff) what='per call path difference of two pompprof profiles' ;; \
	  pompprof-scaling) what='how a program'"'"'s time splits up across thread counts' ;; \
	  pompprof-timeline) what='work, overhead and idleness from a pompprof trace; timeline pictures' ;; \
	  pompprof-score) what='measurement cost of a pompprof profile per region, and filters that cut it' ;; \
	  pompprof-view) what='one self-contained HTML page of a pompprof profile and trace' ;; \
	esac; \
	COLUMNS=80 ./scripts/$* --help >$@.help && \
	$(PYTHON) $(srcdir)/scripts/help2roff.py $* '$(PACKAGE_VERSION)' "$$what" <$@.help >$@.tmp && \
	rm -f $@.help && mv $@.tmp $@

# pompprof run: a subcommand of pompprof, its page made of `pompprof run --help`
man/pompprof-run.1: scripts/pompprof scripts/pompprof_tools/build_config.py \
		$(srcdir)/scripts/pompprof_tools/launcher/run.py $(srcdir)/scripts/help2roff.py
	@$(MKDIR_P) man
	$(AM_V_GEN)COLUMNS=80 ./scripts/pompprof run --help >$@.help && \
	$(PYTHON) $(srcdir)/scripts/help2roff.py pompprof-run '$(PACKAGE_VERSION)' \
	  'measure an OpenMP program as it is, on its own runtime' <$@.help >$@.tmp && \
	rm -f $@.help && mv $@.tmp $@

pompprof_scripts_edit = sed \
	-e 's|[@]PYTHON[@]|$(PYTHON)|g' \
	-e 's|[@]pkgpythondir[@]|$(pompprof_pythondir)|g' \
	-e 's|[@]abs_top_srcdir[@]|$(abs_top_srcdir)|g' \
	-e 's|[@]abs_top_builddir[@]|$(abs_top_builddir)|g' \
	-e 's|[@]OPARI2[@]|$(OPARI2)|g' \
	-e 's|[@]OPARI2_CONFIG[@]|$(OPARI2_CONFIG)|g' \
	-e 's|[@]OPARI2_TESTED[@]|$(OPARI2_TESTED)|g' \
	-e 's|[@]libdir[@]|$(libdir)|g' \
	-e 's|[@]pkglibexecdir[@]|$(pkglibexecdir)|g' \
	-e 's|[@]pkglibdir[@]|$(pkglibdir)|g' \
	-e 's|[@]pkgdatadir[@]|$(pkgdatadir)|g' \
	-e 's|[@]GCC_PLUGIN_DIR[@]|$(GCC_PLUGIN_DIR)|g' \
	-e 's|[@]includedir[@]|$(includedir)|g' \
	-e 's|[@]OPENMP_CFLAGS[@]|$(OPENMP_CFLAGS)|g' \
	-e 's|[@]PACKAGE_VERSION[@]|$(PACKAGE_VERSION)|g' \
	-e 's|[@]MPI_SUPPORT[@]|$(MPI_SUPPORT)|g' \
	-e 's|[@]MPI_FORTRAN_SUPPORT[@]|$(MPI_FORTRAN_SUPPORT)|g'

$(pompprof_commands): scripts/%: $(srcdir)/scripts/command-stub.in Makefile
	@$(MKDIR_P) scripts
	$(AM_V_GEN)command='$*'; case $$command in \
	  pompprof) module=wrapper.main ;; \
	  pompprof-view) module=view.main ;; \
	  *) module=analysis.$${command#pompprof-} ;; \
	esac; \
	$(pompprof_scripts_edit) -e "s|[@]command[@]|$$command|g" -e "s|[@]module[@]|$$module|g" \
	  $(srcdir)/scripts/command-stub.in >$@.tmp && chmod +x $@.tmp && mv -f $@.tmp $@

scripts/pompprof_tools/build_config.py: $(srcdir)/scripts/pompprof_tools/build_config.py.in Makefile
	@$(MKDIR_P) scripts/pompprof_tools
	$(AM_V_GEN)$(pompprof_scripts_edit) $(srcdir)/scripts/pompprof_tools/build_config.py.in \
	  >$@.tmp && mv -f $@.tmp $@
