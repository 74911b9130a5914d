#include "config.h"

#include "lib/pp_counters.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "lib/pp_message.h"
#include "lib/pp_nearest.h"

static int pp_counters_n;
static char pp_counters_names[PP_COUNTERS_MAX][PP_COUNTERS_NAME_LEN];
static char pp_counters_descr[PP_COUNTERS_MAX][256];

const char *pp_counters_name(int i)
{
    return i >= 0 && i < pp_counters_n ? pp_counters_names[i] : NULL;
}

const char *pp_counters_description(int i)
{
    return i >= 0 && i < pp_counters_n && pp_counters_descr[i][0] ? pp_counters_descr[i] : NULL;
}

/* The one line about the events left out, built up while they are tried. */
typedef struct pp_counters_note {
    char text[1024];
    size_t len;
    int left_out;
} pp_counters_note;

static void pp_counters_leave_out(pp_counters_note *note, const char *name, const char *why)
{
    int n = snprintf(note->text + note->len, sizeof note->text - note->len, "%s%s (%s)",
                     note->left_out ? ", " : "", name, why);
    if (n > 0)
        note->len += (size_t)n < sizeof note->text - note->len ? (size_t)n
                                                              : sizeof note->text - note->len - 1;
    note->left_out++;
}

static void pp_counters_report(const pp_counters_note *note)
{
    if (!note->left_out)
        return;
    if (!pp_counters_n) {
        pp_message_warn("POMPPROF_METRICS: no event can be counted, the profile has no counters; "
                        "left out: %s", note->text);
        return;
    }
    char kept[512] = "";
    size_t len = 0;
    for (int k = 0; k < pp_counters_n && len + 1 < sizeof kept; k++) {
        int n = snprintf(kept + len, sizeof kept - len, "%s%s", k ? ", " : "",
                         pp_counters_names[k]);
        len += n > 0 ? (size_t)n : 0;
    }
    pp_message_warn("POMPPROF_METRICS: counting %s; left out: %s", kept, note->text);
}

/* Whether names[i] repeats an earlier name. */
static int pp_counters_repeated(const char (*names)[PP_COUNTERS_NAME_LEN], int i)
{
    for (int k = 0; k < i; k++)
        if (strcmp(names[k], names[i]) == 0)
            return 1;
    return 0;
}

#ifdef PP_HAVE_PAPI
#include <dlfcn.h>
#include <papi.h>

#include "lib/pp_dlload.h"

/* PAPI is loaded with dlopen when counters are asked for, not linked: a run
 * without POMPPROF_METRICS never loads libpapi and libpfm (whose start-up
 * relocations cost more than a profiled fib(22)'s clock reads).  The calls
 * below keep PAPI's names and go through pointers resolved once. */
#define PP_PAPI_FUNCS(X)                                                                           \
    X(PAPI_library_init) X(PAPI_thread_init) X(PAPI_register_thread) X(PAPI_strerror)              \
    X(PAPI_create_eventset) X(PAPI_add_event) X(PAPI_start) X(PAPI_stop) X(PAPI_read)              \
    X(PAPI_cleanup_eventset) X(PAPI_destroy_eventset) X(PAPI_event_name_to_code)                   \
    X(PAPI_event_code_to_name) X(PAPI_enum_event) X(PAPI_enum_cmp_event) X(PAPI_num_components)    \
    X(PAPI_get_event_info)

#define PP_PAPI_POINTER(f) __typeof__(&f) f;
static struct {
    PP_PAPI_FUNCS(PP_PAPI_POINTER)
} pp_papi;

/* 0, or -1 with the reason in why (the library or one of its functions missing). */
static int pp_counters_load(char *why, size_t len)
{
#define PP_PAPI_SLOT(f) (void *)&pp_papi.f,
    static const char *const names[] = {PP_PAPI_FUNCS(PP_DLLOAD_NAME)};
    void *const slots[] = {PP_PAPI_FUNCS(PP_PAPI_SLOT)};
#undef PP_PAPI_SLOT
    return pp_dlload(PP_PAPI_SONAME, RTLD_NOW | RTLD_GLOBAL, names, slots,
                     sizeof names / sizeof names[0], why, len);
}

/* from here on PAPI's names are the loaded functions */
#define PP_PAPI_CALL(f) pp_papi.f
#define PAPI_library_init PP_PAPI_CALL(PAPI_library_init)
#define PAPI_thread_init PP_PAPI_CALL(PAPI_thread_init)
#define PAPI_register_thread PP_PAPI_CALL(PAPI_register_thread)
#define PAPI_strerror PP_PAPI_CALL(PAPI_strerror)
#define PAPI_create_eventset PP_PAPI_CALL(PAPI_create_eventset)
#define PAPI_add_event PP_PAPI_CALL(PAPI_add_event)
#define PAPI_start PP_PAPI_CALL(PAPI_start)
#define PAPI_stop PP_PAPI_CALL(PAPI_stop)
#define PAPI_read PP_PAPI_CALL(PAPI_read)
#define PAPI_cleanup_eventset PP_PAPI_CALL(PAPI_cleanup_eventset)
#define PAPI_destroy_eventset PP_PAPI_CALL(PAPI_destroy_eventset)
#define PAPI_event_name_to_code PP_PAPI_CALL(PAPI_event_name_to_code)
#define PAPI_event_code_to_name PP_PAPI_CALL(PAPI_event_code_to_name)
#define PAPI_enum_event PP_PAPI_CALL(PAPI_enum_event)
#define PAPI_enum_cmp_event PP_PAPI_CALL(PAPI_enum_cmp_event)
#define PAPI_num_components PP_PAPI_CALL(PAPI_num_components)
#define PAPI_get_event_info PP_PAPI_CALL(PAPI_get_event_info)

static int pp_counters_codes[PP_COUNTERS_MAX];

static unsigned long pp_counters_thread_id(void)
{
    return (unsigned long)pthread_self();
}

/* PAPI_OK when code can be counted together with the first `with` events
 * kept so far. */
static int pp_counters_try(int code, int with)
{
    int set = PAPI_NULL;
    int ret = PAPI_create_eventset(&set);
    for (int k = 0; ret == PAPI_OK && k < with; k++)
        ret = PAPI_add_event(set, pp_counters_codes[k]);
    if (ret == PAPI_OK)
        ret = PAPI_add_event(set, code);
    if (ret == PAPI_OK && (ret = PAPI_start(set)) == PAPI_OK) {
        long long v[PP_COUNTERS_MAX + 1];
        PAPI_stop(set, v);
    }
    if (set != PAPI_NULL) {
        PAPI_cleanup_eventset(set);
        PAPI_destroy_eventset(&set);
    }
    return ret;
}

/* "did you mean": the closest name among PAPI's presets (countable here or not) and
 * every component's native events (PAPI's own list, as papi_avail and
 * papi_native_avail print it).  Only when a name is unknown, so the walk
 * over a few hundred names costs nothing in a correct run. */
static const char *pp_counters_nearest(const char *name, pp_nearest *near)
{
    pp_nearest_begin(near, name);
    char text[PAPI_MAX_STR_LEN];
    int code = PAPI_PRESET_MASK;
    if (PAPI_enum_event(&code, PAPI_ENUM_FIRST) == PAPI_OK) {
        do {
            if (PAPI_event_code_to_name(code, text) == PAPI_OK)
                pp_nearest_offer(near, text);
        } while (PAPI_enum_event(&code, PAPI_ENUM_EVENTS) == PAPI_OK);
    }
    for (int cid = 0; cid < PAPI_num_components(); cid++) {
        code = PAPI_NATIVE_MASK;
        if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cid) != PAPI_OK)
            continue;
        do {
            if (PAPI_event_code_to_name(code, text) == PAPI_OK)
                pp_nearest_offer(near, text);
        } while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cid) == PAPI_OK);
    }
    return pp_nearest_result(near);
}

static void pp_counters_keep(const char *name, int code)
{
    PAPI_event_info_t info;
    char *d = pp_counters_descr[pp_counters_n];
    d[0] = '\0';
    if (PAPI_get_event_info(code, &info) == PAPI_OK) {
        const char *text = info.long_descr[0] ? info.long_descr : info.short_descr;
        size_t len = strnlen(text, sizeof pp_counters_descr[0] - 1);
        memcpy(d, text, len);
        d[len] = '\0';
    }
    pp_counters_codes[pp_counters_n] = code;
    snprintf(pp_counters_names[pp_counters_n], PP_COUNTERS_NAME_LEN, "%s", name);
    pp_counters_n++;
}

/* The kept events' codes again, from their names: the walk over the native
 * events renumbers them. */
static void pp_counters_recode(void)
{
    for (int k = 0; k < pp_counters_n; k++) {
        int code;
        if (PAPI_event_name_to_code(pp_counters_names[k], &code) == PAPI_OK)
            pp_counters_codes[k] = code;
    }
}

int pp_counters_init(const char (*names)[PP_COUNTERS_NAME_LEN], int n)
{
    pp_counters_n = 0;
    char loadwhy[256];
    if (pp_counters_load(loadwhy, sizeof loadwhy) < 0) {
        pp_message_warn("POMPPROF_METRICS: PAPI could not be loaded (%s); the profile has no "
                        "counters",
                        loadwhy);
        return 0;
    }
    int ret = PAPI_library_init(PAPI_VER_CURRENT);
    if (ret != PAPI_VER_CURRENT) {
        pp_message_warn("POMPPROF_METRICS: PAPI could not be initialised (%s); the profile has no "
                        "counters",
                        ret > 0 ? "version mismatch" : PAPI_strerror(ret));
        return 0;
    }
    if (PAPI_thread_init(pp_counters_thread_id) != PAPI_OK) {
        pp_message_warn("POMPPROF_METRICS: PAPI has no thread support here; the profile has no "
                        "counters");
        return 0;
    }
    /* why each name is left out ("" kept), said in one line at the end */
    static char whys[PP_COUNTERS_NAMES_MAX][160];
    int unknown = 0;
    if (n > PP_COUNTERS_NAMES_MAX)
        n = PP_COUNTERS_NAMES_MAX;
    for (int i = 0; i < n; i++) {
        char *why = whys[i];
        int code;
        why[0] = '\0';
        if (pp_counters_repeated(names, i)) {
            snprintf(why, sizeof whys[0], "named twice");
            continue;
        }
        if (pp_counters_n == PP_COUNTERS_MAX) {
            snprintf(why, sizeof whys[0], "pompprof counts at most %d events", PP_COUNTERS_MAX);
            continue;
        }
        ret = PAPI_event_name_to_code((char *)names[i], &code);
        if (ret != PAPI_OK) {
            snprintf(why, sizeof whys[0], "unknown to PAPI: %s", PAPI_strerror(ret));
            unknown = 1;
            continue;
        }
        ret = pp_counters_try(code, pp_counters_n);
        if (ret != PAPI_OK) {
            /* alone it may work: then the set is full */
            int alone = pp_counters_n ? pp_counters_try(code, 0) : ret;
            snprintf(why, sizeof whys[0], "%s: %s",
                     alone == PAPI_OK ? "not countable together with the events before it"
                                      : "PAPI cannot count it here",
                     PAPI_strerror(alone == PAPI_OK ? ret : alone));
            continue;
        }
        pp_counters_keep(names[i], code);
    }
    /* Walking PAPI's list of native events leaves its perf_event component unable
     * to add events (PAPI 7.0): so only after the last event set was tried, and the
     * threads' sets are made from fresh codes (pp_counters_recode). */
    if (unknown) {
        for (int i = 0; i < n; i++) {
            pp_nearest near;
            const char *guess;
            if (!strncmp(whys[i], "unknown to PAPI", 15) &&
                (guess = pp_counters_nearest(names[i], &near)))
                snprintf(whys[i], sizeof whys[0], "unknown to PAPI; did you mean %s?", guess);
        }
        pp_counters_recode();
    }
    pp_counters_note note = {.len = 0};
    for (int i = 0; i < n; i++)
        if (whys[i][0])
            pp_counters_leave_out(&note, names[i], whys[i]);
    pp_counters_report(&note);
    return pp_counters_n;
}

int pp_counters_thread_start(void)
{
    int set = PAPI_NULL;
    if (PAPI_register_thread() != PAPI_OK || PAPI_create_eventset(&set) != PAPI_OK)
        goto fail;
    for (int k = 0; k < pp_counters_n; k++)
        if (PAPI_add_event(set, pp_counters_codes[k]) != PAPI_OK)
            goto fail;
    if (PAPI_start(set) != PAPI_OK)
        goto fail;
    return set;
fail:
    PP_WARN_ONCE("POMPPROF_METRICS: a thread could not start its PAPI counters; its counters stay 0");
    return -1;
}

void pp_counters_read(int set, uint64_t *values)
{
    long long v[PP_COUNTERS_MAX];
    if (PAPI_read(set, v) != PAPI_OK) {
        memset(values, 0, sizeof(uint64_t) * (size_t)pp_counters_n);
        return;
    }
    for (int k = 0; k < pp_counters_n; k++)
        values[k] = (uint64_t)v[k];
}

#else /* !PP_HAVE_PAPI */

int pp_counters_init(const char (*names)[PP_COUNTERS_NAME_LEN], int n)
{
    pp_counters_note note = {.len = 0};
    pp_counters_n = 0;
    for (int i = 0; i < n; i++)
        if (!pp_counters_repeated(names, i))
            pp_counters_leave_out(&note, names[i], "pompprof was built without PAPI");
    pp_counters_report(&note);
    return 0;
}

int pp_counters_thread_start(void)
{
    return -1;
}

void pp_counters_read(int set, uint64_t *values)
{
    (void)set, (void)values;
}

#endif
