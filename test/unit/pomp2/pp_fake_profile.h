/* A fake engine for the adapter's unit tests: implements profile/pp_profile.h
 * by recording every call, so tests can check what the adapter asked for.
 * Test-only; never linked into libpompprof. */
#ifndef PP_FAKE_PROFILE_H
#define PP_FAKE_PROFILE_H

#include "profile/pp_profile.h"

#define PP_FAKE_MAX_REGIONS 4096
#define PP_FAKE_MAX_EVENTS 65536

typedef enum pp_fake_kind {
    PP_FAKE_INIT, PP_FAKE_FINALIZE, PP_FAKE_ENABLE, PP_FAKE_DISABLE,
    PP_FAKE_ENTER, PP_FAKE_EXIT, PP_FAKE_FORK, PP_FAKE_PARALLEL_BEGIN,
    PP_FAKE_PARALLEL_END, PP_FAKE_JOIN, PP_FAKE_NEW_HANDLE, PP_FAKE_SWITCH,
    PP_FAKE_TASK_BEGIN, PP_FAKE_TASK_END,
    PP_FAKE_TASK_CREATE, PP_FAKE_LOCK_ACQUIRE, PP_FAKE_LOCK_RELEASE
} pp_fake_kind;

typedef struct pp_fake_event {
    pp_fake_kind kind;
    pp_region_id region; /* PP_REGION_INVALID when the call has none */
    int64_t value;       /* fork context, task handle, num_threads, lock address... */
    int untied;
} pp_fake_event;

/* Recorded definitions (copies) and events, in call order. */
extern pp_region_def pp_fake_regions[PP_FAKE_MAX_REGIONS];
extern int pp_fake_n_regions;
extern pp_fake_event pp_fake_events[PP_FAKE_MAX_EVENTS];
extern int pp_fake_n_events;
/* The handle pp_profile_task_current returns (settable by tests). */
extern pp_task_handle pp_fake_current_task;
/* The value pp_profile_fork returns. */
extern int64_t pp_fake_fork_context;

/* Forget all events (regions stay defined). */
void pp_fake_reset_events(void);
/* The id of the region with this name, PP_REGION_INVALID if none. */
pp_region_id pp_fake_region_by_name(const char *name);

#endif
