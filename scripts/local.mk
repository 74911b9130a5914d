# scripts/: the pompprof commands (Python 3; standard library only, except the
# pictures of pompprof-timeline, which use matplotlib).
#
# The code is the pompprof_tools package, installed as data in
# $(pkgdatadir)/python; each command is a small stub generated from one template
# (scripts/command-stub.in) that finds the package and calls its entry():
# pompprof runs pompprof_tools.wrapper, pompprof-NAME runs pompprof_tools.NAME.
# The configured paths and version reach the package through build_config.py.
pompprof_pythondir = $(pkgdatadir)/python
pompprof_toolsdir = $(pompprof_pythondir)/pompprof_tools
dist_pompprof_tools_DATA = \
	scripts/pompprof_tools/__init__.py \
	scripts/pompprof_tools/cli.py \
	scripts/pompprof_tools/cubex.py \
	scripts/pompprof_tools/cubex_defs.py \
	scripts/pompprof_tools/cubex_write.py \
	scripts/pompprof_tools/diff.py \
	scripts/pompprof_tools/overhead.py \
	scripts/pompprof_tools/params.py \
	scripts/pompprof_tools/profile_model.py \
	scripts/pompprof_tools/report.py \
	scripts/pompprof_tools/report_mpi.py \
	scripts/pompprof_tools/scaling.py \
	scripts/pompprof_tools/svg.py \
	scripts/pompprof_tools/textfmt.py \
	scripts/pompprof_tools/timeline.py \
	scripts/pompprof_tools/timeline_plot.py \
	scripts/pompprof_tools/wrapper.py \
	scripts/pompprof_tools/wrapper_cmdline.py \
	scripts/pompprof_tools/wrapper_compile.py \
	scripts/pompprof_tools/wrapper_ctext.py \
	scripts/pompprof_tools/wrapper_depend.py \
	scripts/pompprof_tools/wrapper_directive.py \
	scripts/pompprof_tools/wrapper_fortran.py \
	scripts/pompprof_tools/wrapper_instrument.py \
	scripts/pompprof_tools/wrapper_link.py \
	scripts/pompprof_tools/wrapper_mpi.py \
	scripts/pompprof_tools/wrapper_prelude.py \
	scripts/pompprof_tools/wrapper_rewrite.py \
	scripts/pompprof_tools/wrapper_run.py
nodist_pompprof_tools_DATA = scripts/pompprof_tools/build_config.py
pompprof_commands = scripts/pompprof scripts/pompprof-report scripts/pompprof-diff \
	scripts/pompprof-scaling scripts/pompprof-timeline
bin_SCRIPTS += $(pompprof_commands)
CLEANFILES += $(pompprof_commands) scripts/pompprof_tools/build_config.py
EXTRA_DIST += scripts/command-stub.in scripts/pompprof_tools/build_config.py.in \
	scripts/pyproject.toml

pompprof_scripts_edit = sed \
	-e 's|[@]PYTHON[@]|$(PYTHON)|g' \
	-e 's|[@]pkgpythondir[@]|$(pompprof_pythondir)|g' \
	-e 's|[@]abs_top_srcdir[@]|$(abs_top_srcdir)|g' \
	-e 's|[@]abs_top_builddir[@]|$(abs_top_builddir)|g' \
	-e 's|[@]OPARI2[@]|$(OPARI2)|g' \
	-e 's|[@]OPARI2_CONFIG[@]|$(OPARI2_CONFIG)|g' \
	-e 's|[@]libdir[@]|$(libdir)|g' \
	-e 's|[@]pkglibexecdir[@]|$(pkglibexecdir)|g' \
	-e 's|[@]includedir[@]|$(includedir)|g' \
	-e 's|[@]OPENMP_CFLAGS[@]|$(OPENMP_CFLAGS)|g' \
	-e 's|[@]PACKAGE_VERSION[@]|$(PACKAGE_VERSION)|g' \
	-e 's|[@]MPI_SUPPORT[@]|$(MPI_SUPPORT)|g' \
	-e 's|[@]MPI_FORTRAN_SUPPORT[@]|$(MPI_FORTRAN_SUPPORT)|g'

$(pompprof_commands): scripts/%: $(srcdir)/scripts/command-stub.in Makefile
	@$(MKDIR_P) scripts
	$(AM_V_GEN)command='$*'; case $$command in \
	  pompprof) module=wrapper ;; \
	  *) module=$${command#pompprof-} ;; \
	esac; \
	$(pompprof_scripts_edit) -e "s|[@]command[@]|$$command|g" -e "s|[@]module[@]|$$module|g" \
	  $(srcdir)/scripts/command-stub.in >$@.tmp && chmod +x $@.tmp && mv -f $@.tmp $@

scripts/pompprof_tools/build_config.py: $(srcdir)/scripts/pompprof_tools/build_config.py.in Makefile
	@$(MKDIR_P) scripts/pompprof_tools
	$(AM_V_GEN)$(pompprof_scripts_edit) $(srcdir)/scripts/pompprof_tools/build_config.py.in \
	  >$@.tmp && mv -f $@.tmp $@
