/* Validator of anchor.xml against the rules CubeLib 4.8's parser enforces
 * (doc/cube4-layout.md, "anchor.xml"), plus extraction of the structure the data members
 * depend on (metric kinds, cnode tree, locations) and the row enumeration
 * of doc/cube4-layout.md, written recursively -
 * except SIMPLE, which CubeLib 4.8 reads in the INCLUSIVE order (its
 * Metric::create() has no SIMPLE case; checked with cube_dump). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/unit/cube/cube_test_util.h"

typedef struct {
    char *err;
    size_t errlen;
    cube_test_anchor *a;
} cube_test_checker;

static int cube_test_bad(cube_test_checker *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, c->errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static int cube_test_int(const char *s, long *value)
{
    if (!s || !*s)
        return -1;
    char *end;
    *value = strtol(s, &end, 10);
    return *end ? -1 : 0;
}

/* Exactly these attributes in exactly this order. */
static int cube_test_attrs(cube_test_checker *c, const cube_test_xml *n, int count, ...)
{
    va_list ap;
    va_start(ap, count);
    int ok = n->num_attrs == count;
    for (int i = 0; ok && i < count; i++)
        ok = strcmp(n->attr_name[i], va_arg(ap, const char *)) == 0;
    va_end(ap);
    return ok ? 0 : cube_test_bad(c, "<%s> has wrong attributes or attribute order", n->tag);
}

static int cube_test_is_tag(const cube_test_xml *n, const char *tag)
{
    return strcmp(n->tag, tag) == 0;
}

/* A text element: no attributes, no children, not self-closed. */
static int cube_test_text_element(cube_test_checker *c, const cube_test_xml *n, const char *tag)
{
    if (!n || !cube_test_is_tag(n, tag))
        return cube_test_bad(c, "expected <%s>, found <%s>", tag, n ? n->tag : "(nothing)");
    if (n->num_attrs || n->num_children || n->self_closed)
        return cube_test_bad(c, "<%s> is not a plain text element", tag);
    return 0;
}

/* Stores node under id in a dense-by-id table; rejects duplicates/negatives. */
static int cube_test_register(cube_test_checker *c, cube_test_xml ***table, int *count,
                              const cube_test_xml *n, const char *id_attr, long *id_out)
{
    long id;
    if (cube_test_int(cube_test_xml_attr(n, id_attr), &id) || id < 0 || id > 10000000)
        return cube_test_bad(c, "<%s> has a bad %s", n->tag, id_attr);
    if (id >= *count) {
        *table = realloc(*table, (size_t)(id + 1) * sizeof **table);
        for (long i = *count; i <= id; i++)
            (*table)[i] = NULL;
        *count = (int)id + 1;
    }
    if ((*table)[id])
        return cube_test_bad(c, "<%s> %s=%ld defined twice", n->tag, id_attr, id);
    (*table)[id] = (cube_test_xml *)n;
    *id_out = id;
    return 0;
}

static int cube_test_dense(cube_test_checker *c, cube_test_xml **table, int count,
                           const char *what)
{
    for (int i = 0; i < count; i++)
        if (!table[i])
            return cube_test_bad(c, "%s ids are not dense: %d missing", what, i);
    return 0;
}

/* Only these elements may be self-closed; containers hold no text. */
static int cube_test_global_rules(cube_test_checker *c, const cube_test_xml *root)
{
    const cube_test_xml **stack = malloc(sizeof *stack);
    size_t top = 0, cap = 1;
    stack[top++] = root;
    int rc = 0;
    while (top && rc == 0) {
        const cube_test_xml *n = stack[--top];
        if (n->self_closed && !cube_test_is_tag(n, "attr") && !cube_test_is_tag(n, "dim") &&
            !cube_test_is_tag(n, "parameter"))
            rc = cube_test_bad(c, "self-closed <%s/>", n->tag);
        if (n->num_children)
            for (size_t i = 0; i < n->text_len; i++)
                if (n->text[i] != ' ' && n->text[i] != '\n')
                    rc = cube_test_bad(c, "text inside container <%s>", n->tag);
        for (int i = 0; i < n->num_children; i++) {
            if (top == cap)
                stack = realloc(stack, (cap *= 2) * sizeof *stack);
            stack[top++] = n->children[i];
        }
    }
    free(stack);
    return rc;
}

static int cube_test_attr_element(cube_test_checker *c, const cube_test_xml *n)
{
    if (!n->self_closed)
        return cube_test_bad(c, "<attr> not self-closed");
    return cube_test_attrs(c, n, 2, "key", "value");
}

/* ---- metrics --------------------------------------------------------------- */
static int cube_test_metric(cube_test_checker *c, const cube_test_xml *n,
                            cube_test_xml ***table, int *count)
{
    static const char *const texts[] = {"disp_name", "uniq_name", "dtype", "uom", "url", "descr"};
    if (n->num_attrs < 2 || strcmp(n->attr_name[0], "id") != 0)
        return cube_test_bad(c, "<metric> without id as first attribute");
    if (cube_test_attrs(c, n, 2, "id", "type"))
        return -1;
    long id;
    if (cube_test_register(c, table, count, n, "id", &id))
        return -1;
    const char *type = cube_test_xml_attr(n, "type");
    if (strcmp(type, "INCLUSIVE") && strcmp(type, "EXCLUSIVE") && strcmp(type, "SIMPLE"))
        return cube_test_bad(c, "metric %ld: type %s", id, type);
    if (n->num_children < 6)
        return cube_test_bad(c, "metric %ld: missing child elements", id);
    for (int i = 0; i < 6; i++)
        if (cube_test_text_element(c, n->children[i], texts[i]))
            return -1;
    const char *dtype = n->children[2]->text;
    if (strcmp(dtype, "UINT64") && strcmp(dtype, "INT64") && strcmp(dtype, "DOUBLE") &&
        strcmp(dtype, "MINDOUBLE") && strcmp(dtype, "MAXDOUBLE"))
        return cube_test_bad(c, "metric %ld: dtype %s", id, dtype);
    /* CubeLib 4.8 drops MIN/MAX metrics that are INCLUSIVE or SIMPLE */
    if (strcmp(type, "EXCLUSIVE") && (strstr(dtype, "MAX") || strstr(dtype, "MIN")))
        return cube_test_bad(c, "metric %ld: %s with %s", id, dtype, type);
    int i = 6;
    for (; i < n->num_children && cube_test_is_tag(n->children[i], "attr"); i++)
        if (cube_test_attr_element(c, n->children[i]))
            return -1;
    for (; i < n->num_children; i++) {
        if (!cube_test_is_tag(n->children[i], "metric"))
            return cube_test_bad(c, "metric %ld: unexpected <%s>", id, n->children[i]->tag);
        if (cube_test_metric(c, n->children[i], table, count))
            return -1;
    }
    return 0;
}

/* ---- program ---------------------------------------------------------------- */
static int cube_test_region(cube_test_checker *c, const cube_test_xml *n)
{
    static const char *const texts[] = {"name", "mangled_name", "paradigm", "role", "url", "descr"};
    cube_test_anchor *a = c->a;
    long id, begin, end;
    if (cube_test_attrs(c, n, 4, "id", "mod", "begin", "end") ||
        cube_test_register(c, &a->region, &a->num_regions, n, "id", &id))
        return -1;
    if (cube_test_int(cube_test_xml_attr(n, "begin"), &begin) ||
        cube_test_int(cube_test_xml_attr(n, "end"), &end) || begin == 0 || begin < -1 ||
        end == 0 || end < -1)
        return cube_test_bad(c, "region %ld: bad begin/end", id);
    if (n->num_children != 6)
        return cube_test_bad(c, "region %ld: %d children", id, n->num_children);
    for (int i = 0; i < 6; i++)
        if (cube_test_text_element(c, n->children[i], texts[i]))
            return -1;
    return 0;
}

/* Iterative: the call tree may be 10,000 deep. */
static int cube_test_cnodes(cube_test_checker *c, const cube_test_xml *program, int first)
{
    cube_test_anchor *a = c->a;
    size_t cap = 64, top = 0;
    const cube_test_xml **stack = malloc(cap * sizeof *stack);
    for (int i = program->num_children - 1; i >= first; i--) {
        if (top == cap)
            stack = realloc(stack, (cap *= 2) * sizeof *stack);
        stack[top++] = program->children[i];
    }
    int rc = 0;
    while (top && rc == 0) {
        const cube_test_xml *n = stack[--top];
        long id, callee;
        if (cube_test_is_tag(n, "region")) {
            rc = cube_test_bad(c, "<region> after the first <cnode>");
            break;
        }
        if (!cube_test_is_tag(n, "cnode")) {
            rc = cube_test_bad(c, "unexpected <%s> in the call tree", n->tag);
            break;
        }
        if (n->self_closed) {
            rc = cube_test_bad(c, "self-closed <cnode/>");
            break;
        }
        if (cube_test_attrs(c, n, 2, "id", "calleeId") ||
            cube_test_register(c, &a->cnode, &a->num_cnodes, n, "id", &id)) {
            rc = -1;
            break;
        }
        if (cube_test_int(cube_test_xml_attr(n, "calleeId"), &callee) || callee < 0 ||
            callee >= a->num_regions || !a->region[callee]) {
            rc = cube_test_bad(c, "cnode %ld: calleeId of an undefined region", id);
            break;
        }
        int i = 0, seen_cnode = 0;
        for (; i < n->num_children && rc == 0; i++) {
            const cube_test_xml *child = n->children[i];
            if (cube_test_is_tag(child, "parameter")) {
                if (seen_cnode)
                    rc = cube_test_bad(c, "cnode %ld: parameter after a child cnode", id);
                else if (!child->self_closed ||
                         cube_test_attrs(c, child, 3, "partype", "parkey", "parvalue"))
                    rc = cube_test_bad(c, "cnode %ld: malformed parameter", id);
            } else
                seen_cnode = 1;
        }
        for (i = n->num_children - 1; i >= 0; i--) {
            if (cube_test_is_tag(n->children[i], "parameter"))
                continue;
            if (top == cap)
                stack = realloc(stack, (cap *= 2) * sizeof *stack);
            stack[top++] = n->children[i];
        }
    }
    free(stack);
    if (rc)
        return rc;
    if (cube_test_dense(c, a->cnode, a->num_cnodes, "cnode"))
        return -1;
    a->cnode_parent = malloc((size_t)a->num_cnodes * sizeof(int));
    a->cnode_callee = malloc((size_t)a->num_cnodes * sizeof(int));
    for (int id = 0; id < a->num_cnodes; id++) {
        const cube_test_xml *n = a->cnode[id];
        a->cnode_callee[id] = atoi(cube_test_xml_attr(n, "calleeId"));
        a->cnode_parent[id] =
            cube_test_is_tag(n->parent, "cnode") ? atoi(cube_test_xml_attr(n->parent, "id")) : -1;
    }
    return 0;
}

static int cube_test_program(cube_test_checker *c, const cube_test_xml *program)
{
    int i = 0;
    for (; i < program->num_children && cube_test_is_tag(program->children[i], "region"); i++)
        if (cube_test_region(c, program->children[i]))
            return -1;
    if (c->a->num_regions == 0 || cube_test_dense(c, c->a->region, c->a->num_regions, "region"))
        return c->a->num_regions ? -1 : cube_test_bad(c, "no region");
    if (i == program->num_children)
        return cube_test_bad(c, "no cnode");
    return cube_test_cnodes(c, program, i);
}

/* ---- system tree ------------------------------------------------------------- */
static int cube_test_name_rank_type(cube_test_checker *c, const cube_test_xml *n,
                                    const char *const *types)
{
    long rank;
    if (n->num_children < 3 || cube_test_text_element(c, n->children[0], "name") ||
        cube_test_text_element(c, n->children[1], "rank") ||
        cube_test_text_element(c, n->children[2], "type"))
        return cube_test_bad(c, "<%s>: children not name, rank, type", n->tag);
    if (cube_test_int(n->children[1]->text, &rank) || rank < 0)
        return cube_test_bad(c, "<%s>: bad rank '%s'", n->tag, n->children[1]->text);
    for (; *types; types++)
        if (strcmp(*types, n->children[2]->text) == 0)
            return 0;
    return cube_test_bad(c, "<%s>: unknown type '%s'", n->tag, n->children[2]->text);
}

static int cube_test_location_group(cube_test_checker *c, const cube_test_xml *g)
{
    static const char *const group_types[] = {"process", "metrics", "accelerator", NULL};
    static const char *const loc_types[] = {"thread", "accelerator stream", "gpu", "metric", NULL};
    if (cube_test_attrs(c, g, 1, "Id") || cube_test_name_rank_type(c, g, group_types))
        return -1;
    int i = 3, locations = 0;
    for (; i < g->num_children && cube_test_is_tag(g->children[i], "attr"); i++)
        if (cube_test_attr_element(c, g->children[i]))
            return -1;
    for (; i < g->num_children; i++) {
        const cube_test_xml *l = g->children[i];
        long id;
        if (!cube_test_is_tag(l, "location"))
            return cube_test_bad(c, "<locationgroup>: unexpected <%s>", l->tag);
        if (cube_test_attrs(c, l, 1, "Id") || cube_test_name_rank_type(c, l, loc_types) ||
            cube_test_register(c, &c->a->location, &c->a->num_locations, l, "Id", &id))
            return -1;
        for (int k = 3; k < l->num_children; k++)
            if (!cube_test_is_tag(l->children[k], "attr") ||
                cube_test_attr_element(c, l->children[k]))
                return cube_test_bad(c, "<location>: unexpected <%s>", l->children[k]->tag);
        locations++;
    }
    return locations ? 0 : cube_test_bad(c, "<locationgroup> without <location>");
}

/* name, class, [descr], attr*, locationgroup*, systemtreenode* - strictly. */
static int cube_test_system_node(cube_test_checker *c, const cube_test_xml *s)
{
    if (cube_test_attrs(c, s, 1, "Id"))
        return -1;
    if (s->num_children < 2 || cube_test_text_element(c, s->children[0], "name") ||
        cube_test_text_element(c, s->children[1], "class"))
        return cube_test_bad(c, "<systemtreenode>: does not start with name, class");
    int i = 2;
    if (i < s->num_children && cube_test_is_tag(s->children[i], "descr"))
        i++;
    for (; i < s->num_children && cube_test_is_tag(s->children[i], "attr"); i++)
        if (cube_test_attr_element(c, s->children[i]))
            return -1;
    for (; i < s->num_children && cube_test_is_tag(s->children[i], "locationgroup"); i++)
        if (cube_test_location_group(c, s->children[i]))
            return -1;
    for (; i < s->num_children; i++) {
        if (!cube_test_is_tag(s->children[i], "systemtreenode"))
            return cube_test_bad(c, "<systemtreenode>: <%s> out of order", s->children[i]->tag);
        if (cube_test_system_node(c, s->children[i]))
            return -1;
    }
    return 0;
}

static int cube_test_topologies(cube_test_checker *c, const cube_test_xml *t)
{
    for (int i = 0; i < t->num_children; i++) {
        const cube_test_xml *cart = t->children[i];
        long ndims, size[8];
        if (!cube_test_is_tag(cart, "cart") || cube_test_attrs(c, cart, 2, "name", "ndims") ||
            cube_test_int(cube_test_xml_attr(cart, "ndims"), &ndims) || ndims < 1 || ndims > 8 ||
            cart->num_children < ndims)
            return cube_test_bad(c, "malformed <cart>");
        for (int d = 0; d < ndims; d++) {
            const cube_test_xml *dim = cart->children[d];
            const char *periodic = cube_test_xml_attr(dim, "periodic");
            if (!cube_test_is_tag(dim, "dim") || cube_test_attrs(c, dim, 3, "name", "size", "periodic") ||
                cube_test_int(cube_test_xml_attr(dim, "size"), &size[d]) || size[d] <= 0 ||
                (strcmp(periodic, "true") && strcmp(periodic, "false")))
                return cube_test_bad(c, "malformed <dim>");
        }
        for (int k = (int)ndims; k < cart->num_children; k++) {
            const cube_test_xml *coord = cart->children[k];
            long loc;
            if (!cube_test_is_tag(coord, "coord") || cube_test_attrs(c, coord, 1, "locId") ||
                cube_test_int(cube_test_xml_attr(coord, "locId"), &loc) || loc < 0 ||
                loc >= c->a->num_locations)
                return cube_test_bad(c, "malformed <coord>");
            char *p = coord->text;
            for (int d = 0; d < ndims; d++) {
                char *end;
                long v = strtol(p, &end, 10);
                if (end == p || v < 0 || v >= size[d])
                    return cube_test_bad(c, "<coord locId=\"%ld\"> out of range", loc);
                p = end;
            }
            if (*p)
                return cube_test_bad(c, "<coord>: trailing text");
        }
    }
    return 0;
}

static int cube_test_system(cube_test_checker *c, const cube_test_xml *system)
{
    int i = 0;
    for (; i < system->num_children && cube_test_is_tag(system->children[i], "systemtreenode"); i++)
        if (cube_test_system_node(c, system->children[i]))
            return -1;
    if (i == 0)
        return cube_test_bad(c, "no <systemtreenode>");
    if (cube_test_dense(c, c->a->location, c->a->num_locations, "location") ||
        c->a->num_locations == 0)
        return cube_test_bad(c, "location ids not dense / none");
    if (i != system->num_children - 1 || !cube_test_is_tag(system->children[i], "topologies"))
        return cube_test_bad(c, "<system> must end with one <topologies>");
    return cube_test_topologies(c, system->children[i]);
}

/* ---- row enumeration, recursively ------------------------------------------------ */
typedef struct {
    const cube_test_anchor *a;
    int *position;
    int next;
} cube_test_enum;

static void cube_test_emit(cube_test_enum *e, const cube_test_xml *n)
{
    e->position[atoi(cube_test_xml_attr(n, "id"))] = e->next++;
}

static void cube_test_preorder(cube_test_enum *e, const cube_test_xml *n)
{
    cube_test_emit(e, n);
    for (int i = 0; i < n->num_children; i++)
        if (cube_test_is_tag(n->children[i], "cnode"))
            cube_test_preorder(e, n->children[i]);
}

static void cube_test_visit(cube_test_enum *e, const cube_test_xml *n, int is_root)
{
    if (is_root)
        cube_test_emit(e, n);
    for (int i = 0; i < n->num_children; i++)
        if (cube_test_is_tag(n->children[i], "cnode"))
            cube_test_emit(e, n->children[i]);
    for (int i = 0; i < n->num_children; i++)
        if (cube_test_is_tag(n->children[i], "cnode"))
            cube_test_visit(e, n->children[i], 0);
}

static void cube_test_positions(cube_test_anchor *a, const cube_test_xml *program)
{
    for (int kind = 0; kind < 3; kind++) {
        cube_test_enum e = {a, malloc((size_t)a->num_cnodes * sizeof(int)), 0};
        for (int i = 0; i < program->num_children; i++) {
            const cube_test_xml *root = program->children[i];
            if (!cube_test_is_tag(root, "cnode"))
                continue;
            if (kind == CUBE_TEST_EXCL)
                cube_test_preorder(&e, root);
            else /* CubeLib 4.8 reads SIMPLE metrics as INCLUSIVE ones */
                cube_test_visit(&e, root, 1);
        }
        a->position[kind] = e.position;
    }
}

int cube_test_anchor_check(const char *xml, size_t len, cube_test_anchor *a, char *err,
                           size_t errlen)
{
    static const char decl[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>";
    static const char root_tag[] = "<cube version=\"4.4\">";
    static const char *const std_attrs[3][2] = {{"CubePL Version", "1.1"},
                                                {"Cube Version", "4.8.2"},
                                                {"Cube anchor.xml syntax version", "4.4"}};
    cube_test_checker c = {err, errlen, a};
    memset(a, 0, sizeof *a);
    if (len < sizeof decl || memcmp(xml, decl, sizeof decl - 1) != 0)
        return cube_test_bad(&c, "anchor.xml does not start with the XML declaration");
    size_t p = sizeof decl - 1;
    while (p < len && xml[p] == '\n')
        p++;
    if (len - p < sizeof root_tag || memcmp(xml + p, root_tag, sizeof root_tag - 1) != 0)
        return cube_test_bad(&c, "root tag is not byte-exactly %s", root_tag);
    a->root = cube_test_xml_parse(xml, len, err, errlen);
    if (!a->root)
        return -1;
    const cube_test_xml *root = a->root;
    if (cube_test_global_rules(&c, root))
        return -1;

    int i = 0;
    for (; i < root->num_children && cube_test_is_tag(root->children[i], "attr"); i++) {
        const cube_test_xml *attr = root->children[i];
        if (cube_test_attr_element(&c, attr))
            return -1;
        if (i < 3 && (strcmp(cube_test_xml_attr(attr, "key"), std_attrs[i][0]) ||
                      strcmp(cube_test_xml_attr(attr, "value"), std_attrs[i][1])))
            return cube_test_bad(&c, "attribute %d is not %s=%s", i, std_attrs[i][0],
                                 std_attrs[i][1]);
    }
    if (i < 3)
        return cube_test_bad(&c, "fewer than the three standard attributes");
    static const char *const sections[] = {"doc", "metrics", "program", "system"};
    if (root->num_children != i + 4)
        return cube_test_bad(&c, "<cube> must hold attr*, doc, metrics, program, system");
    for (int s = 0; s < 4; s++)
        if (!cube_test_is_tag(root->children[i + s], sections[s]))
            return cube_test_bad(&c, "section %d is <%s>, expected <%s>", s,
                                 root->children[i + s]->tag, sections[s]);
    const cube_test_xml *doc = root->children[i];
    if (doc->num_children != 1 || !cube_test_is_tag(doc->children[0], "mirrors"))
        return cube_test_bad(&c, "<doc> must hold <mirrors>");
    const cube_test_xml *mirrors = doc->children[0];
    for (int m = 0; m < mirrors->num_children; m++)
        if (!cube_test_is_tag(mirrors->children[m], "murl") || !mirrors->children[m]->text_len)
            return cube_test_bad(&c, "<mirrors> may hold non-empty <murl> elements only");

    const cube_test_xml *metrics = root->children[i + 1];
    cube_test_xml **metric = NULL;
    for (int m = 0; m < metrics->num_children; m++) {
        if (!cube_test_is_tag(metrics->children[m], "metric"))
            return cube_test_bad(&c, "<metrics> holds <%s>", metrics->children[m]->tag);
        if (cube_test_metric(&c, metrics->children[m], &metric, &a->num_metrics)) {
            free(metric);
            return -1;
        }
    }
    if (a->num_metrics == 0 || cube_test_dense(&c, metric, a->num_metrics, "metric")) {
        free(metric);
        return a->num_metrics ? -1 : cube_test_bad(&c, "no metric");
    }
    a->metric_kind = malloc((size_t)(unsigned)a->num_metrics * sizeof(int));
    a->metric_dtype = malloc((size_t)(unsigned)a->num_metrics * sizeof(char *));
    a->metric_uniq = malloc((size_t)(unsigned)a->num_metrics * sizeof(char *));
    for (int m = 0; m < a->num_metrics; m++) {
        const char *type = cube_test_xml_attr(metric[m], "type");
        a->metric_kind[m] = !strcmp(type, "INCLUSIVE") ? CUBE_TEST_INCL
                            : !strcmp(type, "SIMPLE")  ? CUBE_TEST_SIMPLE
                                                       : CUBE_TEST_EXCL;
        a->metric_dtype[m] = metric[m]->children[2]->text;
        a->metric_uniq[m] = metric[m]->children[1]->text;
    }
    free(metric);

    if (cube_test_program(&c, root->children[i + 2]) || cube_test_system(&c, root->children[i + 3]))
        return -1;
    cube_test_positions(a, root->children[i + 2]);
    return 0;
}

void cube_test_anchor_free(cube_test_anchor *a)
{
    cube_test_xml_free(a->root);
    free(a->metric_kind);
    free(a->metric_dtype);
    free(a->metric_uniq);
    free(a->region);
    free(a->cnode);
    free(a->cnode_parent);
    free(a->cnode_callee);
    for (int k = 0; k < 3; k++)
        free(a->position[k]);
    free(a->location);
    memset(a, 0, sizeof *a);
}
