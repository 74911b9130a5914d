/* The Chrome trace (Trace Event JSON, which Perfetto and chrome://tracing
 * open): one slice per region visit and fragment, per thread; task
 * creation linked to the task's begin by a flow arrow; the number of ready
 * tasks as a counter.  A region of a task that is suspended is cut into the
 * fragments during which the task ran, so the slices of a thread nest. */
#include "replay/pp_replay.h"
#include "replay/pp_replay_fail.h"

#include <stdlib.h>

struct pp_replay_chrome {
    FILE *f;
    int first;
    uint64_t last_ready;
    int have_ready;
};

pp_replay_chrome *pp_replay_chrome_open(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return NULL;
    pp_replay_chrome *c = pp_replay_alloc_zero(1, sizeof *c);
    c->f = f;
    c->first = 1;
    fputs("{\"displayTimeUnit\": \"ns\", \"traceEvents\": [", c->f);
    return c;
}

/* A process per rank (a trace of one process: rank 0), as Perfetto groups threads. */
static unsigned pp_chrome_pid(const pp_replay *r, uint32_t loc)
{
    return (loc < r->n_locs ? r->locs[loc].rank : 0) + 1;
}

static double pp_chrome_us(const pp_replay *r, uint64_t t)
{
    return pp_replay_seconds(r, t - r->offset) * 1e6;
}

static void pp_chrome_sep(pp_replay_chrome *c)
{
    fputs(c->first ? "\n" : ",\n", c->f);
    c->first = 0;
}

void pp_replay_chrome_slice(pp_replay_chrome *c, const pp_replay *r, uint32_t loc, uint32_t region,
                            uint64_t a, uint64_t b, const pp_replay_task *t)
{
    uint64_t task = t && t->is_explicit ? t->id : 0;
    if (a < r->from)
        a = r->from;
    if (b > r->to)
        b = r->to;
    if (b < a)
        return;
    pp_chrome_sep(c);
    fputs("{\"name\": ", c->f);
    pp_replay_json_string(c->f, pp_replay_label_name(r, region));
    const char *cat = region < r->n_regions && r->regions[region].kind == PP_RK_TASK ? "task"
                                                                                     : "region";
    fprintf(c->f, ", \"cat\": \"%s\", \"ph\": \"X\", \"ts\": %.3f, \"dur\": %.3f, \"pid\": %u, "
                  "\"tid\": %u",
            cat, pp_chrome_us(r, a), pp_chrome_us(r, b) - pp_chrome_us(r, a),
            pp_chrome_pid(r, loc), loc);
    char params[512];
    pp_replay_task_params(r, t, params, sizeof params);
    if (task || params[0]) {
        fputs(", \"args\": {", c->f);
        if (task)
            fprintf(c->f, "\"task\": \"%u:%u\"%s", (unsigned)(task >> 32), (unsigned)task,
                    params[0] ? ", " : "");
        if (params[0]) {
            fputs("\"parameters\": ", c->f);
            pp_replay_json_string(c->f, params);
        }
        fputc('}', c->f);
    }
    fputc('}', c->f);
}

void pp_replay_chrome_flow(pp_replay_chrome *c, const pp_replay *r, uint32_t loc, uint64_t t,
                           uint64_t task, int begin)
{
    if (t < r->from || t > r->to)
        return;
    pp_chrome_sep(c);
    fprintf(c->f,
            "{\"name\": \"task\", \"cat\": \"task\", \"ph\": \"%s\", \"id\": %llu, \"ts\": %.3f, "
            "\"pid\": %u, \"tid\": %u%s}",
            begin ? "f" : "s", (unsigned long long)task, pp_chrome_us(r, t), pp_chrome_pid(r, loc),
            loc, begin ? ", \"bp\": \"e\"" : "");
}

void pp_replay_chrome_message(pp_replay_chrome *c, const pp_replay *r, uint32_t a, uint64_t ta,
                              uint32_t b, uint64_t tb, uint64_t n)
{
    if (ta < r->from || tb > r->to)
        return;
    /* ids of their own (the tasks' flows number tasks) */
    for (int end = 0; end < 2; end++) {
        pp_chrome_sep(c);
        fprintf(c->f,
                "{\"name\": \"message\", \"cat\": \"message\", \"ph\": \"%s\", \"id\": \"m%llu\", "
                "\"ts\": %.3f, \"pid\": %u, \"tid\": %u%s}",
                end ? "f" : "s", (unsigned long long)n, pp_chrome_us(r, end ? tb : ta),
                pp_chrome_pid(r, end ? b : a), end ? b : a, end ? ", \"bp\": \"e\"" : "");
    }
}

void pp_replay_chrome_counter(pp_replay_chrome *c, const pp_replay *r, uint64_t t, uint64_t ready)
{
    if (t < r->from || t > r->to || (c->have_ready && ready == c->last_ready))
        return;
    c->have_ready = 1;
    c->last_ready = ready;
    pp_chrome_sep(c);
    fprintf(c->f,
            "{\"name\": \"ready tasks\", \"ph\": \"C\", \"ts\": %.3f, \"pid\": 1, \"args\": "
            "{\"ready\": %llu}}",
            pp_chrome_us(r, t), (unsigned long long)ready);
}

int pp_replay_chrome_close(pp_replay_chrome *c, const pp_replay *r)
{
    for (uint32_t i = 0; i < r->n_locs; i++) {
        pp_chrome_sep(c);
        fprintf(c->f,
                "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %u, \"tid\": %u, \"args\": "
                "{\"name\": ",
                pp_chrome_pid(r, i), i);
        char name[32];
        snprintf(name, sizeof name, "thread %u", i);
        pp_replay_json_string(c->f, r->locs[i].name ? r->locs[i].name : name);
        fputs("}}", c->f);
        if (r->job && (i == 0 || r->locs[i].rank != r->locs[i - 1].rank)) {
            pp_chrome_sep(c);
            fprintf(c->f,
                    "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %u, \"args\": "
                    "{\"name\": \"rank %u\"}}",
                    pp_chrome_pid(r, i), r->locs[i].rank);
        }
    }
    fputs("\n]}\n", c->f);
    int bad = ferror(c->f);
    bad |= fclose(c->f) != 0;
    free(c);
    return bad ? -1 : 0;
}
