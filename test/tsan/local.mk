# test/tsan: make check-tsan, the library and the tests under ThreadSanitizer
# with LLVM's Archer (test/tsan/check_tsan.sh; not part of make check: about
# ten minutes on 2 cores).  The nested build asks for its unit tests with
# 'make print-tsan-tests'; tsan_programs.py skips outside it.
TSAN_UNIT_TESTS = $(filter test/unit/%,$(TESTS)) test/robust/test_signals
print-tsan-tests:
	@echo $(TSAN_UNIT_TESTS)
check-tsan: all
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	  $(SHELL) $(srcdir)/test/tsan/check_tsan.sh
clean-tsan:
	rm -rf _tsan
.PHONY: check-tsan print-tsan-tests clean-tsan
EXTRA_DIST += test/tsan/check_tsan.sh test/tsan/tsan_programs.py test/tsan/archer_chain.c \
	test/tsan/suppressions.txt
