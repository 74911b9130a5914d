/* A deliberately strict, small XML parser for the tests: it accepts only the
 * subset CubeLib's parser accepts (double-quoted attributes, the five named
 * entities, no comments/DOCTYPE/processing instructions after the
 * declaration) and keeps attribute order and self-closing, which the
 * anchor.xml rules depend on.  Iterative, so a 10,000-deep tree is fine. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/unit/cube/cube_test_util.h"

typedef struct {
    const char *p, *end;
    char *err;
    size_t errlen;
    int failed;
} cube_test_xml_parser;

static void cube_test_xml_error(cube_test_xml_parser *x, const char *fmt, ...)
{
    if (x->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->err, x->errlen, fmt, ap);
    va_end(ap);
    x->failed = 1;
}

/* Unescapes [s, s+n) into a new string; only the five named entities. */
static char *cube_test_xml_unescape(cube_test_xml_parser *x, const char *s, size_t n,
                                    size_t *out_len)
{
    static const struct { const char *entity; char c; } entities[] = {
        {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&apos;", '\''}, {"&quot;", '"'}};
    char *out = malloc(n + 1);
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        if (s[i] == '&') {
            size_t k;
            for (k = 0; k < 5; k++) {
                size_t el = strlen(entities[k].entity);
                if (i + el <= n && memcmp(s + i, entities[k].entity, el) == 0) {
                    out[o++] = entities[k].c;
                    i += el;
                    break;
                }
            }
            if (k == 5) {
                cube_test_xml_error(x, "unknown or numeric entity near '%.12s'", s + i);
                break;
            }
        } else if (s[i] == '>' || s[i] == '<') {
            cube_test_xml_error(x, "raw '%c' in text near '%.20s'", s[i], s + i);
            break;
        } else
            out[o++] = s[i++];
    }
    out[o] = '\0';
    if (out_len)
        *out_len = o;
    return out;
}

static int cube_test_xml_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == ':' || c == '-' || c == '.';
}

static char *cube_test_xml_name(cube_test_xml_parser *x)
{
    const char *start = x->p;
    while (x->p < x->end && cube_test_xml_name_char(*x->p))
        x->p++;
    if (x->p == start) {
        cube_test_xml_error(x, "expected a name near '%.20s'", start);
        return NULL;
    }
    return strndup(start, (size_t)(x->p - start));
}

static void cube_test_xml_skip_space(cube_test_xml_parser *x)
{
    while (x->p < x->end && (*x->p == ' ' || *x->p == '\n' || *x->p == '\t' || *x->p == '\r'))
        x->p++;
}

static void cube_test_xml_add_child(cube_test_xml *parent, cube_test_xml *child)
{
    if (parent->num_children == parent->cap_children) {
        parent->cap_children = parent->cap_children ? parent->cap_children * 2 : 4;
        parent->children = realloc(parent->children,
                                   (size_t)parent->cap_children * sizeof *parent->children);
    }
    parent->children[parent->num_children++] = child;
    child->parent = parent;
}

/* Parses "<name attr="v" ...>" or ".../>" at x->p (just after '<'). */
static cube_test_xml *cube_test_xml_open_tag(cube_test_xml_parser *x)
{
    cube_test_xml *node = calloc(1, sizeof *node);
    node->tag = cube_test_xml_name(x);
    node->text = strdup("");
    while (!x->failed) {
        cube_test_xml_skip_space(x);
        if (x->p >= x->end) {
            cube_test_xml_error(x, "unterminated tag <%s", node->tag);
            break;
        }
        if (*x->p == '>') {
            x->p++;
            break;
        }
        if (*x->p == '/' && x->p + 1 < x->end && x->p[1] == '>') {
            node->self_closed = 1;
            x->p += 2;
            break;
        }
        char *name = cube_test_xml_name(x);
        if (!name)
            break;
        if (x->p + 1 >= x->end || x->p[0] != '=' || x->p[1] != '"') {
            cube_test_xml_error(x, "attribute %s of <%s> not name=\"value\"", name, node->tag);
            free(name);
            break;
        }
        x->p += 2;
        const char *value = x->p;
        while (x->p < x->end && *x->p != '"')
            x->p++;
        if (x->p >= x->end || node->num_attrs == CUBE_TEST_XML_MAX_ATTRS) {
            cube_test_xml_error(x, "bad attribute %s of <%s>", name, node->tag);
            free(name);
            break;
        }
        for (int i = 0; i < node->num_attrs; i++)
            if (strcmp(node->attr_name[i], name) == 0)
                cube_test_xml_error(x, "duplicate attribute %s in <%s>", name, node->tag);
        node->attr_name[node->num_attrs] = name;
        node->attr_value[node->num_attrs++] =
            cube_test_xml_unescape(x, value, (size_t)(x->p - value), NULL);
        x->p++;
    }
    return node;
}

cube_test_xml *cube_test_xml_parse(const char *text, size_t len, char *err, size_t errlen)
{
    cube_test_xml_parser x = {text, text + len, err, errlen, 0};
    cube_test_xml *root = NULL, *current = NULL;
    /* the declaration itself is checked byte-exactly by the anchor checker */
    if (len > 5 && memcmp(text, "<?xml", 5) == 0) {
        const char *close = strstr(text, "?>");
        x.p = close ? close + 2 : x.end;
    }
    while (x.p < x.end && !x.failed) {
        if (*x.p == '<') {
            x.p++;
            if (x.p < x.end && (*x.p == '!' || *x.p == '?')) {
                cube_test_xml_error(&x, "comment, DOCTYPE or PI: '<%.10s'", x.p);
                break;
            }
            if (x.p < x.end && *x.p == '/') {
                x.p++;
                char *name = cube_test_xml_name(&x);
                if (!name)
                    break;
                if (!current || strcmp(name, current->tag) != 0)
                    cube_test_xml_error(&x, "</%s> does not close <%s>", name,
                                        current ? current->tag : "(nothing)");
                free(name);
                if (x.p >= x.end || *x.p != '>')
                    cube_test_xml_error(&x, "malformed closing tag");
                x.p++;
                if (current)
                    current = current->parent;
                continue;
            }
            cube_test_xml *node = cube_test_xml_open_tag(&x);
            if (current)
                cube_test_xml_add_child(current, node);
            else if (!root)
                root = node;
            else {
                cube_test_xml_error(&x, "second root element <%s>", node->tag);
                cube_test_xml_free(node);
                break;
            }
            if (!node->self_closed)
                current = node;
        } else {
            const char *start = x.p;
            while (x.p < x.end && *x.p != '<')
                x.p++;
            size_t n;
            char *chunk = cube_test_xml_unescape(&x, start, (size_t)(x.p - start), &n);
            if (!current) {
                for (size_t i = 0; i < n; i++)
                    if (chunk[i] != ' ' && chunk[i] != '\n')
                        cube_test_xml_error(&x, "text outside the root element");
                free(chunk);
            } else {
                current->text = realloc(current->text, current->text_len + n + 1);
                memcpy(current->text + current->text_len, chunk, n + 1);
                current->text_len += n;
                free(chunk);
            }
        }
    }
    if (!x.failed && (current || !root))
        cube_test_xml_error(&x, "document ends inside <%s>", current ? current->tag : "?");
    if (x.failed) {
        cube_test_xml_free(root);
        return NULL;
    }
    return root;
}

void cube_test_xml_free(cube_test_xml *node)
{
    /* iterative post-order free: trees can be 10,000 deep */
    while (node) {
        if (node->num_children > 0) {
            node = node->children[--node->num_children];
            continue;
        }
        cube_test_xml *parent = node->parent;
        free(node->tag);
        for (int i = 0; i < node->num_attrs; i++) {
            free(node->attr_name[i]);
            free(node->attr_value[i]);
        }
        free(node->text);
        free(node->children);
        free(node);
        node = parent;
    }
}

const char *cube_test_xml_attr(const cube_test_xml *node, const char *name)
{
    for (int i = 0; i < node->num_attrs; i++)
        if (strcmp(node->attr_name[i], name) == 0)
            return node->attr_value[i];
    return NULL;
}

cube_test_xml *cube_test_xml_child(const cube_test_xml *node, const char *tag)
{
    for (int i = 0; i < node->num_children; i++)
        if (strcmp(node->children[i]->tag, tag) == 0)
            return node->children[i];
    return NULL;
}
