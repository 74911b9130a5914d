/* Benchmark (not part of `make check`): time pp_cube_write for a profile of
 * 100,000 cnodes x 16 threads x 4 metrics, shaped like pompprof's output
 * (visits UINT64 EXCLUSIVE, time DOUBLE INCLUSIVE, min/max EXCLUSIVE).
 * Prints the figures; never fails on timing. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cube-writer/pp_cube.h"

enum { CNODES = 100000, THREADS = 16, FANOUT = 8 };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(void)
{
    double t0 = now();
    pp_cube *cube = pp_cube_create();
    if (!cube)
        return 1;
    int visits = pp_cube_def_metric(cube, -1, "visits", "Visits", "occ", "", PP_CUBE_UINT64, PP_CUBE_EXCLUSIVE);
    int time_m = pp_cube_def_metric(cube, -1, "time", "Time", "sec", "", PP_CUBE_DOUBLE, PP_CUBE_INCLUSIVE);
    int min_m = pp_cube_def_metric(cube, -1, "min_time", "Min", "sec", "", PP_CUBE_MINDOUBLE, PP_CUBE_EXCLUSIVE);
    int max_m = pp_cube_def_metric(cube, -1, "max_time", "Max", "sec", "", PP_CUBE_MAXDOUBLE, PP_CUBE_EXCLUSIVE);
    for (int r = 0; r < 1000; r++) {
        char name[64];
        snprintf(name, sizeof name, "function_%d", r);
        pp_cube_def_region(cube, name, "bench.c", r + 1, r + 2, "user", "function", NULL);
    }
    /* a tree of fan-out FANOUT: parent of node i is (i-1)/FANOUT */
    for (int c = 0; c < CNODES; c++)
        pp_cube_def_cnode(cube, c ? (c - 1) / FANOUT : -1, c % 1000, NULL, NULL);
    int machine = pp_cube_def_system_node(cube, -1, "machine Linux", "machine");
    int node = pp_cube_def_system_node(cube, machine, "node bench", "node");
    int process = pp_cube_def_process(cube, node, "Process", 0);
    for (int t = 0; t < THREADS; t++)
        pp_cube_def_thread(cube, process, t ? "OMP thread" : "Master thread", t);
    for (int c = 0; c < CNODES; c++) {
        for (int t = 0; t < THREADS; t++) {
            pp_cube_set_uint64(cube, visits, c, t, (uint64_t)(c + t));
            pp_cube_set_double(cube, time_m, c, t, c * 1e-3 + t);
            pp_cube_set_double(cube, min_m, c, t, c * 1e-6);
            pp_cube_set_double(cube, max_m, c, t, c * 1e-2);
        }
    }
    double t1 = now();
    char path[256];
    snprintf(path, sizeof path, "%s/pp_cube_bench.%ld.cubex",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (long)getpid());
    int rc = pp_cube_write(cube, path);
    double t2 = now();
    if (rc != 0) {
        fprintf(stderr, "bench_cube_write: %s\n", pp_cube_error(cube));
        pp_cube_destroy(cube);
        return 1;
    }
    FILE *f = fopen(path, "rb");
    long size = 0;
    if (f) {
        fseek(f, 0, SEEK_END);
        size = ftell(f);
        fclose(f);
    }
    unlink(path);
    pp_cube_destroy(cube);
    printf("bench_cube_write: %d cnodes x %d threads x 4 metrics: define+set %.3f s, "
           "pp_cube_write %.3f s (%.1f MB)\n",
           CNODES, THREADS, t1 - t0, t2 - t1, size / 1e6);
    return 0;
}
