# test/: one fragment per concern.
include test/unit/local.mk
include test/e2e/local.mk
include test/functions/local.mk
include test/mpi/local.mk
include test/trace/local.mk
include test/coverage/local.mk
include test/tools/local.mk
include test/robust/local.mk
include test/lint/local.mk
include test/ompt/local.mk
include test/view/local.mk
include test/tsan/local.mk

# a copy of the sources without build products, for nested builds
EXTRA_DIST += test/clean_copy.sh
