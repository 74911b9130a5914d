/* pp_membarrier: the heavy side of an asymmetric memory barrier.
 *
 * The engine's events mark themselves with plain stores on their own
 * thread, with no fence (doc/engine.md, "Finalize and the events in
 * flight"); the one thread that ends measurement calls pp_membarrier_all,
 * which makes every other thread of the process execute a full memory
 * barrier, so that what each thread stored before that point is visible to
 * the caller afterwards, and each thread's later loads see what the caller
 * stored before the call.
 *
 * It is Linux's membarrier(2): MEMBARRIER_CMD_PRIVATE_EXPEDITED (Linux 4.14;
 * an IPI to the CPUs that run a thread of this process, microseconds) once
 * pp_membarrier_register has registered the process; else
 * MEMBARRIER_CMD_GLOBAL (Linux 4.3; waits until every CPU has passed
 * through the scheduler, milliseconds).  Where neither exists (older
 * kernels, a seccomp filter that refuses the call) it waits a grace period
 * of 20 ms instead: a store still in a CPU's store buffer reaches memory in
 * far less on every real machine, but no architecture promises a bound, so
 * this is the weaker of the three and the profile's run facts say which was
 * used. */
#ifndef PP_MEMBARRIER_H
#define PP_MEMBARRIER_H

enum pp_membarrier_method {
    PP_MEMBARRIER_GRACE = 0, /* no membarrier: a grace period */
    PP_MEMBARRIER_EXPEDITED,
    PP_MEMBARRIER_GLOBAL
};

/* Register the process for the expedited command (once, at init: with a
 * single thread the kernel registers at once, later it waits for an RCU
 * grace period).  Returns the method pp_membarrier_all will use. */
int pp_membarrier_register(void);

/* The barrier on every thread of the process; returns the method used.
 * Async-signal-safe (one system call, or nanosleep). */
int pp_membarrier_all(void);

/* "membarrier expedited", "membarrier global", "grace period". */
const char *pp_membarrier_name(int method);

#endif
