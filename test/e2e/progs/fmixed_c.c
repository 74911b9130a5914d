/* e2e: the C half of fmixed.F90. */
int fmixed_c_sum(int n)
{
    int s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 1; i <= n; i++)
        s += i;
    return s;
}
