/* linear clause on a worksharing loop, ordered clause without argument.
 * pompprof-coverage: measured=parallel,for,ordered */
#include <stdio.h>

int main(void)
{
    int j = 0, out[50], seq[50], k = 0;
#pragma omp parallel
    {
#pragma omp for linear(j : 2)
        for (int i = 0; i < 50; i++) { out[i] = j; j += 2; }
#pragma omp for ordered schedule(dynamic)
        for (int i = 0; i < 50; i++) {
#pragma omp ordered
            seq[k++] = i;
        }
    }
    long s = 0;
    for (int i = 0; i < 50; i++) s += out[i] + (seq[i] == i);
    printf("linear sum %ld, j after %d\n", s, j);
    return 0;
}
