/* pp_profile_message: messages between processes, as an event source hands
 * them to the engine for the trace (the MPI layer, mpi/; doc/trace.md,
 * "Hybrid traces").
 *
 * A message event is one raw trace record of the calling thread (a kind of
 * trace/pp_trace_record.h, PP_TRACE_MPI_*), written beside the region
 * events of the call it belongs to: no lock, no allocation, no system call.
 * The profile itself keeps nothing of it (the calls are regions, their bytes
 * extra metrics).  Without a trace on the calling thread both do nothing. */
#ifndef PP_PROFILE_MESSAGE_H
#define PP_PROFILE_MESSAGE_H

#include <stdint.h>

/* Whether the calling thread's events go into a trace now (an event source
 * asks before it keeps state for messages, e.g. the requests it tracks). */
int pp_profile_message_traced(void);

/* One record of the calling thread: kind with operands a..d (as many as the
 * kind has).  at_last: the time of the thread's last event (the call's
 * start, its region's enter: no clock read); otherwise the clock is read
 * now (a receive that just completed). */
void pp_profile_message(int at_last, unsigned kind, uint64_t a, uint64_t b, uint64_t c,
                        uint64_t d);

#endif
