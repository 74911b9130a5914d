/* Tasks wherever a thread can run them: in a single's barrier, in a nowait
 * single's body, after a nowait loop, inside taskgroups, critical sections
 * and locks inside tasks, a nested parallel region inside a task, taskyield;
 * several rounds, so that workers carry their last team into the next one.
 * The output does not depend on the number of threads or on scheduling. */
#include <omp.h>
#include <stdio.h>

static long work(long i)
{
    long x = i;
    for (int k = 0; k < 200; k++)
        x = (x * 1103515245 + 12345) % 65536;
    return x % 7;
}

int main(void)
{
    long total = 0, crit = 0, locked = 0, inner = 0;
    omp_lock_t lock;
    omp_init_lock(&lock);
    for (int round = 0; round < 3; round++) {
#pragma omp parallel
        {
#pragma omp single
            {
                for (int i = 0; i < 8; i++) {
#pragma omp task
                    {
#pragma omp critical
                        crit += work(i);
                    }
                }
            }
#pragma omp for schedule(dynamic) nowait
            for (int i = 0; i < 16; i++) {
#pragma omp atomic
                total += work(i);
            }
#pragma omp single nowait
            {
#pragma omp taskgroup
                {
                    for (int i = 0; i < 4; i++) {
#pragma omp task
                        {
                            omp_set_lock(&lock);
                            locked++;
                            omp_unset_lock(&lock);
#pragma omp taskyield
                        }
                    }
                }
#pragma omp task
                {
#pragma omp parallel num_threads(2)
                    {
#pragma omp atomic
                        inner++;
                    }
                }
            }
#pragma omp barrier
        }
    }
    omp_destroy_lock(&lock);
    printf("total=%ld crit=%ld locked=%ld inner_ok=%d\n", total, crit, locked, inner >= 3);
    return 0;
}
