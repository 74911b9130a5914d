/* prodcons: producer tasks that create consumer tasks, which in turn
 * create child tasks and wait for them (taskwait inside tasks at two
 * levels).
 *
 * `producers` producer tasks each produce `items` items.  For every item
 * the producer creates a consumer task; the consumer splits the item into
 * PARTS child tasks, waits for them (taskwait), combines their results and
 * stores the item's result.  The producer waits for its consumers before
 * it finishes.  A child computes base^k mod p with k multiplications
 * (~25 microseconds); the check recomputes everything serially with fast
 * exponentiation.
 *
 * usage: prodcons [items [producers]]   (default 200 4; the benchmark uses 3000 4) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "work.h"

#define PARTS 3

/* What producer p makes as its i-th item. */
static uint64_t produce(int p, int i)
{
    return mix((uint64_t)p << 32 | (uint64_t)i);
}

/* Part `part` of an item: its base and exponent. */
static uint64_t part_base(uint64_t item, int part)
{
    return 2 + mix(item + (uint64_t)part) % (MODULUS - 3);
}

static uint64_t part_exponent(uint64_t item, int part)
{
    return 4000 + mix(item ^ (uint64_t)part << 40) % 4000;
}

/* A consumer: PARTS child tasks, a taskwait, then combine. */
static void consume(uint64_t item, uint64_t *result)
{
    uint64_t parts[PARTS];

    for (int part = 0; part < PARTS; part++) {
#pragma omp task shared(parts) firstprivate(item, part)
        {
            parts[part] = slow_power(part_base(item, part), part_exponent(item, part));
        }
    }
#pragma omp taskwait
    uint64_t combined = 0;
    for (int part = 0; part < PARTS; part++)
        combined = combined * 31 + parts[part];
    *result = combined;
}

static void producer(int p, int items, uint64_t *results)
{
    for (int i = 0; i < items; i++) {
        uint64_t item = produce(p, i);
#pragma omp task firstprivate(item, i, results)
        {
            consume(item, &results[i]);
        }
    }
#pragma omp taskwait
}

int main(int argc, char **argv)
{
    int items = argc > 1 ? atoi(argv[1]) : 200;
    int producers = argc > 2 ? atoi(argv[2]) : 4;

    if (items < 1 || producers < 1) {
        fprintf(stderr, "prodcons: items and producers must be positive\n");
        return 2;
    }
    uint64_t *results = calloc((size_t)items * producers, sizeof *results);
    if (!results) {
        fprintf(stderr, "prodcons: out of memory\n");
        return 2;
    }
#pragma omp parallel
    {
#pragma omp single
        {
            for (int p = 0; p < producers; p++) {
#pragma omp task firstprivate(p)
                {
                    producer(p, items, results + (size_t)p * items);
                }
            }
        }
    }

    /* Serial check with fast exponentiation; the total is order-independent. */
    uint64_t total = 0;
    long wrong = 0;
    for (int p = 0; p < producers; p++)
        for (int i = 0; i < items; i++) {
            uint64_t item = produce(p, i), expected = 0;
            for (int part = 0; part < PARTS; part++)
                expected = expected * 31 +
                           fast_power(part_base(item, part), part_exponent(item, part));
            wrong += results[(size_t)p * items + i] != expected;
            total += results[(size_t)p * items + i];
        }
    printf("%d producers x %d items consumed, checksum %016llx, %ld wrong\n", producers,
           items, (unsigned long long)total, wrong);
    printf("%s\n", wrong == 0 ? "OK" : "FAILED");
    free(results);
    return wrong == 0 ? 0 : 1;
}
