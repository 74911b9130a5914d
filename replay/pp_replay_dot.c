/* --dot FILE: the dependence graph as a Graphviz file (`dot -Tsvg FILE`).
 *
 * Up to --dot-instances dependent task instances, one node per instance,
 * filled with its construct's colour, labelled with its work; the edges are
 * the dependences; the span's path is drawn bold.  Beyond, the graph is
 * collapsed to constructs: a node per task construct (instances, total
 * work), an edge per pair of constructs with dependences between their
 * instances (how many, from how many predecessor instances, and their work,
 * each predecessor counted once however many successors it has there); bold
 * where the span's path passes. */
#include "replay/pp_replay.h"
#include "replay/pp_replay_fail.h"

#include <stdlib.h>
#include <string.h>

static const char *const pp_dot_palette[] = {
    "#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462",
    "#b3de69", "#fccde5", "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f",
};
#define PP_DOT_COLOURS (sizeof pp_dot_palette / sizeof pp_dot_palette[0])

static void pp_dot_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        if (*s == '\n') {
            fputs("\\n", f);
            continue;
        }
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* The instances along the span's path, from its end back (each once). */
uint32_t *pp_replay_chain(const pp_replay *r, uint32_t *n)
{
    uint32_t cap = 64, k = 0;
    uint32_t *v = pp_replay_alloc(cap, sizeof *v);
    for (pp_replay_seg *s = r->span_seg; s; s = s->pred) {
        if (!s->inst || (k && v[k - 1] == s->inst - 1))
            continue;
        if (k == cap) {
            cap *= 2;
            v = pp_replay_resize(v, cap, sizeof *v);
        }
        v[k++] = s->inst - 1;
    }
    *n = k;
    return v;
}

/* Whether the path goes from instance a straight to instance b. */
int pp_replay_on_path(const uint32_t *chain, uint32_t n, uint32_t a, uint32_t b)
{
    for (uint32_t i = 0; i + 1 < n; i++)
        if (chain[i] == b && chain[i + 1] == a)
            return 1;
    return 0;
}

/* Dense construct numbers (colours) in order of first appearance. */
static uint32_t *pp_dot_construct_numbers(const pp_replay *r, uint32_t *n_constructs)
{
    uint32_t *num = pp_replay_alloc(r->n_regions + 1, sizeof *num);
    for (uint32_t i = 0; i <= r->n_regions; i++)
        num[i] = UINT32_MAX;
    uint32_t n = 0;
    for (uint32_t i = 0; i < r->n_insts; i++) {
        uint32_t l = r->insts[i].label < r->n_regions ? r->insts[i].label : r->n_regions;
        if (num[l] == UINT32_MAX)
            num[l] = n++;
    }
    *n_constructs = n;
    return num;
}

static uint32_t pp_dot_slot(const pp_replay *r, uint32_t label)
{
    return label < r->n_regions ? label : r->n_regions;
}

static void pp_dot_instances(FILE *f, const pp_replay *r, const uint32_t *num,
                             const uint32_t *chain, uint32_t n_chain)
{
    for (uint32_t i = 0; i < r->n_insts; i++) {
        const pp_replay_inst *in = &r->insts[i];
        fprintf(f, "  t%u [label=", i);
        char text[600];
        snprintf(text, sizeof text, "%s\n#%u  %.3g ms", pp_replay_label_name(r, in->label), i,
                 1e3 * pp_replay_seconds(r, in->work));
        pp_dot_string(f, text);
        fprintf(f, ", fillcolor=\"%s\"%s];\n",
                pp_dot_palette[num[pp_dot_slot(r, in->label)] % PP_DOT_COLOURS],
                in->critical ? ", penwidth=3, style=\"filled,bold\"" : "");
    }
    for (uint64_t e = 0; e < r->n_edges; e++) {
        const pp_replay_edge *ed = &r->edges[e];
        int bold = pp_replay_on_path(chain, n_chain, ed->from, ed->to);
        fprintf(f, "  t%u -> t%u%s;\n", ed->from, ed->to, bold ? " [penwidth=3]" : "");
    }
}

static int pp_dot_pair_cmp(const void *a, const void *b)
{
    const pp_replay_pair *x = a, *y = b;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    if (x->to != y->to)
        return x->to < y->to ? -1 : 1;
    return x->pred < y->pred ? -1 : x->pred > y->pred;
}

void pp_replay_collapse(const pp_replay *r, pp_replay_collapsed *c)
{
    uint32_t n_chain = 0;
    uint32_t *chain = pp_replay_chain(r, &n_chain);
    memset(c, 0, sizeof *c);
    c->num = pp_dot_construct_numbers(r, &c->n_cons);
    uint32_t n = c->n_cons + 1;
    c->count = pp_replay_alloc_zero(n, sizeof *c->count);
    c->work = pp_replay_alloc_zero(n, sizeof *c->work);
    c->label = pp_replay_alloc_zero(n, sizeof *c->label);
    c->critical = pp_replay_alloc_zero(n, 1);
    c->pairs = pp_replay_alloc(r->n_edges + 1, sizeof *c->pairs);
    for (uint32_t i = 0; i < r->n_insts; i++) {
        uint32_t k = c->num[pp_dot_slot(r, r->insts[i].label)];
        c->count[k]++;
        c->work[k] += r->insts[i].work;
        c->label[k] = r->insts[i].label;
        c->critical[k] |= r->insts[i].critical;
    }
    uint64_t n_pairs = 0;
    for (uint64_t e = 0; e < r->n_edges; e++) {
        const pp_replay_edge *ed = &r->edges[e];
        c->pairs[n_pairs++] = (pp_replay_pair){
            .from = c->num[pp_dot_slot(r, r->insts[ed->from].label)],
            .to = c->num[pp_dot_slot(r, r->insts[ed->to].label)],
            .count = 1,
            .weight = r->insts[ed->from].work,
            .preds = 1,
            .pred = ed->from,
            .on_path = pp_replay_on_path(chain, n_chain, ed->from, ed->to)};
    }
    /* per pair of constructs, its edges by predecessor: a predecessor's work
     * counts once */
    qsort(c->pairs, n_pairs, sizeof *c->pairs, pp_dot_pair_cmp);
    uint64_t out = 0;
    for (uint64_t i = 0; i < n_pairs;) {
        pp_replay_pair p = c->pairs[i++];
        while (i < n_pairs && c->pairs[i].from == p.from && c->pairs[i].to == p.to) {
            if (c->pairs[i].pred != c->pairs[i - 1].pred) {
                p.weight += c->pairs[i].weight;
                p.preds++;
            }
            p.count++;
            p.on_path |= c->pairs[i++].on_path;
        }
        c->pairs[out++] = p;
    }
    c->n_pairs = out;
    free(chain);
}

void pp_replay_collapsed_free(pp_replay_collapsed *c)
{
    free(c->num), free(c->count), free(c->work), free(c->label), free(c->critical);
    free(c->pairs);
    memset(c, 0, sizeof *c);
}

static void pp_dot_collapsed(FILE *f, const pp_replay *r)
{
    pp_replay_collapsed c;
    pp_replay_collapse(r, &c);
    for (uint32_t k = 0; k < c.n_cons; k++) {
        char text[600];
        snprintf(text, sizeof text, "%s\n%llu tasks, %.3g ms", pp_replay_label_name(r, c.label[k]),
                 (unsigned long long)c.count[k], 1e3 * pp_replay_seconds(r, c.work[k]));
        fprintf(f, "  c%u [label=", k);
        pp_dot_string(f, text);
        fprintf(f, ", fillcolor=\"%s\"%s];\n", pp_dot_palette[k % PP_DOT_COLOURS],
                c.critical[k] ? ", penwidth=3, style=\"filled,bold\"" : "");
    }
    for (uint64_t i = 0; i < c.n_pairs; i++) {
        const pp_replay_pair *p = &c.pairs[i];
        fprintf(f, "  c%u -> c%u [label=\"%llu x from %llu tasks, %.3g ms\"%s];\n", p->from,
                p->to, (unsigned long long)p->count, (unsigned long long)p->preds,
                1e3 * pp_replay_seconds(r, p->weight), p->on_path ? ", penwidth=3" : "");
    }
    pp_replay_collapsed_free(&c);
}

int pp_replay_dot_write(const pp_replay *r, const char *path, uint32_t max_instances)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    uint32_t n_cons = 0, n_chain = 0;
    uint32_t *num = pp_dot_construct_numbers(r, &n_cons);
    uint32_t *chain = pp_replay_chain(r, &n_chain);
    int collapsed = r->n_insts > max_instances;
    fprintf(f, "digraph dependences {\n  // pompprof-replay: %s; the span's path in bold\n"
               "  rankdir=TB;\n  node [shape=box, style=filled, fontname=\"Helvetica\", "
               "fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9];\n",
            collapsed ? "task constructs (instances collapsed)" : "dependent task instances");
    if (collapsed)
        pp_dot_collapsed(f, r);
    else
        pp_dot_instances(f, r, num, chain, n_chain);
    fprintf(f, "}\n");
    free(num);
    free(chain);
    int failed = ferror(f);
    return fclose(f) != 0 || failed ? -1 : 0;
}
