/* detachable tasks (detach clause, omp_fulfill_event).
 * pompprof-coverage: measured=parallel,single,task */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int a = 0, b = 0;
#pragma omp parallel
#pragma omp single
    {
        omp_event_handle_t ev;
#pragma omp task detach(ev) shared(a)
        a = 1;
#pragma omp task shared(b) firstprivate(ev)
        {
            b = 2;
            omp_fulfill_event(ev);
        }
#pragma omp taskwait
    }
    printf("%d\n", a + b);
    return 0;
}
