/* The arithmetic the examples use as "work": a hash to make irregular
 * shapes, and modular powers that cost a known number of multiplications
 * (slow_power) and whose results can be checked quickly (fast_power).  Shared
 * so each example shows only its task structure. */
#ifndef POMPPROF_EXAMPLES_WORK_H
#define POMPPROF_EXAMPLES_WORK_H

#include <stdint.h>

#define MODULUS 2147483647u /* 2^31 - 1, a prime */

/* splitmix64: a good 64-bit mixing function. */
static inline uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* base^k mod p, one multiplication at a time: k steps of work. */
static inline uint64_t slow_power(uint64_t base, uint64_t k)
{
    uint64_t x = 1;
    for (uint64_t i = 0; i < k; i++)
        x = x * base % MODULUS;
    return x;
}

/* The same value by square-and-multiply, for the checks. */
static inline uint64_t fast_power(uint64_t base, uint64_t k)
{
    uint64_t x = 1;
    base %= MODULUS;
    while (k) {
        if (k & 1)
            x = x * base % MODULUS;
        base = base * base % MODULUS;
        k >>= 1;
    }
    return x;
}

#endif
