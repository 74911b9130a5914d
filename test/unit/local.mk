# test/unit
include test/unit/lib/local.mk
include test/unit/pomp2/local.mk
include test/unit/profile/local.mk
include test/unit/cube/local.mk
