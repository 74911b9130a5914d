/* Instrumented functions where a measurement's locks or allocations could
 * deadlock (test_functions_safe.py).  Every function here is instrumented
 * with `pompprof --functions`; the program counts its own calls and writes
 * them to the file named by SAFE_TRUTH ("name count" lines).
 *
 *   safe signal N   a handler of SIGUSR1, raised N times, and one of SIGALRM,
 *                   delivered by a timer every 100 us while work() runs
 *   safe fork N     work() N times before and after a fork; the child calls
 *                   it N times too, and exits through exit()
 *   safe atexit N   an atexit handler calls late() N times; a destructor,
 *                   which runs after the profile is written, calls it too
 *   safe dlopen LIB N   lib_call() of LIB, loaded with dlopen after start,
 *                   N times; unloaded and loaded again, N times more
 *   safe firsts N   a SIGALRM handler calls one of 512 functions never
 *                   called before at each delivery (every 50 us), while the
 *                   program allocates and frees memory all the time: a first
 *                   call that took a lock or allocated would, sooner or
 *                   later, interrupt malloc holding its lock and wait for it
 *                   forever (N: the deliveries, at most 512) */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t usr1_n, alarm_n;
static long work_n, late_n;
static volatile double sink;
static int late_calls;
static const char *truth;

__attribute__((noinline)) void work(void)
{
    work_n++;
    for (int i = 0; i < 200; i++)
        sink += i * 0.5;
}

__attribute__((noinline)) void in_handler(void)
{
    sink += 1.0;
}

void on_usr1(int sig)
{
    (void)sig;
    usr1_n++;
    in_handler();
}

void on_alarm(int sig)
{
    (void)sig;
    alarm_n++;
}

/* 512 functions, first_0 .. first_511 */
#define FIRST(i) \
    __attribute__((noinline)) void first_##i(void) { sink += i; }
#define FIRST8(i) FIRST(i##0) FIRST(i##1) FIRST(i##2) FIRST(i##3) FIRST(i##4) FIRST(i##5) \
    FIRST(i##6) FIRST(i##7)
#define FIRST64(i) FIRST8(i##0) FIRST8(i##1) FIRST8(i##2) FIRST8(i##3) FIRST8(i##4) \
    FIRST8(i##5) FIRST8(i##6) FIRST8(i##7)
FIRST64(1) FIRST64(2) FIRST64(3) FIRST64(4) FIRST64(5) FIRST64(6) FIRST64(7) FIRST64(0)
#define REF(i) first_##i,
#define REF8(i) REF(i##0) REF(i##1) REF(i##2) REF(i##3) REF(i##4) REF(i##5) REF(i##6) REF(i##7)
#define REF64(i) REF8(i##0) REF8(i##1) REF8(i##2) REF8(i##3) REF8(i##4) REF8(i##5) \
    REF8(i##6) REF8(i##7)
static void (*const firsts[512])(void) = {REF64(1) REF64(2) REF64(3) REF64(4) REF64(5) REF64(6)
                                              REF64(7) REF64(0)};
static volatile sig_atomic_t first_n, first_limit;

void on_alarm_first(int sig)
{
    (void)sig;
    if (first_n < first_limit)
        firsts[first_n++]();
}

__attribute__((noinline)) void late(void)
{
    late_n++;
}

static void write_truth(const char *name, long n)
{
    FILE *f = fopen(truth, "a");
    if (f) {
        fprintf(f, "%s %ld\n", name, n);
        fclose(f);
    }
}

static void at_exit_handler(void)
{
    for (int i = 0; i < late_calls; i++)
        late();
    write_truth("late", late_n);
}

/* after the profile is written: measured by nobody, harmless */
__attribute__((destructor)) static void after_profile(void)
{
    if (late_calls)
        late();
}

/* SIGALRM is a process's signal: any thread that does not block it may
 * run the handler, also the team's other thread waiting at the single's
 * barrier, concurrently with the count read after the timer stops.  So
 * every thread blocks it (main, before the team exists: the team's threads
 * inherit the mask) and the thread that runs the timer unblocks it for
 * itself: the handler runs on that thread only, and a delivery still
 * pending when the timer stops happens before setitimer returns. */
static sigset_t alarm_set;

static void alarm_here(void)
{
    pthread_sigmask(SIG_UNBLOCK, &alarm_set, NULL);
}

static int signals(int n)
{
    alarm_here();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigaction(SIGUSR1, &sa, NULL);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 100}, {0, 100}};
    setitimer(ITIMER_REAL, &it, NULL);
    for (int i = 0; i < n; i++) {
        work();
        if (i % 10 == 0)
            raise(SIGUSR1);
    }
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    write_truth("on_usr1", usr1_n);
    write_truth("in_handler", usr1_n);
    write_truth("on_alarm", alarm_n);
    write_truth("work", work_n);
    return 0;
}

static int forks(int n)
{
    for (int i = 0; i < n; i++)
        work();
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    for (int i = 0; i < n; i++)
        work();
    if (pid == 0)
        exit(0); /* the child: its exit runs the library's atexit handler too */
    int status = 0;
    waitpid(pid, &status, 0);
    write_truth("work", work_n);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

static int first_calls(int n)
{
    first_limit = n < 512 ? n : 512;
    alarm_here();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm_first;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 50}, {0, 50}};
    setitimer(ITIMER_REAL, &it, NULL);
    while (first_n < first_limit) {
        void *p[16];
        for (int i = 0; i < 16; i++)
            p[i] = malloc(32 + 48 * i);
        for (int i = 0; i < 16; i++)
            free(p[i]);
    }
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    write_truth("firsts", first_n);
    return 0;
}

static int dlopens(const char *lib, int n)
{
    long calls = 0;
    for (int round = 0; round < 2; round++) {
        void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            fprintf(stderr, "safe: %s\n", dlerror());
            return 1;
        }
        int (*call)(int) = (int (*)(int))dlsym(h, "lib_call");
        for (int i = 0; call && i < n; i++)
            calls += call(i) >= 0;
        dlclose(h);
    }
    write_truth("lib_call", calls);
    write_truth("lib_inner", calls);
    return 0;
}

int main(int argc, char **argv)
{
    truth = getenv("SAFE_TRUTH") ? getenv("SAFE_TRUTH") : "/dev/null";
    const char *what = argc > 1 ? argv[1] : "";
    int n = argc > 2 ? atoi(argv[argc - 1]) : 100;
    int rc = 2;
    sigemptyset(&alarm_set);
    sigaddset(&alarm_set, SIGALRM);
    pthread_sigmask(SIG_BLOCK, &alarm_set, NULL);
#pragma omp parallel
#pragma omp single
    {
        if (strcmp(what, "signal") == 0)
            rc = signals(n);
        else if (strcmp(what, "fork") == 0)
            rc = forks(n);
        else if (strcmp(what, "atexit") == 0) {
            late_calls = n;
            atexit(at_exit_handler);
            rc = 0;
        } else if (strcmp(what, "firsts") == 0)
            rc = first_calls(n);
        else if (strcmp(what, "dlopen") == 0 && argc > 3)
            rc = dlopens(argv[2], n);
    }
    printf("safe %s done\n", what);
    return rc;
}
