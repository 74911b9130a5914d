# calibration/: what one event costs on this machine, measured once when
# pompprof is built (calibration/event_costs.c, built with pompprof's GCC
# plugin where the build has it, with -finstrument-functions, and plainly;
# run by calibrate.py) and installed with it as $(pkgdatadir)/event-costs.txt,
# which pompprof-score reads (scripts/pompprof_tools/analysis/costs.py): the
# same profile gives the same estimate on every call.
if !ENABLE_SANITIZERS
if !ENABLE_TSAN
# (a sanitizer build's figures are not this machine's costs, its programs
# need ASAN_OPTIONS to run at all, and a ThreadSanitizer build's would need
# -fsanitize=thread to link: it measures none)
nodist_pkgdata_DATA = event-costs.txt
endif
endif
EXTRA_DIST += calibration/event_costs.c calibration/event_costs.filter calibration/calibrate.py
CLEANFILES += calibration/event_costs_plugin calibration/event_costs_address \
	calibration/event_costs_plain event-costs.txt

CALIBRATION_DEPS = scripts/pompprof scripts/pompprof_tools/build_config.py libpompprof.la
if HAVE_GCC_PLUGIN
CALIBRATION_DEPS += gcc-plugin/pompprof_gcc.la
endif
CALIBRATION_CFLAGS = -std=gnu11 $(OPENMP_CFLAGS) -O2

calibration/event_costs_plugin: $(srcdir)/calibration/event_costs.c $(CALIBRATION_DEPS)
	@$(MKDIR_P) calibration
	$(AM_V_CC)$(EXAMPLES_POMPPROF) --functions $(CC) $(CALIBRATION_CFLAGS) $< -o $@ -lm
calibration/event_costs_address: $(srcdir)/calibration/event_costs.c $(CALIBRATION_DEPS)
	@$(MKDIR_P) calibration
	$(AM_V_CC)POMPPROF_GCC_PLUGIN=no $(EXAMPLES_POMPPROF) --functions $(CC) \
		$(CALIBRATION_CFLAGS) $< -o $@ -lm
calibration/event_costs_plain: $(srcdir)/calibration/event_costs.c
	@$(MKDIR_P) calibration
	$(AM_V_CC)$(CC) $(CALIBRATION_CFLAGS) $< -o $@ -lm

event-costs.txt: calibration/event_costs_plugin calibration/event_costs_address \
		calibration/event_costs_plain $(srcdir)/calibration/calibrate.py
	$(AM_V_GEN)$(PYTHON) $(srcdir)/calibration/calibrate.py \
		--plugin calibration/event_costs_plugin --address calibration/event_costs_address \
		--plain calibration/event_costs_plain --filter $(srcdir)/calibration/event_costs.filter \
		-o $@
