/* --graph N (for pompprof-view): what a page needs to draw the task graph.
 *
 * - "path": the span's path stretch by stretch, from the start: where (the
 *   location of its first work) and when (its first to its last tick of
 *   work) each stretch ran, its work, construct and dependent instance, so
 *   that a timeline can draw the path where it happened;
 * - "dependences": the dependence graph, one node per dependent task
 *   instance (construct, thread, created, ready, began, ended, work, on the
 *   path) and its edges, up to N instances; beyond, collapsed to task
 *   constructs as --dot does (pp_replay_collapse: an edge is [from, to,
 *   dependences, the predecessors' work, predecessor instances, on the path]).
 * Constructs are indices into "constructs" (names), so that the file stays
 * small for long paths. */
#include "replay/pp_replay.h"
#include "replay/pp_replay_fail.h"

#include <stdlib.h>

#define PP_GRAPH_MAX_STRETCHES 20000

/* Construct names by dense index: one index per region (n_regions: none). */
typedef struct pp_graph_names {
    uint32_t *index;
    uint32_t *label;
    uint32_t n;
} pp_graph_names;

static uint32_t pp_graph_name(pp_graph_names *g, const pp_replay *r, uint32_t label)
{
    uint32_t slot = label < r->n_regions ? label : r->n_regions;
    if (g->index[slot] == UINT32_MAX) {
        g->label[g->n] = label;
        g->index[slot] = g->n++;
    }
    return g->index[slot];
}

static double pp_graph_time(const pp_replay *r, uint64_t t)
{
    return pp_replay_seconds(r, t - r->offset);
}

static void pp_graph_path(FILE *out, const pp_replay *r, pp_graph_names *g)
{
    size_t n = 0, cap = 64;
    const pp_replay_seg **v = pp_replay_alloc(cap, sizeof *v);
    for (const pp_replay_seg *s = r->span_seg; s; s = s->pred) {
        if (!s->dur)
            continue;
        if (n == cap) {
            cap *= 2;
            v = pp_replay_resize(v, cap, sizeof *v);
        }
        v[n++] = s;
    }
    /* the first stretches when the path is longer than a page can use */
    size_t first = n > PP_GRAPH_MAX_STRETCHES ? n - PP_GRAPH_MAX_STRETCHES : 0;
    fprintf(out, "{\"stretches_total\": %llu, \"stretches\": [", (unsigned long long)n);
    for (size_t i = n; i > first; i--) {
        const pp_replay_seg *s = v[i - 1];
        fprintf(out, "%s[", i == n ? "" : ", ");
        pp_replay_json_seconds(out, pp_graph_time(r, s->t0));
        fputc(',', out);
        pp_replay_json_seconds(out, pp_graph_time(r, s->t1));
        fprintf(out, ",%u,%u,", s->loc, pp_graph_name(g, r, s->label));
        pp_replay_json_seconds(out, pp_replay_seconds(r, s->dur));
        fprintf(out, ",%d]", s->inst ? (int)s->inst - 1 : -1);
    }
    fprintf(out, "]}");
    free(v);
}

static void pp_graph_instances(FILE *out, const pp_replay *r, pp_graph_names *g)
{
    uint32_t n_chain = 0;
    uint32_t *chain = pp_replay_chain(r, &n_chain);
    fprintf(out, "{\"collapsed\": false, \"nodes\": [");
    for (uint32_t i = 0; i < r->n_insts; i++) {
        const pp_replay_inst *in = &r->insts[i];
        fprintf(out, "%s[%u,%u,", i ? ", " : "", pp_graph_name(g, r, in->label), in->loc);
        const uint64_t t[] = {in->t_create, in->t_ready, in->t_begin, in->t_end};
        for (int k = 0; k < 4; k++) {
            if (t[k])
                pp_replay_json_seconds(out, pp_graph_time(r, t[k]));
            else
                fputs("null", out);
            fputc(',', out);
        }
        pp_replay_json_seconds(out, pp_replay_seconds(r, in->work));
        fprintf(out, ",%d]", in->critical);
    }
    fprintf(out, "], \"edges\": [");
    for (uint64_t e = 0; e < r->n_edges; e++)
        fprintf(out, "%s[%u,%u,%d]", e ? ", " : "", r->edges[e].from, r->edges[e].to,
                pp_replay_on_path(chain, n_chain, r->edges[e].from, r->edges[e].to));
    fprintf(out, "]}");
    free(chain);
}

static void pp_graph_collapsed(FILE *out, const pp_replay *r, pp_graph_names *g)
{
    pp_replay_collapsed c;
    fprintf(out, "{\"collapsed\": true, \"nodes\": [");
    pp_replay_collapse(r, &c);
    for (uint32_t k = 0; k < c.n_cons; k++) {
        fprintf(out, "%s[%u,%llu,", k ? ", " : "", pp_graph_name(g, r, c.label[k]),
                (unsigned long long)c.count[k]);
        pp_replay_json_seconds(out, pp_replay_seconds(r, c.work[k]));
        fprintf(out, ",%d]", c.critical[k]);
    }
    fprintf(out, "], \"edges\": [");
    for (uint64_t i = 0; i < c.n_pairs; i++) {
        const pp_replay_pair *p = &c.pairs[i];
        fprintf(out, "%s[%u,%u,%llu,", i ? ", " : "", p->from, p->to, (unsigned long long)p->count);
        pp_replay_json_seconds(out, pp_replay_seconds(r, p->weight));
        fprintf(out, ",%llu,%d]", (unsigned long long)p->preds, p->on_path);
    }
    fprintf(out, "]}");
    pp_replay_collapsed_free(&c);
}

void pp_replay_graph_print(FILE *out, const pp_replay *r, uint32_t max_instances)
{
    pp_graph_names g = {pp_replay_alloc_zero(r->n_regions + 1, sizeof(uint32_t)),
                        pp_replay_alloc_zero(r->n_regions + 1, sizeof(uint32_t)), 0};
    for (uint32_t i = 0; i <= r->n_regions; i++)
        g.index[i] = UINT32_MAX;
    fprintf(out, "{\"path\": ");
    pp_graph_path(out, r, &g);
    fprintf(out, ",\n  \"dependences\": ");
    if (r->n_insts > max_instances)
        pp_graph_collapsed(out, r, &g);
    else
        pp_graph_instances(out, r, &g);
    fprintf(out, ",\n  \"max_instances\": %u, \"constructs\": [", max_instances);
    for (uint32_t i = 0; i < g.n; i++) {
        fputs(i ? ", " : "", out);
        pp_replay_json_string(out, pp_replay_label_name(r, g.label[i]));
    }
    fprintf(out, "]}");
    free(g.index);
    free(g.label);
}
