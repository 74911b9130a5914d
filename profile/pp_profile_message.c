/* Message records for the trace (pp_profile_message.h): the calling
 * thread's trace buffer, at the time of its last event or of a clock read
 * made here. */
#include "profile/pp_profile_message.h"

#include "lib/pp_timer.h"
#include "profile/pp_profile_internal.h"

int pp_profile_message_traced(void)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_event_loc();
    int traced = loc != NULL && loc->trace != NULL;
    pp_profile_event_end();
    return traced;
}

/* The record, inside the event's bracket (pp_profile_internal.h). */
static void pp_profile_message_put(int at_last, unsigned kind, uint64_t a, uint64_t b,
                                   uint64_t c, uint64_t d)
{
    pp_location *loc = pp_profile_event_loc();
    if (PP_LIKELY(loc == NULL || loc->trace == NULL))
        return;
    uint64_t now = loc->last;
    if (!at_last) {
        now = pp_timer_now();
        /* the record must not go back before the thread's last event */
        if (now < loc->last)
            now = loc->last;
    }
    switch (pp_trace_record_words(kind)) {
    case 5: pp_trace_put4(loc->trace, now, kind, a, b, c, d); break;
    case 4: pp_trace_put3(loc->trace, now, kind, a, b, c); break;
    case 3: pp_trace_put2(loc->trace, now, kind, a, b); break;
    default: pp_trace_put(loc->trace, now, kind, a); break;
    }
}

void pp_profile_message(int at_last, unsigned kind, uint64_t a, uint64_t b, uint64_t c,
                        uint64_t d)
{
    pp_profile_event_begin();
    pp_profile_message_put(at_last, kind, a, b, c, d);
    pp_profile_event_end();
}
