/* The process-wide measurement state (pp_profile_node.h): the global record,
 * the flag the event path reads, and the thread's location pointer.
 *
 * The event path reaches its location through an initial-exec TLS pointer
 * (libpompprof is linked into the program, never dlopen'ed, so the static TLS
 * model is available and costs one %fs-relative load). */
#include "profile/pp_profile_internal.h"

pp_profile_global pp_profile_g = {.lock = PTHREAD_MUTEX_INITIALIZER};
int pp_profile_measuring_;
__thread pp_location *pp_profile_tls_ __attribute__((tls_model("initial-exec")));
__thread pp_location *pp_profile_fast_tls_ __attribute__((tls_model("initial-exec")));

void pp_profile_update_measuring(void)
{
    int on = pp_profile_g.started && !pp_profile_g.finished && pp_profile_g.config_enable &&
             pp_profile_g.enabled_by_user;
    __atomic_store_n(&pp_profile_measuring_, on, __ATOMIC_RELAXED);
}
