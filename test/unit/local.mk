# test/unit
include test/unit/lib/local.mk
