#include "config.h"

#include "lib/pp_counters.h"

#include <pthread.h>
#include <string.h>

#include "lib/pp_message.h"

static int pp_counters_n;
static char pp_counters_names[PP_COUNTERS_MAX][64];

const char *pp_counters_name(int i)
{
    return i >= 0 && i < pp_counters_n ? pp_counters_names[i] : NULL;
}

#ifdef PP_HAVE_PAPI
#include <papi.h>

static int pp_counters_codes[PP_COUNTERS_MAX];

static unsigned long pp_counters_thread_id(void)
{
    return (unsigned long)pthread_self();
}

int pp_counters_init(const char (*names)[64], int n)
{
    pp_counters_n = 0;
    int ret = PAPI_library_init(PAPI_VER_CURRENT);
    if (ret != PAPI_VER_CURRENT) {
        pp_message_warn("POMPPROF_METRICS: PAPI could not be initialised (%s); the profile has no "
                        "hardware counters",
                        ret > 0 ? "version mismatch" : PAPI_strerror(ret));
        return 0;
    }
    if (PAPI_thread_init(pp_counters_thread_id) != PAPI_OK) {
        pp_message_warn("POMPPROF_METRICS: PAPI has no thread support here; the profile has no "
                        "hardware counters");
        return 0;
    }
    /* Try each event in a set with the ones accepted so far: an event that
     * cannot be added or started (no such counter, conflicts) is left out. */
    for (int i = 0; i < n && pp_counters_n < PP_COUNTERS_MAX; i++) {
        int code;
        ret = PAPI_event_name_to_code((char *)names[i], &code);
        if (ret != PAPI_OK) {
            pp_message_warn("POMPPROF_METRICS: event %s is unknown to PAPI (%s); left out", names[i],
                            PAPI_strerror(ret));
            continue;
        }
        int set = PAPI_NULL;
        ret = PAPI_create_eventset(&set);
        for (int k = 0; ret == PAPI_OK && k < pp_counters_n; k++)
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
        if (ret != PAPI_OK) {
            pp_message_warn("POMPPROF_METRICS: PAPI cannot count %s here (%s); left out", names[i],
                            PAPI_strerror(ret));
            continue;
        }
        pp_counters_codes[pp_counters_n] = code;
        strcpy(pp_counters_names[pp_counters_n], names[i]);
        pp_counters_n++;
    }
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

int pp_counters_init(const char (*names)[64], int n)
{
    (void)names;
    if (n > 0)
        pp_message_warn("POMPPROF_METRICS is set but pompprof was built without PAPI; the profile "
                        "has no hardware counters");
    pp_counters_n = 0;
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
