/* A job's raw files into its one archive, in one process
 * (pp_trace_resume.h): when the ranks of a traced MPI job did not reach
 * MPI_Finalize together, each left its raw files in
 * DIR/<name>.raw/rank<r>; this writes the archive they would have written
 * together -- each rank's threads converted with its clock and location
 * numbers, the ranks' definitions unified, each rank's mapping tables and
 * ClockOffsets (pp_trace_rankdefs.h) -- rank after rank. */
#define _GNU_SOURCE
#include "trace/pp_trace_resume.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/pp_trace_otf2.h"

struct pp_trace_resume_job {
    pp_trace_conv top;             /* OTF2's errors reported to it */
    OTF2_ErrorCallback previous;
    OTF2_Archive *archive;
    int failed;
    pp_trace_rank *ranks;          /* the converted ranks' definitions */
    uint32_t n_ranks, cap_ranks;
    uint64_t loc_offset;           /* the locations written so far */
    uint64_t t_first, t_last;      /* on rank 0's clock */
    double ticks_per_second;
};

pp_trace_resume_job *pp_trace_resume_job_open(const char *dir, const char *name, char *why,
                                              size_t why_size)
{
    char otf2[512];
    if (pp_trace_otf2_load(otf2, sizeof otf2) != 0) {
        snprintf(why, why_size, "cannot load the OTF2 library (%s)", otf2);
        return NULL;
    }
    pp_trace_resume_job *w = calloc(1, sizeof *w);
    if (!w || pp_trace_resume_begin(dir, name) != 0) {
        snprintf(why, why_size, "%s", w ? "its path is too long" : "out of memory");
        free(w);
        return NULL;
    }
    w->t_first = UINT64_MAX;
    w->previous = OTF2_Error_RegisterCallback(pp_trace_otf2_error, &w->top);
    w->archive = OTF2_Archive_Open(dir, name, OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
                                   OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    w->failed = !w->archive ||
                OTF2_Archive_SetFlushCallbacks(w->archive,
                                               (OTF2_FlushCallbacks *)&pp_trace_flush_callbacks,
                                               NULL) != OTF2_SUCCESS ||
                OTF2_Archive_SetSerialCollectiveCallbacks(w->archive) != OTF2_SUCCESS ||
                OTF2_Archive_SetCreator(w->archive, "pompprof " PACKAGE_VERSION) != OTF2_SUCCESS ||
                OTF2_Archive_OpenEvtFiles(w->archive) != OTF2_SUCCESS;
    return w;
}

/* Convert r's threads (the layer's buffers now) as the job's locations
 * from w->loc_offset, and keep the rank's definitions in *out: 0 or -1. */
static int pp_resume_job_convert(pp_trace_resume_job *w, pp_trace_resume *r,
                                 const pp_trace_defs *defs, pp_trace_rank *out)
{
    pp_trace_conv c = {.archive = w->archive, .defs = defs, .flush_region = defs->n_regions,
                       .job = &r->job, .loc_offset = w->loc_offset,
                       .n_locations = r->n_locations,
                       .t_end = pp_trace_clock(&r->job, defs->t_end)};
    c.events = calloc(c.n_locations + 1, sizeof *c.events);
    c.defined = calloc(c.n_locations + 1, 1);
    memset(out, 0, sizeof *out);
    int rc = -1;
    if (c.events && c.defined) {
        pp_trace_otf2_event_sizes(&c);
        if (pp_trace_job_convert(&c, UINT64_MAX / 4) == 0 &&
            pp_trace_job_summary(&c, &r->job, out) == 0)
            rc = 0;
        else
            pp_trace_rank_free(out);
    }
    if (c.otf2_failed)
        rc = -1;
    pp_trace_conv_free(&c);
    return rc;
}

int pp_trace_resume_job_rank(pp_trace_resume_job *w, pp_trace_resume *r, int rank, uint64_t t0,
                             const pp_trace_defs *defs)
{
    if (w->failed)
        return -1;
    if (w->n_ranks == w->cap_ranks) {
        uint32_t cap = w->cap_ranks ? 2 * w->cap_ranks : 16;
        pp_trace_rank *grown = realloc(w->ranks, cap * sizeof *grown);
        if (!grown) {
            w->failed = 1;
            return -1;
        }
        w->ranks = grown;
        w->cap_ranks = cap;
    }
    r->job.rank = rank;
    pp_trace_resume_lend(r, t0);
    pp_trace_rank *k = &w->ranks[w->n_ranks];
    int rc = pp_resume_job_convert(w, r, defs, k);
    pp_trace_resume_return();
    if (rc != 0) {
        w->failed = 1;
        return -1;
    }
    w->n_ranks++;
    w->loc_offset += k->n_locations;
    if (!w->ticks_per_second)
        w->ticks_per_second = k->ticks_per_second;
    w->t_first = k->t_first < w->t_first ? k->t_first : w->t_first;
    w->t_last = k->t_last > w->t_last ? k->t_last : w->t_last;
    return 0;
}

double pp_trace_resume_job_seconds(const pp_trace_resume_job *w)
{
    if (w->ticks_per_second <= 0 || w->t_last <= w->t_first)
        return 0;
    return (double)(w->t_last - w->t_first) / w->ticks_per_second;
}

/* The unified definitions: the global ones, each rank's local ones. */
static int pp_resume_job_definitions(pp_trace_resume_job *w, int size)
{
    pp_trace_jobdefs u;
    if (pp_trace_unify(w->ranks, w->n_ranks, (uint32_t)size, &u) != 0)
        return -1;
    int failed = OTF2_Archive_OpenDefFiles(w->archive) != OTF2_SUCCESS;
    for (uint32_t i = 0; !failed && i < w->n_ranks; i++)
        failed |= pp_trace_otf2_job_locals(w->archive, &w->ranks[i], &u.maps[i]) != 0;
    failed |= OTF2_Archive_CloseDefFiles(w->archive) != OTF2_SUCCESS;
    failed |= pp_trace_otf2_job_globals(w->archive, &u) != 0;
    pp_trace_jobdefs_free(&u);
    return failed ? -1 : 0;
}

int pp_trace_resume_job_close(pp_trace_resume_job *w, int size, const pp_trace_defs *facts)
{
    int failed = w->failed || !w->n_ranks ||
                 OTF2_Archive_CloseEvtFiles(w->archive) != OTF2_SUCCESS;
    if (!failed)
        failed = pp_resume_job_definitions(w, size) != 0;
    if (!failed) {
        pp_trace_conv c = {.archive = w->archive};
        pp_trace_write_facts(&c, facts);
    }
    if (w->archive && OTF2_Archive_Close(w->archive) != OTF2_SUCCESS)
        failed = 1;
    OTF2_Error_RegisterCallback(w->previous, NULL);
    failed |= w->top.otf2_failed;
    if (failed)
        pp_trace_job_remove(0, (uint32_t)w->loc_offset, 1); /* nothing of it is left */
    for (uint32_t i = 0; i < w->n_ranks; i++)
        pp_trace_rank_free(&w->ranks[i]);
    free(w->ranks);
    free(w);
    pp_trace_reset();
    return failed ? -1 : 0;
}
