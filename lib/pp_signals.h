/* pp_signals: write the profile when the program is stopped by SIGINT/SIGTERM
 * or crashes (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT: below).
 *
 * A program stopped with Ctrl-C or `kill` never reaches exit(), so neither
 * POMP2_Finalize nor the atexit handler runs.  pp_signals_install() adds a
 * handler for SIGINT and SIGTERM that calls flush() once (writing what was
 * measured so far), then restores the default action and re-raises the
 * signal, so the process still dies of that signal: its exit status, as the
 * shell and waitpid() see it, is exactly the one it has without pompprof.
 *
 * Rules that keep the program's behaviour unchanged:
 *  - a signal whose disposition is not SIG_DFL when we install (the program
 *    has its own handler, or the signal is ignored, as for background jobs)
 *    is left alone;
 *  - a handler the program installs later simply replaces ours;
 *  - the crash signals (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) go on
 *    after the write exactly as without us (pp_signals_install_crash): to
 *    the program's handler, or to the default action with the same
 *    signal, core dump included.
 *
 * flush() does not run inside the handler: the signal may have interrupted a
 * thread inside malloc (libgomp allocates every task), and a flush there would
 * deadlock on the allocator.  pp_signals_install() starts a small thread of
 * its own, with every signal blocked; the handler wakes it and waits (with
 * async-signal-safe calls) until the flush is done.  If the flusher needs a
 * lock the interrupted thread holds (an allocator without per-thread arenas,
 * e.g. a sanitizer's), the handler gives up after 2 s and returns; the
 * flusher then takes the signal's default action itself once the profile is
 * written, so the program may run on for that long.  In a child after fork()
 * that thread does not exist and the handler flushes itself, which may block
 * in the case above. */
#ifndef PP_SIGNALS_H
#define PP_SIGNALS_H

#include <signal.h>

typedef void (*pp_signals_flush_fn)(void);

/* Install the SIGINT/SIGTERM handlers (idempotent: only the first call acts).
 * busy (NULL: never): whether the interrupted thread is inside one of the
 * engine's events, which the flush waits for; the handler then does not
 * wait for the flush (the thread goes on and leaves its event; the flusher
 * takes the signal's default action when the profile is written).  Called
 * in the handler: async-signal-safe.  Returns the number of signals for
 * which the handler was installed (0..2). */
int pp_signals_install(pp_signals_flush_fn flush, int (*busy)(void));

/* Hold SIGINT/SIGTERM back on the calling thread until release.  For the
 * thread that writes the profile: a signal arriving during the write asks
 * for this very profile, so it must wait until the write is done (its flush
 * then finds the profile written and the process dies of the signal).  A
 * signal sent to the whole process may still land on another thread: the
 * flush there must wait for the running write, not return at once. */
void pp_signals_hold(sigset_t *saved);
void pp_signals_release(const sigset_t *saved);

/* The signal whose handler is writing (or wrote) the profile; 0 for none. */
int pp_signals_caught(void);

/* The crash signals (idempotent).  On a crash the handler runs save() on
 * the crashing thread (async-signal-safe: it writes what is in memory with
 * write(2), whatever locks that thread holds), then has the flusher thread
 * run flush() (the first installer's flush function serves both) and waits
 * for it at most wait_s seconds (0: not at all), then passes the signal on:
 * to the handler the program had installed before, else to the default
 * action, as a fault that recurs when the handler returns or, for a signal
 * that was sent and for abort(), raised again.  A crash signal the program
 * ignores is left alone.  Returns the number of signals handled (0..5). */
int pp_signals_install_crash(pp_signals_flush_fn flush, void (*save)(void), unsigned wait_s);

/* The crash signal being handled (or that was); 0 for none. */
int pp_signals_crashed(void);

#endif
