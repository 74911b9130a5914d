/* Small helpers for the JSON the replay prints. */
#include "replay/pp_replay.h"

#include <math.h>

void pp_replay_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

void pp_replay_json_seconds(FILE *out, double s)
{
    fprintf(out, isfinite(s) ? "%.9g" : "null", s);
}

double pp_replay_seconds(const pp_replay *r, uint64_t ticks)
{
    return (double)ticks / (double)(r->resolution ? r->resolution : 1);
}

const char *pp_replay_label_name(const pp_replay *r, uint32_t label)
{
    switch (label) {
    case PP_LABEL_IDLE: return "idle";
    case PP_LABEL_OVERHEAD_SCHED: return "overhead: scheduling (tasks ready)";
    case PP_LABEL_OVERHEAD_SYNC: return "overhead: blocked (tasks ready)";
    case PP_LABEL_CREATE: return "task creation";
    case PP_LABEL_FLUSH: return "measurement (trace start, flushes)";
    case PP_LABEL_SERIAL: return "serial (outside parallel regions)";
    case PP_LABEL_FORKJOIN: return "fork/join";
    case PP_LABEL_UNDETERMINED: return "undetermined (depend tasks waiting)";
    case PP_LABEL_MPI: return "MPI (in MPI calls)";
    default: break;
    }
    if (label < r->n_regions && r->regions[label].name)
        return r->regions[label].name;
    return "(unknown)";
}
