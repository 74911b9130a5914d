/* Excluded by the file rule of test_functions_filter.py. */
int lib_a(int x) { return x + 7; }
int lib_b(int x) { return lib_a(x) * 2; }
