/* The descriptors (functions/pp_func_desc.h) and the unit's registration. */
#include "pp_plugin.h"

#include <string.h>

#include "cgraph.h"
#include "ggc.h"
#include "fold-const.h"
#include "stor-layout.h"
#include "stringpool.h"
#include "tree-iterator.h"
#include "varasm.h"

#include "functions/pp_func_desc.h"

/* The trees this file keeps between passes, in one array that GCC's
 * garbage collector marks (pp_plugin_desc_roots): the type and fields of
 * struct pp_func_desc, the unit's descriptor made last (the head of the
 * chain), the library's functions. */
enum {
    PP_T_TYPE, PP_T_REGION, PP_T_VERSION, PP_T_NEXT, PP_T_NAME, PP_T_MANGLED, PP_T_FILE,
    PP_T_LINE, PP_T_END_LINE, PP_T_LAST, PP_T_ENTER, PP_T_EXIT, PP_T_REGISTER, PP_T_N
};
static tree pp_trees[PP_T_N];
#define pp_desc_type pp_trees[PP_T_TYPE]
#define pp_desc_region pp_trees[PP_T_REGION]
#define pp_desc_version pp_trees[PP_T_VERSION]
#define pp_desc_next pp_trees[PP_T_NEXT]
#define pp_desc_name pp_trees[PP_T_NAME]
#define pp_desc_mangled pp_trees[PP_T_MANGLED]
#define pp_desc_file pp_trees[PP_T_FILE]
#define pp_desc_line pp_trees[PP_T_LINE]
#define pp_desc_end_line pp_trees[PP_T_END_LINE]
#define pp_desc_last pp_trees[PP_T_LAST]
static unsigned pp_desc_count;

const struct ggc_root_tab *pp_plugin_desc_roots(void)
{
    static const struct ggc_root_tab roots[] = {
        {pp_trees, PP_T_N, sizeof(tree), &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node},
        LAST_GGC_ROOT_TAB};
    return roots;
}

static tree pp_plugin_field(const char *name, tree type, tree chain)
{
    tree f = build_decl(BUILTINS_LOCATION, FIELD_DECL, get_identifier(name), type);
    DECL_CHAIN(f) = chain;
    return f;
}

/* struct pp_func_desc, field by field (finish_builtin_struct takes the
 * fields chained in reverse). */
static tree pp_plugin_desc_type(void)
{
    if (pp_desc_type)
        return pp_desc_type;
    tree str = build_pointer_type(build_qualified_type(char_type_node, TYPE_QUAL_CONST));
    tree u32 = unsigned_type_node, i32 = integer_type_node;
    gcc_assert(TYPE_PRECISION(u32) == 32 && TYPE_PRECISION(i32) == 32);
    pp_desc_region = pp_plugin_field("region", u32, NULL_TREE);
    pp_desc_version = pp_plugin_field("version", u32, pp_desc_region);
    pp_desc_type = make_node(RECORD_TYPE);
    pp_desc_next = pp_plugin_field("next", build_pointer_type(pp_desc_type), pp_desc_version);
    pp_desc_name = pp_plugin_field("name", str, pp_desc_next);
    pp_desc_mangled = pp_plugin_field("mangled", str, pp_desc_name);
    pp_desc_file = pp_plugin_field("file", str, pp_desc_mangled);
    pp_desc_line = pp_plugin_field("line", i32, pp_desc_file);
    pp_desc_end_line = pp_plugin_field("end_line", i32, pp_desc_line);
    finish_builtin_struct(pp_desc_type, "pp_func_desc", pp_desc_end_line, NULL_TREE);
    return pp_desc_type;
}

static tree pp_plugin_string(tree field, const char *s)
{
    return fold_convert(TREE_TYPE(field), build_string_literal(strlen(s) + 1, s));
}

/* A file-scope static variable, compiler-made, without debug information. */
static tree pp_plugin_static_var(const char *name, tree type, tree init)
{
    tree var = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier(name), type);
    TREE_STATIC(var) = 1;
    TREE_PUBLIC(var) = 0;
    DECL_EXTERNAL(var) = 0;
    DECL_ARTIFICIAL(var) = 1;
    DECL_IGNORED_P(var) = 1;
    TREE_ADDRESSABLE(var) = 1;
    TREE_USED(var) = 1;
    DECL_INITIAL(var) = init;
    varpool_node::finalize_decl(var);
    return var;
}

tree pp_plugin_desc_new(const pp_plugin_function *f)
{
    tree type = pp_plugin_desc_type();
    vec<constructor_elt, va_gc> *v = NULL;
    CONSTRUCTOR_APPEND_ELT(v, pp_desc_region, build_int_cst(TREE_TYPE(pp_desc_region), 0));
    CONSTRUCTOR_APPEND_ELT(v, pp_desc_version,
                           build_int_cst(TREE_TYPE(pp_desc_version), PP_FUNC_DESC_VERSION));
    CONSTRUCTOR_APPEND_ELT(v, pp_desc_next,
                           pp_desc_last ? build_fold_addr_expr(pp_desc_last)
                                        : build_int_cst(TREE_TYPE(pp_desc_next), 0));
    CONSTRUCTOR_APPEND_ELT(v, pp_desc_name, pp_plugin_string(pp_desc_name, f->name));
    CONSTRUCTOR_APPEND_ELT(v, pp_desc_mangled, pp_plugin_string(pp_desc_mangled, f->mangled));
    CONSTRUCTOR_APPEND_ELT(v, pp_desc_file, pp_plugin_string(pp_desc_file, f->file));
    CONSTRUCTOR_APPEND_ELT(v, pp_desc_line, build_int_cst(TREE_TYPE(pp_desc_line), f->line));
    CONSTRUCTOR_APPEND_ELT(v, pp_desc_end_line,
                           build_int_cst(TREE_TYPE(pp_desc_end_line), f->end_line));
    tree init = build_constructor(type, v);
    TREE_CONSTANT(init) = 1;
    TREE_STATIC(init) = 1;
    char name[48];
    snprintf(name, sizeof name, "__pompprof_fd.%u", pp_desc_count++);
    pp_desc_last = pp_plugin_static_var(name, type, init);
    return build_fold_addr_expr(pp_desc_last);
}

static tree pp_plugin_library_decl(const char *name, tree type, tree *cache)
{
    if (!*cache) {
        *cache = build_fn_decl(name, type);
        TREE_NOTHROW(*cache) = 1;
        /* the library never calls back into the unit */
        DECL_ATTRIBUTES(*cache) =
            tree_cons(get_identifier("leaf"), NULL_TREE, DECL_ATTRIBUTES(*cache));
    }
    return *cache;
}

tree pp_plugin_enter_decl(void)
{
    return pp_plugin_library_decl(
        "__pompprof_func_enter", build_function_type_list(void_type_node, ptr_type_node, NULL_TREE),
        &pp_trees[PP_T_ENTER]);
}

tree pp_plugin_exit_decl(void)
{
    return pp_plugin_library_decl(
        "__pompprof_func_exit", build_function_type_list(void_type_node, ptr_type_node, NULL_TREE),
        &pp_trees[PP_T_EXIT]);
}

void pp_plugin_desc_register_unit(void)
{
    if (!pp_desc_last)
        return;
    tree reg = pp_plugin_library_decl(
        "__pompprof_func_register",
        build_function_type_list(void_type_node, ptr_type_node, NULL_TREE),
        &pp_trees[PP_T_REGISTER]);
    tree body = NULL_TREE;
    append_to_statement_list(build_call_expr(reg, 1, build_fold_addr_expr(pp_desc_last)), &body);
    /* before the unit's own constructors (default priority 65535), which
     * may call its functions */
    cgraph_build_static_cdtor('I', body, MAX_RESERVED_INIT_PRIORITY + 1);
    pp_desc_last = NULL_TREE;
}
