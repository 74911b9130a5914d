/* SIGTERM arrives on the thread that is writing the profile (or, with
 * argv[2] = "exit", another thread calls exit(7) during the write).
 *
 * The main thread builds a profile that takes a while to write (many user
 * regions), then writes it (pompprof_write_profile(), the same path as exit);
 * a helper thread sends SIGTERM to the main thread argv[1] microseconds after
 * the write began.  Whatever the timing, the process must die of SIGTERM:
 * never hang because the signal handler's flush waits for the flush it
 * interrupted.  With a negative delay nobody is killed and the time the
 * write took goes to stderr ("write_us N"), so the test can aim its
 * signals into the write. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pompprof.h>

static pthread_t main_thread;
static int writing; /* an atomic: the killer thread waits for it */
static long delay_us;
static int use_exit;

static void *killer(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&writing, __ATOMIC_ACQUIRE))
        ;
    if (delay_us > 0)
        usleep((useconds_t)delay_us);
    if (use_exit)
        exit(7); /* the atexit flush meets the write in progress */
    pthread_kill(main_thread, SIGTERM);
    return NULL;
}

int main(int argc, char **argv)
{
    delay_us = argc > 1 ? atol(argv[1]) : 0;
    use_exit = argc > 2 && !strcmp(argv[2], "exit");
    long sum = 0;
#pragma omp parallel reduction(+ : sum)
    sum += 1;
    char name[32];
    for (int i = 0; i < 3000; i++) {
        snprintf(name, sizeof name, "region_%d", i);
        pompprof_region_begin(name);
        pompprof_region_end(name);
    }
    printf("threads %ld\n", sum);
    fflush(stdout);
    main_thread = pthread_self();
    if (delay_us < 0) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        pompprof_write_profile();
        clock_gettime(CLOCK_MONOTONIC, &b);
        fprintf(stderr, "write_us %ld\n",
                (long)((b.tv_sec - a.tv_sec) * 1000000 + (b.tv_nsec - a.tv_nsec) / 1000));
        return 0;
    }
    pthread_t t;
    pthread_create(&t, NULL, killer, NULL);
    __atomic_store_n(&writing, 1, __ATOMIC_RELEASE);
    pompprof_write_profile();
    /* the signal ends us.  Not pause(): under ThreadSanitizer (make
     * check-tsan) a signal that arrives as the write unblocks it may be held
     * by TSan's runtime until the thread's next intercepted call, and
     * pause() blocks inside one; a sleep that returns now and then gives it
     * the next call. */
    for (;;)
        usleep(10000);
}
