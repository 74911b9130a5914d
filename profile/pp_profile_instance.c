/* Task-instance trees, kept per task construct for the next instance.
 *
 * Programs like fib run millions of tasks of a few nanoseconds, and the
 * instances of one construct nearly always have the same small tree (the
 * task root and the same few scheduling points below it).  Building a fresh
 * tree per instance, merging it child by child into the construct's merged
 * tree and freeing it cost more than the task itself.  So a finished
 * instance tree is not taken apart: its values are added into the merged
 * tree node by node (every instance node remembers its merged twin, so no
 * lookups), then zeroed, and the tree waits on its construct's spare list
 * (the merged root's `link`) for the next instance, which enters the nodes
 * that already exist.
 *
 * Even that walk costs about as much as a tiny task, and it only matters
 * when the instance added nodes (their twins must be created now, in this
 * instance's first-visit order).  So an instance during which no node was
 * created while it was the current task (t->grew, set by the child lookup's
 * slow path; an instance that forks a parallel region, whose team's nodes
 * grow its tree while another task is current, counts as grown: a cheap,
 * conservative test) only records its root's visit and
 * leaves all its values in the tree; they add up with the next instances'
 * (sums add, min/max combine), and the next drain of that tree (an
 * instance that grows it) or pp_profile_instance_flush (before
 * unification) moves them all at once.  Invariant: after every retire,
 * every node of a kept tree with values has its merged twin.
 *
 * The result is the one of build-merge-free: a node no instance visited
 * since the last drain has zero visits and adds nothing; nodes the merged
 * tree lacks are created in this instance's first-visit order (a node
 * already in a spare tree was merged when it was first visited, so only
 * nodes new in this instance can be new there, and they were appended in
 * visit order).
 *
 * Memory: a construct owns at most as many trees as it had instances active
 * at once on this thread, each at most the size of the construct's merged
 * tree, and a tree with many more unused children than used nodes is taken
 * apart instead of kept (checked when it grows: a tree that did not grow
 * keeps the size it was admitted with); so the arena stays bounded by the
 * active instances' needs, never by the number of tasks.
 *
 * Parameters: each (construct, parameter set) has its own merged root below
 * TASKS with its own spare trees.  A parameter call in a task's root ends
 * the root's visit without counting it (the time so far stays there, the
 * node is flagged PP_NODE_PARTIAL, which counts as "has values" below), the
 * tree is kept like a finished one, and the task goes on in a spare tree of
 * the merged root of (construct, new set) (pp_profile_split.c). */
#include "profile/pp_profile_internal.h"

typedef struct pp_instance_count {
    size_t nodes, visited;
} pp_instance_count;

/* Node values and the extra metrics' ones (rare: MPI calls in tasks). */
static inline void pp_instance_move(pp_location *loc, pp_node *src, pp_node *dst, uint32_t n_ctr)
{
    pp_profile_node_move(src, dst, n_ctr);
    if (PP_UNLIKELY(src->extra != NULL))
        pp_profile_extra_move(loc, src, dst);
}

/* Move the values of src's visited descendants into their merged twins,
 * counting the nodes looked at and the visited ones.  A node not visited by
 * this instance has an unvisited subtree (a region is closed before its
 * parent), so it is skipped whole.  A twin missing so far is created below
 * the parent's twin (src's own twin is set by the caller): in pre-order, so
 * in this instance's first-visit order. */
static void pp_profile_instance_drain(pp_location *loc, pp_node *src, uint32_t n_ctr,
                                      pp_instance_count *k)
{
    pp_node *c = src->first_child;
    while (c) {
        k->nodes++;
        if (pp_profile_node_has_values(c)) {
            k->visited++;
            pp_node *d = c->link;
            if (!d && c->parent->link)
                d = c->link = pp_profile_child_slow(loc, c->parent->link, c->key, 1);
            pp_instance_move(loc, c, d, n_ctr);
            if (c->first_child) { /* leaves, the common case, stop here */
                c = c->first_child;
                continue;
            }
        }
        while (c != src && !c->next_sibling)
            c = c->parent;
        c = c == src ? NULL : c->next_sibling;
    }
}

pp_node *pp_profile_instance_new(pp_location *loc, pp_node *m)
{
    pp_node *root = pp_profile_node_new(loc, NULL, m->key, PP_NODE_TASK_ROOT, 1);
    if (!root)
        return NULL;
    root->depth = 2; /* program -> TASKS -> task */
    root->link = m;
    /* made only when all of m's other trees are in use: their number is a
     * new candidate for the most instances active at once */
    if (++m->instance_trees > m->instances_max)
        m->instances_max = m->instance_trees;
    return root;
}

void pp_profile_instance_keep_slow(pp_location *loc, pp_node *root)
{
    pp_node *merged = root->link;
    if (!merged) {
        merged = pp_profile_child_slow(loc, loc->tasks, root->key, 1);
        root->link = merged;
    }
    /* Drain the whole tree now: twins of the nodes new in this instance
     * are created here, in this instance's first-visit order (the order
     * the merged tree's children keep), and a tree that grew is checked
     * against the size policy below. */
    uint32_t n_ctr = pp_profile_g.n_ctr;
    pp_instance_move(loc, root, merged, n_ctr);
    pp_instance_count k = {1, 1}; /* the root */
    pp_profile_instance_drain(loc, root, n_ctr, &k);
    /* keep the tree unless it is mostly unused nodes (a construct whose
     * instances take ever different paths would otherwise keep the union of
     * all their trees once per active instance) */
    if (merged && k.nodes <= 2 * k.visited + 8) {
        root->next_sibling = merged->link;
        merged->link = root;
    } else {
        if (merged)
            merged->instance_trees--;
        pp_profile_subtree_free(loc, root);
    }
}

void pp_profile_instance_flush(pp_location *loc)
{
    uint32_t n_ctr = pp_profile_g.n_ctr;
    pp_instance_count k = {0, 0};
    for (pp_node *m = loc->tasks->first_child; m; m = m->next_sibling) {
        for (pp_node *root = m->link; root; root = root->next_sibling) {
            if (!pp_profile_node_has_values(root))
                continue; /* drained already: so is its whole tree */
            pp_instance_move(loc, root, m, n_ctr);
            pp_profile_instance_drain(loc, root, n_ctr, &k);
        }
    }
}
