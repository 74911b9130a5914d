/* pp_cube definitions: attributes, metrics, regions, cnodes, system tree.
 * Each define call validates its arguments, so a mistake is reported where
 * it is made (with an id in the message) rather than as a broken file. */
#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cube-writer/pp_cube_internal.h"

void pp_cube_set_error(pp_cube *cube, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cube->error, sizeof cube->error, fmt, ap);
    va_end(ap);
}

int pp_cube_grow(void **array, int *cap, int need, size_t elem_size)
{
    if (need <= *cap)
        return 0;
    int grown_cap = *cap ? *cap : 16;
    while (grown_cap < need) {
        if (grown_cap > (1 << 29))
            return -1;
        grown_cap *= 2;
    }
    void *grown = realloc(*array, (size_t)grown_cap * elem_size);
    if (!grown)
        return -1;
    *array = grown;
    *cap = grown_cap;
    return 0;
}

/* NULL becomes "" so the XML writer never sees NULL; *ok is cleared on OOM. */
static char *pp_cube_strdup(const char *text, int *ok)
{
    char *copy = strdup(text ? text : "");
    if (!copy)
        *ok = 0;
    return copy;
}

pp_cube *pp_cube_create(void)
{
    pp_cube *cube = calloc(1, sizeof *cube);
    if (!cube)
        return NULL;
    pp_cube_forest_init(&cube->metric_tree);
    pp_cube_forest_init(&cube->cnode_tree);
    pp_cube_forest_init(&cube->sys_tree);
    return cube;
}

void pp_cube_destroy(pp_cube *cube)
{
    if (!cube)
        return;
    for (int i = 0; i < cube->num_attrs; i++) {
        free(cube->attrs[i].key);
        free(cube->attrs[i].value);
    }
    for (int i = 0; i < cube->num_metrics; i++) {
        pp_cube_metric *m = &cube->metrics[i];
        free(m->uniq_name);
        free(m->disp_name);
        free(m->unit);
        free(m->descr);
        free(m->url);
        free(m->values);
    }
    for (int i = 0; i < cube->num_mirrors; i++)
        free(cube->mirrors[i]);
    free(cube->mirrors);
    for (int i = 0; i < cube->num_regions; i++) {
        pp_cube_region *r = &cube->regions[i];
        free(r->name);
        free(r->file);
        free(r->paradigm);
        free(r->role);
        free(r->descr);
        free(r->mangled);
    }
    for (int i = 0; i < cube->num_cnodes; i++) {
        for (int k = 0; k < cube->cnodes[i].num_params; k++) {
            free(cube->cnodes[i].params[k].key);
            free(cube->cnodes[i].params[k].value);
        }
        free(cube->cnodes[i].params);
    }
    for (int i = 0; i < cube->num_sysnodes; i++) {
        free(cube->sysnodes[i].name);
        free(cube->sysnodes[i].class_name);
    }
    for (int i = 0; i < cube->num_processes; i++)
        free(cube->processes[i].name);
    for (int i = 0; i < cube->num_threads; i++)
        free(cube->threads[i].name);
    free(cube->attrs);
    free(cube->metrics);
    free(cube->regions);
    free(cube->cnodes);
    free(cube->sysnodes);
    free(cube->processes);
    free(cube->threads);
    pp_cube_forest_free(&cube->metric_tree);
    pp_cube_forest_free(&cube->cnode_tree);
    pp_cube_forest_free(&cube->sys_tree);
    free(cube);
}

const char *pp_cube_error(const pp_cube *cube)
{
    if (!cube)
        return "no cube (pp_cube_create ran out of memory)";
    return cube->error;
}

int pp_cube_num_cnodes(const pp_cube *cube)
{
    return cube ? cube->num_cnodes : 0;
}

int pp_cube_num_locations(const pp_cube *cube)
{
    return cube ? cube->num_threads : 0;
}

/* ---- attributes ----------------------------------------------------------- */

/* The writer emits these itself, first and in this order (doc/cube4-layout.md, "anchor.xml");
 * a second copy from the caller would make the reader's view ambiguous. */
static const char *const pp_cube_reserved_attrs[] = {
    "CubePL Version", "Cube Version", "Cube anchor.xml syntax version"};

int pp_cube_set_attr(pp_cube *cube, const char *key, const char *value)
{
    if (!cube)
        return -1;
    if (!key || !*key || !value) {
        pp_cube_set_error(cube, "attribute needs a non-empty key and a value");
        return -1;
    }
    for (size_t i = 0; i < sizeof pp_cube_reserved_attrs / sizeof pp_cube_reserved_attrs[0]; i++) {
        if (strcmp(key, pp_cube_reserved_attrs[i]) == 0) {
            pp_cube_set_error(cube, "attribute '%s' is written by the CUBE writer itself", key);
            return -1;
        }
    }
    int ok = 1;
    for (int i = 0; i < cube->num_attrs; i++) {
        if (strcmp(cube->attrs[i].key, key) == 0) { /* set = replace */
            char *copy = pp_cube_strdup(value, &ok);
            if (!ok)
                goto oom;
            free(cube->attrs[i].value);
            cube->attrs[i].value = copy;
            return 0;
        }
    }
    if (pp_cube_grow((void **)&cube->attrs, &cube->cap_attrs, cube->num_attrs + 1,
                     sizeof *cube->attrs) != 0)
        goto oom;
    pp_cube_attr *attr = &cube->attrs[cube->num_attrs];
    attr->key = pp_cube_strdup(key, &ok);
    attr->value = pp_cube_strdup(value, &ok);
    if (!ok) {
        free(attr->key);
        free(attr->value);
        goto oom;
    }
    cube->num_attrs++;
    return 0;
oom:
    pp_cube_set_error(cube, "out of memory defining attribute '%s'", key);
    return -1;
}

/* ---- metrics ---------------------------------------------------------------- */

/* CubeLib and CubePL use uniq_name as an identifier of [A-Za-z0-9:_=]; like
 * Score-P, replace anything else by '_' instead of refusing the name. */
static void pp_cube_sanitize_uniq_name(char *name)
{
    for (char *p = name; *p; p++) {
        char c = *p;
        int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                   c == ':' || c == '_' || c == '=';
        if (!keep)
            *p = '_';
    }
}

int pp_cube_def_metric(pp_cube *cube, int parent, const char *uniq_name, const char *disp_name,
                       const char *unit, const char *descr, pp_cube_dtype dtype, pp_cube_kind kind)
{
    if (!cube)
        return -1;
    if (!uniq_name || !*uniq_name) {
        pp_cube_set_error(cube, "metric needs a non-empty unique name");
        return -1;
    }
    if (parent < -1 || parent >= cube->num_metrics) {
        pp_cube_set_error(cube, "metric '%s': parent metric %d is not defined", uniq_name, parent);
        return -1;
    }
    if ((unsigned)dtype > PP_CUBE_MAXDOUBLE || (unsigned)kind > PP_CUBE_SIMPLE) {
        pp_cube_set_error(cube, "metric '%s': unknown dtype %d or kind %d", uniq_name, (int)dtype,
                          (int)kind);
        return -1;
    }
    /* cubew refuses INCLUSIVE min/max (its type rules).  CubeLib 4.8 also
     * refuses SIMPLE ones - it builds SIMPLE metrics as inclusive metrics -
     * and then silently drops the metric, so refuse both here. */
    if (kind != PP_CUBE_EXCLUSIVE && (dtype == PP_CUBE_MINDOUBLE || dtype == PP_CUBE_MAXDOUBLE)) {
        pp_cube_set_error(cube, "metric '%s': MINDOUBLE/MAXDOUBLE must be EXCLUSIVE (not %s)",
                          uniq_name, kind == PP_CUBE_INCLUSIVE ? "INCLUSIVE" : "SIMPLE");
        return -1;
    }
    int ok = 1;
    char *uniq = pp_cube_strdup(uniq_name, &ok);
    if (ok)
        pp_cube_sanitize_uniq_name(uniq);
    for (int i = 0; ok && i < cube->num_metrics; i++) {
        if (strcmp(cube->metrics[i].uniq_name, uniq) == 0) {
            pp_cube_set_error(cube, "metric '%s' is already defined (id %d)", uniq, i);
            free(uniq);
            return -1;
        }
    }
    if (!ok || pp_cube_grow((void **)&cube->metrics, &cube->cap_metrics, cube->num_metrics + 1,
                            sizeof *cube->metrics) != 0) {
        free(uniq);
        goto oom;
    }
    pp_cube_metric *m = &cube->metrics[cube->num_metrics];
    memset(m, 0, sizeof *m);
    m->uniq_name = uniq;
    m->disp_name = pp_cube_strdup(disp_name && *disp_name ? disp_name : uniq_name, &ok);
    m->unit = pp_cube_strdup(unit, &ok);
    m->descr = pp_cube_strdup(descr, &ok);
    m->url = pp_cube_strdup("", &ok);
    m->dtype = dtype;
    m->kind = kind;
    m->empty = pp_cube_metric_empty(dtype);
    if (!ok || pp_cube_forest_add(&cube->metric_tree, parent) < 0) {
        free(m->uniq_name);
        free(m->disp_name);
        free(m->unit);
        free(m->descr);
        free(m->url);
        goto oom;
    }
    return cube->num_metrics++;
oom:
    pp_cube_set_error(cube, "out of memory defining metric '%s'", uniq_name);
    return -1;
}

int pp_cube_set_metric_url(pp_cube *cube, int metric, const char *url)
{
    if (!cube)
        return -1;
    if (metric < 0 || metric >= cube->num_metrics || !url) {
        pp_cube_set_error(cube, "metric url: undefined metric %d or no url", metric);
        return -1;
    }
    int ok = 1;
    char *copy = pp_cube_strdup(url, &ok);
    if (!ok) {
        pp_cube_set_error(cube, "out of memory setting the url of metric %d", metric);
        return -1;
    }
    free(cube->metrics[metric].url);
    cube->metrics[metric].url = copy;
    return 0;
}

int pp_cube_add_mirror(pp_cube *cube, const char *url)
{
    if (!cube)
        return -1;
    if (!url || !*url) {
        pp_cube_set_error(cube, "a mirror needs a non-empty url");
        return -1;
    }
    int ok = 1;
    char *copy = pp_cube_strdup(url, &ok);
    if (!ok || pp_cube_grow((void **)&cube->mirrors, &cube->cap_mirrors, cube->num_mirrors + 1,
                            sizeof *cube->mirrors) != 0) {
        free(copy);
        pp_cube_set_error(cube, "out of memory adding mirror '%s'", url);
        return -1;
    }
    cube->mirrors[cube->num_mirrors++] = copy;
    return 0;
}

/* ---- regions and cnodes ------------------------------------------------------ */

int pp_cube_def_region(pp_cube *cube, const char *name, const char *file, int begin_line,
                       int end_line, const char *paradigm, const char *role, const char *descr)
{
    if (!cube)
        return -1;
    if (!name) {
        pp_cube_set_error(cube, "region needs a name");
        return -1;
    }
    if (pp_cube_grow((void **)&cube->regions, &cube->cap_regions, cube->num_regions + 1,
                     sizeof *cube->regions) != 0)
        goto oom;
    int ok = 1;
    pp_cube_region *r = &cube->regions[cube->num_regions];
    r->name = pp_cube_strdup(name, &ok);
    r->file = pp_cube_strdup(file, &ok);
    r->begin_line = begin_line > 0 ? begin_line : -1; /* cubew's "no line" */
    r->end_line = end_line > 0 ? end_line : -1;
    r->paradigm = pp_cube_strdup(paradigm && *paradigm ? paradigm : "unknown", &ok);
    r->role = pp_cube_strdup(role && *role ? role : "unknown", &ok);
    r->descr = pp_cube_strdup(descr, &ok);
    if (!ok) {
        free(r->name);
        free(r->file);
        free(r->paradigm);
        free(r->role);
        free(r->descr);
        goto oom;
    }
    r->mangled = NULL;
    return cube->num_regions++;
oom:
    pp_cube_set_error(cube, "out of memory defining region '%s'", name);
    return -1;
}

int pp_cube_region_set_mangled(pp_cube *cube, int region, const char *mangled)
{
    if (!cube || region < 0 || region >= cube->num_regions || !mangled)
        return -1;
    int ok = 1;
    char *m = pp_cube_strdup(mangled, &ok);
    if (!ok) {
        pp_cube_set_error(cube, "out of memory defining region '%s'", cube->regions[region].name);
        return -1;
    }
    free(cube->regions[region].mangled);
    cube->regions[region].mangled = m;
    return 0;
}

int pp_cube_def_cnode(pp_cube *cube, int parent, int region, const char *param_key,
                      const char *param_value)
{
    if (!cube)
        return -1;
    if (parent < -1 || parent >= cube->num_cnodes) {
        pp_cube_set_error(cube, "cnode: parent cnode %d is not defined", parent);
        return -1;
    }
    if (region < 0 || region >= cube->num_regions) {
        pp_cube_set_error(cube, "cnode: region %d is not defined", region);
        return -1;
    }
    if (!param_key != !param_value || (param_key && !*param_key)) {
        pp_cube_set_error(cube, "cnode: a parameter needs both a non-empty key and a value");
        return -1;
    }
    if (pp_cube_grow((void **)&cube->cnodes, &cube->cap_cnodes, cube->num_cnodes + 1,
                     sizeof *cube->cnodes) != 0 ||
        pp_cube_forest_add(&cube->cnode_tree, parent) < 0)
        goto oom;
    cube->cnodes[cube->num_cnodes] = (pp_cube_cnode){.region = region};
    int id = cube->num_cnodes++;
    if (param_key &&
        pp_cube_add_cnode_parameter(cube, id, PP_CUBE_PARAM_STRING, param_key, param_value) < 0)
        return -1;
    return id;
oom:
    pp_cube_set_error(cube, "out of memory defining cnode %d", cube->num_cnodes);
    return -1;
}

/* A numeric parameter's text: a finite number, nothing else. */
static int pp_cube_is_number(const char *s)
{
    char *end;
    double d = strtod(s, &end);
    return end != s && *end == '\0' && d - d == 0;
}

int pp_cube_add_cnode_parameter(pp_cube *cube, int cnode, pp_cube_param_type type,
                                const char *key, const char *value)
{
    if (!cube)
        return -1;
    if (cnode < 0 || cnode >= cube->num_cnodes) {
        pp_cube_set_error(cube, "parameter: cnode %d is not defined", cnode);
        return -1;
    }
    if (!key || !*key || !value) {
        pp_cube_set_error(cube, "parameter of cnode %d: needs a non-empty key and a value", cnode);
        return -1;
    }
    if (type != PP_CUBE_PARAM_STRING && (type != PP_CUBE_PARAM_NUMERIC || !pp_cube_is_number(value))) {
        pp_cube_set_error(cube, "parameter '%s' of cnode %d: '%s' is not a number", key, cnode,
                          value);
        return -1;
    }
    pp_cube_cnode *c = &cube->cnodes[cnode];
    int cap = c->num_params;
    pp_cube_param *p = realloc(c->params, (size_t)(cap + 1) * sizeof *p);
    if (!p)
        goto oom;
    c->params = p;
    int ok = 1;
    p[cap] = (pp_cube_param){type, pp_cube_strdup(key, &ok), pp_cube_strdup(value, &ok)};
    if (!ok) {
        free(p[cap].key);
        free(p[cap].value);
        goto oom;
    }
    c->num_params++;
    return 0;
oom:
    pp_cube_set_error(cube, "out of memory adding a parameter to cnode %d", cnode);
    return -1;
}

/* ---- system tree ----------------------------------------------------------- */

int pp_cube_def_system_node(pp_cube *cube, int parent, const char *name, const char *class_name)
{
    if (!cube)
        return -1;
    if (!name) {
        pp_cube_set_error(cube, "system node needs a name");
        return -1;
    }
    if (parent < -1 || parent >= cube->num_sysnodes) {
        pp_cube_set_error(cube, "system node '%s': parent node %d is not defined", name, parent);
        return -1;
    }
    if (pp_cube_grow((void **)&cube->sysnodes, &cube->cap_sysnodes, cube->num_sysnodes + 1,
                     sizeof *cube->sysnodes) != 0)
        goto oom;
    int ok = 1;
    pp_cube_sysnode *s = &cube->sysnodes[cube->num_sysnodes];
    s->name = pp_cube_strdup(name, &ok);
    s->class_name = pp_cube_strdup(class_name, &ok);
    s->first_process = -1;
    s->last_process = -1;
    if (!ok || pp_cube_forest_add(&cube->sys_tree, parent) < 0) {
        free(s->name);
        free(s->class_name);
        goto oom;
    }
    return cube->num_sysnodes++;
oom:
    pp_cube_set_error(cube, "out of memory defining system node '%s'", name);
    return -1;
}

int pp_cube_def_process(pp_cube *cube, int system_node, const char *name, int rank)
{
    if (!cube)
        return -1;
    if (!name || rank < 0) {
        pp_cube_set_error(cube, "process needs a name and a rank >= 0");
        return -1;
    }
    if (system_node < 0 || system_node >= cube->num_sysnodes) {
        pp_cube_set_error(cube, "process '%s': system node %d is not defined", name, system_node);
        return -1;
    }
    if (pp_cube_grow((void **)&cube->processes, &cube->cap_processes, cube->num_processes + 1,
                     sizeof *cube->processes) != 0)
        goto oom;
    int ok = 1;
    int id = cube->num_processes;
    pp_cube_process *p = &cube->processes[id];
    p->name = pp_cube_strdup(name, &ok);
    if (!ok)
        goto oom;
    p->system_node = system_node;
    p->rank = rank;
    p->next_process = -1;
    p->first_thread = -1;
    p->last_thread = -1;
    p->num_threads = 0;
    pp_cube_sysnode *s = &cube->sysnodes[system_node];
    if (s->last_process < 0)
        s->first_process = id;
    else
        cube->processes[s->last_process].next_process = id;
    s->last_process = id;
    return cube->num_processes++;
oom:
    pp_cube_set_error(cube, "out of memory defining process '%s'", name);
    return -1;
}

int pp_cube_def_thread(pp_cube *cube, int process, const char *name, int rank)
{
    if (!cube)
        return -1;
    if (!name || rank < 0) {
        pp_cube_set_error(cube, "thread needs a name and a rank >= 0");
        return -1;
    }
    if (process < 0 || process >= cube->num_processes) {
        pp_cube_set_error(cube, "thread '%s': process %d is not defined", name, process);
        return -1;
    }
    if (pp_cube_grow((void **)&cube->threads, &cube->cap_threads, cube->num_threads + 1,
                     sizeof *cube->threads) != 0)
        goto oom;
    int ok = 1;
    int id = cube->num_threads;
    pp_cube_thread *t = &cube->threads[id];
    t->name = pp_cube_strdup(name, &ok);
    if (!ok)
        goto oom;
    pp_cube_process *p = &cube->processes[process];
    t->process = process;
    t->rank = rank;
    t->next_thread = -1;
    t->index_in_process = p->num_threads++;
    if (p->last_thread < 0)
        p->first_thread = id;
    else
        cube->threads[p->last_thread].next_thread = id;
    p->last_thread = id;
    return cube->num_threads++;
oom:
    pp_cube_set_error(cube, "out of memory defining thread '%s'", name);
    return -1;
}

const char *pp_cube_dtype_name(pp_cube_dtype dtype)
{
    switch (dtype) {
    case PP_CUBE_UINT64: return "UINT64";
    case PP_CUBE_INT64: return "INT64";
    case PP_CUBE_DOUBLE: return "DOUBLE";
    case PP_CUBE_MINDOUBLE: return "MINDOUBLE";
    case PP_CUBE_MAXDOUBLE: return "MAXDOUBLE";
    }
    return "DOUBLE";
}

uint64_t pp_cube_metric_empty(pp_cube_dtype dtype)
{
    if (dtype != PP_CUBE_MINDOUBLE)
        return 0;
    double d = DBL_MAX;
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}
