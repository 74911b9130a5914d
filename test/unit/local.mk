# test/unit
# Every Check program (here and in test/robust) links the one shared main,
# which runs the suite its test file returns from pp_check_suite().
CHECK_MAIN = test/unit/check_main.c
include test/unit/lib/local.mk
include test/unit/pomp2/local.mk
include test/unit/profile/local.mk
include test/unit/trace/local.mk
include test/unit/cube/local.mk
include test/unit/mpi/local.mk
