# test/tools
