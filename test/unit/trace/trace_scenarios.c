/* Writes the synthetic traces of test_replay_scenarios.py: event streams of
 * two threads sent through the engine's _at events with a fake clock (in
 * nanoseconds; the timer is the clock, so 1 tick = 1 ns), exactly as the
 * adapter would send them, then written by the engine's finalize.  The
 * breakdown of each is worked out by hand in the test.
 *
 *   trace_scenarios NAME DIR     NAME: idle, critical, depend, tied, graph, kinds,
 *                                many, mpi, metrics
 *
 * metrics writes its records through trace/ directly: counter values
 * (which need PAPI to come from the engine) on one thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pp_config.h"
#include "lib/pp_timer.h"
#include "profile/pp_profile.h"
#include "profile/pp_profile_depend.h"
#include "profile/pp_profile_test.h"
#include "trace/pp_trace.h"

static pp_region_id region(const char *name, const char *role, const char *description)
{
    pp_region_def d = {.name = name, .file = "synthetic.c", .begin_line = 1, .end_line = 2,
                       .paradigm = "openmp", .role = role, .description = description};
    return pp_profile_region_define(&d);
}

#define AT(loc) pp_profile_test_use_location(loc)

static pp_region_id P, S, SB, B, B2, T, C, CR, CRS, TW, TD, CD;

static void define_regions(void)
{
    P = region("!$omp parallel @synthetic.c:1", "parallel", NULL);
    S = region("!$omp single @synthetic.c:2", "single", NULL);
    SB = region("!$omp single sblock @synthetic.c:2", "single sblock", NULL);
    B = region("!$omp implicit barrier @synthetic.c:9", "implicit barrier", NULL);
    B2 = region("!$omp implicit barrier @synthetic.c:10", "implicit barrier", NULL);
    T = region("!$omp task @synthetic.c:3", "task", NULL);
    C = region("!$omp create task @synthetic.c:3", "task create", NULL);
    CR = region("!$omp critical @synthetic.c:4", "critical", NULL);
    CRS = region("!$omp critical sblock @synthetic.c:4", "critical sblock", NULL);
    TW = region("!$omp taskwait @synthetic.c:5", "taskwait", NULL);
    TD = region("!$omp task @synthetic.c:6", "task", "depend");
    CD = region("!$omp create task @synthetic.c:6", "task create", "depend");
}

/* A task created by the calling location at [t, t + 10). */
static pp_task_handle create(pp_region_id create_region, uint64_t t)
{
    pp_task_handle h = pp_profile_task_new_handle();
    pp_profile_task_create_enter_at(create_region, h, t);
    pp_profile_exit_at(create_region, t + 10);
    return h;
}

/* loc 0 waits 80 in the barrier while a task is ready, runs it for 100000;
 * loc 1 waits in the barrier meanwhile (about 100 us of idleness). */
static void scenario_idle(void)
{
    AT(0);
    pp_task_handle initial = pp_profile_task_current();
    int64_t ctx = pp_profile_fork_at(P, 2, 1000);
    pp_profile_parallel_begin_at(P, ctx, 1000);
    pp_profile_enter_at(S, 1000);
    pp_profile_enter_at(SB, 1000);
    pp_task_handle h = create(C, 1000);
    pp_profile_exit_at(SB, 1020);
    pp_profile_enter_at(B, 1020);
    AT(1);
    pp_profile_parallel_begin_at(P, ctx, 1050);
    pp_profile_enter_at(S, 1060);
    pp_profile_enter_at(B, 1070);
    AT(0);
    pp_profile_task_begin_at(T, h, false, 1100);
    pp_profile_task_end_at(T, 101100);
    pp_profile_exit_at(B, 101200);
    pp_profile_exit_at(S, 101210);
    pp_profile_enter_at(B2, 101220);
    pp_profile_exit_at(B2, 101400);
    pp_profile_parallel_end_at(P, 101500);
    AT(1);
    pp_profile_exit_at(B, 101200);
    pp_profile_exit_at(S, 101210);
    pp_profile_enter_at(B2, 101220);
    pp_profile_exit_at(B2, 101400);
    pp_profile_parallel_end_at(P, 101500);
    AT(0);
    pp_profile_join_at(P, initial, 101600);
    pp_profile_test_finalize_at(102000);
}

/* loc 0 holds a critical section from 100 to 50300 and creates two tasks
 * in it at 200 and 210; loc 1 is blocked at the critical section from 300
 * until 50310 while they are ready; loc 0 runs them in the barrier. */
static void scenario_critical(void)
{
    AT(0);
    pp_task_handle initial = pp_profile_task_current();
    int64_t ctx = pp_profile_fork_at(P, 2, 0);
    pp_profile_parallel_begin_at(P, ctx, 0);
    AT(1);
    pp_profile_parallel_begin_at(P, ctx, 50);
    AT(0);
    pp_profile_enter_at(CR, 100);
    pp_profile_enter_at(CRS, 100);
    pp_task_handle h1 = create(C, 200), h2 = create(C, 210);
    AT(1);
    pp_profile_enter_at(CR, 300);
    AT(0);
    pp_profile_exit_at(CRS, 50300);
    pp_profile_exit_at(CR, 50300);
    pp_profile_enter_at(B, 50300);
    pp_profile_task_begin_at(T, h1, false, 50400);
    pp_profile_task_end_at(T, 51400);
    pp_profile_task_begin_at(T, h2, false, 51500);
    pp_profile_task_end_at(T, 52500);
    pp_profile_exit_at(B, 52600);
    pp_profile_parallel_end_at(P, 52700);
    AT(1);
    pp_profile_enter_at(CRS, 50310);
    pp_profile_exit_at(CRS, 50320);
    pp_profile_exit_at(CR, 50320);
    pp_profile_enter_at(B, 50320);
    pp_profile_exit_at(B, 52600);
    pp_profile_parallel_end_at(P, 52700);
    AT(0);
    pp_profile_join_at(P, initial, 52800);
    pp_profile_test_finalize_at(53000);
}

/* The team of the scenarios below: both locations begin it at 0, loc 1
 * waits in the barrier B from t1; loc 0 is current afterwards.  Returns
 * the initial task (for the join). */
static pp_task_handle team_start(uint64_t t1)
{
    AT(0);
    pp_task_handle initial = pp_profile_task_current();
    int64_t ctx = pp_profile_fork_at(P, 2, 0);
    pp_profile_parallel_begin_at(P, ctx, 0);
    AT(1);
    pp_profile_parallel_begin_at(P, ctx, 0);
    pp_profile_enter_at(B, t1);
    AT(0);
    return initial;
}

/* Both leave B at t and end the team at t + 100; loc 0 joins at t + 200,
 * the run ends at t + 300. */
static void team_end(pp_task_handle initial, uint64_t t)
{
    for (int loc = 0; loc < 2; loc++) {
        AT(loc);
        pp_profile_exit_at(B, t);
        pp_profile_parallel_end_at(P, t + 100);
    }
    AT(0);
    pp_profile_join_at(P, initial, t + 200);
    pp_profile_test_finalize_at(t + 300);
}

/* As idle, but the task has a depend clause: while it waits, loc 1's time
 * in the barrier is undetermined, not overhead. */
static void scenario_depend(void)
{
    pp_task_handle initial = team_start(100);
    pp_task_handle h = create(CD, 100);
    pp_profile_enter_at(B, 200);
    pp_profile_task_begin_at(TD, h, false, 5200);
    pp_profile_task_end_at(TD, 6200);
    team_end(initial, 6300);
}

/* A task created by the calling location at [t, t + 10) with one
 * dependence on x (of kind), and for y unless y is 0. */
static pp_task_handle create_dep(uint64_t t, uint64_t x, unsigned kind, uint64_t y, unsigned ykind)
{
    pp_task_handle h = pp_profile_task_new_handle();
    pp_profile_task_create_enter_at(CD, h, t);
    pp_depend items[2] = {{x, 8, kind}, {y, 16, ykind}};
    pp_profile_task_depend(h, items, y ? 2 : 1);
    pp_profile_exit_at(CD, t + 10);
    return h;
}

#define X 0x1000
#define Y 0x2000

/* A diamond on x: A (out x) -> B, C (in x) -> D (inout x), and E (in y)
 * alone; then a taskwait depend(in: x) that waits for D.  loc 0 creates
 * them (A at 100, B 200, C 300, D 400, E 450), waits in the taskwait depend
 * from 500, and runs E and B; loc 1 waits in the barrier from 100 and runs
 * A, C and D:
 *   loc 1: A 600-1600, C 1650-2650, D 2800-3800;
 *   loc 0: E 520-620, B 1700-2700, taskwait left at 3850, barrier 3900-4000.
 * Ready: A, E from their creation; B, C at 1600; D at 2700. */
static void scenario_graph(void)
{
    AT(0);
    pp_task_handle initial = pp_profile_task_current();
    int64_t ctx = pp_profile_fork_at(P, 2, 0);
    pp_profile_parallel_begin_at(P, ctx, 0);
    pp_task_handle implicit0 = pp_profile_task_current();
    AT(1);
    pp_profile_parallel_begin_at(P, ctx, 0);
    pp_task_handle implicit1 = pp_profile_task_current();
    pp_profile_enter_at(B, 100);
    AT(0);
    pp_task_handle a = create_dep(100, X, PP_DEPEND_OUT, 0, 0);
    pp_task_handle b = create_dep(200, X, PP_DEPEND_IN, 0, 0);
    pp_task_handle c = create_dep(300, X, PP_DEPEND_IN, 0, 0);
    pp_task_handle d = create_dep(400, X, PP_DEPEND_INOUT, 0, 0);
    pp_task_handle e = create_dep(450, Y, PP_DEPEND_IN, X + 64, PP_DEPEND_OUT);
    pp_depend wait_on = {X, 8, PP_DEPEND_IN};
    pp_profile_taskwait_depend(&wait_on, 1);
    pp_profile_enter_at(TW, 500);
    pp_profile_task_begin_at(TD, e, false, 520);
    pp_profile_task_end_at(TD, 620);
    pp_profile_task_switch_to_at(implicit0, 620);
    AT(1);
    pp_profile_task_begin_at(TD, a, false, 600);
    pp_profile_task_end_at(TD, 1600);
    pp_profile_task_begin_at(TD, c, false, 1650);
    pp_profile_task_end_at(TD, 2650);
    AT(0);
    pp_profile_task_begin_at(TD, b, false, 1700);
    pp_profile_task_end_at(TD, 2700);
    pp_profile_task_switch_to_at(implicit0, 2700);
    AT(1);
    pp_profile_task_begin_at(TD, d, false, 2800);
    pp_profile_task_end_at(TD, 3800);
    pp_profile_task_switch_to_at(implicit1, 3800);
    AT(0);
    pp_profile_exit_at(TW, 3850);
    pp_profile_enter_at(B, 3900);
    pp_profile_exit_at(B, 4000);
    pp_profile_parallel_end_at(P, 4100);
    AT(1);
    pp_profile_exit_at(B, 4000);
    pp_profile_parallel_end_at(P, 4100);
    AT(0);
    pp_profile_join_at(P, initial, 4200);
    pp_profile_test_finalize_at(4300);
}

/* The kinds on one storage location, created by loc 0 at 100, 200, ...
 * and run in creation order in its barrier (loc 1 waits there):
 *   0 out, 1 inoutset, 2 inoutset, 3 in, 4 in, 5 mutexinoutset,
 *   6 mutexinoutset, 7 inoutset, 8 out
 * edges 0-1 0-2 1-3 2-3 1-4 2-4 3-5 4-5 3-6 4-6 5-7 6-7 7-8; then 9 with an
 * item of unknown storage and 10 (out on another location) after it:
 * neither's readiness is known. */
static void scenario_kinds(void)
{
    static const unsigned kinds[] = {PP_DEPEND_OUT,           PP_DEPEND_INOUTSET,
                                     PP_DEPEND_INOUTSET,      PP_DEPEND_IN,
                                     PP_DEPEND_IN,            PP_DEPEND_MUTEXINOUTSET,
                                     PP_DEPEND_MUTEXINOUTSET, PP_DEPEND_INOUTSET,
                                     PP_DEPEND_OUT,           PP_DEPEND_UNKNOWN,
                                     PP_DEPEND_OUT};
    enum { N = sizeof kinds / sizeof kinds[0] };
    pp_task_handle h[N];
    pp_task_handle initial = team_start(50);
    pp_task_handle implicit0 = pp_profile_task_current();
    for (unsigned k = 0; k < N; k++)
        h[k] = create_dep(100 * (k + 1), k == N - 1 ? Y : X, kinds[k], 0, 0);
    uint64_t t = 100 * (N + 1);
    pp_profile_enter_at(B, t);
    for (unsigned k = 0; k < N; k++, t += 1000) {
        pp_profile_task_begin_at(TD, h[k], false, t + 100);
        pp_profile_task_end_at(TD, t + 1000);
        pp_profile_task_switch_to_at(implicit0, t + 1000);
    }
    team_end(initial, t + 100);
}

/* One task with 300 items (out, on 300 addresses): the archive keeps 256
 * per event, the last one's kind unknown. */
static void scenario_many(void)
{
    static pp_depend items[300];
    pp_task_handle initial = team_start(50);
    pp_task_handle h = pp_profile_task_new_handle();
    pp_profile_task_create_enter_at(CD, h, 100);
    for (unsigned k = 0; k < 300; k++)
        items[k] = (pp_depend){X + 8 * k, 8, PP_DEPEND_OUT};
    pp_profile_task_depend(h, items, 300);
    pp_profile_exit_at(CD, 110);
    pp_profile_enter_at(B, 200);
    pp_profile_task_begin_at(TD, h, false, 300);
    pp_profile_task_end_at(TD, 1300);
    team_end(initial, 1400);
}

/* loc 0's implicit task waits in a taskwait for its child A (run by loc 1,
 * done at 50) and runs task Z (loc 1's) meanwhile, until 200: from 50 on it
 * is ready, for loc 0 only, so loc 0's 10 ns from Z's end to its resumption
 * are overhead, and loc 1's waiting is idleness. */
static void scenario_tied(void)
{
    AT(0);
    pp_task_handle initial = pp_profile_task_current();
    int64_t ctx = pp_profile_fork_at(P, 2, 0);
    pp_profile_parallel_begin_at(P, ctx, 0);
    AT(1);
    pp_profile_parallel_begin_at(P, ctx, 0);
    pp_task_handle z = create(C, 5);
    pp_profile_enter_at(B, 15);
    AT(0);
    pp_task_handle implicit = pp_profile_task_current();
    pp_task_handle a = create(C, 10);
    pp_profile_enter_at(TW, 20);
    AT(1);
    pp_profile_task_begin_at(T, a, false, 30);
    AT(0);
    pp_profile_task_begin_at(T, z, false, 40);
    AT(1);
    pp_profile_task_end_at(T, 50);
    AT(0);
    pp_profile_task_end_at(T, 200);
    pp_profile_task_switch_to_at(implicit, 210);
    pp_profile_exit_at(TW, 210);
    pp_profile_enter_at(B, 220);
    pp_profile_exit_at(B, 300);
    pp_profile_parallel_end_at(P, 310);
    AT(1);
    pp_profile_exit_at(B, 300);
    pp_profile_parallel_end_at(P, 310);
    AT(0);
    pp_profile_join_at(P, initial, 320);
    pp_profile_test_finalize_at(400);
}

/* A region of an MPI function, as libpompprof_mpi defines it (paradigm mpi,
 * its group as the role: MPI_Barrier's is "barrier"). */
static pp_region_id mpi_region(const char *name, const char *group)
{
    pp_region_def d = {.name = name, .file = "MPI", .begin_line = -1, .end_line = -1,
                       .paradigm = "mpi", .role = group};
    return pp_profile_region_define(&d);
}

/* MPI calls in serial code, in an implicit task while a task is ready and
 * in an explicit task: MPI time everywhere (all of it transfer: a process's
 * trace has no partners), 5500 ns in all.
 * loc 0: MPI_Init 100-600, fork at 1000, creates a task 1100-1110, in the
 *   barrier from 1200, runs the task 1300-3300 (MPI_Send 1400-1900 in it),
 *   leaves the barrier at 5300, ends the team at 5400, joins at 5500,
 *   MPI_Finalize 6000-6500, the run ends at 7000;
 * loc 1: begins at 1050, MPI_Barrier 1200-5200 (while the task is ready
 *   until 1300), the barrier 5200-5300, ends at 5400. */
static void scenario_mpi(void)
{
    pp_region_id init = mpi_region("MPI_Init", "env"), send = mpi_region("MPI_Send", "p2p");
    pp_region_id barrier = mpi_region("MPI_Barrier", "barrier");
    pp_region_id fin = mpi_region("MPI_Finalize", "env");
    AT(0);
    pp_task_handle initial = pp_profile_task_current();
    pp_profile_enter_at(init, 100);
    pp_profile_exit_at(init, 600);
    int64_t ctx = pp_profile_fork_at(P, 2, 1000);
    pp_profile_parallel_begin_at(P, ctx, 1000);
    pp_task_handle implicit0 = pp_profile_task_current();
    pp_task_handle h = create(C, 1100);
    AT(1);
    pp_profile_parallel_begin_at(P, ctx, 1050);
    pp_profile_enter_at(barrier, 1200);
    AT(0);
    pp_profile_enter_at(B, 1200);
    pp_profile_task_begin_at(T, h, false, 1300);
    pp_profile_enter_at(send, 1400);
    pp_profile_exit_at(send, 1900);
    pp_profile_task_end_at(T, 3300);
    pp_profile_task_switch_to_at(implicit0, 3300);
    AT(1);
    pp_profile_exit_at(barrier, 5200);
    pp_profile_enter_at(B, 5200);
    for (int loc = 0; loc < 2; loc++) {
        AT(loc);
        pp_profile_exit_at(B, 5300);
        pp_profile_parallel_end_at(P, 5400);
    }
    AT(0);
    pp_profile_join_at(P, initial, 5500);
    pp_profile_enter_at(fin, 6000);
    pp_profile_exit_at(fin, 6500);
    pp_profile_test_finalize_at(7000);
}

/* Two counters read at an enter and at its leave: 100/7 and 350/9. */
static int scenario_metrics(const char *dir)
{
    if (pp_trace_start(dir, 16384, 0) != 0)
        return 1;
    pp_trace_buf *b = pp_trace_thread_start(0, (1ull << 40) | 1);
    if (!b)
        return 1;
    uint64_t v1[2] = {100, 7}, v2[2] = {350, 9};
    pp_trace_put(b, 10, PP_TRACE_ENTER, 0);
    pp_trace_metrics(b, 2, v1);
    pp_trace_put(b, 20, PP_TRACE_LEAVE, 0);
    pp_trace_metrics(b, 2, v2);
    pp_trace_region r = {"work", "synthetic.c", "user", "function", NULL, 1, 2};
    const char *names[2] = {"PAPI_TOT_INS", "PAPI_L2_DCM"};
    pp_trace_defs defs = {.regions = &r, .n_regions = 1, .metrics = names, .n_metrics = 2,
                          .program = "metrics", .t_end = 30, .ticks_per_second = 1e9};
    return pp_trace_finish(&defs) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: trace_scenarios idle|critical|depend|tied DIR\n");
        return 2;
    }
    if (argc == 3 && !strcmp(argv[1], "metrics")) {
        pp_timer_init(PP_TIMER_CLOCK);
        return scenario_metrics(argv[2]);
    }
    setenv("POMPPROF_TRACE", "1", 1);
    setenv("POMPPROF_OUTPUT", argv[2], 1);
    pp_timer_init(PP_TIMER_CLOCK);
    pp_profile_test_start_at(0);
    define_regions();
    if (!strcmp(argv[1], "idle"))
        scenario_idle();
    else if (!strcmp(argv[1], "critical"))
        scenario_critical();
    else if (!strcmp(argv[1], "depend"))
        scenario_depend();
    else if (!strcmp(argv[1], "tied"))
        scenario_tied();
    else if (!strcmp(argv[1], "graph"))
        scenario_graph();
    else if (!strcmp(argv[1], "kinds"))
        scenario_kinds();
    else if (!strcmp(argv[1], "many"))
        scenario_many();
    else if (!strcmp(argv[1], "mpi"))
        scenario_mpi();
    else {
        fprintf(stderr, "trace_scenarios: unknown scenario %s\n", argv[1]);
        return 2;
    }
    return 0;
}
