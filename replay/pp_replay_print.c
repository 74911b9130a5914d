/* pompprof-replay's result (pp_replay_print): one JSON document on stdout
 * with the trace and the window, every thread's breakdown and their total,
 * the dependences, the MPI part, the task graph's figures and the span's
 * path, the task region's graph, and on request the pictures' data and the
 * task graph for pompprof-view.  pp_replay.h says what each part holds. */
#include "replay/pp_replay.h"
#include "replay/pp_replay_fail.h"

#include <stdlib.h>
#include <string.h>

/* The threads' breakdowns summed. */
static void pp_replay_total(const pp_replay *r, uint64_t total[PP_CAT_N][PP_READY_N])
{
    memset(total, 0, sizeof(uint64_t) * PP_CAT_N * PP_READY_N);
    for (uint32_t i = 0; i < r->n_locs; i++)
        for (int c = 0; c < PP_CAT_N; c++)
            for (int k = 0; k < PP_READY_N; k++)
                total[c][k] += r->locs[i].acc[c][k];
}

/* The graph's work, span and parallelism, and what its work holds beyond the
 * breakdown's work: serial code and task creation (the breakdown counts
 * creation as overhead, the graph as work: a child exists once created). */
static void pp_print_graph_figures(FILE *out, const pp_replay *r)
{
    uint64_t total[PP_CAT_N][PP_READY_N];
    pp_replay_total(r, total);
    double work = pp_replay_seconds(r, r->work), span = pp_replay_seconds(r, r->span);
    fprintf(out, "\"from\": ");
    pp_replay_json_seconds(out, pp_replay_seconds(r, r->from - r->offset));
    fprintf(out, ", \"to\": ");
    pp_replay_json_seconds(out, pp_replay_seconds(r, r->to - r->offset));
    fprintf(out, ", \"work\": ");
    pp_replay_json_seconds(out, work);
    fprintf(out, ", \"work_creation\": ");
    pp_replay_json_seconds(out, pp_replay_seconds(r, total[PP_CAT_CREATE][0] +
                                                         total[PP_CAT_CREATE][1] +
                                                         total[PP_CAT_CREATE][2]));
    fprintf(out, ", \"work_serial\": ");
    pp_replay_json_seconds(out, pp_replay_seconds(r, pp_replay_breakdown_value(
                                                         (const uint64_t(*)[PP_READY_N])total,
                                                         "serial")));
    fprintf(out, ", \"span\": ");
    pp_replay_json_seconds(out, span);
    fprintf(out, ", \"parallelism\": ");
    pp_replay_json_seconds(out, span > 0 ? work / span : 0);
}

/* The span's path from the start, the stretches of one construct merged. */
static void pp_print_span_path(FILE *out, const pp_replay *r)
{
    /* the path from its end back to the start, then printed forwards */
    size_t n = 0, cap = 64;
    pp_replay_seg **chain = pp_replay_alloc(cap, sizeof *chain);
    for (pp_replay_seg *s = r->span_seg; s; s = s->pred) {
        if (n == cap) {
            cap *= 2;
            chain = pp_replay_resize(chain, cap, sizeof *chain);
        }
        chain[n++] = s;
    }
    fputc('[', out);
    int printed = 0;
    for (size_t i = n; i > 0;) {
        uint32_t label = chain[i - 1]->label;
        uint32_t loc = chain[i - 1]->loc, rank = loc < r->n_locs ? r->locs[loc].rank : 0;
        uint64_t dur = 0, segs = 0;
        /* a job's path: stretches of one construct on one rank */
        while (i > 0 && chain[i - 1]->label == label &&
               (!r->job || (chain[i - 1]->loc < r->n_locs ? r->locs[chain[i - 1]->loc].rank : 0) ==
                               rank)) {
            dur += chain[i - 1]->dur;
            segs++;
            i--;
        }
        if (dur == 0)
            continue;
        fprintf(out, "%s{\"construct\": ", printed ? ", " : "");
        pp_replay_json_string(out, pp_replay_label_name(r, label));
        fprintf(out, ", \"seconds\": ");
        pp_replay_json_seconds(out, pp_replay_seconds(r, dur));
        fprintf(out, ", \"segments\": %llu", (unsigned long long)segs);
        if (r->job)
            fprintf(out, ", \"rank\": %u", rank);
        fputc('}', out);
        printed = 1;
    }
    free(chain);
    fputc(']', out);
}

static void pp_print_graph(FILE *out, pp_replay *r)
{
    double work = pp_replay_seconds(r, r->work), span = pp_replay_seconds(r, r->span);
    fputc('{', out);
    pp_print_graph_figures(out, r);
    fprintf(out, ", \"tasks\": %llu, \"depend_tasks\": %llu, \"dependent_tasks\": %llu, "
            "\"dependence_edges\": %llu, \"speedup\": [",
            (unsigned long long)r->n_tasks, (unsigned long long)r->n_depend_tasks,
            (unsigned long long)r->n_known_tasks, (unsigned long long)r->n_edges);
    for (unsigned p = 2; p <= 1024; p *= 2) {
        double upper = span > 0 && work / span < p ? work / span : p;
        double lower = work > 0 ? work / (work / p + span) : 0;
        fprintf(out, "%s{\"threads\": %u, \"upper\": %.4g, \"lower\": %.4g}", p > 2 ? ", " : "",
                p, upper, lower);
    }
    fprintf(out, "], \"span_path\": ");
    pp_print_span_path(out, r);
    fputc('}', out);
}

/* The task region's graph: from the first task's creation to the last task's
 * end, inside the window (pp_replay_region_mark took its figures then). */
static void pp_print_region(FILE *out, const pp_replay *r)
{
    uint64_t from = r->first_create > r->from ? r->first_create : r->from;
    if (!r->n_tasks || !r->first_create || from >= r->last_end) {
        fprintf(out, "null");
        return;
    }
    double work = pp_replay_seconds(r, r->end_rwork), span = pp_replay_seconds(r, r->end_rspan);
    fprintf(out, "{\"from\": ");
    pp_replay_json_seconds(out, pp_replay_seconds(r, from - r->offset));
    fprintf(out, ", \"to\": ");
    pp_replay_json_seconds(out, pp_replay_seconds(r, r->last_end - r->offset));
    fprintf(out, ", \"work\": ");
    pp_replay_json_seconds(out, work);
    fprintf(out, ", \"work_creation\": ");
    pp_replay_json_seconds(out, pp_replay_seconds(r, r->end_rwork_create));
    fprintf(out, ", \"work_serial\": ");
    pp_replay_json_seconds(out, pp_replay_seconds(r, r->end_rwork_serial));
    fprintf(out, ", \"span\": ");
    pp_replay_json_seconds(out, span);
    fprintf(out, ", \"parallelism\": ");
    pp_replay_json_seconds(out, span > 0 ? work / span : 0);
    fprintf(out, ", \"tasks\": %llu}", (unsigned long long)r->n_tasks);
}

/* The trace, the window, and every thread's breakdown and their total. */
static void pp_print_threads(FILE *out, const pp_replay *r, const char *path)
{
    fprintf(out, "{\"trace\": {\"archive\": ");
    pp_replay_json_string(out, path);
    fprintf(out, ", \"threads\": %u, \"events\": %llu, \"seconds\": ", r->n_locs,
            (unsigned long long)r->events);
    pp_replay_json_seconds(out, pp_replay_seconds(r, r->length));
    fprintf(out, ", \"resolution\": %llu, \"end\": ", (unsigned long long)r->resolution);
    if (r->end)
        pp_replay_json_string(out, r->end);
    else
        fprintf(out, "null");
    fprintf(out, "},\n \"window\": {\"from\": ");
    pp_replay_json_seconds(out, pp_replay_seconds(r, r->from - r->offset));
    fprintf(out, ", \"to\": ");
    pp_replay_json_seconds(out, pp_replay_seconds(r, r->to - r->offset));
    fprintf(out, "},\n \"threads\": [");
    uint64_t total[PP_CAT_N][PP_READY_N];
    pp_replay_total(r, total);
    for (uint32_t i = 0; i < r->n_locs; i++) {
        const pp_replay_loc *l = &r->locs[i];
        char name[32];
        snprintf(name, sizeof name, "thread %u", i);
        fprintf(out, "%s\n  {\"location\": %llu, \"rank\": %u, \"name\": ", i ? "," : "",
                (unsigned long long)l->id, l->rank);
        /* a job's locations are named by rank and thread; a process's by thread */
        pp_replay_json_string(out, r->job && l->name ? l->name : name);
        fputs(", ", out);
        pp_replay_breakdown_print(out, r, (const uint64_t(*)[PP_READY_N])l->acc);
        fputc('}', out);
    }
    fprintf(out, "],\n \"total\": {");
    pp_replay_breakdown_print(out, r, (const uint64_t(*)[PP_READY_N])total);
    fputc('}', out);
}

/* The tasks of unknown and of recorded dependences, and how long the latter
 * waited once ready, by construct. */
static void pp_print_depend(FILE *out, const pp_replay *r)
{
    fprintf(out, ",\n \"depend\": {\"tasks\": %llu, \"constructs\": [",
            (unsigned long long)r->n_depend_tasks);
    int first = 1;
    for (uint32_t i = 0; r->depend_construct && i < r->n_regions; i++) {
        if (!r->depend_construct[i])
            continue;
        fputs(first ? "" : ", ", out);
        pp_replay_json_string(out, r->regions[i].name);
        first = 0;
    }
    fprintf(out, "], \"recorded\": %llu, \"items\": %llu, \"unknown_items\": %llu, "
            "\"taskwaits\": %llu, \"edges\": %llu},\n \"ready_wait\": [",
            (unsigned long long)r->n_known_tasks, (unsigned long long)r->n_items,
            (unsigned long long)r->n_unknown_items, (unsigned long long)r->n_waits,
            (unsigned long long)r->n_edges);
    first = 1;
    for (uint32_t i = 0; r->ready_wait && i < r->n_regions; i++) {
        if (!r->ready_wait[i].count)
            continue;
        fprintf(out, "%s{\"construct\": ", first ? "" : ", ");
        pp_replay_json_string(out, r->regions[i].name);
        fprintf(out, ", \"tasks\": %llu, \"total\": ", (unsigned long long)r->ready_wait[i].count);
        pp_replay_json_seconds(out, pp_replay_seconds(r, r->ready_wait[i].total));
        fprintf(out, ", \"mean\": ");
        pp_replay_json_seconds(out, pp_replay_seconds(r, r->ready_wait[i].total) /
                                        (double)r->ready_wait[i].count);
        fprintf(out, ", \"max\": ");
        pp_replay_json_seconds(out, pp_replay_seconds(r, r->ready_wait[i].max));
        fputc('}', out);
        first = 0;
    }
    fputc(']', out);
}

void pp_replay_print(FILE *out, pp_replay *r, const char *path, uint32_t graph)
{
    pp_print_threads(out, r, path);
    pp_print_depend(out, r);
    fprintf(out, ",\n \"mpi\": ");
    pp_replay_mpi_print(out, r, r->view != NULL);
    fprintf(out, ",\n \"graph\": ");
    pp_print_graph(out, r);
    fprintf(out, ",\n \"task_region\": ");
    pp_print_region(out, r);
    if (r->view) {
        fprintf(out, ",\n \"pictures\": ");
        pp_replay_view_print(r->view, r, out);
    }
    if (graph) {
        fprintf(out, ",\n \"task_graph\": ");
        pp_replay_graph_print(out, r, graph);
    }
    fprintf(out, "}\n");
}
