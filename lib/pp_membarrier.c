/* The heavy side of the engine's asymmetric barrier (pp_membarrier.h). */
#define _GNU_SOURCE
#include "lib/pp_membarrier.h"

#include <errno.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int pp_membarrier_method = -1; /* -1: not registered (yet) */

static long pp_membarrier_call(int cmd)
{
#ifdef SYS_membarrier
    return syscall(SYS_membarrier, cmd, 0u, 0);
#else
    (void)cmd;
    return -1;
#endif
}

/* The method the kernel offers, registering for the expedited one. */
static int pp_membarrier_probe(void)
{
    long cmds = pp_membarrier_call(MEMBARRIER_CMD_QUERY);
    if (cmds < 0)
        return PP_MEMBARRIER_GRACE;
    if ((cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
        (cmds & MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) &&
        pp_membarrier_call(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0)
        return PP_MEMBARRIER_EXPEDITED;
    if (cmds & MEMBARRIER_CMD_GLOBAL)
        return PP_MEMBARRIER_GLOBAL;
    return PP_MEMBARRIER_GRACE;
}

int pp_membarrier_register(void)
{
    int m = __atomic_load_n(&pp_membarrier_method, __ATOMIC_ACQUIRE);
    if (m < 0) {
        m = pp_membarrier_probe();
        __atomic_store_n(&pp_membarrier_method, m, __ATOMIC_RELEASE);
    }
    return m;
}

int pp_membarrier_all(void)
{
    int m = pp_membarrier_register();
    if (m == PP_MEMBARRIER_EXPEDITED && pp_membarrier_call(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0)
        return m;
    if (m != PP_MEMBARRIER_GRACE && pp_membarrier_call(MEMBARRIER_CMD_GLOBAL) == 0)
        return PP_MEMBARRIER_GLOBAL;
    int saved = errno;
    struct timespec grace = {0, 20 * 1000 * 1000};
    while (nanosleep(&grace, &grace) != 0 && errno == EINTR)
        ;
    errno = saved;
    return PP_MEMBARRIER_GRACE;
}

const char *pp_membarrier_name(int method)
{
    switch (method) {
    case PP_MEMBARRIER_EXPEDITED:
        return "membarrier expedited";
    case PP_MEMBARRIER_GLOBAL:
        return "membarrier global";
    default:
        return "grace period";
    }
}
