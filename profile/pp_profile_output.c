/* Output: the unified tree through cube-writer/ into a .cubex file, and the
 * rules for where that file goes (POMPPROF_OUTPUT, never overwrite, a name
 * of its own per process in a shared directory, fallback to $TMPDIR or /tmp
 * when the target cannot be written). */
#include "profile/pp_profile_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cube-writer/pp_cube.h"
#include "lib/pp_message.h"
#include "lib/pp_timer.h"
#include "profile/pp_profile_metrics.h"
#include "profile/pp_profile_output.h"
#include "profile/pp_profile_runfacts.h"

/* ---- where the file goes ----------------------------------------------------- */

static int pp_output_mkdir_p(const char *dir, char *err, size_t err_size)
{
    char tmp[PATH_MAX];
    if (snprintf(tmp, sizeof tmp, "%s", dir) >= (int)sizeof tmp) {
        snprintf(err, err_size, "path too long: %s", dir);
        return -1;
    }
    for (char *p = tmp + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            if (mkdir(tmp, 0777) != 0 && errno != EEXIST) {
                snprintf(err, err_size, "cannot create directory %s: %s", tmp, strerror(errno));
                return -1;
            }
            *p = c;
            if (c == '\0')
                break;
        }
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, err_size, "%s is not a directory", dir);
        return -1;
    }
    return 0;
}

static int pp_output_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* pompprof-<program>-<YYYYmmdd-HHMMSS>-<pid> (the time of init) */
void pp_profile_output_default_name(const char *program, char *buf, size_t size)
{
    time_t t = (time_t)pp_profile_g.wall_init;
    if (!t)
        t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    snprintf(buf, size, "pompprof-%s-%s-%ld", program, stamp, (long)getpid());
}

int pp_profile_output_target(const char *setting, const char *program, char *dir, size_t dir_size,
                             char *file, size_t file_size, char *err, size_t err_size)
{
    char name[PATH_MAX];
    if (!setting || !*setting) {
        pp_profile_output_default_name(program, name, sizeof name);
        setting = name;
    }
    int is_file = pp_output_ends_with(setting, ".cubex");
    if (is_file) {
        const char *slash = strrchr(setting, '/');
        if (!slash)
            snprintf(dir, dir_size, ".");
        else if (slash == setting)
            snprintf(dir, dir_size, "/");
        else
            snprintf(dir, dir_size, "%.*s", (int)(slash - setting), setting);
        if (snprintf(file, file_size, "%s", setting) >= (int)file_size)
            goto too_long;
    } else {
        if (snprintf(dir, dir_size, "%s", setting) >= (int)dir_size)
            goto too_long;
        size_t n = strlen(dir);
        while (n > 1 && dir[n - 1] == '/')
            dir[--n] = '\0';
        if (snprintf(file, file_size, "%s/profile.cubex", dir) >= (int)file_size)
            goto too_long;
    }
    if (pp_output_mkdir_p(dir, err, err_size))
        return -1;
    if (!is_file && access(file, F_OK) == 0) {
        /* The directory holds a profile already: of a rerun, of another
         * process of the job, of a program this one ran.  This process's
         * is named by program and process, without a word on the program's
         * stderr; pompprof-report DIR takes the newest and says which. */
        if (snprintf(file, file_size, "%s/profile.%s.%ld.cubex", dir, program,
                     (long)getpid()) >= (int)file_size)
            goto too_long;
    }
    if (access(file, F_OK) == 0) {
        /* never overwrite: profile.1.cubex, profile.2.cubex, ... beside it */
        char base[PATH_MAX];
        snprintf(base, sizeof base, "%.*s", (int)(strlen(file) - strlen(".cubex")), file);
        for (unsigned i = 1;; i++) {
            if (snprintf(file, file_size, "%s.%u.cubex", base, i) >= (int)file_size)
                goto too_long;
            if (access(file, F_OK) != 0)
                break;
        }
    }
    return 0;
too_long:
    snprintf(err, err_size, "path too long: %s", setting);
    return -1;
}

/* ---- CUBE4 ---------------------------------------------------------------------- */

typedef struct pp_output_ids {
    int *region_map; /* region id -> cube region id */
    uint32_t n_regions;
    int unknown_region;
} pp_output_ids;

static int pp_output_region(pp_cube *cube, pp_output_ids *ids, pp_region_id r)
{
    if (r < ids->n_regions && ids->region_map[r] >= 0)
        return ids->region_map[r];
    if (ids->unknown_region < 0)
        ids->unknown_region = pp_cube_def_region(cube, "unknown", NULL, -1, -1, "user", "unknown", "");
    return ids->unknown_region;
}

/* The parameters of cnode id: numeric ones first, then strings (CubeLib's
 * order; each group in parameter order).  The values beyond the cap are the
 * string "<other>", whatever the parameter's type. */
static int pp_output_parameters(pp_cube *cube, int id, uint32_t pset)
{
    const pp_param_entry *e;
    uint32_t n = pp_profile_pset_entries(pset, &e);
    for (int numeric = 1; numeric >= 0; numeric--) {
        for (uint32_t i = 0; i < n; i++) {
            if ((e[i].val.type == PP_PARAM_INT64) != numeric)
                continue;
            const char *name = pp_profile_param_name(e[i].key);
            char num[32];
            int rc;
            if (e[i].val.type == PP_PARAM_INT64) {
                snprintf(num, sizeof num, "%" PRId64, e[i].val.v);
                rc = pp_cube_add_cnode_parameter(cube, id, PP_CUBE_PARAM_NUMERIC, name, num);
            } else {
                rc = pp_cube_add_cnode_parameter(cube, id, PP_CUBE_PARAM_STRING, name,
                                                 e[i].val.type == PP_PARAM_STRING ? e[i].val.str
                                                                                  : "<other>");
            }
            if (rc < 0)
                return -1;
        }
    }
    return 0;
}

/* Define every cnode in pre-order (a parent before its children), keeping
 * the cube id of each unified node. */
static int pp_output_cnodes(pp_cube *cube, pp_output_ids *ids, const pp_unode *root, int *cnode_of)
{
    for (const pp_unode *n = root; n; n = pp_unified_next(n)) {
        int parent = n->parent ? cnode_of[n->parent->id] : -1;
        int id = pp_cube_def_cnode(cube, parent, pp_output_region(cube, ids, n->region), NULL, NULL);
        if (id < 0 || (n->pset && pp_output_parameters(cube, id, n->pset) < 0))
            return -1;
        cnode_of[n->id] = id;
    }
    return 0;
}

static int pp_output_fact(void *cube, const char *key, const char *value)
{
    char name[192];
    snprintf(name, sizeof name, "pompprof::%s", key);
    return pp_cube_set_attr(cube, name, value) < 0;
}

/* Build the whole report in memory; NULL with a reason in err. */
static pp_cube *pp_output_build(const pp_unified *u, char *err, size_t err_size)
{
    pp_cube *cube = pp_cube_create();
    if (!cube) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    pp_output_ids ids = {.unknown_region = -1};
    int *cnode_of = NULL;
    char buf[64];
    /* the rate the trace is written with too: one second is the same in both */
    double tps = u->ticks_per_second > 0 ? u->ticks_per_second : pp_timer_ticks_per_second();
    double wall = (double)(u->t_finalize - pp_profile_g.t_init) / tps;
    uint64_t max_active = 0;
    for (uint32_t i = 0; i < u->n_locations; i++)
        if (u->max_active_tasks[i] > max_active)
            max_active = u->max_active_tasks[i];

    int bad = 0;
    bad |= pp_cube_set_attr(cube, "Creator", "pompprof " PACKAGE_VERSION) < 0;
    bad |= pp_cube_set_attr(cube, "CUBE_CT_AGGR", "SUM") < 0;
    bad |= pp_cube_set_attr(cube, "pompprof::program", pp_profile_g.program) < 0;
    bad |= pp_cube_set_attr(cube, "pompprof::command_line",
                            pp_profile_g.command_line ? pp_profile_g.command_line : "") < 0;
    bad |= pp_cube_set_attr(cube, "pompprof::date", pp_profile_g.date) < 0;
    snprintf(buf, sizeof buf, "%.9g", wall);
    bad |= pp_cube_set_attr(cube, "pompprof::wall_time", buf) < 0;
    /* the CPU time the process had by now: what pompprof-score takes as the
     * program's time, which a busy machine does not stretch as it does the
     * wall-clock times (doc/functions.md) */
    struct timespec cpu;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu) == 0) {
        snprintf(buf, sizeof buf, "%.9g", (double)cpu.tv_sec + (double)cpu.tv_nsec * 1e-9);
        bad |= pp_cube_set_attr(cube, "pompprof::cpu_time", buf) < 0;
    }
    bad |= pp_cube_set_attr(cube, "pompprof::timer", pp_timer_name()) < 0;
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)max_active);
    bad |= pp_cube_set_attr(cube, "pompprof::max_active_tasks", buf) < 0;
    bad |= pp_profile_runfacts_each(pp_output_fact, cube);

    pp_profile_metric_ids metrics;
    bad |= pp_profile_metrics_define(cube, u, &metrics) < 0;

    ids.n_regions = pp_profile_region_count();
    ids.region_map = malloc((ids.n_regions ? ids.n_regions : 1) * sizeof(int));
    cnode_of = malloc((u->n_nodes ? u->n_nodes : 1) * sizeof(int));
    if (!ids.region_map || !cnode_of) {
        snprintf(err, err_size, "out of memory");
        goto fail;
    }
    for (uint32_t r = 0; r < ids.n_regions; r++) {
        const pp_region_rec *rec = pp_profile_region_get(r);
        ids.region_map[r] = pp_cube_def_region(cube, rec->name, rec->file, rec->begin_line,
                                               rec->end_line, rec->paradigm, rec->role, "");
        bad |= ids.region_map[r] < 0;
        if (rec->mangled && ids.region_map[r] >= 0)
            bad |= pp_cube_region_set_mangled(cube, ids.region_map[r], rec->mangled) < 0;
    }
    if (bad || pp_output_cnodes(cube, &ids, u->root, cnode_of)) {
        snprintf(err, err_size, "%s", pp_cube_error(cube));
        goto fail;
    }

    if (pp_profile_system_define(cube, u) < 0) {
        snprintf(err, err_size, "%s", *pp_cube_error(cube) ? pp_cube_error(cube) : "out of memory");
        goto fail;
    }
    pp_profile_metrics_store(cube, u, &metrics, cnode_of, tps);
    free(ids.region_map);
    free(cnode_of);
    return cube;
fail:
    free(ids.region_map);
    free(cnode_of);
    pp_cube_destroy(cube);
    return NULL;
}

static int pp_output_try(pp_cube *cube, const char *setting, char *file, size_t file_size,
                         int *renamed, char *err, size_t err_size)
{
    char dir[PATH_MAX];
    for (int attempt = 0; attempt < 3; attempt++) {
        if (pp_profile_output_target(setting, pp_profile_g.program, dir, sizeof dir, file,
                                     file_size, err, err_size))
            return -1;
        *renamed = 0;
        if (setting && *setting) {
            /* the name differs from the asked one: the file existed */
            char asked[PATH_MAX + 320];
            if (pp_output_ends_with(setting, ".cubex")) {
                snprintf(asked, sizeof asked, "%s", setting);
                *renamed = strcmp(asked, file) != 0;
            } else {
                /* profile.cubex or profile.<program>.<pid>.cubex: as asked */
                snprintf(asked, sizeof asked, "%s/profile.%s.%ld.cubex", dir,
                         pp_profile_g.program, (long)getpid());
                *renamed = strcmp(asked, file) != 0;
                snprintf(asked, sizeof asked, "%s/profile.cubex", dir);
                *renamed = *renamed && strcmp(asked, file) != 0;
            }
        }
        if (pp_cube_write(cube, file) == 0)
            return 0;
        snprintf(err, err_size, "%s", pp_cube_error(cube));
        /* a file of that name appeared meanwhile: pick the next name */
        if (access(file, F_OK) != 0)
            return -1;
    }
    return -1;
}

int pp_profile_output_write(const pp_unified *u, const char *setting, char *path_out,
                            size_t path_size)
{
    char err[512] = "", file[PATH_MAX];
    int renamed = 0;
    pp_cube *cube = pp_output_build(u, err, sizeof err);
    if (!cube) {
        pp_message_warn("cannot build the profile: %s; no profile written", err);
        return -1;
    }
    int rc = pp_output_try(cube, setting, file, sizeof file, &renamed, err, sizeof err);
    if (rc == 0 && renamed)
        pp_message_warn("%s%s exists; profile written to %s instead", setting,
                        pp_output_ends_with(setting, ".cubex") ? "" : "/profile.cubex", file);
    if (rc != 0) {
        /* One line for the whole story: what failed, why, and where the
         * profile went instead. */
        char first_err[512];
        snprintf(first_err, sizeof first_err, "%s", err);
        const char *asked = setting ? setting : "the current directory";
        const char *tmp = getenv("TMPDIR");
        if (!tmp || !*tmp)
            tmp = "/tmp";
        char name[512], fallback[PATH_MAX + 600];
        pp_profile_output_default_name(pp_profile_g.program, name, sizeof name);
        snprintf(fallback, sizeof fallback, "%s/%s", tmp, name);
        rc = pp_output_try(cube, fallback, file, sizeof file, &renamed, err, sizeof err);
        if (rc == 0)
            pp_message_warn("cannot write the profile to %s (%s); written to %s instead", asked,
                            first_err, file);
        else
            pp_message_warn("cannot write the profile to %s (%s) nor to %s (%s); no profile written",
                            asked, first_err, fallback, err);
    } else {
        pp_message_verbose(1, "profile written to %s", file);
    }
    if (rc == 0 && path_out)
        snprintf(path_out, path_size, "%s", file);
    pp_cube_destroy(cube);
    return rc;
}
