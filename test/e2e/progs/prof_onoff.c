/* e2e: measurement switched off and on while a team's threads live, and
 * threads that end before it is switched.  Phase 1 and 3 create tasks of
 * their own constructs with measurement on, phase 2 with it off; then
 * short-lived POSIX threads enter a region and end, and measurement is
 * switched off and on once more (a switch reaches every live thread, never
 * an ended one's storage).  Measurement is switched between parallel
 * regions, where no thread is inside a region.
 *
 * usage: prof_onoff tasks_per_phase threads_that_end */
#include <pompprof.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long done[3];

static void *short_lived(void *arg)
{
    (void)arg;
    for (int i = 0; i < 5; i++) {
        pompprof_region_begin("short-lived thread");
        pompprof_region_end("short-lived thread");
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    int ended = argc > 2 ? atoi(argv[2]) : 4;
    /* between parallel regions: the team's threads live on, their fast
     * pointers set by phase 1 */
#pragma omp parallel
    {
#pragma omp for schedule(static, 1)
        for (int i = 0; i < n; i++) {
#pragma omp task
            {
#pragma omp atomic
                done[0]++;
            }
        }
    }
    pompprof_off();
#pragma omp parallel
    {
#pragma omp for schedule(static, 1)
        for (int i = 0; i < n; i++) {
#pragma omp task
            {
#pragma omp atomic
                done[1]++;
            }
        }
    }
    pompprof_on();
#pragma omp parallel
    {
#pragma omp for schedule(static, 1)
        for (int i = 0; i < n; i++) {
#pragma omp task
            {
#pragma omp atomic
                done[2]++;
            }
        }
    }
    for (int i = 0; i < ended; i++) {
        pthread_t t;
        if (pthread_create(&t, NULL, short_lived, NULL) != 0 || pthread_join(t, NULL) != 0)
            return 2;
    }
    pompprof_off();
    pompprof_region_begin("while off");
    pompprof_region_end("while off");
    pompprof_on();
    pompprof_region_begin("after on");
    pompprof_region_end("after on");
    printf("%ld %ld %ld\n", done[0], done[1], done[2]);
    return 0;
}
