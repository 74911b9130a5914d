/* worksharing: a parallel loop with schedule(dynamic), a reduction, an
 * atomic counter, a critical section and OpenMP locks -- no tasks.
 *
 * Iteration i computes v(i) = base(i)^k(i) mod p by k(i) multiplications
 * (~10..35 microseconds).  The results are combined four ways, all of them
 * independent of which thread ran which iteration:
 *   - reduction(+): the sum of all v(i);
 *   - atomic: the number of odd v(i);
 *   - critical: the largest v(i) and its smallest index;
 *   - one lock per histogram bucket: a histogram of v(i) mod BUCKETS.
 * The loop runs `rounds` times in separate parallel regions.  The check
 * recomputes everything serially with fast exponentiation.
 *
 * usage: worksharing [n [rounds]]   (default 1000 2; the benchmark uses 20000 2) */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "work.h"

#define BUCKETS 16

static uint64_t iteration_base(long i, int round)
{
    return 2 + mix((uint64_t)i * 977 + (uint64_t)round) % (MODULUS - 3);
}

static uint64_t iteration_exponent(long i, int round)
{
    return 3000 + mix((uint64_t)i ^ (uint64_t)round << 48) % 6000;
}

typedef struct {
    uint64_t sum;
    long odd;
    uint64_t max_value;
    long max_index;
    long histogram[BUCKETS];
} loop_result;

/* Keep the larger value; on a tie the smaller index, so the winner does
 * not depend on the order of updates. */
static void update_max(loop_result *r, uint64_t v, long i)
{
    if (v > r->max_value || (v == r->max_value && i < r->max_index)) {
        r->max_value = v;
        r->max_index = i;
    }
}

static void run_parallel(long n, int round, loop_result *r, omp_lock_t *locks)
{
    uint64_t sum = 0;
    long odd = 0;

#pragma omp parallel
    {
#pragma omp for schedule(dynamic, 16) reduction(+ : sum)
        for (long i = 0; i < n; i++) {
            uint64_t v = slow_power(iteration_base(i, round), iteration_exponent(i, round));
            sum += v;
            if (v & 1) {
#pragma omp atomic
                odd++;
            }
            omp_set_lock(&locks[v % BUCKETS]);
            r->histogram[v % BUCKETS]++;
            omp_unset_lock(&locks[v % BUCKETS]);
#pragma omp critical(max_update)
            update_max(r, v, i);
        }
    }
    r->sum += sum;
    r->odd += odd;
}

static void run_serial(long n, int round, loop_result *r)
{
    for (long i = 0; i < n; i++) {
        uint64_t v = fast_power(iteration_base(i, round), iteration_exponent(i, round));
        r->sum += v;
        r->odd += (long)(v & 1);
        r->histogram[v % BUCKETS]++;
        update_max(r, v, i);
    }
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    int rounds = argc > 2 ? atoi(argv[2]) : 2;
    omp_lock_t locks[BUCKETS];

    if (n < 1 || rounds < 1) {
        fprintf(stderr, "worksharing: n and rounds must be positive\n");
        return 2;
    }
    for (int b = 0; b < BUCKETS; b++)
        omp_init_lock(&locks[b]);

    int ok = 1;
    for (int round = 0; round < rounds; round++) {
        loop_result par, ser;
        memset(&par, 0, sizeof par);
        memset(&ser, 0, sizeof ser);
        run_parallel(n, round, &par, locks);
        run_serial(n, round, &ser);
        int same = memcmp(&par, &ser, sizeof par) == 0;
        ok = ok && same;
        printf("round %d: sum %llu, %ld odd, max %llu at %ld, bucket 0 holds %ld: %s\n",
               round, (unsigned long long)par.sum, par.odd,
               (unsigned long long)par.max_value, par.max_index, par.histogram[0],
               same ? "matches" : "DIFFERS");
    }
    for (int b = 0; b < BUCKETS; b++)
        omp_destroy_lock(&locks[b]);
    printf("%s\n", ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
