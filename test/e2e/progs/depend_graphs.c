/* Dependence graphs with known edges, task by task in creation order (the
 * instance numbers of pompprof-replay --dot), for test_e2e_depend.py:
 *
 *   0 out x; 1, 2 in x; 3 inout x                  0->1 0->2 1->3 2->3
 *   4 out y; 5, 6 mutexinoutset y; 7 in y          4->5 4->6 5->7 6->7
 *   depobj o = out z: 8 depobj(o); o updated to in: 9 depobj(o), 10 in z;
 *   11 inout z                                     8->9 8->10 9->11 10->11
 *   12 iterator(i = 0:4) out v[i]; 13 in v[1]; 14 in v[3]   12->13 12->14
 *   15 out m[0:2][0:4]; 16 in m[0:2][0:4]; 17 out v[4:4] (= &v[4]); 18 in v[4]
 *                                                  15->16 17->18
 *   19 out w; 20 out q; taskwait depend(in: w): waits for 19 only
 *
 * (gcc 12 and clang 14 do not accept inoutset: the replay's rules for it are
 * tested on synthetic traces, test/unit/trace.)
 *
 * Each task works a little (so that waiting shows); the program prints a
 * checksum of what the tasks computed, the same at any number of threads. */
#include <omp.h>
#include <stdio.h>

static volatile unsigned long sink;

static unsigned long spin(unsigned long seed)
{
    unsigned long x = seed;
    for (int i = 0; i < 200000; i++)
        x = x * 6364136223846793005ul + 1442695040888963407ul;
    return x >> 60;
}

int main(void)
{
    int x = 0, y = 0, z = 0, w = 0, q = 0;
    int v[8] = {0}, m[2][4] = {{0}};
    unsigned long r[32] = {0};
    omp_depend_t o;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task depend(out: x)
        r[0] = spin(0) + (unsigned long)(x = 1);
#pragma omp task depend(in: x)
        r[1] = spin(1) + (unsigned long)x;
#pragma omp task depend(in: x)
        r[2] = spin(2) + (unsigned long)x;
#pragma omp task depend(inout: x)
        r[3] = spin(3) + (unsigned long)(x = 2);
#pragma omp taskwait
#pragma omp task depend(out: y)
        r[4] = spin(4) + (unsigned long)(y = 1);
#pragma omp task depend(mutexinoutset: y)
        r[5] = spin(5);
#pragma omp task depend(mutexinoutset: y)
        r[6] = spin(6);
#pragma omp task depend(in: y)
        r[7] = spin(7) + (unsigned long)y;
#pragma omp taskwait
#pragma omp depobj(o) depend(out: z)
#pragma omp task depend(depobj: o)
        r[8] = spin(8) + (unsigned long)(z = 1);
#pragma omp depobj(o) update(in)
#pragma omp task depend(depobj: o)
        r[9] = spin(9) + (unsigned long)z;
#pragma omp task depend(in: z)
        r[10] = spin(10) + (unsigned long)z;
#pragma omp task depend(inout: z)
        r[11] = spin(11) + (unsigned long)(z = 2);
#pragma omp taskwait
#pragma omp depobj(o) destroy
#pragma omp task depend(iterator(int i = 0:4), out: v[i])
        r[12] = spin(12) + (unsigned long)(v[1] = v[3] = 1);
#pragma omp task depend(in: v[1])
        r[13] = spin(13) + (unsigned long)v[1];
#pragma omp task depend(in: v[3])
        r[14] = spin(14) + (unsigned long)v[3];
#pragma omp task depend(out: m[0:2][0:4])
        r[15] = spin(15) + (unsigned long)(m[1][3] = 1);
#pragma omp task depend(in: m[0:2][0:4])
        r[16] = spin(16) + (unsigned long)m[1][3];
#pragma omp task depend(out: v[4:4])
        r[17] = spin(17) + (unsigned long)(v[4] = 1);
#pragma omp task depend(in: v[4])
        r[18] = spin(18) + (unsigned long)v[4];
#pragma omp taskwait
#pragma omp task depend(out: w)
        r[19] = spin(19) + (unsigned long)(w = 1);
#pragma omp task depend(out: q)
        r[20] = spin(20) + (unsigned long)(q = 1);
#pragma omp taskwait depend(in: w)
        r[21] = (unsigned long)w;
#pragma omp taskwait
    }
    unsigned long sum = 0;
    for (int i = 0; i < 22; i++)
        sum = sum * 31 + r[i];
    sink = sum;
    printf("depend graphs: %lu\n", sum);
    return 0;
}
