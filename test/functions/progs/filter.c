/* Functions whose names a filter test picks by wildcard (test_functions_filter.py);
 * filter_lib.c holds the ones a file rule excludes. */
#include <stdio.h>

int lib_a(int x);
int lib_b(int x);

int util_add(int x) { return x + 1; }
int util_mul(int x) { return x * 3; }
int util_sub(int x) { return x - 2; }
int helper(int x) { return x ^ 5; }
int helper2(int x) { return x | 8; }
int compute(int x) { return util_add(x) + util_mul(x) + util_sub(x) + helper(x) + helper2(x); }

int main(void)
{
    long s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < 100; i++)
        s += compute(i) + lib_a(i) + lib_b(i);
    printf("%ld\n", s);
    return 0;
}
