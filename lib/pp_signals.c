#include "lib/pp_signals.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>


static const int pp_signals_handled[] = { SIGINT, SIGTERM };
#define PP_SIGNALS_COUNT (sizeof pp_signals_handled / sizeof pp_signals_handled[0])

/* The crash signals (pp_signals_install_crash). */
static const int pp_signals_crashes[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
#define PP_SIGNALS_CRASHES (sizeof pp_signals_crashes / sizeof pp_signals_crashes[0])

/* The flusher thread.  Writing a profile allocates memory; a signal can land
 * on a thread that is inside malloc (libgomp allocates every task), and a
 * flush on that thread would wait forever for the allocator lock it holds.
 * So the handler only wakes a thread of ours, created at install time with
 * every signal blocked and its own glibc allocator arena, and waits for it
 * with async-signal-safe calls.  An allocator without per-thread arenas (the
 * sanitizers' own) can still block the flusher on a lock the interrupted
 * thread holds: then the handler stops waiting after a while and returns, the
 * interrupted thread releases the lock, and the flusher, once done, delivers
 * the signal's default action itself.  After fork() the child has no such
 * thread: its handler flushes itself, as the best it can do. */
enum { PP_SIG_WAITING = 0, PP_SIG_HANDLER_GAVE_UP, PP_SIG_FLUSHED };

/* Everything the handlers and the flusher share, in one place.  Written
 * with atomics or before any handler is installed: a handler takes no lock
 * (doc/engine.md, "Locks and global state"). */
static struct {
    /* what the handlers call, written once before they are installed: the
     * flush, the test whether the interrupted thread is inside an event,
     * the crash's save, and how long a crash waits for the write */
    pp_signals_flush_fn flush;
    int (*busy)(void);
    void (*crash_save)(void);
    int crash_wait_ms;
    /* what the program had installed for each crash signal before us, to
     * pass the signal on to */
    struct sigaction before[NSIG];
    atomic_flag installed, crash_installed;
    /* set by the first handler invocation: only one flush per process, even
     * when a second signal arrives on another thread while the first one
     * flushes */
    atomic_flag flushing;
    /* set by the first crash: later ones (another thread's, or a fault
     * while the first is handled) only pass the signal on */
    atomic_flag crashing;
    atomic_int crash_sig;
    /* the flusher thread: started once, woken by go, its progress in
     * state (PP_SIG_*), the signal it acts for in signo */
    pthread_once_t flusher_once;
    sem_t go;
    atomic_int state;
    atomic_int signo;
    atomic_int flusher_pid; /* 0: no flusher in this process */
    /* the signal whose flush runs (the profile says the run was cut by it) */
    atomic_int caught_sig;
} pp_signals_g = {.installed = ATOMIC_FLAG_INIT, .crash_installed = ATOMIC_FLAG_INIT,
                  .flushing = ATOMIC_FLAG_INIT, .crashing = ATOMIC_FLAG_INIT,
                  .flusher_once = PTHREAD_ONCE_INIT};

int pp_signals_caught(void)
{
    return atomic_load(&pp_signals_g.caught_sig);
}

int pp_signals_crashed(void)
{
    return atomic_load(&pp_signals_g.crash_sig);
}

static void pp_signals_die_of(int sig)
{
    struct sigaction dfl;
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    dfl.sa_flags = 0;
    sigaction(sig, &dfl, NULL);
}

static void *pp_signals_flusher(void *unused)
{
    (void)unused;
    /* attach to an allocator arena now, while nothing is locked */
    free(malloc(64));
    while (sem_wait(&pp_signals_g.go) != 0 && errno == EINTR)
        ;
    if (pp_signals_g.flush)
        pp_signals_g.flush();
    int expected = PP_SIG_WAITING;
    if (!atomic_compare_exchange_strong(&pp_signals_g.state, &expected, PP_SIG_FLUSHED)) {
        /* the handler returned without the default action: take it now (this
         * thread blocks the signal, so another thread receives it) */
        int sig = atomic_load(&pp_signals_g.signo);
        pp_signals_die_of(sig);
        kill(getpid(), sig);
    }
    return NULL;
}

static void pp_signals_forget_flusher(void)
{
    atomic_store(&pp_signals_g.flusher_pid, 0);
}

/* The flusher thread, once (flusher_once): for SIGINT/SIGTERM or for the
 * crash signals, whichever is installed first. */
static void pp_signals_start_flusher(void)
{
    if (sem_init(&pp_signals_g.go, 0, 0) != 0)
        return;
    sigset_t all, saved;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &saved); /* inherited by the new thread */
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    pthread_t tid;
    if (pthread_create(&tid, &attr, pp_signals_flusher, NULL) == 0) {
        atomic_store(&pp_signals_g.flusher_pid, (int)getpid());
        pthread_atfork(NULL, NULL, pp_signals_forget_flusher);
    }
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
}

/* Run the flush on the flusher thread and wait for it, at most wait_ms.
 * Returns 1 when the profile is written, 0 when the handler gave up waiting
 * (the flusher then takes the default action itself).  A profile write takes
 * milliseconds; two seconds without one means the flusher waits for
 * something this thread holds. */
static int pp_signals_flush_elsewhere(int sig, int wait_ms)
{
    atomic_store(&pp_signals_g.signo, sig);
    sem_post(&pp_signals_g.go);
    struct timespec ms = {0, 1000000};
    for (int i = 0; i < wait_ms; i++) {
        if (atomic_load(&pp_signals_g.state) == PP_SIG_FLUSHED)
            return 1;
        nanosleep(&ms, NULL);
    }
    int expected = PP_SIG_WAITING;
    return !atomic_compare_exchange_strong(&pp_signals_g.state, &expected, PP_SIG_HANDLER_GAVE_UP);
}

static void pp_signals_handler(int sig)
{
    int saved_errno = errno;
    if (atomic_flag_test_and_set(&pp_signals_g.flushing)) {
        /* Another thread is already flushing (or has flushed) and will
         * re-raise its signal; the process is about to die of it.  Killing it
         * now would cut the profile off halfway, so this one is dropped. */
        errno = saved_errno;
        return;
    }
    atomic_store(&pp_signals_g.caught_sig, sig);
    if (atomic_load(&pp_signals_g.flusher_pid) == (int)getpid()) {
        /* inside one of the engine's events, this thread must go on: the
         * write waits for the event's end (pp_profile_quiesce.c) */
        int busy = pp_signals_g.busy && pp_signals_g.busy();
        if (!pp_signals_flush_elsewhere(sig, busy ? 0 : 2000)) {
            errno = saved_errno;
            return; /* let this thread run on; the flusher ends the process */
        }
    } else if (pp_signals_g.flush) {
        pp_signals_g.flush();
    }

    /* Default action, then re-raise: the signal is blocked while its handler
     * runs, so it stays pending and is delivered (and kills the process with
     * the usual status) as soon as the handler returns. */
    pp_signals_die_of(sig);
    raise(sig);
    errno = saved_errno;
}

/* ---- crashes ---------------------------------------------------------------
 *
 * On SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT the crashing thread may
 * hold any lock (the allocator's, the trace's), and its own state may be
 * torn.  So the handler first runs the save hook, which writes what is
 * in memory with write(2) only (the trace's buffers), then hands the write
 * of the profile and trace to the flusher thread, as for SIGTERM, and waits
 * for it at most POMPPROF_CRASH_WAIT seconds.  Then the signal goes on as
 * if we had not been there: to the handler the program had installed
 * before ours, or to the default action -- for a fault by returning, so
 * that the faulting instruction runs again and the kernel kills the
 * process with the same signal and the same core dump; for a signal that
 * was sent (kill, raise, abort) by raising it again. */

/* Pass sig on as the program would have seen it without us. */
static void pp_signals_pass_on(int sig, siginfo_t *info, void *context)
{
    struct sigaction *before = &pp_signals_g.before[sig];
    /* from now on the program's own disposition, without us */
    sigaction(sig, before, NULL);
    if ((before->sa_flags & SA_SIGINFO) && before->sa_sigaction) {
        before->sa_sigaction(sig, info, context);
        return;
    }
    if (!(before->sa_flags & SA_SIGINFO) && before->sa_handler != SIG_DFL &&
        before->sa_handler != SIG_IGN) {
        before->sa_handler(sig);
        return;
    }
    /* the default action: a fault recurs when the handler returns; a
     * signal that was sent (si_code <= 0) or abort's is raised again,
     * pending until the handler returns */
    if (!info || info->si_code <= 0 || sig == SIGABRT)
        raise(sig);
}

static void pp_signals_crash_handler(int sig, siginfo_t *info, void *context)
{
    int saved_errno = errno;
    if (!atomic_flag_test_and_set(&pp_signals_g.crashing)) {
        atomic_store(&pp_signals_g.crash_sig, sig);
        if (pp_signals_g.crash_save)
            pp_signals_g.crash_save();
        int here = atomic_load(&pp_signals_g.flusher_pid) == (int)getpid();
        if (here && pp_signals_g.crash_wait_ms > 0) {
            if (!atomic_flag_test_and_set(&pp_signals_g.flushing)) {
                atomic_store(&pp_signals_g.caught_sig, sig);
                pp_signals_flush_elsewhere(sig, pp_signals_g.crash_wait_ms);
            } else {
                /* a write for SIGINT/SIGTERM runs already: wait for it */
                struct timespec ms = {0, 1000000};
                for (int i = 0; i < pp_signals_g.crash_wait_ms &&
                                atomic_load(&pp_signals_g.state) != PP_SIG_FLUSHED;
                     i++)
                    nanosleep(&ms, NULL);
            }
        }
    }
    pp_signals_pass_on(sig, info, context);
    errno = saved_errno;
}

int pp_signals_install_crash(pp_signals_flush_fn flush, void (*save)(void), unsigned wait_s)
{
    if (atomic_flag_test_and_set(&pp_signals_g.crash_installed))
        return 0;
    if (!pp_signals_g.flush)
        pp_signals_g.flush = flush;
    pp_signals_g.crash_save = save;
    pp_signals_g.crash_wait_ms = (int)(wait_s > 3600 ? 3600000 : wait_s * 1000);
    struct sigaction act;
    act.sa_sigaction = pp_signals_crash_handler;
    sigemptyset(&act.sa_mask);
    /* on the program's alternate stack if the thread has one (a stack
     * overflow can be handled only there) */
    act.sa_flags = SA_SIGINFO | SA_ONSTACK;
    int installed = 0;
    for (size_t i = 0; i < PP_SIGNALS_CRASHES; i++) {
        int sig = pp_signals_crashes[i];
        if (sigaction(sig, NULL, &pp_signals_g.before[sig]) != 0)
            continue;
        /* an ignored crash signal stays ignored: we would change it */
        if (!(pp_signals_g.before[sig].sa_flags & SA_SIGINFO) &&
            pp_signals_g.before[sig].sa_handler == SIG_IGN)
            continue;
        if (sigaction(sig, &act, NULL) == 0)
            installed++;
    }
    if (installed)
        pthread_once(&pp_signals_g.flusher_once, pp_signals_start_flusher);
    return installed;
}

int pp_signals_install(pp_signals_flush_fn flush, int (*busy)(void))
{
    if (atomic_flag_test_and_set(&pp_signals_g.installed))
        return 0;
    pp_signals_g.flush = flush;
    pp_signals_g.busy = busy;

    struct sigaction act;
    act.sa_handler = pp_signals_handler;
    /* Both signals blocked during the handler: a SIGINT arriving while this
     * thread flushes for SIGTERM waits instead of re-entering the flush. */
    sigemptyset(&act.sa_mask);
    for (size_t i = 0; i < PP_SIGNALS_COUNT; i++)
        sigaddset(&act.sa_mask, pp_signals_handled[i]);
    /* SA_RESTART: a dropped second signal must not make the program's
     * blocking calls fail with EINTR where they would not without us. */
    act.sa_flags = SA_RESTART;

    int installed = 0;
    for (size_t i = 0; i < PP_SIGNALS_COUNT; i++) {
        struct sigaction old;
        if (sigaction(pp_signals_handled[i], NULL, &old) != 0)
            continue;
        /* Never replace the program's own handler or an ignored signal.
         * (The check and the install are not atomic; a program racing to
         * install a handler from another thread during our init is not a
         * case worth a lock.) */
        if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
            continue;
        if (sigaction(pp_signals_handled[i], &act, NULL) == 0)
            installed++;
    }
    if (installed)
        pthread_once(&pp_signals_g.flusher_once, pp_signals_start_flusher);
    return installed;
}

void pp_signals_hold(sigset_t *saved)
{
    sigset_t block;
    sigemptyset(&block);
    for (size_t i = 0; i < PP_SIGNALS_COUNT; i++)
        sigaddset(&block, pp_signals_handled[i]);
    pthread_sigmask(SIG_BLOCK, &block, saved);
}

void pp_signals_release(const sigset_t *saved)
{
    pthread_sigmask(SIG_SETMASK, saved, NULL);
}
