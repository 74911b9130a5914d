/* OpenMP in a header: measured with the header's own name and lines. */
static inline long header_sum(int n)
{
    long s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; i++) s += i;
    return s;
}
