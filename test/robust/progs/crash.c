/* A program that crashes (test/robust/crash.py): a team runs TASKS tasks to
 * completion (a taskwait), says so on stdout (written at once), then one
 * crash, by WHAT, WHERE:
 *   crash WHERE WHAT TASKS
 *   WHERE  task     inside one more task (it has begun, it never ends)
 *          barrier  thread 0 gets the signal from thread 1 (pthread_kill)
 *                   while it waits in a barrier
 *          serial   after the parallel region, in serial code
 *          wait     prints "ready" and waits for a signal from outside
 *          handler  has its own SIGSEGV handler (it prints "handled" and ends
 *                   with status 3), installed before any library's constructor
 *                   (.preinit_array: pompprof's is installed later and passes
 *                   the signal on to it), then crashes in serial code
 *   WHAT   segv (a NULL store), bus (a store to a file mapping cut short),
 *          fpe (an integer division by zero), ill (an undefined
 *          instruction), abort (abort()) -- for "barrier" the signal sent. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile int zero;
static int *volatile nowhere;

static int signal_of(const char *what)
{
    return !strcmp(what, "segv") ? SIGSEGV : !strcmp(what, "bus") ? SIGBUS
         : !strcmp(what, "fpe") ? SIGFPE : !strcmp(what, "ill") ? SIGILL : SIGABRT;
}

static void crash(const char *what)
{
    if (!strcmp(what, "segv")) {
        *nowhere = 1;
    } else if (!strcmp(what, "bus")) {
        char name[] = "/tmp/pp_crash_XXXXXX";
        int fd = mkstemp(name);
        unlink(name);
        if (fd >= 0 && ftruncate(fd, 4096) == 0) {
            volatile char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            if (p != MAP_FAILED && ftruncate(fd, 0) == 0)
                p[0] = 1; /* beyond the file's end: SIGBUS */
        }
    } else if (!strcmp(what, "fpe")) {
        volatile int one = 1, quotient;
        quotient = one / zero; /* idiv by zero: SIGFPE */
        (void)quotient;
    } else if (!strcmp(what, "ill")) {
        __builtin_trap();
    }
    abort(); /* "abort", or a crash that did not happen */
}

static void say(const char *text);

static void own_handler(int sig)
{
    (void)sig;
    say("handled\n");
    _exit(3);
}

/* Runs before every shared library's constructor (an executable's
 * .preinit_array), with main's arguments. */
static void install_own_handler(int argc, char **argv, char **envp)
{
    (void)envp;
    if (argc > 1 && !strcmp(argv[1], "handler"))
        signal(SIGSEGV, own_handler);
}
__attribute__((section(".preinit_array"), used)) static void (*const preinit)(int, char **,
                                                                              char **) =
    install_own_handler;

static void say(const char *text)
{
    ssize_t w = write(STDOUT_FILENO, text, strlen(text));
    (void)w;
}

static void run_tasks(int tasks, int *done)
{
#pragma omp single
    {
        for (int i = 0; i < tasks; i++) {
#pragma omp task shared(done)
            {
#pragma omp atomic
                (*done)++;
            }
        }
#pragma omp taskwait
    }
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: crash task|barrier|serial|wait|handler segv|bus|fpe|ill|abort "
                        "TASKS\n");
        return 2;
    }
    const char *where = argv[1], *what = argv[2];
    int tasks = atoi(argv[3]), done = 0;
    static pthread_t master;
    master = pthread_self();
#pragma omp parallel num_threads(2)
    {
        run_tasks(tasks, &done);
#pragma omp single
        {
            char line[64];
            snprintf(line, sizeof line, "done %d\n", done);
            say(line);
        }
        if (!strcmp(where, "task")) {
#pragma omp single
            {
#pragma omp task
                crash(what);
#pragma omp taskwait
            }
        } else if (!strcmp(where, "barrier")) {
            if (omp_get_thread_num() == 1) {
                usleep(200000); /* thread 0 waits in the barrier below meanwhile */
                pthread_kill(master, signal_of(what));
            }
#pragma omp barrier
        }
    }
    if (!strcmp(where, "serial") || !strcmp(where, "handler"))
        crash(what);
    if (!strcmp(where, "wait")) {
        say("ready\n");
        for (;;)
            pause();
    }
    return 0;
}
