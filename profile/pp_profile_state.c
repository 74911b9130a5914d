/* The process-wide measurement state (pp_profile_node.h): the global record,
 * the flag the event path reads, and the thread's location pointers.
 *
 * The event path reaches its location through an initial-exec TLS pointer
 * (libpompprof is linked into the program, never dlopen'ed, so the static TLS
 * model is available and costs one %fs-relative load).
 *
 * The fast pointer (pp_profile_fast_tls_) is non-NULL only while the fast
 * paths apply, measurement being on among them, so that an event's prologue
 * is one load and test.  Switching measurement off must then reach every
 * thread's pointer: each location keeps the address of the pointer its
 * thread set (fast_slot), which the switch clears under the global lock; a
 * thread that ends forgets its address first (a key destructor), so nothing
 * writes to a thread's storage after it is gone.  Switching on again sets
 * nothing: each thread's next event takes the general form, which sets its
 * pointer again (pp_profile_fast_rearm). */
#include "profile/pp_profile_internal.h"

pp_profile_global pp_profile_g = {.lock = PTHREAD_MUTEX_INITIALIZER};
int pp_profile_measuring_;
__thread pp_location *pp_profile_tls_ __attribute__((tls_model("initial-exec")));
__thread pp_location *pp_profile_fast_tls_ __attribute__((tls_model("initial-exec")));

static pthread_key_t pp_profile_thread_key;
static pthread_once_t pp_profile_thread_key_once = PTHREAD_ONCE_INIT;
static int pp_profile_thread_key_ok;

/* The thread whose fast pointer is at slot ends. */
static void pp_profile_thread_ends(void *slot)
{
    pthread_mutex_lock(&pp_profile_g.lock);
    for (pp_location *l = pp_profile_g.first; l; l = l->next)
        if (l->fast_slot == slot)
            l->fast_slot = NULL;
    pthread_mutex_unlock(&pp_profile_g.lock);
}

static void pp_profile_thread_key_make(void)
{
    pp_profile_thread_key_ok = pthread_key_create(&pp_profile_thread_key, pp_profile_thread_ends) == 0;
}

/* Whether the fast paths may apply to loc on the calling thread now. */
static int pp_profile_fast_applies(const pp_location *loc)
{
    return loc && loc->plain && pp_timer_is_tsc() && pp_profile_measuring();
}

/* Under pp_profile_g.lock: the calling thread's fast pointer for loc.  A
 * thread whose end cannot be heard of (no key) gets none: its pointer could
 * not be cleared safely. */
static void pp_profile_fast_set_locked(pp_location *loc)
{
    pthread_once(&pp_profile_thread_key_once, pp_profile_thread_key_make);
    if (pp_profile_fast_applies(loc) && pp_profile_thread_key_ok &&
        pthread_setspecific(pp_profile_thread_key, &pp_profile_fast_tls_) == 0) {
        loc->fast_slot = &pp_profile_fast_tls_;
        __atomic_store_n(&pp_profile_fast_tls_, loc, __ATOMIC_RELAXED);
    } else {
        __atomic_store_n(&pp_profile_fast_tls_, NULL, __ATOMIC_RELAXED);
    }
}

void pp_profile_tls_set(pp_location *loc)
{
    pp_profile_tls_ = loc;
    pthread_mutex_lock(&pp_profile_g.lock);
    pp_profile_fast_set_locked(loc);
    pthread_mutex_unlock(&pp_profile_g.lock);
}

void pp_profile_fast_rearm(pp_location *loc)
{
    pthread_mutex_lock(&pp_profile_g.lock);
    if (pp_profile_tls_ == loc)
        pp_profile_fast_set_locked(loc);
    pthread_mutex_unlock(&pp_profile_g.lock);
}

/* Every thread's fast pointer cleared; take_lock 0 only in a fork child,
 * whose only thread must not wait for a lock another thread held. */
static void pp_profile_fast_clear_all(int take_lock)
{
    if (take_lock)
        pthread_mutex_lock(&pp_profile_g.lock);
    for (pp_location *l = pp_profile_g.first; l; l = l->next)
        if (l->fast_slot)
            __atomic_store_n(l->fast_slot, NULL, __ATOMIC_RELAXED);
    if (take_lock)
        pthread_mutex_unlock(&pp_profile_g.lock);
}

static void pp_profile_measuring_update(int take_lock)
{
    int on = pp_profile_g.started && !pp_profile_g.finished && pp_profile_g.config_enable &&
             pp_profile_g.enabled_by_user;
    __atomic_store_n(&pp_profile_measuring_, on, __ATOMIC_SEQ_CST);
    if (!on)
        pp_profile_fast_clear_all(take_lock);
}

void pp_profile_update_measuring(void)
{
    pp_profile_measuring_update(1);
}

void pp_profile_update_measuring_in_child(void)
{
    pp_profile_measuring_update(0);
}
