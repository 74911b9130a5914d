/* e2e: worksharing and synchronization constructs; output independent of the
 * number of threads. */
#include <omp.h>
#include <stdio.h>

static int counter;
#pragma omp threadprivate(counter)

int main(void)
{
    long sum = 0, dyn = 0, ordered_sum = 0;
    int hits = 0, named = 0, crit = 0, singles = 0, masters = 0, sec = 0, copied = 0;
    int order[16], next = 0;
    double x = 0.0;

#pragma omp parallel shared(order, next)
    {
#pragma omp for schedule(static) reduction(+ : sum)
        for (int i = 0; i < 100; i++)
            sum += i;

#pragma omp for schedule(dynamic, 3) reduction(+ : dyn) nowait
        for (int i = 0; i < 50; i++)
            dyn += 2 * i;

#pragma omp for ordered schedule(dynamic)
        for (int i = 0; i < 16; i++) {
#pragma omp ordered
            {
                order[next++] = i;
                ordered_sum += i;
            }
        }

#pragma omp sections
        {
#pragma omp section
            {
#pragma omp atomic
                sec += 1;
            }
#pragma omp section
            {
#pragma omp atomic
                sec += 10;
            }
        }

        int private_val = 0;
#pragma omp single copyprivate(private_val)
        private_val = 42;
#pragma omp atomic
        copied += private_val == 42;

#pragma omp single nowait
        singles++;

#pragma omp master
        masters++;

#pragma omp critical
        crit++;

#pragma omp critical(named_lock)
        named++;

#pragma omp atomic
        hits++;

        counter = omp_get_thread_num() + 1; /* threadprivate */
#pragma omp flush
#pragma omp barrier
        if (counter != omp_get_thread_num() + 1)
            printf("threadprivate failed\n");
    }

    int pf = 0;
#pragma omp parallel for reduction(+ : pf)
    for (int i = 0; i < 10; i++)
        pf += i;

    int ps = 0;
#pragma omp parallel sections reduction(+ : ps)
    {
#pragma omp section
        ps += 1;
#pragma omp section
        ps += 2;
    }

    int threads = 0;
#pragma omp parallel reduction(+ : threads)
    threads += 1;
    x = (double)sum / 4;

    int in_order = 1;
    for (int i = 0; i < 16; i++)
        in_order &= order[i] == i;
    printf("sum=%ld dyn=%ld ordered=%ld in_order=%d\n", sum, dyn, ordered_sum, in_order);
    printf("sections=%d single=%d master=%d copyprivate=%d\n", sec, singles, masters,
           copied == threads);
    printf("critical=%d named=%d atomic_ok=%d\n", crit == threads, named == threads, hits == threads);
    printf("parallel_for=%d parallel_sections=%d x=%.2f\n", pf, ps, x);
    return 0;
}
