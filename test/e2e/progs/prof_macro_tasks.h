/* Tasks written in a header: their regions carry this file's name and lines. */
static inline void header_tasks(int n, int *count)
{
    for (int i = 0; i < n; i++) {
#pragma omp task shared(count)
        {
#pragma omp atomic
            (*count)++;
        }
    }
#pragma omp taskwait
}
