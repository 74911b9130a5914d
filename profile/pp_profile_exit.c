/* exit() called on several threads at once (every thread of a team calls
 * exit() or STOP inside a parallel region).  glibc runs the atexit handlers
 * of concurrent exit() calls side by side: while the first caller is in the
 * engine's handler, writing the profile, a second one runs the handlers
 * still left and ends the process with _exit(), and no profile is written.
 *
 * libpompprof therefore defines exit() itself (a program's calls, and
 * libgfortran's for STOP, reach this one first): the first caller goes
 * straight on to the C library's exit(); a later caller waits until the
 * engine's atexit handler has written the profile, and then until the first
 * caller has ended the process, with the first caller's status (as glibc
 * 2.41 serializes exit() itself; an older one would let the callers race,
 * and lose buffered output).  Both waits are bounded, so a first exit()
 * whose own handlers wait for a later caller only delays the end; then the
 * later caller goes on to the C library's exit() as it would have. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "profile/pp_profile_internal.h"

static int pp_profile_exit_callers;

void exit(int status)
{
    if (__atomic_fetch_add(&pp_profile_exit_callers, 1, __ATOMIC_ACQ_REL) > 0 &&
        pp_profile_exit_wait()) {
        struct timespec ms = {0, 1000000};
        for (int i = 0; i < 60000; i++)
            nanosleep(&ms, NULL);
    }
    void (*libc_exit)(int) = (void (*)(int))dlsym(RTLD_NEXT, "exit");
    if (libc_exit)
        libc_exit(status);
    /* no C library exit() after this one (a fully static program): the
     * handlers cannot run */
    _exit(status);
}
