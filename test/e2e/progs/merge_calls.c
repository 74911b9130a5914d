/* Task constructs next to each other, the layouts whose task events the wrapper
 * merges into one call (doc/wrapper.md, "Adjacent task events"): a recursion with
 * three tasks and a taskwait, a loop body of four tasks then a taskwait, an undeferred
 * task next to a deferred one (both orders), tasks inside tasks, untied tasks.
 * Prints results that do not depend on the schedule. */
#include <stdio.h>
#include <stdlib.h>

/* The nodes of a tree whose node n has children n-1, n-2 and n-3: a task each. */
static long nodes(int n)
{
    long a, b, c;

    if (n < 3)
        return 1;
#pragma omp task shared(a) firstprivate(n)
    a = nodes(n - 1);
#pragma omp task shared(b) firstprivate(n)
    b = nodes(n - 2);
#pragma omp task shared(c) firstprivate(n)
    c = nodes(n - 3);
#pragma omp taskwait
    return 1 + a + b + c;
}

static long row(int rounds)
{
    long a[4] = {0, 0, 0, 0}, sum = 0;

    for (int i = 0; i < rounds; i++) {
#pragma omp task shared(a) firstprivate(i)
        a[0] = i;
#pragma omp task shared(a) firstprivate(i)
        a[1] = 2 * i;
#pragma omp task shared(a) firstprivate(i)
        a[2] = 3 * i;
#pragma omp task shared(a) firstprivate(i)
        a[3] = 4 * i;
#pragma omp taskwait
        sum += a[0] + a[1] + a[2] + a[3];
    }
    return sum;
}

static long undeferred(int rounds, int cut)
{
    long a = 0, b = 0, sum = 0;

    for (int i = 0; i < rounds; i++) {
#pragma omp task if(0) shared(a) firstprivate(i)
        a = i;
#pragma omp task shared(b) firstprivate(i)
        b = i + 1;
#pragma omp task if(i < cut) shared(a) firstprivate(i)
        a += i;
#pragma omp taskwait
        sum += a + b;
    }
    return sum;
}

static long nested(int rounds)
{
    long total = 0;

    for (int i = 0; i < rounds; i++) {
        long p = 0, q = 0;
#pragma omp task shared(p) firstprivate(i)
        {
            long u = 0, v = 0;
#pragma omp task shared(u) firstprivate(i)
            u = i;
#pragma omp task shared(v) firstprivate(i)
            v = 2 * i;
#pragma omp taskwait
            p = u + v;
        }
#pragma omp task shared(q) firstprivate(i)
        q = i;
#pragma omp taskwait
        total += p + q;
    }
    return total;
}

static long untied(int rounds)
{
    long a = 0, b = 0, sum = 0;

    for (int i = 0; i < rounds; i++) {
#pragma omp task untied shared(a) firstprivate(i)
        a = i;
#pragma omp task untied shared(b) firstprivate(i)
        b = 2 * i;
#pragma omp taskwait
        sum += a + b;
    }
    return sum;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 12;
    long r[5] = {0, 0, 0, 0, 0};

#pragma omp parallel
    {
#pragma omp single
        {
            r[0] = nodes(n);
            r[1] = row(50);
            r[2] = undeferred(40, 20);
            r[3] = nested(30);
            r[4] = untied(20);
        }
    }
    printf("nodes %ld row %ld undeferred %ld nested %ld untied %ld\n", r[0], r[1], r[2], r[3],
           r[4]);
    return 0;
}
