/* pp_nearest: the known name closest to a misspelt one, for "did you mean"
 * in the messages about settings and event names. */
#ifndef PP_NEAREST_H
#define PP_NEAREST_H

#include <stddef.h>

/* Edit distance (insert, delete, substitute one character), comparing
 * letters without regard to case and '-' the same as '_'; names longer than
 * 127 characters count as far from everything. */
unsigned pp_nearest_distance(const char *a, const char *b);

/* Offer candidates one by one; best holds the closest so far. */
typedef struct pp_nearest {
    const char *word;
    char best[128];
    unsigned distance;
} pp_nearest;

void pp_nearest_begin(pp_nearest *n, const char *word);
void pp_nearest_offer(pp_nearest *n, const char *candidate);
/* The closest candidate when it is close enough to be a misspelling of the
 * word (at most a third of its characters differ, at least 2 allowed), else NULL. */
const char *pp_nearest_result(const pp_nearest *n);

#endif
