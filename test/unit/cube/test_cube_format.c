/* pp_cube: the on-disk format - tar framing, anchor.xml structure, escaping,
 * a worked example byte for byte, all dtypes. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cube-writer/pp_cube_internal.h"
#include "test/unit/cube/cube_test_util.h"

static char dir[4096];

static void setup(void)
{
    cube_test_mkdtemp(dir, sizeof dir);
    ck_assert_msg(dir[0], "mkdtemp failed");
}

static void teardown(void)
{
    cube_test_rmdir(dir);
}

/* ---- tar ------------------------------------------------------------------- */

START_TEST(tar_header_fields)
{
    unsigned char h[512];
    pp_cube_tar_header(h, "1.data", 90, 1700000000);
    ck_assert_str_eq((char *)h, "1.data");
    ck_assert_mem_eq(h + 100, "0000600", 8);
    ck_assert_mem_eq(h + 124, "00000000132", 12); /* 90 in octal + NUL */
    ck_assert_int_eq(h[156], '0');
    ck_assert_mem_eq(h + 257, "ustar\0" "00", 8);
    ck_assert_str_eq((char *)h + 265, "nouser");
    ck_assert_str_eq((char *)h + 297, "users");
    /* checksum: all bytes with the checksum field counted as spaces */
    unsigned long sum = 0;
    for (int i = 0; i < 512; i++)
        sum += (i >= 148 && i < 156) ? ' ' : h[i];
    char want[8];
    snprintf(want, sizeof want, "%06lo", sum);
    ck_assert_mem_eq(h + 148, want, 7); /* six digits + NUL */
    ck_assert_int_eq(h[155], ' ');
}
END_TEST

START_TEST(tar_padding_rule)
{
    /* cubew/CubeLib: (size/512 + 1) * 512 - size, never 0 for a member */
    ck_assert_uint_eq(pp_cube_tar_padding(0), 0);
    ck_assert_uint_eq(pp_cube_tar_padding(1), 511);
    ck_assert_uint_eq(pp_cube_tar_padding(90), 422);
    ck_assert_uint_eq(pp_cube_tar_padding(511), 1);
    ck_assert_uint_eq(pp_cube_tar_padding(512), 512);
    ck_assert_uint_eq(pp_cube_tar_padding(513), 511);
    ck_assert_uint_eq(pp_cube_tar_padding(2992), 80);
}
END_TEST

/* Growing one attribute value byte by byte moves anchor.xml through every
 * size modulo 512, so some run hits an exact multiple before the fix-up. */
START_TEST(members_never_multiple_of_512)
{
    char value[600];
    int padded = 0;
    for (int n = 0; n < 520; n++) {
        pp_cube *cube = cube_test_worked_example();
        memset(value, 'v', (size_t)n);
        value[n] = '\0';
        ck_assert_int_eq(pp_cube_set_attr(cube, "filler", value), 0);
        char name[32];
        snprintf(name, sizeof name, "p%d.cubex", n);
        cube_test_file f;
        cube_test_write_load(cube, dir, name, &f); /* rejects sizes % 512 == 0 */
        const cube_test_member *anchor = cube_test_tar_find(&f.tar, "anchor.xml");
        ck_assert_uint_ne(anchor->size % 512, 0);
        const char *end = (const char *)f.tar.bytes + anchor->offset + anchor->size;
        if (memcmp(end - 9, "</cube>\n\n", 9) == 0)
            padded++;
        cube_test_file_free(&f);
        pp_cube_destroy(cube);
    }
    ck_assert_int_ge(padded, 1);
}
END_TEST

/* The tar walk of the test reader is exactly CubeLib's; check the member
 * order of cubew and that GNU tar, if present, lists the same members. */
START_TEST(tar_members_and_order)
{
    pp_cube *cube = cube_test_worked_example();
    cube_test_file f;
    cube_test_write_load(cube, dir, "profile.cubex", &f);
    static const char *const order[] = {"0.data", "0.index", "1.data", "1.index", "2.data",
                                        "2.index", "3.data", "3.index", "anchor.xml"};
    ck_assert_int_eq(f.tar.num_members, 9);
    for (int i = 0; i < 9; i++)
        ck_assert_str_eq(f.tar.members[i].name, order[i]);
    ck_assert_uint_eq(f.tar.members[2].size, 90); /* 10 + 5 rows x 2 locations x 8 */
    cube_test_file_free(&f);
    pp_cube_destroy(cube);

    char cmd[4200];
    snprintf(cmd, sizeof cmd, "tar tf %s/profile.cubex 2>/dev/null | tr '\\n' ' '", dir);
    FILE *p = popen(cmd, "r");
    char listing[512] = "";
    if (p) {
        if (!fgets(listing, sizeof listing, p))
            listing[0] = '\0';
        pclose(p);
    }
    if (listing[0]) /* tar available */
        ck_assert_str_eq(listing, "0.data 0.index 1.data 1.index 2.data 2.index 3.data 3.index "
                                  "anchor.xml ");
}
END_TEST

/* ---- anchor.xml -------------------------------------------------------------- */

static const char *anchor_text(const cube_test_file *f, size_t *len)
{
    const cube_test_member *m = cube_test_tar_find(&f->tar, "anchor.xml");
    *len = m->size;
    return (const char *)f->tar.bytes + m->offset;
}

START_TEST(anchor_structure)
{
    pp_cube *cube = cube_test_worked_example();
    /* a child metric, a second root cnode, a parameter, a second process */
    ck_assert_int_eq(pp_cube_def_metric(cube, 1, "time::child", "Child", "sec", "", PP_CUBE_DOUBLE,
                                        PP_CUBE_INCLUSIVE), 4);
    ck_assert_int_eq(pp_cube_def_cnode(cube, -1, 1, "n", "1024"), 5);
    int node2 = pp_cube_def_system_node(cube, 0, "node host02", "node");
    int proc = pp_cube_def_process(cube, node2, "Process 1", 1);
    ck_assert_int_eq(pp_cube_def_thread(cube, proc, "t", 0), 2);
    cube_test_file f;
    cube_test_write_load(cube, dir, "s.cubex", &f);
    size_t len;
    const char *xml = anchor_text(&f, &len);
    ck_assert_int_eq(strncmp(xml, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\n<cube version=\"4.4\">\n", 60), 0);
    /* user attributes follow the three standard ones, in definition order */
    const cube_test_xml *root = f.anchor.root;
    ck_assert_str_eq(cube_test_xml_attr(root->children[3], "key"), "Creator");
    ck_assert_str_eq(cube_test_xml_attr(root->children[4], "key"), "CUBE_CT_AGGR");
    ck_assert_ptr_nonnull(strstr(xml, "<metric id=\"4\" type=\"INCLUSIVE\">"));
    ck_assert_ptr_nonnull(strstr(xml, "<doc>\n<mirrors>\n</mirrors>\n</doc>\n"));
    /* the child metric is nested in its parent */
    ck_assert_str_eq(f.anchor.root->children[6]->children[1]->children[6]->tag, "metric");
    ck_assert_int_eq(f.anchor.cnode_parent[5], -1);
    ck_assert_int_eq(f.anchor.cnode_parent[4], 3);
    ck_assert_ptr_nonnull(strstr(xml, "<parameter partype=\"string\" parkey=\"n\" parvalue=\"1024\" />"));
    ck_assert_int_eq(f.anchor.num_locations, 3);
    /* processes of a node come before its child nodes: node host01 holds
     * only Process, node host02 is the machine's second child node */
    ck_assert_ptr_nonnull(strstr(xml, "<dim name=\"Process\" size=\"2\" periodic=\"false\"/>"));
    ck_assert_ptr_nonnull(strstr(xml, "<coord locId=\"2\">1 0</coord>"));
    ck_assert_ptr_null(strstr(xml, "<cnode id=\"2\" calleeId=\"2\"/>"));
    cube_test_file_free(&f);
    pp_cube_destroy(cube);
}
END_TEST

/* The validator must reject what CubeLib rejects, or the structure tests
 * above prove nothing: feed it mutated copies of a good anchor.xml. */
START_TEST(validator_rejects_broken_anchors)
{
    pp_cube *cube = cube_test_worked_example();
    cube_test_file f;
    cube_test_write_load(cube, dir, "v.cubex", &f);
    size_t len;
    const char *good = anchor_text(&f, &len);
    static const struct { const char *from, *to; } mutations[] = {
        {"<cnode id=\"2\" calleeId=\"2\">\n</cnode>", "<cnode id=\"2\" calleeId=\"2\"/>"},
        {"<metric id=\"1\" type=\"INCLUSIVE\">", "<metric type=\"INCLUSIVE\" id=\"1\">"},
        {"<cube version=\"4.4\">", "<cube  version=\"4.4\">"},
        {"encoding=\"UTF-8\"", "encoding=\"utf-8\""},
        {"<url></url>", "<url/>"},
        {"<name>node host01</name>\n<class>node</class>", "<class>node</class>\n<name>node host01</name>"},
        {"<descr>Number of visits</descr>", "<descr>Number &#38; visits</descr>"},
        {"<descr>Number of visits</descr>", "<descr>Number <!-- x --> visits</descr>"},
        {"<rank>1</rank>", "<rank>-1</rank>"},
        {"<type>thread</type>", "<type>fiber</type>"},
        {"<cnode id=\"4\" calleeId=\"2\">", "<cnode id=\"4\" calleeId=\"9\">"},
        {"<cnode id=\"4\"", "<cnode id=\"3\""},
        {"<dtype>MAXDOUBLE</dtype>", "<dtype>FLOAT128</dtype>"},
        {"<metric id=\"3\" type=\"EXCLUSIVE\">", "<metric id=\"3\" type=\"INCLUSIVE\">"},
        {"<attr key=\"CubePL Version\" value=\"1.1\"/>\n", ""},
    };
    char err[256];
    cube_test_anchor a;
    ck_assert_int_eq(cube_test_anchor_check(good, len, &a, err, sizeof err), 0);
    cube_test_anchor_free(&a);
    for (size_t i = 0; i < sizeof mutations / sizeof mutations[0]; i++) {
        char *copy = strndup(good, len);
        char *at = strstr(copy, mutations[i].from);
        ck_assert_msg(at != NULL, "mutation %zu does not apply", i);
        size_t flen = strlen(mutations[i].from), tlen = strlen(mutations[i].to);
        char *bad = malloc(len + tlen + 1);
        size_t head = (size_t)(at - copy);
        memcpy(bad, copy, head);
        memcpy(bad + head, mutations[i].to, tlen);
        strcpy(bad + head + tlen, at + flen);
        int rc = cube_test_anchor_check(bad, strlen(bad), &a, err, sizeof err);
        ck_assert_msg(rc != 0, "mutation %zu (%s) accepted", i, mutations[i].to);
        cube_test_anchor_free(&a);
        free(bad);
        free(copy);
    }
    cube_test_file_free(&f);
    pp_cube_destroy(cube);
}
END_TEST

/* Regions before cnodes even when regions are defined after cnodes. */
START_TEST(regions_before_cnodes)
{
    pp_cube *cube = pp_cube_create();
    pp_cube_def_metric(cube, -1, "visits", NULL, NULL, NULL, PP_CUBE_UINT64, PP_CUBE_EXCLUSIVE);
    int r0 = pp_cube_def_region(cube, "main", "a.c", 1, 9, "user", "function", NULL);
    int c0 = pp_cube_def_cnode(cube, -1, r0, NULL, NULL);
    int r1 = pp_cube_def_region(cube, "late", "a.c", 3, 4, "user", "function", NULL);
    ck_assert_int_eq(pp_cube_def_cnode(cube, c0, r1, NULL, NULL), 1);
    cube_test_add_system(cube, 1);
    cube_test_file f;
    cube_test_write_load(cube, dir, "r.cubex", &f); /* validator checks the order */
    ck_assert_int_eq(f.anchor.num_regions, 2);
    ck_assert_int_eq(f.anchor.cnode_callee[1], r1);
    cube_test_file_free(&f);
    pp_cube_destroy(cube);
}
END_TEST

START_TEST(escaping)
{
    static const char nasty[] = "a&b<c>d\"e'f\ng\th \xc3\xbc\xe2\x82\xac\xf0\x9d\x84\x9e x\xffy";
    static const char expect[] = "a&b<c>d\"e'f g\th \xc3\xbc\xe2\x82\xac\xf0\x9d\x84\x9e x?y";
    pp_cube *cube = pp_cube_create();
    ck_assert_int_eq(pp_cube_set_attr(cube, nasty, nasty), 0);
    pp_cube_def_metric(cube, -1, "visits", nasty, nasty, nasty, PP_CUBE_UINT64, PP_CUBE_EXCLUSIVE);
    int r = pp_cube_def_region(cube, nasty, "dir/R&D <1>/\"q\".c", 1, 2, nasty, nasty, nasty);
    pp_cube_def_cnode(cube, -1, r, nasty, nasty);
    int m = pp_cube_def_system_node(cube, -1, nasty, nasty);
    int p = pp_cube_def_process(cube, m, nasty, 0);
    pp_cube_def_thread(cube, p, nasty, 0);
    cube_test_file f;
    cube_test_write_load(cube, dir, "e.cubex", &f);
    size_t len;
    const char *xml = anchor_text(&f, &len);
    char *text = strndup(xml, len);
    ck_assert_ptr_nonnull(strstr(text, "a&amp;b&lt;c&gt;d&quot;e&apos;f g\th \xc3\xbc\xe2\x82\xac\xf0\x9d\x84\x9e x?y"));
    ck_assert_ptr_nonnull(strstr(text, "mod=\"dir/R&amp;D &lt;1&gt;/&quot;q&quot;.c\""));
    ck_assert_ptr_null(strstr(text, "&#"));
    free(text);
    /* parsed back, every string is the original (newline -> space, bad byte -> ?) */
    const cube_test_xml *root = f.anchor.root;
    ck_assert_str_eq(cube_test_xml_attr(root->children[3], "key"), expect);
    ck_assert_str_eq(cube_test_xml_attr(root->children[3], "value"), expect);
    const cube_test_xml *region = f.anchor.region[0];
    for (int i = 0; i < 6; i++)
        if (i != 4) /* url is empty */
            ck_assert_str_eq(region->children[i]->text, expect);
    ck_assert_str_eq(cube_test_xml_attr(region, "mod"), "dir/R&D <1>/\"q\".c");
    const cube_test_xml *param = f.anchor.cnode[0]->children[0];
    ck_assert_str_eq(cube_test_xml_attr(param, "parkey"), expect);
    ck_assert_str_eq(cube_test_xml_attr(param, "parvalue"), expect);
    ck_assert_str_eq(f.anchor.location[0]->children[0]->text, expect);
    /* uniq_name is an identifier: sanitised, not escaped */
    ck_assert_str_eq(f.anchor.metric_uniq[0], "visits");
    cube_test_file_free(&f);
    pp_cube_destroy(cube);
}
END_TEST

START_TEST(uniq_name_sanitised)
{
    pp_cube *cube = pp_cube_create();
    ck_assert_int_eq(pp_cube_def_metric(cube, -1, "PAPI TOT/CYC:u=1", NULL, NULL, NULL,
                                        PP_CUBE_UINT64, PP_CUBE_EXCLUSIVE), 0);
    ck_assert_int_eq(pp_cube_def_region(cube, "main", NULL, 0, 0, NULL, NULL, NULL), 0);
    ck_assert_int_eq(pp_cube_def_cnode(cube, -1, 0, NULL, NULL), 0);
    cube_test_add_system(cube, 1);
    cube_test_file f;
    cube_test_write_load(cube, dir, "u.cubex", &f);
    ck_assert_str_eq(f.anchor.metric_uniq[0], "PAPI_TOT_CYC:u=1");
    /* disp_name defaults to the name as given */
    ck_assert_str_eq(f.anchor.root->children[4]->children[0]->children[0]->text, "PAPI TOT/CYC:u=1");
    cube_test_file_free(&f);
    pp_cube_destroy(cube);
}
END_TEST

/* ---- worked example (cube_test_worked_example) ------------------------------- */

START_TEST(worked_example)
{
    /* the time and visits members, byte for byte */
    static const unsigned char time_data[90] = {
        'C', 'U', 'B', 'E', 'X', '.', 'D', 'A', 'T', 'A',
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x3f, 0x9a, 0x99, 0x99, 0x99, 0x99, 0x99, 0xe9, 0x3f,
        0x9a, 0x99, 0x99, 0x99, 0x99, 0x99, 0xe9, 0x3f, 0x9a, 0x99, 0x99, 0x99, 0x99, 0x99, 0xe9, 0x3f,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xe0, 0x3f,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xe0, 0x3f,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xe0, 0x3f};
    static const unsigned char visits_data[90] = {
        'C', 'U', 'B', 'E', 'X', '.', 'D', 'A', 'T', 'A',
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
    pp_cube *cube = cube_test_worked_example();
    /* make the rows of cnodes 2..4 distinct so the order shows (5.4's note) */
    pp_cube_set_double(cube, 1, 2, 1, 0.25);
    pp_cube_set_double(cube, 1, 4, 1, 0.125);
    cube_test_file f;
    cube_test_write_load(cube, dir, "example.cubex", &f);
    const cube_test_member *t = cube_test_tar_find(&f.tar, "1.data");
    const cube_test_member *v = cube_test_tar_find(&f.tar, "0.data");
    ck_assert_uint_eq(t->size, 90);
    ck_assert_mem_eq(f.tar.bytes + v->offset, visits_data, 90);
    /* INCLUSIVE positions 0:c0 1:c1 2:c3 3:c2 4:c4 (5.3): rows 0-2 as in
     * 5.4, row 3 = cnode 2 now 0.25, row 4 = cnode 4 now 0.125 */
    ck_assert_mem_eq(f.tar.bytes + t->offset, time_data, 58);
    double row3[2], row4[2];
    memcpy(row3, f.tar.bytes + t->offset + 58, 16);
    memcpy(row4, f.tar.bytes + t->offset + 74, 16);
    ck_assert_double_eq(row3[0], 0.0);
    ck_assert_double_eq(row3[1], 0.25);
    ck_assert_double_eq(row4[0], 0.0);
    ck_assert_double_eq(row4[1], 0.125);
    /* min/max were never set: CubeLib's empty value of a minimum (DBL_MAX,
     * so an unvisited pair never wins it) and 0 for the maximum */
    for (int c = 0; c < 5; c++)
        for (int l = 0; l < 2; l++) {
            ck_assert_double_eq(cube_test_double(&f, 2, c, l), DBL_MAX);
            ck_assert_uint_eq(cube_test_raw(&f, 3, c, l), 0);
        }
    /* definitions as in 5.2 */
    ck_assert_int_eq(f.anchor.num_regions, 4);
    ck_assert_str_eq(f.anchor.region[3]->children[0]->text, "TASKS");
    ck_assert_str_eq(cube_test_xml_attr(f.anchor.region[0], "begin"), "-1");
    ck_assert_str_eq(cube_test_xml_attr(f.anchor.region[1], "mod"), "prog.c");
    ck_assert_str_eq(cube_test_xml_attr(f.anchor.region[1], "end"), "12");
    ck_assert_str_eq(f.anchor.metric_dtype[2], "MINDOUBLE");
    ck_assert_int_eq(f.anchor.metric_kind[1], CUBE_TEST_INCL);
    ck_assert_int_eq(f.anchor.cnode_parent[4], 3);
    ck_assert_int_eq(f.anchor.cnode_callee[4], 2);
    ck_assert_str_eq(f.anchor.location[1]->children[0]->text, "OMP thread 1");
    cube_test_file_free(&f);
    pp_cube_destroy(cube);
}
END_TEST

/* ---- dtypes ------------------------------------------------------------------- */

START_TEST(all_dtypes)
{
    pp_cube *cube = pp_cube_create();
    int u = pp_cube_def_metric(cube, -1, "u", NULL, NULL, NULL, PP_CUBE_UINT64, PP_CUBE_EXCLUSIVE);
    int i = pp_cube_def_metric(cube, -1, "i", NULL, NULL, NULL, PP_CUBE_INT64, PP_CUBE_SIMPLE);
    int d = pp_cube_def_metric(cube, -1, "d", NULL, NULL, NULL, PP_CUBE_DOUBLE, PP_CUBE_INCLUSIVE);
    int mn = pp_cube_def_metric(cube, -1, "mn", NULL, NULL, NULL, PP_CUBE_MINDOUBLE, PP_CUBE_EXCLUSIVE);
    int mx = pp_cube_def_metric(cube, -1, "mx", NULL, NULL, NULL, PP_CUBE_MAXDOUBLE, PP_CUBE_EXCLUSIVE);
    ck_assert_int_eq(mx, 4);
    int r = pp_cube_def_region(cube, "main", NULL, 0, 0, NULL, NULL, NULL);
    int c0 = pp_cube_def_cnode(cube, -1, r, NULL, NULL);
    int c1 = pp_cube_def_cnode(cube, c0, r, NULL, NULL);
    int c2 = pp_cube_def_cnode(cube, c0, r, NULL, NULL);
    pp_cube_def_cnode(cube, c1, r, NULL, NULL);
    cube_test_add_system(cube, 3);
    ck_assert_int_eq(pp_cube_set_uint64(cube, u, c1, 2, UINT64_MAX), 0);
    ck_assert_int_eq(pp_cube_set_int64(cube, i, c2, 0, INT64_MIN), 0);
    ck_assert_int_eq(pp_cube_set_int64(cube, i, 3, 1, -7), 0);
    ck_assert_int_eq(pp_cube_set_double(cube, d, c0, 1, -0.0), 0);
    ck_assert_int_eq(pp_cube_set_double(cube, d, 3, 2, 1e300), 0);
    ck_assert_int_eq(pp_cube_set_double(cube, mn, c2, 2, DBL_MAX), 0);
    ck_assert_int_eq(pp_cube_set_double(cube, mx, 3, 0, -DBL_MAX), 0);
    ck_assert_int_eq(pp_cube_add_uint64(cube, u, 3, 0, 5), 0);
    ck_assert_int_eq(pp_cube_add_uint64(cube, u, 3, 0, 6), 0);
    ck_assert_int_eq(pp_cube_add_int64(cube, i, c0, 0, -3), 0);
    ck_assert_int_eq(pp_cube_add_int64(cube, i, c0, 0, 1), 0);
    ck_assert_int_eq(pp_cube_add_double(cube, d, c2, 0, 0.5), 0);
    ck_assert_int_eq(pp_cube_add_double(cube, d, c2, 0, 0.25), 0);
    cube_test_file f;
    cube_test_write_load(cube, dir, "t.cubex", &f);
    ck_assert_str_eq(f.anchor.metric_dtype[u], "UINT64");
    ck_assert_str_eq(f.anchor.metric_dtype[i], "INT64");
    ck_assert_str_eq(f.anchor.metric_dtype[d], "DOUBLE");
    ck_assert_str_eq(f.anchor.metric_dtype[mn], "MINDOUBLE");
    ck_assert_str_eq(f.anchor.metric_dtype[mx], "MAXDOUBLE");
    ck_assert_int_eq(f.anchor.metric_kind[i], CUBE_TEST_SIMPLE);
    ck_assert_uint_eq(cube_test_raw(&f, u, c1, 2), UINT64_MAX);
    ck_assert_uint_eq(cube_test_raw(&f, u, 3, 0), 11);
    ck_assert_uint_eq(cube_test_raw(&f, u, c1, 1), 0);
    ck_assert_int_eq((int64_t)cube_test_raw(&f, i, c2, 0), INT64_MIN);
    ck_assert_int_eq((int64_t)cube_test_raw(&f, i, 3, 1), -7);
    ck_assert_int_eq((int64_t)cube_test_raw(&f, i, c0, 0), -2);
    ck_assert_uint_eq(cube_test_raw(&f, d, c0, 1), 0x8000000000000000ULL); /* -0.0 kept */
    ck_assert_double_eq(cube_test_double(&f, d, 3, 2), 1e300);
    ck_assert_double_eq(cube_test_double(&f, d, c2, 0), 0.75);
    ck_assert_double_eq(cube_test_double(&f, mn, c2, 2), DBL_MAX);
    ck_assert_double_eq(cube_test_double(&f, mx, 3, 0), -DBL_MAX);
    /* unset cells: DBL_MAX in the minimum metric only */
    ck_assert_double_eq(cube_test_double(&f, mn, c0, 0), DBL_MAX);
    ck_assert_double_eq(cube_test_double(&f, mn, 3, 2), DBL_MAX);
    ck_assert_uint_eq(cube_test_raw(&f, mx, c0, 0), 0);
    ck_assert_uint_eq(cube_test_raw(&f, d, c1, 1), 0);
    cube_test_file_free(&f);
    pp_cube_destroy(cube);
}
END_TEST

/* ---- documentation links ------------------------------------------------------- */

START_TEST(metric_urls_and_mirrors)
{
    pp_cube *cube = pp_cube_create();
    int a = pp_cube_def_metric(cube, -1, "a", NULL, "sec", "A & B", PP_CUBE_DOUBLE,
                               PP_CUBE_INCLUSIVE);
    int b = pp_cube_def_metric(cube, -1, "b", NULL, NULL, NULL, PP_CUBE_UINT64, PP_CUBE_EXCLUSIVE);
    ck_assert_int_eq(pp_cube_set_metric_url(cube, a, "@mirror@README.md#metric-a"), 0);
    ck_assert_int_eq(pp_cube_set_metric_url(cube, b + 1, "x"), -1);
    ck_assert_int_eq(pp_cube_add_mirror(cube, "file:///usr/share/doc/x/"), 0);
    ck_assert_int_eq(pp_cube_add_mirror(cube, "https://example.org/<x>/"), 0);
    ck_assert_int_eq(pp_cube_add_mirror(cube, ""), -1);
    int r = pp_cube_def_region(cube, "main", NULL, 0, 0, NULL, NULL, NULL);
    pp_cube_def_cnode(cube, -1, r, NULL, NULL);
    cube_test_add_system(cube, 1);
    cube_test_file f;
    cube_test_write_load(cube, dir, "u.cubex", &f);
    const cube_test_xml *metrics = cube_test_xml_child(f.anchor.root, "metrics");
    const cube_test_xml *ma = metrics->children[a], *mb = metrics->children[b];
    ck_assert_str_eq(cube_test_xml_child(ma, "url")->text, "@mirror@README.md#metric-a");
    ck_assert_str_eq(cube_test_xml_child(ma, "descr")->text, "A & B");
    ck_assert_uint_eq(cube_test_xml_child(mb, "url")->text_len, 0);
    const cube_test_xml *mirrors = cube_test_xml_child(cube_test_xml_child(f.anchor.root, "doc"),
                                                       "mirrors");
    ck_assert_int_eq(mirrors->num_children, 2);
    ck_assert_str_eq(mirrors->children[0]->text, "file:///usr/share/doc/x/");
    ck_assert_str_eq(mirrors->children[1]->text, "https://example.org/<x>/");
    cube_test_file_free(&f);
    pp_cube_destroy(cube);
}
END_TEST

Suite *pp_check_suite(void)
{
    Suite *s = suite_create("cube_format");
    TCase *tc = tcase_create("format");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, tar_header_fields);
    tcase_add_test(tc, tar_padding_rule);
    tcase_add_test(tc, members_never_multiple_of_512);
    tcase_add_test(tc, tar_members_and_order);
    tcase_add_test(tc, anchor_structure);
    tcase_add_test(tc, validator_rejects_broken_anchors);
    tcase_add_test(tc, regions_before_cnodes);
    tcase_add_test(tc, escaping);
    tcase_add_test(tc, uniq_name_sanitised);
    tcase_add_test(tc, worked_example);
    tcase_add_test(tc, all_dtypes);
    tcase_add_test(tc, metric_urls_and_mirrors);
    suite_add_tcase(s, tc);
    return s;
}
