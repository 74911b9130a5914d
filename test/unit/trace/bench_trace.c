/* bench-trace: what tracing costs on the event path (prints, never fails on
 * timing).  Run without arguments for the profile-only figures, with a
 * directory for the same loops with POMPPROF_TRACE=1 writing there; the
 * lines "name value" are read by examples/bench/trace_bench.py.
 *
 *   bench_trace [DIR] */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "lib/pp_config.h"
#include "lib/pp_timer.h"
#include "profile/pp_profile.h"
#include "profile/pp_profile_test.h"

#define N 2000000L
#define NT 200000L

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Bytes of the event files of the archive in dir (DIR/traces/N.evt). */
static long long evt_bytes(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/traces", dir);
    DIR *d = opendir(path);
    long long sum = 0;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n > 4 && !strcmp(e->d_name + n - 4, ".evt")) {
            char f[8192];
            struct stat st;
            snprintf(f, sizeof f, "%s/%s", path, e->d_name);
            if (stat(f, &st) == 0)
                sum += st.st_size;
        }
    }
    if (d)
        closedir(d);
    return sum;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : NULL;
    if (dir) {
        setenv("POMPPROF_TRACE", "1", 1);
        setenv("POMPPROF_OUTPUT", dir, 1);
    } else {
        unsetenv("POMPPROF_TRACE");
        setenv("POMPPROF_OUTPUT", "/dev/null/no-profile", 1); /* not written below */
    }
    pp_timer_init(pp_config_get()->timer);
    pp_profile_test_start_at(pp_timer_now());
    pp_region_def d = {"bench", "bench.c", 1, 2, "user", "function", NULL, NULL};
    pp_region_def dt = {"!$omp task @bench.c:5", "bench.c", 5, 6, "openmp", "task", NULL, NULL};
    pp_region_id r = pp_profile_region_define(&d), rt = pp_profile_region_define(&dt);
    pp_profile_enter(r);
    pp_profile_exit(r);

    double t0 = now_ns();
    for (long i = 0; i < N; i++) {
        pp_profile_enter(r);
        pp_profile_exit(r);
    }
    double pair = (now_ns() - t0) / N;

    t0 = now_ns();
    for (long i = 0; i < NT; i++) {
        pp_profile_task_begin(rt, pp_profile_task_new_handle(), false);
        pp_profile_enter(r);
        pp_profile_exit(r);
        pp_profile_task_end(rt);
    }
    double task = (now_ns() - t0) / NT;

    printf("pair_ns %.2f\n", pair);
    printf("event_ns %.2f\n", pair / 2);
    printf("task_ns %.2f\n", task);
    if (dir) {
        t0 = now_ns();
        pp_profile_finalize();
        double end = (now_ns() - t0) / 1e9;
        /* events: 2 per pair; a task is 6 (switch + enter, enter, leave, leave +
         * complete) */
        long long events = 2 * N + 2 + 6 * NT;
        long long bytes = evt_bytes(dir);
        printf("events %lld\n", events);
        printf("evt_bytes %lld\n", bytes);
        printf("bytes_per_event %.2f\n", (double)bytes / events);
        printf("raw_bytes_per_event %.2f\n",
               (double)(2 * N * 16 + NT * (24 + 16 + 16 + 24)) / events);
        printf("finalize_s %.3f\n", end);
    }
    pp_profile_test_reset();
    return 0;
}
