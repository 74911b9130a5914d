/* mergesort: parallel merge sort with tasks.
 *
 * Each half of a range is sorted in a task of its own; ranges shorter than
 * the cut-off are sorted serially (so a leaf task sorts at least a few
 * thousand elements, ~100 microseconds and up).  The result is checked for
 * order and for an order-independent checksum of the input values.
 *
 * usage: mergesort [n [cutoff]]   (default 200000 4096; the benchmark uses 8000000) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deterministic input: a 64-bit linear congruential generator. */
static uint64_t lcg_next(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return *state >> 33;
}

/* Merge the sorted runs src[lo..mid) and src[mid..hi) into dst[lo..hi). */
static void merge(const int *src, int *dst, size_t lo, size_t mid, size_t hi)
{
    size_t i = lo, j = mid, k = lo;

    while (i < mid && j < hi)
        dst[k++] = src[j] < src[i] ? src[j++] : src[i++];
    while (i < mid)
        dst[k++] = src[i++];
    while (j < hi)
        dst[k++] = src[j++];
}

static void insertion_sort(int *a, size_t lo, size_t hi)
{
    for (size_t i = lo + 1; i < hi; i++) {
        int v = a[i];
        size_t j = i;
        while (j > lo && a[j - 1] > v) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = v;
    }
}

/* Sort a[lo..hi) using tmp[lo..hi) as scratch; the result ends up in a. */
static void sort_serial(int *a, int *tmp, size_t lo, size_t hi)
{
    if (hi - lo <= 32) {
        insertion_sort(a, lo, hi);
        return;
    }
    size_t mid = lo + (hi - lo) / 2;
    sort_serial(a, tmp, lo, mid);
    sort_serial(a, tmp, mid, hi);
    merge(a, tmp, lo, mid, hi);
    memcpy(a + lo, tmp + lo, (hi - lo) * sizeof *a);
}

/* The two halves are sorted in tasks; the merge runs in the parent after
 * the taskwait. */
static void sort_tasks(int *a, int *tmp, size_t lo, size_t hi, size_t cutoff)
{
    if (hi - lo <= cutoff) {
        sort_serial(a, tmp, lo, hi);
        return;
    }
    size_t mid = lo + (hi - lo) / 2;
#pragma omp task firstprivate(a, tmp, lo, mid, cutoff)
    {
        sort_tasks(a, tmp, lo, mid, cutoff);
    }
#pragma omp task firstprivate(a, tmp, mid, hi, cutoff)
    {
        sort_tasks(a, tmp, mid, hi, cutoff);
    }
#pragma omp taskwait
    merge(a, tmp, lo, mid, hi);
    memcpy(a + lo, tmp + lo, (hi - lo) * sizeof *a);
}

/* Order-independent checksum: sum and sum of squares modulo 2^64. */
static void checksum(const int *a, size_t n, uint64_t *sum, uint64_t *sumsq)
{
    *sum = 0;
    *sumsq = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = (uint64_t)(int64_t)a[i];
        *sum += v;
        *sumsq += v * v;
    }
}

int main(int argc, char **argv)
{
    long n_arg = argc > 1 ? atol(argv[1]) : 200000;
    long cutoff_arg = argc > 2 ? atol(argv[2]) : 4096;

    if (n_arg < 1 || cutoff_arg < 1) {
        fprintf(stderr, "mergesort: n and cutoff must be positive\n");
        return 2;
    }
    size_t n = (size_t)n_arg, cutoff = (size_t)cutoff_arg;
    int *a = malloc(n * sizeof *a);
    int *tmp = malloc(n * sizeof *tmp);
    if (!a || !tmp) {
        fprintf(stderr, "mergesort: out of memory\n");
        return 2;
    }
    uint64_t state = 42;
    for (size_t i = 0; i < n; i++)
        a[i] = (int)(lcg_next(&state) % 1000000007u) - 500000000;

    uint64_t sum_before, sumsq_before, sum_after, sumsq_after;
    checksum(a, n, &sum_before, &sumsq_before);

#pragma omp parallel
    {
#pragma omp single
        sort_tasks(a, tmp, 0, n, cutoff);
    }

    size_t unsorted = 0;
    for (size_t i = 1; i < n; i++)
        unsorted += a[i - 1] > a[i];
    checksum(a, n, &sum_after, &sumsq_after);
    int ok = unsorted == 0 && sum_before == sum_after && sumsq_before == sumsq_after;
    printf("sorted %zu integers: min %d, median %d, max %d, checksum %016llx\n", n,
           a[0], a[n / 2], a[n - 1], (unsigned long long)(sum_after ^ sumsq_after));
    printf("%s\n", ok ? "OK" : "FAILED");
    free(a);
    free(tmp);
    return ok ? 0 : 1;
}
