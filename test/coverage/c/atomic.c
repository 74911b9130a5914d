/* atomic forms: update, read, write, capture (statement and block), memory
 * orders, hint; and a statement with the closing brace on its line.
 * pompprof-coverage: measured=parallel,atomic */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int x = 0, y = 0, r = 0, v = 0, caps = 0;
#pragma omp parallel reduction(+ : caps)
    {
#pragma omp atomic
        x++;
#pragma omp atomic update seq_cst
        y += 2;
#pragma omp atomic read acquire
        r = x;
#pragma omp atomic write release
        v = 7;
        int c;
#pragma omp atomic capture
        c = x++;
        caps += c >= 0;
#pragma omp atomic capture relaxed hint(omp_sync_hint_uncontended)
        { c = y; y += 1; }
        if (c >= 0) {
#pragma omp atomic
            caps += 0; }
    }
    (void)r;
    printf("%d %d\n", x == 2 * caps && y == 3 * caps, v);
    return 0;
}
