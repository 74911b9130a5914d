/* The line pompprof-salvage says on stderr about a process's raw files:
 * what was salvaged (threads, records, how many of them a crash handler
 * saved from the buffers) and what is missing.  A thread's records after
 * its last write to disk (at most its trace buffer) die with the process,
 * unless a crash handler saved its buffer as a tail; how much that is
 * cannot be known, so each such thread is named with where its trace
 * stops, before the process's last record. */
#include "salvage/pp_salvage.h"

#include <stdio.h>

pp_salvage_sum pp_salvage_sum_of(const pp_trace_resume *r, uint64_t t0)
{
    uint32_t n;
    const pp_trace_resume_thread *t = pp_trace_resume_threads(r, &n);
    pp_salvage_sum s = {.threads = n, .last = t0};
    for (uint32_t i = 0; i < n; i++) {
        s.unsaved += !t[i].saved;
        s.records += t[i].records;
        s.tail_records += t[i].tail_records;
        if (t[i].last > s.last)
            s.last = t[i].last;
    }
    return s;
}

void pp_salvage_say_stops(char *line, size_t size, size_t *at, const pp_trace_resume *r,
                          uint64_t last, double ticks_per_second)
{
    uint32_t n;
    const pp_trace_resume_thread *t = pp_trace_resume_threads(r, &n);
    for (uint32_t i = 0, said = 0; i < n && *at + 96 < size; i++) {
        if (t[i].saved)
            continue;
        uint64_t stop = t[i].last < last ? last - t[i].last : 0;
        *at += (size_t)snprintf(line + *at, size - *at, "%s thread %u stops %.3f s",
                                said++ ? "," : "", t[i].location,
                                (double)stop / ticks_per_second);
    }
}

void pp_salvage_say_process(const pp_trace_resume *r, const pp_salvage_defs *d)
{
    pp_salvage_sum s = pp_salvage_sum_of(r, d->t0);
    char line[2048];
    size_t k = (size_t)snprintf(line, sizeof line, "pompprof-salvage: %u thread%s, %llu records",
                                s.threads, s.threads == 1 ? "" : "s",
                                (unsigned long long)s.records);
    if (s.tail_records)
        k += (size_t)snprintf(line + k, sizeof line - k,
                              " (%llu of them saved from the buffers by the crash handler)",
                              (unsigned long long)s.tail_records);
    if (!s.unsaved) {
        snprintf(line + k, sizeof line - k, "; nothing recorded before the end is missing");
    } else {
        int all = s.unsaved == s.threads;
        k += (size_t)snprintf(line + k, sizeof line - k,
                              "; missing: what %s recorded after %s last write to disk (at most "
                              "a trace buffer, POMPPROF_TRACE_BUFFER, each):",
                              all ? "each thread" : "these threads", all ? "its" : "their");
        pp_salvage_say_stops(line, sizeof line, &k, r, s.last, d->ticks_per_second);
        if (k + 40 < sizeof line)
            snprintf(line + k, sizeof line - k, " before the trace's last record");
    }
    fprintf(stderr, "%s\n", line);
}
