/* anchor.xml: all definitions, in the exact shape CubeLib's hand-written
 * parser accepts (doc/cube4-layout.md, "anchor.xml").  The parser is
 * strict about things XML itself does not care about - the declaration, the
 * root tag byte for byte, "id" as the first metric attribute, regions before
 * cnodes, the child order inside system-tree elements, no self-closed text
 * or cnode elements - so every element is spelled out the way cubew does.
 * Trees are written with the iterative forest walk: call trees can be
 * deeper than any sane recursion. */
#include <string.h>

#include "cube-writer/pp_cube_internal.h"

#define PP_CUBE_XML_VERSION "4.4"
#define PP_CUBE_CUBEW_VERSION "4.8.2"

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if it is invalid.
 * Overlong forms, surrogates and code points above U+10FFFF are invalid. */
static int pp_cube_xml_utf8_len(const unsigned char *s)
{
    unsigned char c = s[0];
    int len;
    unsigned char lo = 0x80, hi = 0xBF; /* allowed range of the 2nd byte */
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0; /* overlong */
        else if (c == 0xED)
            hi = 0x9F; /* surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F; /* > U+10FFFF */
    } else
        return 0;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (int i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xBF) /* also stops at the terminating NUL */
            return 0;
    return len;
}

void pp_cube_xml_escape(pp_cube_strbuf *sb, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    const unsigned char *plain = s; /* start of the run copied unchanged */
    while (*s) {
        const char *entity = NULL;
        char replacement = 0;
        int advance = 1;
        switch (*s) {
        case '&': entity = "&amp;"; break;
        case '<': entity = "&lt;"; break;
        case '>': entity = "&gt;"; break;
        case '\'': entity = "&apos;"; break;
        case '"': entity = "&quot;"; break;
        case '\t': break;
        default:
            if (*s < 0x20)
                replacement = ' '; /* XML 1.0 forbids them; keep names on one line */
            else if (*s >= 0x80) {
                advance = pp_cube_xml_utf8_len(s);
                if (advance == 0) {
                    replacement = '?'; /* e.g. a Latin-1 file name */
                    advance = 1;
                }
            }
            break;
        }
        if (entity || replacement) {
            pp_cube_strbuf_append(sb, (const char *)plain, (size_t)(s - plain));
            if (entity)
                pp_cube_strbuf_puts(sb, entity);
            else
                pp_cube_strbuf_putc(sb, replacement);
            s += advance;
            plain = s;
        } else
            s += advance;
    }
    pp_cube_strbuf_append(sb, (const char *)plain, (size_t)(s - plain));
}

/* <tag>escaped text</tag>\n - never self-closed (CubeLib rejects <url/>). */
static void pp_cube_xml_text_element(pp_cube_strbuf *sb, const char *tag, const char *text)
{
    pp_cube_strbuf_putc(sb, '<');
    pp_cube_strbuf_puts(sb, tag);
    pp_cube_strbuf_putc(sb, '>');
    pp_cube_xml_escape(sb, text);
    pp_cube_strbuf_puts(sb, "</");
    pp_cube_strbuf_puts(sb, tag);
    pp_cube_strbuf_puts(sb, ">\n");
}

static void pp_cube_xml_int_element(pp_cube_strbuf *sb, const char *tag, long long value)
{
    pp_cube_strbuf_putc(sb, '<');
    pp_cube_strbuf_puts(sb, tag);
    pp_cube_strbuf_putc(sb, '>');
    pp_cube_strbuf_put_int(sb, value);
    pp_cube_strbuf_puts(sb, "</");
    pp_cube_strbuf_puts(sb, tag);
    pp_cube_strbuf_puts(sb, ">\n");
}

/* Appends ` name="value"` with the value escaped. */
static void pp_cube_xml_attribute(pp_cube_strbuf *sb, const char *name, const char *value)
{
    pp_cube_strbuf_putc(sb, ' ');
    pp_cube_strbuf_puts(sb, name);
    pp_cube_strbuf_puts(sb, "=\"");
    pp_cube_xml_escape(sb, value);
    pp_cube_strbuf_putc(sb, '"');
}

static void pp_cube_xml_int_attribute(pp_cube_strbuf *sb, const char *name, long long value)
{
    pp_cube_strbuf_putc(sb, ' ');
    pp_cube_strbuf_puts(sb, name);
    pp_cube_strbuf_puts(sb, "=\"");
    pp_cube_strbuf_put_int(sb, value);
    pp_cube_strbuf_putc(sb, '"');
}

static void pp_cube_xml_attr_element(pp_cube_strbuf *sb, const char *key, const char *value)
{
    pp_cube_strbuf_puts(sb, "<attr");
    pp_cube_xml_attribute(sb, "key", key);
    pp_cube_xml_attribute(sb, "value", value);
    pp_cube_strbuf_puts(sb, "/>\n");
}

typedef struct {
    const pp_cube *cube;
    pp_cube_strbuf *out;
} pp_cube_xml_ctx;

/* ---- header --------------------------------------------------------------- */

static void pp_cube_xml_header(const pp_cube *cube, pp_cube_strbuf *out)
{
    pp_cube_strbuf_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\n");
    pp_cube_strbuf_puts(out, "<cube version=\"" PP_CUBE_XML_VERSION "\">\n");
    pp_cube_xml_attr_element(out, "CubePL Version", "1.1");
    pp_cube_xml_attr_element(out, "Cube Version", PP_CUBE_CUBEW_VERSION);
    pp_cube_xml_attr_element(out, "Cube anchor.xml syntax version", PP_CUBE_XML_VERSION);
    for (int i = 0; i < cube->num_attrs; i++)
        pp_cube_xml_attr_element(out, cube->attrs[i].key, cube->attrs[i].value);
    pp_cube_strbuf_puts(out, "<doc>\n<mirrors>\n");
    for (int i = 0; i < cube->num_mirrors; i++)
        pp_cube_xml_text_element(out, "murl", cube->mirrors[i]);
    pp_cube_strbuf_puts(out, "</mirrors>\n</doc>\n");
}

/* ---- metrics -------------------------------------------------------------- */

static const char *pp_cube_xml_kind(pp_cube_kind kind)
{
    switch (kind) {
    case PP_CUBE_INCLUSIVE: return "INCLUSIVE";
    case PP_CUBE_SIMPLE: return "SIMPLE";
    case PP_CUBE_EXCLUSIVE: return "EXCLUSIVE";
    }
    return "EXCLUSIVE";
}

static int pp_cube_xml_metric_enter(void *ctx, int id)
{
    pp_cube_xml_ctx *x = ctx;
    const pp_cube_metric *m = &x->cube->metrics[id];
    /* "id" must be the first attribute; "type" must be present, since a
     * missing type silently means EXCLUSIVE (and another row order). */
    pp_cube_strbuf_puts(x->out, "<metric");
    pp_cube_xml_int_attribute(x->out, "id", id);
    pp_cube_xml_attribute(x->out, "type", pp_cube_xml_kind(m->kind));
    pp_cube_strbuf_puts(x->out, ">\n");
    pp_cube_xml_text_element(x->out, "disp_name", m->disp_name);
    pp_cube_xml_text_element(x->out, "uniq_name", m->uniq_name);
    pp_cube_xml_text_element(x->out, "dtype", pp_cube_dtype_name(m->dtype));
    pp_cube_xml_text_element(x->out, "uom", m->unit);
    pp_cube_xml_text_element(x->out, "url", m->url);
    pp_cube_xml_text_element(x->out, "descr", m->descr);
    return 0;
}

static int pp_cube_xml_metric_leave(void *ctx, int id)
{
    (void)id;
    pp_cube_strbuf_puts(((pp_cube_xml_ctx *)ctx)->out, "</metric>\n");
    return 0;
}

/* ---- program: regions, then the call tree ---------------------------------- */

static void pp_cube_xml_region(pp_cube_strbuf *out, int id, const pp_cube_region *r)
{
    pp_cube_strbuf_puts(out, "<region");
    pp_cube_xml_int_attribute(out, "id", id);
    pp_cube_xml_attribute(out, "mod", r->file);
    pp_cube_xml_int_attribute(out, "begin", r->begin_line);
    pp_cube_xml_int_attribute(out, "end", r->end_line);
    pp_cube_strbuf_puts(out, ">\n");
    pp_cube_xml_text_element(out, "name", r->name);
    pp_cube_xml_text_element(out, "mangled_name", r->mangled ? r->mangled : r->name);
    pp_cube_xml_text_element(out, "paradigm", r->paradigm);
    pp_cube_xml_text_element(out, "role", r->role);
    pp_cube_xml_text_element(out, "url", "");
    pp_cube_xml_text_element(out, "descr", r->descr);
    pp_cube_strbuf_puts(out, "</region>\n");
}

static int pp_cube_xml_cnode_enter(void *ctx, int id)
{
    pp_cube_xml_ctx *x = ctx;
    const pp_cube_cnode *c = &x->cube->cnodes[id];
    pp_cube_strbuf_puts(x->out, "<cnode");
    pp_cube_xml_int_attribute(x->out, "id", id);
    pp_cube_xml_int_attribute(x->out, "calleeId", c->region);
    pp_cube_strbuf_puts(x->out, ">\n");
    for (int k = 0; k < c->num_params; k++) { /* attribute order partype, parkey, parvalue is fixed */
        const pp_cube_param *p = &c->params[k];
        pp_cube_strbuf_puts(x->out, "<parameter");
        pp_cube_xml_attribute(x->out, "partype",
                              p->type == PP_CUBE_PARAM_NUMERIC ? "numeric" : "string");
        pp_cube_xml_attribute(x->out, "parkey", p->key);
        pp_cube_xml_attribute(x->out, "parvalue", p->value);
        pp_cube_strbuf_puts(x->out, " />\n");
    }
    return 0;
}

static int pp_cube_xml_cnode_leave(void *ctx, int id)
{
    (void)id;
    pp_cube_strbuf_puts(((pp_cube_xml_ctx *)ctx)->out, "</cnode>\n");
    return 0;
}

/* ---- system tree ----------------------------------------------------------- */

static void pp_cube_xml_process(const pp_cube *cube, pp_cube_strbuf *out, int id)
{
    const pp_cube_process *p = &cube->processes[id];
    pp_cube_strbuf_puts(out, "<locationgroup");
    pp_cube_xml_int_attribute(out, "Id", id);
    pp_cube_strbuf_puts(out, ">\n");
    pp_cube_xml_text_element(out, "name", p->name);
    pp_cube_xml_int_element(out, "rank", p->rank);
    pp_cube_xml_text_element(out, "type", "process");
    for (int t = p->first_thread; t >= 0; t = cube->threads[t].next_thread) {
        pp_cube_strbuf_puts(out, "<location");
        pp_cube_xml_int_attribute(out, "Id", t);
        pp_cube_strbuf_puts(out, ">\n");
        pp_cube_xml_text_element(out, "name", cube->threads[t].name);
        pp_cube_xml_int_element(out, "rank", cube->threads[t].rank);
        pp_cube_xml_text_element(out, "type", "thread");
        pp_cube_strbuf_puts(out, "</location>\n");
    }
    pp_cube_strbuf_puts(out, "</locationgroup>\n");
}

/* Strict order inside a systemtreenode: name, class, location groups, then
 * the child nodes - so the processes go out here, before the walk descends. */
static int pp_cube_xml_sysnode_enter(void *ctx, int id)
{
    pp_cube_xml_ctx *x = ctx;
    const pp_cube_sysnode *s = &x->cube->sysnodes[id];
    pp_cube_strbuf_puts(x->out, "<systemtreenode");
    pp_cube_xml_int_attribute(x->out, "Id", id);
    pp_cube_strbuf_puts(x->out, ">\n");
    pp_cube_xml_text_element(x->out, "name", s->name);
    pp_cube_xml_text_element(x->out, "class", s->class_name);
    for (int p = s->first_process; p >= 0; p = x->cube->processes[p].next_process)
        pp_cube_xml_process(x->cube, x->out, p);
    return 0;
}

static int pp_cube_xml_sysnode_leave(void *ctx, int id)
{
    (void)id;
    pp_cube_strbuf_puts(((pp_cube_xml_ctx *)ctx)->out, "</systemtreenode>\n");
    return 0;
}

/* Score-P's "Process x Thread" cart.  Coordinates are the process's position
 * among processes and the thread's position inside its process (not the
 * ranks), so they always fit the declared dimension sizes. */
static void pp_cube_xml_topology(const pp_cube *cube, pp_cube_strbuf *out)
{
    pp_cube_strbuf_puts(out, "<topologies>\n");
    int max_threads = 0;
    for (int p = 0; p < cube->num_processes; p++)
        if (cube->processes[p].num_threads > max_threads)
            max_threads = cube->processes[p].num_threads;
    if (cube->num_threads > 0) {
        pp_cube_strbuf_puts(out, "<cart name=\"Process x Thread\" ndims=\"2\">\n");
        pp_cube_strbuf_puts(out, "<dim name=\"Process\"");
        pp_cube_xml_int_attribute(out, "size", cube->num_processes);
        pp_cube_strbuf_puts(out, " periodic=\"false\"/>\n<dim name=\"Thread\"");
        pp_cube_xml_int_attribute(out, "size", max_threads);
        pp_cube_strbuf_puts(out, " periodic=\"false\"/>\n");
        for (int t = 0; t < cube->num_threads; t++) {
            pp_cube_strbuf_puts(out, "<coord");
            pp_cube_xml_int_attribute(out, "locId", t);
            pp_cube_strbuf_putc(out, '>');
            pp_cube_strbuf_put_int(out, cube->threads[t].process);
            pp_cube_strbuf_putc(out, ' ');
            pp_cube_strbuf_put_int(out, cube->threads[t].index_in_process);
            pp_cube_strbuf_puts(out, "</coord>\n");
        }
        pp_cube_strbuf_puts(out, "</cart>\n");
    }
    pp_cube_strbuf_puts(out, "</topologies>\n");
}

int pp_cube_xml_build(pp_cube *cube, pp_cube_strbuf *out)
{
    pp_cube_xml_ctx x = {cube, out};
    pp_cube_xml_header(cube, out);

    pp_cube_strbuf_puts(out, "<metrics>\n");
    pp_cube_forest_walk(&cube->metric_tree, pp_cube_xml_metric_enter, pp_cube_xml_metric_leave,
                        &x);
    pp_cube_strbuf_puts(out, "</metrics>\n");

    pp_cube_strbuf_puts(out, "<program>\n");
    for (int r = 0; r < cube->num_regions; r++) /* all regions before any cnode */
        pp_cube_xml_region(out, r, &cube->regions[r]);
    pp_cube_forest_walk(&cube->cnode_tree, pp_cube_xml_cnode_enter, pp_cube_xml_cnode_leave, &x);
    pp_cube_strbuf_puts(out, "</program>\n");

    pp_cube_strbuf_puts(out, "<system>\n");
    pp_cube_forest_walk(&cube->sys_tree, pp_cube_xml_sysnode_enter, pp_cube_xml_sysnode_leave,
                        &x);
    pp_cube_xml_topology(cube, out);
    pp_cube_strbuf_puts(out, "</system>\n</cube>\n");

    /* A size that is a multiple of 512 would get a whole extra zero block of
     * padding, at which GNU tar stops reading; one more newline avoids it. */
    if (out->len % PP_CUBE_TAR_BLOCK == 0)
        pp_cube_strbuf_putc(out, '\n');
    if (out->failed) {
        pp_cube_set_error(cube, "out of memory building anchor.xml");
        return -1;
    }
    return 0;
}
