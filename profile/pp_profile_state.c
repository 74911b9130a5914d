/* The process-wide measurement state (pp_profile_node.h): the global record,
 * the flag the event path reads, and the thread's words.
 *
 * The event path reaches its location through an initial-exec TLS pointer
 * (one %fs-relative load).  libpompprof is linked into the program, so its
 * static TLS is laid out at start-up.  libpompprof_ompt.so, which holds the
 * engine too, is dlopen'ed by libomp (OMP_TOOL_LIBRARIES): its initial-exec
 * TLS then comes from the spare static TLS glibc reserves for such
 * libraries (glibc.rtld.optional_static_tls, 512 bytes by default).  It
 * needs 64 bytes; test/ompt/test_ompt_static_tls.py keeps it far below
 * that bound and loads the library with dlopen.
 *
 * Each thread has two more words of its own (pp_profile_thread_): the fast
 * pointer, non-NULL only while the fast paths apply, measurement being on
 * among them, so that an event's prologue is one load and test; and the
 * in-event word, which every event sets while it runs, so that finalize can
 * wait for the events in flight (doc/engine.md, "Finalize and the events in
 * flight").  Both are written by their own thread; other threads clear the
 * fast pointer when measurement is switched off, and finalize reads the
 * in-event word.  Each location therefore keeps the address of the words
 * of the thread that set it (thread), under the global lock; a thread that
 * ends forgets its address first (a key destructor), so nothing touches a
 * thread's storage after it is gone.  Switching on again sets nothing: each
 * thread's next event takes the general form, which sets its pointer again
 * (pp_profile_fast_rearm). */
#include "profile/pp_profile_internal.h"

pp_profile_global pp_profile_g = {.lock = PTHREAD_MUTEX_INITIALIZER};
int pp_profile_measuring_;
int pp_profile_ended_;
pp_thread_words *pp_profile_crashed_thread;
__thread pp_location *pp_profile_tls_ __attribute__((tls_model("initial-exec")));
__thread pp_thread_words pp_profile_thread_ __attribute__((tls_model("initial-exec")));

/* The key whose destructor tells of a thread's end (made once; ok: it
 * could be made).  Apart from pp_profile_g, which the tests' reset clears. */
static struct {
    pthread_key_t key;
    pthread_once_t once;
    int ok;
} pp_profile_thread_key = {.once = PTHREAD_ONCE_INIT};

/* The thread whose words are at slot ends. */
static void pp_profile_thread_ends(void *slot)
{
    pthread_mutex_lock(&pp_profile_g.lock);
    for (pp_location *l = pp_profile_g.first; l; l = l->next)
        if (l->thread == slot)
            l->thread = NULL;
    for (pp_thread_words **w = &pp_profile_g.source_threads; *w; w = &(*w)->next_source)
        if (*w == slot) {
            *w = (*w)->next_source;
            break;
        }
    ((pp_thread_words *)slot)->source_listed = 0;
    pthread_mutex_unlock(&pp_profile_g.lock);
}

static void pp_profile_thread_key_make(void)
{
    pp_profile_thread_key.ok = pthread_key_create(&pp_profile_thread_key.key, pp_profile_thread_ends) == 0;
}

/* Whether the fast paths may apply to loc on the calling thread now. */
static int pp_profile_fast_applies(const pp_location *loc)
{
    return loc && loc->plain && pp_timer_is_tsc() && pp_profile_measuring();
}

/* Under pp_profile_g.lock: tie loc to the calling thread's words, and set
 * the thread's fast pointer for loc when the fast paths apply.  A thread
 * whose end cannot be heard of (no key) is tied to nothing and gets no fast
 * pointer: its words could not be forgotten safely. */
static void pp_profile_thread_set_locked(pp_location *loc)
{
    pthread_once(&pp_profile_thread_key.once, pp_profile_thread_key_make);
    int tied = loc && pp_profile_thread_key.ok &&
               pthread_setspecific(pp_profile_thread_key.key, &pp_profile_thread_) == 0;
    if (tied)
        loc->thread = &pp_profile_thread_;
    __atomic_store_n(&pp_profile_thread_.fast, tied && pp_profile_fast_applies(loc) ? loc : NULL,
                     __ATOMIC_RELAXED);
}

void pp_profile_source_register(void)
{
    pthread_once(&pp_profile_thread_key.once, pp_profile_thread_key_make);
    pthread_mutex_lock(&pp_profile_g.lock);
    pp_thread_words *w = &pp_profile_thread_;
    if (!w->source_listed && pp_profile_thread_key.ok &&
        pthread_setspecific(pp_profile_thread_key.key, w) == 0) {
        w->next_source = pp_profile_g.source_threads;
        pp_profile_g.source_threads = w;
        w->source_listed = 1;
    }
    pthread_mutex_unlock(&pp_profile_g.lock);
}

void pp_profile_tls_set(pp_location *loc)
{
    pp_profile_tls_ = loc;
    pthread_mutex_lock(&pp_profile_g.lock);
    pp_profile_thread_set_locked(loc);
    pthread_mutex_unlock(&pp_profile_g.lock);
}

void pp_profile_fast_rearm(pp_location *loc)
{
    pthread_mutex_lock(&pp_profile_g.lock);
    if (pp_profile_tls_ == loc)
        pp_profile_thread_set_locked(loc);
    pthread_mutex_unlock(&pp_profile_g.lock);
}

/* Every thread's fast pointer cleared; take_lock 0 only in a fork child,
 * whose only thread must not wait for a lock another thread held. */
static void pp_profile_fast_clear_all(int take_lock)
{
    if (take_lock)
        pthread_mutex_lock(&pp_profile_g.lock);
    for (pp_location *l = pp_profile_g.first; l; l = l->next)
        if (l->thread)
            __atomic_store_n(&l->thread->fast, NULL, __ATOMIC_RELAXED);
    if (take_lock)
        pthread_mutex_unlock(&pp_profile_g.lock);
}

static void pp_profile_measuring_update(int take_lock)
{
    int on = pp_profile_g.started && !pp_profile_g.finished && pp_profile_g.config_enable &&
             pp_profile_g.enabled_by_user;
    __atomic_store_n(&pp_profile_ended_, pp_profile_g.finished, __ATOMIC_SEQ_CST);
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

int pp_profile_location_publish(pp_location *loc)
{
    pthread_mutex_lock(&pp_profile_g.lock);
    /* measurement ended meanwhile: finalize may be reading the list and
     * waiting for the threads it holds, so this one stays out of it */
    int on = pp_profile_measuring();
    if (on) {
        if (pp_profile_g.last)
            pp_profile_g.last->next = loc;
        else
            pp_profile_g.first = loc;
        pp_profile_g.last = loc;
        pp_profile_tls_ = loc;
        pp_profile_thread_set_locked(loc);
    }
    pthread_mutex_unlock(&pp_profile_g.lock);
    return on ? 0 : -1;
}
