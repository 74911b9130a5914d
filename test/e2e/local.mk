# test/e2e
