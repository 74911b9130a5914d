/* Quicksort with untied tasks down to a cut-off, then a taskloop that checks the
 * result in chunks: the two task forms `pompprof run` (OMPT) follows task by task.
 *
 *   quicksort N CUTOFF     (default 200000 2000)
 *
 * Prints whether the array is sorted and its checksum (the same with and without
 * pompprof). */
#include <stdio.h>
#include <stdlib.h>

static void swap(long *a, long *b)
{
    long t = *a;
    *a = *b;
    *b = t;
}

static long partition(long *v, long n)
{
    long pivot = v[(n - 1) / 2], i = -1, j = n; /* Hoare: the lower middle */
    for (;;) {
        do
            i++;
        while (v[i] < pivot);
        do
            j--;
        while (v[j] > pivot);
        if (i >= j)
            return j + 1;
        swap(&v[i], &v[j]);
    }
}

static void sort_serial(long *v, long n)
{
    if (n < 2)
        return;
    long m = partition(v, n);
    sort_serial(v, m);
    sort_serial(v + m, n - m);
}

static void sort(long *v, long n, long cutoff)
{
    if (n <= cutoff) {
        sort_serial(v, n);
        return;
    }
    long m = partition(v, n);
#pragma omp task untied firstprivate(v, m, cutoff)
    sort(v, m, cutoff);
#pragma omp task untied firstprivate(v, m, n, cutoff)
    sort(v + m, n - m, cutoff);
#pragma omp taskwait
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 200000;
    long cutoff = argc > 2 ? atol(argv[2]) : 2000;
    long *v = malloc(sizeof *v * (size_t)n);
    unsigned long x = 12345;
    for (long i = 0; i < n; i++) {
        x = x * 6364136223846793005ul + 1442695040888963407ul;
        v[i] = (long)(x >> 33);
    }
    long unsorted = 0, sum = 0;
#pragma omp parallel
#pragma omp single
    {
        sort(v, n, cutoff);
#pragma omp taskloop grainsize(1000) reduction(+: unsorted, sum)
        for (long i = 1; i < n; i++) {
            unsorted += v[i - 1] > v[i];
            sum += v[i] % 1000;
        }
    }
    printf("%s, checksum %ld\n", unsorted ? "NOT SORTED" : "sorted", sum + v[0] % 1000);
    free(v);
    return unsorted != 0;
}
