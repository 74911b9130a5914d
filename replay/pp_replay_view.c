/* The data of pompprof-timeline's pictures, binned so that their size does
 * not grow with the trace: the window is cut into a fixed number of bins
 * (a picture is some thousand pixels wide anyway).
 *
 * - thread view: per thread and bin, what it did longest in that bin (the
 *   task construct, the region of its implicit task, or a kind of waiting);
 * - task view: per task construct and bin, how many of its instances ran
 *   and waited (created, not begun) on average; and for a small run the
 *   instances themselves, fragment by fragment;
 * - the number of ready tasks, averaged per bin.
 *
 * With levels (--levels N, for pompprof-view), the thread view and the ready
 * curve are kept at N - 1 finer resolutions too, each 4 times finer than the
 * one before, so that a viewer can zoom into a trace of millions of events
 * and show what each thread did per pixel without holding the events. */
#include "replay/pp_replay.h"
#include "replay/pp_replay_fail.h"

#include <stdlib.h>
#include <string.h>

#define PP_VIEW_SLOTS 6     /* labels told apart within one bin */
#define PP_VIEW_FRAGMENTS 256

typedef struct pp_view_thread {
    uint32_t *label;    /* per bin, PP_LABEL_NONE: nothing */
    int64_t bin;        /* the bin being filled */
    uint32_t slot_label[PP_VIEW_SLOTS];
    double slot_dur[PP_VIEW_SLOTS];
} pp_view_thread;

typedef struct pp_view_row {
    uint32_t label;
    double *running, *waiting; /* instance-ticks per bin */
} pp_view_row;

typedef struct pp_view_fragment {
    double a, b; /* seconds */
    uint32_t loc;
    int running;
} pp_view_fragment;

typedef struct pp_view_instance {
    uint32_t label;
    uint32_t creator; /* location that created it */
    char params[96]; /* the task's parameters when it last ran */
    uint32_t n;
    pp_view_fragment frag[PP_VIEW_FRAGMENTS];
} pp_view_instance;

/* A finer resolution of the thread view and the ready curve. */
typedef struct pp_view_level {
    uint32_t bins;
    double width;
    pp_view_thread *threads;
    double *ready;
} pp_view_level;

struct pp_replay_view {
    uint32_t bins;
    double width; /* ticks per bin */
    pp_view_level *levels; /* the finer ones */
    uint32_t n_levels;
    pp_view_thread *threads;
    uint32_t n_threads;
    int32_t *row_of; /* region -> row */
    pp_view_row *rows;
    uint32_t n_rows;
    double *ready, *ready_depend;
    pp_view_instance *inst;
    uint32_t n_inst, max_inst;
    uint64_t tasks_seen;
};

static pp_view_thread *pp_view_threads_new(uint32_t n, uint32_t bins)
{
    pp_view_thread *th = pp_replay_alloc_zero(n, sizeof *th);
    for (uint32_t i = 0; i < n; i++) {
        th[i].label = pp_replay_alloc(bins, sizeof(uint32_t));
        for (uint32_t b = 0; b < bins; b++)
            th[i].label[b] = PP_LABEL_NONE;
        th[i].bin = -1;
    }
    return th;
}

pp_replay_view *pp_replay_view_new(const pp_replay *r, uint32_t bins, uint32_t max_instances,
                                   uint32_t levels)
{
    pp_replay_view *v = pp_replay_alloc_zero(1, sizeof *v);
    v->bins = bins;
    v->width = (double)(r->to - r->from) / bins;
    if (v->width <= 0)
        v->width = 1;
    v->n_threads = r->n_locs;
    v->threads = pp_view_threads_new(r->n_locs, bins);
    v->n_levels = levels > 1 ? levels - 1 : 0;
    v->levels = pp_replay_alloc_zero(v->n_levels + 1, sizeof *v->levels);
    for (uint32_t k = 0; k < v->n_levels; k++) {
        pp_view_level *lv = &v->levels[k];
        lv->bins = bins << (2 * (k + 1));
        lv->width = (double)(r->to - r->from) / lv->bins;
        if (lv->width <= 0)
            lv->width = 1;
        lv->threads = pp_view_threads_new(r->n_locs, lv->bins);
        lv->ready = pp_replay_alloc_zero(lv->bins, sizeof *lv->ready);
    }
    v->row_of = pp_replay_alloc(r->n_regions + 1, sizeof *v->row_of);
    v->rows = pp_replay_alloc_zero(r->n_regions + 1, sizeof *v->rows);
    v->ready = pp_replay_alloc_zero(bins, sizeof *v->ready);
    v->ready_depend = pp_replay_alloc_zero(bins, sizeof *v->ready_depend);
    v->max_inst = max_instances;
    v->inst = pp_replay_alloc_zero(max_instances, sizeof *v->inst);
    for (uint32_t i = 0; i <= r->n_regions; i++)
        v->row_of[i] = -1;
    return v;
}

/* The part of [a, b) inside the window, in bin units; 0 if none. */
static int pp_view_clip_at(uint32_t bins, double width, const pp_replay *r, uint64_t a,
                           uint64_t b, double *x0, double *x1)
{
    if (a < r->from)
        a = r->from;
    if (b > r->to)
        b = r->to;
    if (b <= a)
        return 0;
    *x0 = (double)(a - r->from) / width;
    *x1 = (double)(b - r->from) / width;
    if (*x1 > bins)
        *x1 = bins;
    return *x1 > *x0;
}

static int pp_view_clip(const pp_replay_view *v, const pp_replay *r, uint64_t a, uint64_t b,
                        double *x0, double *x1)
{
    return pp_view_clip_at(v->bins, v->width, r, a, b, x0, x1);
}

/* For each bin the range [x0, x1) touches: fn(bin, ticks of overlap). */
#define PP_VIEW_EACH_BIN(v, x0, x1, BODY)                                             \
    for (int64_t bin_ = (int64_t)(x0); bin_ < (int64_t)(v)->bins && bin_ < (x1); bin_++) { \
        double lo_ = (x0) > bin_ ? (x0) : (double)bin_;                              \
        double hi_ = (x1) < bin_ + 1 ? (x1) : (double)(bin_ + 1);                     \
        double ticks_ = (hi_ - lo_) * (v)->width;                                      \
        if (ticks_ > 0) {                                                              \
            BODY                                                                       \
        }                                                                              \
    }

static void pp_view_close_bin(pp_view_thread *th)
{
    if (th->bin < 0)
        return;
    double best = 0;
    for (int s = 0; s < PP_VIEW_SLOTS; s++) {
        if (th->slot_dur[s] > best) {
            best = th->slot_dur[s];
            th->label[th->bin] = th->slot_label[s];
        }
        th->slot_dur[s] = 0;
    }
}

static void pp_view_add(pp_view_thread *th, int64_t bin, uint32_t label, double ticks)
{
    if (bin != th->bin) {
        pp_view_close_bin(th);
        th->bin = bin;
    }
    int free_slot = -1, smallest = 0;
    for (int s = 0; s < PP_VIEW_SLOTS; s++) {
        if (th->slot_dur[s] > 0 && th->slot_label[s] == label) {
            th->slot_dur[s] += ticks;
            return;
        }
        if (th->slot_dur[s] == 0 && free_slot < 0)
            free_slot = s;
        if (th->slot_dur[s] < th->slot_dur[smallest])
            smallest = s;
    }
    int s = free_slot >= 0 ? free_slot : smallest;
    th->slot_label[s] = label;
    th->slot_dur[s] = ticks;
}

/* One resolution's bins (lv: bins and width) of thread th get [a, b). */
static void pp_view_segment_at(pp_view_level *lv, pp_view_thread *th, const pp_replay *r,
                               uint64_t a, uint64_t b, uint32_t label)
{
    double x0, x1;
    if (!pp_view_clip_at(lv->bins, lv->width, r, a, b, &x0, &x1))
        return;
    PP_VIEW_EACH_BIN(lv, x0, x1, {
        if (ticks_ >= lv->width * 0.999) {
            pp_view_close_bin(th);
            th->label[bin_] = label;
            th->bin = -1;
        } else {
            pp_view_add(th, bin_, label, ticks_);
        }
    })
}

void pp_replay_view_segment(pp_replay_view *v, const pp_replay *r, uint32_t loc, uint64_t a,
                            uint64_t b, uint32_t label)
{
    double x0, x1;
    if (loc >= v->n_threads || label == PP_LABEL_NONE)
        return;
    for (uint32_t k = 0; k < v->n_levels; k++)
        pp_view_segment_at(&v->levels[k], &v->levels[k].threads[loc], r, a, b, label);
    if (!pp_view_clip(v, r, a, b, &x0, &x1))
        return;
    pp_view_thread *th = &v->threads[loc];
    PP_VIEW_EACH_BIN(v, x0, x1, {
        if (ticks_ >= v->width * 0.999) { /* a whole bin: nothing else can win it */
            pp_view_close_bin(th);
            th->label[bin_] = label;
            th->bin = -1;
        } else {
            pp_view_add(th, bin_, label, ticks_);
        }
    })
}

void pp_replay_view_ready(pp_replay_view *v, const pp_replay *r, uint64_t a, uint64_t b,
                          uint64_t n, uint64_t nd)
{
    double x0, x1;
    if (!n && !nd)
        return;
    for (uint32_t k = 0; k < v->n_levels; k++) {
        pp_view_level *lv = &v->levels[k];
        if (pp_view_clip_at(lv->bins, lv->width, r, a, b, &x0, &x1))
            PP_VIEW_EACH_BIN(lv, x0, x1, { lv->ready[bin_] += ticks_ * (double)n; })
    }
    if (!pp_view_clip(v, r, a, b, &x0, &x1))
        return;
    PP_VIEW_EACH_BIN(v, x0, x1, {
        v->ready[bin_] += ticks_ * (double)n;
        v->ready_depend[bin_] += ticks_ * (double)nd;
    })
}

void pp_replay_view_task(pp_replay_view *v, const pp_replay *r, pp_replay_task *t, uint32_t loc,
                         uint64_t a, uint64_t b, int running)
{
    uint32_t label = t->label != PP_LABEL_NONE ? t->label : t->create_region;
    if (t->instance < 0 && !running) {
        v->tasks_seen++;
        if (v->n_inst < v->max_inst) {
            t->instance = (int32_t)v->n_inst++;
            v->inst[t->instance].label = PP_LABEL_NONE;
            v->inst[t->instance].creator = t->create_loc;
        }
    }
    if (t->instance >= 0) {
        pp_view_instance *in = &v->inst[t->instance];
        if (in->label == PP_LABEL_NONE)
            in->label = label;
        if (running)
            pp_replay_task_params(r, t, in->params, sizeof in->params);
        if (in->n < PP_VIEW_FRAGMENTS)
            in->frag[in->n++] = (pp_view_fragment){pp_replay_seconds(r, a - r->offset),
                                                   pp_replay_seconds(r, b - r->offset), loc,
                                                   running};
    }
    if (label >= r->n_regions)
        return;
    double x0, x1;
    if (!pp_view_clip(v, r, a, b, &x0, &x1))
        return;
    if (v->row_of[label] < 0) {
        v->row_of[label] = (int32_t)v->n_rows;
        pp_view_row *row = &v->rows[v->n_rows++];
        row->label = label;
        row->running = pp_replay_alloc_zero(v->bins, sizeof(double));
        row->waiting = pp_replay_alloc_zero(v->bins, sizeof(double));
    }
    pp_view_row *row = &v->rows[v->row_of[label]];
    double *acc = running ? row->running : row->waiting;
    PP_VIEW_EACH_BIN(v, x0, x1, { acc[bin_] += ticks_; })
}

static void pp_view_print_averages_at(FILE *out, uint32_t bins, double width,
                                      const double *ticks)
{
    fputc('[', out);
    for (uint32_t b = 0; b < bins; b++)
        fprintf(out, b ? ",%.4g" : "%.4g", ticks[b] / width);
    fputc(']', out);
}

static void pp_view_print_averages(FILE *out, const pp_replay_view *v, const double *ticks)
{
    pp_view_print_averages_at(out, v->bins, v->width, ticks);
}

/* A thread's bins as runs of one label: a flat list bin, count, label, ... */
static void pp_view_print_runs(FILE *out, pp_view_thread *th, uint32_t bins, uint8_t *used,
                               const pp_replay *r, int flat)
{
    pp_view_close_bin(th);
    th->bin = -1;
    int first = 1;
    for (uint32_t b = 0; b < bins;) {
        uint32_t e = b + 1;
        while (e < bins && th->label[e] == th->label[b])
            e++;
        if (th->label[b] != PP_LABEL_NONE) {
            fprintf(out, flat ? "%s%u,%u,%u" : "%s[%u, %u, %u]", first ? "" : flat ? "," : ", ",
                    b, e - b, th->label[b]);
            first = 0;
            if (th->label[b] < r->n_regions)
                used[th->label[b]] = 1;
        }
        b = e;
    }
}

/* The finer resolutions: per level its bins, per thread its runs, the ready curve. */
static void pp_view_print_levels(FILE *out, pp_replay_view *v, const pp_replay *r, uint8_t *used)
{
    fprintf(out, ",\n  \"levels\": [");
    for (uint32_t k = 0; k < v->n_levels; k++) {
        pp_view_level *lv = &v->levels[k];
        fprintf(out, "%s\n    {\"bins\": %u, \"runs\": [", k ? "," : "", lv->bins);
        for (uint32_t i = 0; i < v->n_threads; i++) {
            fprintf(out, "%s\n      [", i ? "," : "");
            pp_view_print_runs(out, &lv->threads[i], lv->bins, used, r, 1);
            fputc(']', out);
        }
        fprintf(out, "],\n     \"ready\": ");
        pp_view_print_averages_at(out, lv->bins, lv->width, lv->ready);
        fputc('}', out);
    }
    fprintf(out, "],\n  \"tasks_seen\": %llu", (unsigned long long)v->tasks_seen);
}

void pp_replay_view_print(pp_replay_view *v, const pp_replay *r, FILE *out)
{
    uint8_t *used = pp_replay_alloc_zero(r->n_regions + 16, 1);
    fprintf(out, "{\"bins\": %u, \"from\": ", v->bins);
    pp_replay_json_seconds(out, pp_replay_seconds(r, r->from - r->offset));
    fprintf(out, ", \"to\": ");
    pp_replay_json_seconds(out, pp_replay_seconds(r, r->to - r->offset));
    fprintf(out, ",\n  \"threads\": [");
    for (uint32_t i = 0; i < v->n_threads; i++) {
        pp_view_thread *th = &v->threads[i];
        fprintf(out, "%s\n    {\"location\": %u, \"runs\": [", i ? "," : "", i);
        pp_view_print_runs(out, th, v->bins, used, r, 0);
        fprintf(out, "]}");
    }
    fprintf(out, "],\n  \"task_rows\": [");
    for (uint32_t i = 0; i < v->n_rows; i++) {
        fprintf(out, "%s\n    {\"label\": %u, \"running\": ", i ? "," : "", v->rows[i].label);
        used[v->rows[i].label] = 1;
        pp_view_print_averages(out, v, v->rows[i].running);
        fprintf(out, ", \"waiting\": ");
        pp_view_print_averages(out, v, v->rows[i].waiting);
        fputc('}', out);
    }
    fprintf(out, "],\n  \"instances\": ");
    /* with levels, the first instances are worth showing even when there were more */
    if (v->tasks_seen > v->n_inst && !v->n_levels) {
        fprintf(out, "null");
    } else {
        fputc('[', out);
        for (uint32_t i = 0; i < v->n_inst; i++) {
            pp_view_instance *in = &v->inst[i];
            if (in->label < r->n_regions)
                used[in->label] = 1;
            fprintf(out, "%s\n    {\"label\": %u, \"creator\": %u, \"parameters\": ",
                    i ? "," : "", in->label, in->creator);
            pp_replay_json_string(out, in->params);
            fprintf(out, ", \"fragments\": [");
            for (uint32_t k = 0; k < in->n; k++)
                fprintf(out, "%s[%.9g, %.9g, %u, %d]", k ? ", " : "", in->frag[k].a, in->frag[k].b,
                        in->frag[k].loc, in->frag[k].running);
            fprintf(out, "]}");
        }
        fputc(']', out);
    }
    if (v->n_levels)
        pp_view_print_levels(out, v, r, used);
    fprintf(out, ",\n  \"ready\": ");
    pp_view_print_averages(out, v, v->ready);
    fprintf(out, ",\n  \"ready_depend\": ");
    pp_view_print_averages(out, v, v->ready_depend);
    fprintf(out, ",\n  \"labels\": {");
    int first = 1;
    for (uint32_t l = 0; l < r->n_regions; l++) {
        if (!used[l])
            continue;
        fprintf(out, "%s\"%u\": ", first ? "" : ", ", l);
        pp_replay_json_string(out, pp_replay_label_name(r, l));
        first = 0;
    }
    for (uint32_t l = PP_LABEL_IDLE; l < PP_LABEL_NONE; l++) {
        fprintf(out, "%s\"%u\": ", first ? "" : ", ", l);
        pp_replay_json_string(out, pp_replay_label_name(r, l));
        first = 0;
    }
    fprintf(out, "}}");
    free(used);
}

void pp_replay_view_free(pp_replay_view *v)
{
    if (!v)
        return;
    for (uint32_t i = 0; i < v->n_threads; i++)
        free(v->threads[i].label);
    for (uint32_t k = 0; k < v->n_levels; k++) {
        for (uint32_t i = 0; i < v->n_threads; i++)
            free(v->levels[k].threads[i].label);
        free(v->levels[k].threads);
        free(v->levels[k].ready);
    }
    free(v->levels);
    for (uint32_t i = 0; i < v->n_rows; i++) {
        free(v->rows[i].running);
        free(v->rows[i].waiting);
    }
    free(v->threads);
    free(v->row_of);
    free(v->rows);
    free(v->ready);
    free(v->ready_depend);
    free(v->inst);
    free(v);
}
