# test/unit
# Every Check program (here and in test/robust) links the one shared main,
# which runs the suite its test file returns from pp_check_suite().
CHECK_MAIN = test/unit/check_main.c
# what the code under test writes to stderr, for the tests that check its messages
STDERR_CAPTURE = test/unit/stderr_capture.c test/unit/stderr_capture.h
include test/unit/lib/local.mk
include test/unit/pomp2/local.mk
include test/unit/profile/local.mk
include test/unit/trace/local.mk
include test/unit/cube/local.mk
include test/unit/mpi/local.mk
include test/unit/ompt/local.mk
