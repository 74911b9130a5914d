/* Fork paths: an interned, append-only global tree of call paths.
 *
 * pp_profile_fork hands a pointer to one of these to the team threads.  A
 * path never changes or goes away (until the test-only reset), so the
 * context stays valid after the forking task instance's nodes have been
 * recycled and is safe to read from any thread.  Forks are rare next to
 * enter/exit, and every tree node caches its path, so the lock below is
 * taken once per distinct fork position.  A path step is a region with its
 * parameter set, as call-tree nodes are: a team forked inside a node split by
 * a parameter hangs below that split node. */
#include "profile/pp_profile_internal.h"

#include <stdlib.h>

#include "lib/pp_message.h"

typedef struct pp_path_block {
    struct pp_path_block *next;
    pp_path path;
} pp_path_block;

static struct {
    pthread_mutex_t lock;
    /* every path ever created, for the reset (chained through a side list) */
    pp_path_block *all;
} pp_paths = {.lock = PTHREAD_MUTEX_INITIALIZER};

pp_path *pp_profile_path_child(pp_path *parent, pp_region_id region, uint32_t pset)
{
    pthread_mutex_lock(&pp_paths.lock);
    pp_path *c = parent ? parent->first_child : NULL, *last = NULL;
    for (; c; last = c, c = c->next_sibling)
        if (c->region == region && c->pset == pset)
            break;
    if (!c) {
        pp_path_block *b = calloc(1, sizeof *b);
        if (b) {
            b->next = pp_paths.all;
            pp_paths.all = b;
            c = &b->path;
            c->parent = parent;
            c->region = region;
            c->pset = pset;
            c->depth = parent ? parent->depth + 1 : 0;
            if (!parent)
                ; /* a root: not linked anywhere, the caller keeps it */
            else if (last)
                last->next_sibling = c;
            else
                parent->first_child = c;
        } else {
            PP_WARN_ONCE("out of memory for a fork path; workers attach below the program root");
        }
    }
    pthread_mutex_unlock(&pp_paths.lock);
    return c;
}

void pp_profile_paths_reset(void)
{
    pthread_mutex_lock(&pp_paths.lock);
    while (pp_paths.all) {
        pp_path_block *n = pp_paths.all->next;
        free(pp_paths.all);
        pp_paths.all = n;
    }
    pthread_mutex_unlock(&pp_paths.lock);
}
