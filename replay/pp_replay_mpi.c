/* A hybrid trace's MPI part in the replay (doc/trace.md, "One timeline"):
 *
 * - time in an MPI call is a class of its own, neither work nor overhead
 *   nor idleness (pp_replay_model.c classes it as transfer);
 * - of it, waiting: a receive (MPI_Recv, or the call that completes an
 *   MPI_Irecv) that started before the matching send started waits until
 *   then (a late sender); a collective waits for the members it needs: all
 *   of them (barrier, all-to-all, all-reduce ...), the root (broadcast,
 *   scatter), the other members for the root (gather, reduce), the lower
 *   ranks (scan).  That is known only once the partner is seen (for a
 *   collective: after the last event), so each location counts it and
 *   pp_replay_mpi_finish moves it from the transfer class to the waiting
 *   class (pp_replay_class_move); the rest of the MPI time is transfer;
 * - messages are matched send to receive by communicator, sender, receiver
 *   and tag, in order (MPI's messages do not overtake each other there),
 *   on the clock the trace's ClockOffsets correct; a receive that comes
 *   before its send on that clock is counted (the correction failed there);
 * - the task graph follows each matched message: the receiving task
 *   continues with at least the span the sending task had at the send, so
 *   the critical path can cross ranks.  Collectives are not edges.
 *
 * World ranks: an MPI communicator's group lists them; the sender of a
 * message is the rank of the location it was recorded on (its location
 * group). */
#include "replay/pp_replay.h"
#include "replay/pp_replay_fail.h"

#include <stdlib.h>
#include <string.h>

/* OTF2's collective operations (OTF2_CollectiveOp), as the waiting rules group them */
enum { PP_OP_BARRIER = 0, PP_OP_BCAST, PP_OP_GATHER, PP_OP_GATHERV, PP_OP_SCATTER,
       PP_OP_SCATTERV, PP_OP_ALLGATHER, PP_OP_ALLGATHERV, PP_OP_ALLTOALL, PP_OP_ALLTOALLV,
       PP_OP_ALLTOALLW, PP_OP_ALLREDUCE, PP_OP_REDUCE, PP_OP_REDUCE_SCATTER, PP_OP_SCAN,
       PP_OP_EXSCAN, PP_OP_REDUCE_SCATTER_BLOCK };

typedef struct pp_mpi_group {
    uint32_t n;
    uint64_t *members;
    int defined;
} pp_mpi_group;

/* A send or a receive waiting for its partner (a send: the sending task's
 * span, its part in the task region, and its frozen segment). */
typedef struct pp_mpi_pending {
    uint64_t t, since, span, rspan;
    pp_replay_seg *seg;
    uint32_t loc;
} pp_mpi_pending;

/* Messages of one (communicator, sender, receiver, tag): pending sends, or
 * pending receives (on a clock that let a receive come first). */
typedef struct pp_mpi_queue {
    uint32_t comm, from, to, tag;
    int used, sends;
    pp_mpi_pending *items;
    uint32_t head, n, cap;
} pp_mpi_queue;

typedef struct pp_mpi_coll {
    uint64_t begin, end;
    uint32_t loc, comm, op, root, seq;
} pp_mpi_coll;

typedef struct pp_mpi_line {
    uint64_t ts, tr;
    uint32_t ls, lr;
} pp_mpi_line;

#define PP_MPI_LINES 4000

struct pp_replay_mpi {
    pp_mpi_group *groups;
    uint32_t n_groups;
    uint32_t *comm_group; /* by communicator, UINT32_MAX none */
    uint32_t n_comms;
    uint32_t world_group; /* the MPI locations (world rank -> location), UINT32_MAX none */
    pp_mpi_queue *q;
    uint64_t q_cap, q_n;
    pp_mpi_coll *coll;
    uint64_t n_coll, cap_coll;
    uint32_t *seq; /* collectives so far by (rank, communicator): open addressing */
    uint64_t *seq_key;
    uint64_t seq_cap, seq_n;
    pp_mpi_line lines[PP_MPI_LINES];
    uint32_t n_lines;
    /* counts */
    uint64_t sends, receives, matched, bytes, early, late, late_ticks, coll_calls, coll_ticks;
    uint64_t earliest; /* the most a receive came before its send, ticks */
};

static void *pp_mpi_grow(void *p, uint64_t *cap, uint64_t n, size_t each)
{
    if (n < *cap)
        return p;
    uint64_t c = *cap ? 2 * *cap : 64;
    void *q = pp_replay_resize_zero(p, *cap, c, each);
    *cap = c;
    return q;
}

void pp_replay_mpi_init(pp_replay *r)
{
    if (!r->mpi)
        r->mpi = pp_replay_alloc_zero(1, sizeof *r->mpi);
    r->mpi->world_group = UINT32_MAX;
}

/* ---- definitions ------------------------------------------------------------------------ */

void pp_replay_mpi_group(pp_replay *r, uint32_t id, int is_mpi, int is_locations, uint32_t n,
                         const uint64_t *members)
{
    pp_replay_mpi *m = r->mpi;
    if (!m || !is_mpi || id >= 1u << 24)
        return;
    if (id >= m->n_groups) {
        uint64_t cap = m->n_groups;
        m->groups = pp_mpi_grow(m->groups, &cap, id, sizeof *m->groups);
        m->n_groups = (uint32_t)cap;
    }
    pp_mpi_group *g = &m->groups[id];
    free(g->members);
    g->members = pp_replay_alloc(n, sizeof *g->members);
    memcpy(g->members, members, n * sizeof *members);
    g->n = n;
    g->defined = 1;
    if (is_locations)
        m->world_group = id;
}

void pp_replay_mpi_comm(pp_replay *r, uint32_t id, uint32_t group)
{
    pp_replay_mpi *m = r->mpi;
    if (!m || id >= 1u << 24)
        return;
    if (id >= m->n_comms) {
        uint64_t cap = m->n_comms;
        uint32_t old = m->n_comms;
        m->comm_group = pp_mpi_grow(m->comm_group, &cap, id, sizeof *m->comm_group);
        m->n_comms = (uint32_t)cap;
        for (uint32_t i = old; i < m->n_comms; i++)
            m->comm_group[i] = UINT32_MAX;
    }
    m->comm_group[id] = group;
}

/* The world rank of rank `rank` of communicator comm; UINT32_MAX unknown
 * (not an MPI communicator of the trace). */
static uint32_t pp_mpi_world(const pp_replay_mpi *m, uint32_t comm, uint32_t rank)
{
    if (comm >= m->n_comms || m->comm_group[comm] >= m->n_groups)
        return UINT32_MAX;
    const pp_mpi_group *g = &m->groups[m->comm_group[comm]];
    return g->defined && rank < g->n ? (uint32_t)g->members[rank] : UINT32_MAX;
}

/* ---- point to point --------------------------------------------------------------------- */

static uint64_t pp_mpi_qhash(uint32_t comm, uint32_t from, uint32_t to, uint32_t tag)
{
    uint64_t h = ((uint64_t)comm << 32 | from) * 0x9E3779B97F4A7C15ull;
    h ^= ((uint64_t)to << 32 | tag) * 0xC2B2AE3D27D4EB4Full;
    return h ^ (h >> 29);
}

static pp_mpi_queue *pp_mpi_queue_of(pp_replay_mpi *m, uint32_t comm, uint32_t from, uint32_t to,
                                     uint32_t tag)
{
    if (2 * (m->q_n + 1) > m->q_cap) {
        pp_mpi_queue *old = m->q;
        uint64_t cap = m->q_cap;
        m->q_cap = cap ? 2 * cap : 256;
        m->q = pp_replay_alloc_zero(m->q_cap, sizeof *m->q);
        for (uint64_t i = 0; i < cap; i++) {
            if (!old[i].used)
                continue;
            uint64_t j = pp_mpi_qhash(old[i].comm, old[i].from, old[i].to, old[i].tag) &
                         (m->q_cap - 1);
            while (m->q[j].used)
                j = (j + 1) & (m->q_cap - 1);
            m->q[j] = old[i];
        }
        free(old);
    }
    uint64_t j = pp_mpi_qhash(comm, from, to, tag) & (m->q_cap - 1);
    for (; m->q[j].used; j = (j + 1) & (m->q_cap - 1))
        if (m->q[j].comm == comm && m->q[j].from == from && m->q[j].to == to && m->q[j].tag == tag)
            return &m->q[j];
    m->q[j] = (pp_mpi_queue){comm, from, to, tag, 1, 0, NULL, 0, 0, 0};
    m->q_n++;
    return &m->q[j];
}

static void pp_mpi_queue_push(pp_mpi_queue *q, int sends, const pp_mpi_pending *p)
{
    if (q->n == 0) {
        q->head = 0;
        q->sends = sends;
    }
    if (q->head + q->n == q->cap) {
        if (q->head) { /* room at the front: move down */
            memmove(q->items, q->items + q->head, q->n * sizeof *q->items);
            q->head = 0;
        } else {
            uint64_t cap = q->cap;
            q->items = pp_mpi_grow(q->items, &cap, q->n, sizeof *q->items);
            q->cap = (uint32_t)cap;
        }
    }
    q->items[q->head + q->n++] = *p;
}

static pp_mpi_pending pp_mpi_queue_pop(pp_mpi_queue *q)
{
    pp_mpi_pending p = q->items[q->head++];
    q->n--;
    return p;
}

void pp_replay_mpi_enter(pp_replay *r, pp_replay_loc *l, uint64_t t)
{
    (void)r;
    l->mpi_since = t;
}

/* Window part of [a, b) to l's waiting. */
static uint64_t pp_mpi_wait(pp_replay *r, pp_replay_loc *l, uint64_t a, uint64_t b)
{
    uint64_t lo = a > r->from ? a : r->from, hi = b < r->to ? b : r->to;
    if (hi <= lo)
        return 0;
    l->mpi_wait += hi - lo;
    return hi - lo;
}

/* A message matched: its send s, its receive at tr on location lr
 * (receiving since the call's start `since`). */
static void pp_mpi_matched(pp_replay *r, const pp_mpi_pending *s, uint32_t lr, uint64_t tr,
                           uint64_t since)
{
    pp_replay_mpi *m = r->mpi;
    pp_replay_loc *l = &r->locs[lr];
    m->matched++;
    if (tr < s->t) {
        m->early++;
        if (s->t - tr > m->earliest)
            m->earliest = s->t - tr;
    } else {
        if (since && s->t > since) { /* the receive waited for a late sender */
            m->late++;
            m->late_ticks += pp_mpi_wait(r, l, since, s->t < tr ? s->t : tr);
        }
        /* the receiving task continues with at least the sender's span */
        pp_replay_span_join(pp_replay_running(l), s->span, s->rspan, s->seg);
    }
    if (m->n_lines < PP_MPI_LINES && tr >= r->from && s->t <= r->to)
        m->lines[m->n_lines++] = (pp_mpi_line){s->t, tr, s->loc, lr};
    if (r->chrome)
        pp_replay_chrome_message(r->chrome, r, s->loc, s->t, lr, tr, m->matched);
}

void pp_replay_mpi_send(pp_replay *r, pp_replay_loc *l, uint64_t t, uint32_t receiver,
                        uint32_t comm, uint32_t tag, uint64_t bytes)
{
    pp_replay_mpi *m = r->mpi;
    uint32_t to = pp_mpi_world(m, comm, receiver);
    m->sends++;
    m->bytes += bytes;
    if (to == UINT32_MAX)
        return;
    pp_replay_task *task = pp_replay_running(l);
    /* the sender's segment ends here: its later work is not on a path
     * through the message */
    pp_mpi_pending s = {t, l->mpi_since, task ? task->span : 0, task ? task->rspan : 0,
                        task ? pp_replay_span_split(task) : NULL, l->index};
    pp_mpi_queue *q = pp_mpi_queue_of(m, comm, l->rank, to, tag);
    if (q->n && !q->sends) { /* its receive came first */
        pp_mpi_pending rv = pp_mpi_queue_pop(q);
        pp_mpi_matched(r, &s, rv.loc, rv.t, rv.since);
        pp_replay_seg_unref(s.seg);
        return;
    }
    pp_mpi_queue_push(q, 1, &s);
}

void pp_replay_mpi_recv(pp_replay *r, pp_replay_loc *l, uint64_t t, uint32_t sender,
                        uint32_t comm, uint32_t tag, uint64_t bytes)
{
    (void)bytes;
    pp_replay_mpi *m = r->mpi;
    uint32_t from = pp_mpi_world(m, comm, sender);
    m->receives++;
    if (from == UINT32_MAX)
        return;
    pp_mpi_queue *q = pp_mpi_queue_of(m, comm, from, l->rank, tag);
    if (q->n && q->sends) {
        pp_mpi_pending s = pp_mpi_queue_pop(q);
        pp_mpi_matched(r, &s, l->index, t, l->mpi_since);
        pp_replay_seg_unref(s.seg);
        return;
    }
    pp_mpi_pending rv = {t, l->mpi_since, 0, 0, NULL, l->index};
    pp_mpi_queue_push(q, 0, &rv);
}

/* ---- collectives ------------------------------------------------------------------------- */

void pp_replay_mpi_coll_begin(pp_replay *r, pp_replay_loc *l, uint64_t t)
{
    (void)r;
    l->coll_begin = t;
}

/* The number of collectives rank `rank` made on comm before (and counts this one). */
static uint32_t pp_mpi_seq(pp_replay_mpi *m, uint32_t rank, uint32_t comm)
{
    if (2 * (m->seq_n + 1) > m->seq_cap) {
        uint64_t cap = m->seq_cap, ncap = cap ? 2 * cap : 256;
        uint64_t *keys = pp_replay_alloc_zero(ncap, sizeof *keys);
        uint32_t *vals = pp_replay_alloc_zero(ncap, sizeof *vals);
        for (uint64_t i = 0; i < cap; i++) {
            if (!m->seq_key[i])
                continue;
            uint64_t j = (m->seq_key[i] * 0x9E3779B97F4A7C15ull >> 20) & (ncap - 1);
            while (keys[j])
                j = (j + 1) & (ncap - 1);
            keys[j] = m->seq_key[i];
            vals[j] = m->seq[i];
        }
        free(m->seq_key);
        free(m->seq);
        m->seq_key = keys;
        m->seq = vals;
        m->seq_cap = ncap;
    }
    uint64_t key = ((uint64_t)rank << 32 | comm) + 1;
    uint64_t j = (key * 0x9E3779B97F4A7C15ull >> 20) & (m->seq_cap - 1);
    while (m->seq_key[j] && m->seq_key[j] != key)
        j = (j + 1) & (m->seq_cap - 1);
    if (!m->seq_key[j]) {
        m->seq_key[j] = key;
        m->seq_n++;
    }
    return m->seq[j]++;
}

void pp_replay_mpi_coll_end(pp_replay *r, pp_replay_loc *l, uint64_t t, uint32_t op,
                            uint32_t comm, uint32_t root)
{
    pp_replay_mpi *m = r->mpi;
    m->coll_calls++;
    if (comm >= m->n_comms || m->comm_group[comm] == UINT32_MAX)
        return;
    m->coll = pp_mpi_grow(m->coll, &m->cap_coll, m->n_coll, sizeof *m->coll);
    uint64_t begin = l->coll_begin >= l->mpi_since ? l->coll_begin : l->mpi_since;
    m->coll[m->n_coll++] = (pp_mpi_coll){begin, t, l->index, comm, op, root,
                                         pp_mpi_seq(m, l->rank, comm)};
}

static int pp_mpi_coll_cmp(const void *a, const void *b)
{
    const pp_mpi_coll *x = a, *y = b;
    if (x->comm != y->comm)
        return x->comm < y->comm ? -1 : 1;
    if (x->seq != y->seq)
        return x->seq < y->seq ? -1 : 1;
    return x->begin < y->begin ? -1 : x->begin > y->begin;
}

/* The member's rank in the communicator of the instance. */
static uint32_t pp_mpi_comm_rank(const pp_replay *r, const pp_mpi_coll *c)
{
    const pp_replay_mpi *m = r->mpi;
    const pp_mpi_group *g = &m->groups[m->comm_group[c->comm]];
    uint32_t world = r->locs[c->loc].rank;
    for (uint32_t i = 0; g->defined && i < g->n; i++)
        if (g->members[i] == world)
            return i;
    return UINT32_MAX;
}

/* One instance: members c[0 .. n). */
static void pp_mpi_instance(pp_replay *r, const pp_mpi_coll *c, uint64_t n)
{
    pp_replay_mpi *m = r->mpi;
    uint64_t last = 0, root_begin = 0, others = 0;
    int have_root = 0;
    for (uint64_t i = 0; i < n; i++) {
        last = c[i].begin > last ? c[i].begin : last;
        if (pp_mpi_comm_rank(r, &c[i]) == c[i].root) {
            root_begin = c[i].begin;
            have_root = 1;
        } else if (c[i].begin > others) {
            others = c[i].begin;
        }
    }
    for (uint64_t i = 0; i < n; i++) {
        const pp_mpi_coll *x = &c[i];
        uint64_t until = x->begin; /* what it waited for began then */
        int is_root = have_root && pp_mpi_comm_rank(r, x) == x->root;
        switch (x->op) {
        case PP_OP_BCAST:
        case PP_OP_SCATTER:
        case PP_OP_SCATTERV:
            if (have_root && !is_root)
                until = root_begin;
            break;
        case PP_OP_GATHER:
        case PP_OP_GATHERV:
        case PP_OP_REDUCE:
            if (is_root)
                until = others;
            break;
        case PP_OP_SCAN:
        case PP_OP_EXSCAN: {
            uint32_t me = pp_mpi_comm_rank(r, x);
            for (uint64_t k = 0; k < n; k++)
                if (pp_mpi_comm_rank(r, &c[k]) < me && c[k].begin > until)
                    until = c[k].begin;
            break;
        }
        default: until = last; /* the N x N operations wait for everyone */
        }
        if (until > x->begin)
            m->coll_ticks += pp_mpi_wait(r, &r->locs[x->loc], x->begin,
                                         until < x->end ? until : x->end);
    }
}

void pp_replay_mpi_finish(pp_replay *r)
{
    pp_replay_mpi *m = r->mpi;
    if (!m)
        return;
    if (m->n_coll)
        qsort(m->coll, m->n_coll, sizeof *m->coll, pp_mpi_coll_cmp);
    for (uint64_t i = 0, j; i < m->n_coll; i = j) {
        for (j = i + 1; j < m->n_coll && m->coll[j].comm == m->coll[i].comm &&
                        m->coll[j].seq == m->coll[i].seq;
             j++)
            ;
        pp_mpi_instance(r, &m->coll[i], j - i);
    }
    /* the waiting found, out of the transfer class (all of the location's
     * MPI time settled now; a flush inside a waiting call is measurement,
     * so the waiting is at most what the class holds) */
    for (uint32_t i = 0; i < r->n_locs; i++)
        pp_replay_class_move(r->locs[i].acc, PP_CAT_MPI_TRANSFER, PP_CAT_MPI_WAIT,
                             r->locs[i].mpi_wait);
}

/* ---- output -------------------------------------------------------------------------------- */

void pp_replay_mpi_print(FILE *out, const pp_replay *r, int lines)
{
    const pp_replay_mpi *m = r->mpi;
    uint32_t ranks = 0;
    for (uint32_t i = 0; i < r->n_locs; i++)
        if (r->locs[i].rank + 1 > ranks)
            ranks = r->locs[i].rank + 1;
    uint64_t pend_s = 0, pend_r = 0;
    for (uint64_t i = 0; m && i < m->q_cap; i++)
        if (m->q[i].used)
            *(m->q[i].sends ? &pend_s : &pend_r) += m->q[i].n;
    fprintf(out, "{\"ranks\": %u, \"sends\": %llu, \"receives\": %llu, \"matched\": %llu, "
                 "\"bytes\": %llu, \"unmatched_sends\": %llu, \"unmatched_receives\": %llu, "
                 "\"receives_before_send\": %llu, \"earliest_receive\": ",
            ranks, (unsigned long long)(m ? m->sends : 0), (unsigned long long)(m ? m->receives : 0),
            (unsigned long long)(m ? m->matched : 0), (unsigned long long)(m ? m->bytes : 0),
            (unsigned long long)pend_s, (unsigned long long)pend_r,
            (unsigned long long)(m ? m->early : 0));
    pp_replay_json_seconds(out, m ? pp_replay_seconds(r, m->earliest) : 0);
    fprintf(out, ", \"late_senders\": %llu, \"late_sender_wait\": ",
            (unsigned long long)(m ? m->late : 0));
    pp_replay_json_seconds(out, m ? pp_replay_seconds(r, m->late_ticks) : 0);
    fprintf(out, ", \"collectives\": %llu, \"collective_wait\": ",
            (unsigned long long)(m ? m->coll_calls : 0));
    pp_replay_json_seconds(out, m ? pp_replay_seconds(r, m->coll_ticks) : 0);
    if (lines) {
        fprintf(out, ", \"lines\": [");
        for (uint32_t i = 0; m && i < m->n_lines; i++) {
            const pp_mpi_line *x = &m->lines[i];
            fprintf(out, "%s[%.9g, %u, %.9g, %u]", i ? ", " : "",
                    pp_replay_seconds(r, x->ts - r->offset), x->ls,
                    pp_replay_seconds(r, x->tr - r->offset), x->lr);
        }
        fputc(']', out);
    }
    fputc('}', out);
}

void pp_replay_mpi_free(pp_replay *r)
{
    pp_replay_mpi *m = r->mpi;
    if (!m)
        return;
    for (uint32_t i = 0; i < m->n_groups; i++)
        free(m->groups[i].members);
    free(m->groups);
    free(m->comm_group);
    for (uint64_t i = 0; i < m->q_cap; i++) {
        for (uint32_t k = 0; k < m->q[i].n; k++)
            pp_replay_seg_unref(m->q[i].items[m->q[i].head + k].seg);
        free(m->q[i].items);
    }
    free(m->q);
    free(m->coll);
    free(m->seq);
    free(m->seq_key);
    free(m);
    r->mpi = NULL;
}
