#include "lib/pp_nearest.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static int pp_nearest_fold(char c)
{
    return c == '-' ? '_' : tolower((unsigned char)c);
}

unsigned pp_nearest_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 127 || lb > 127)
        return ~0u;
    unsigned row[128];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned up = row[j];
            unsigned sub = diag + (pp_nearest_fold(a[i - 1]) != pp_nearest_fold(b[j - 1]));
            unsigned best = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;
            row[j] = sub < best ? sub : best;
            diag = up;
        }
    }
    return row[lb];
}

void pp_nearest_begin(pp_nearest *n, const char *word)
{
    n->word = word;
    n->best[0] = '\0';
    n->distance = ~0u;
}

void pp_nearest_offer(pp_nearest *n, const char *candidate)
{
    unsigned d = pp_nearest_distance(n->word, candidate);
    if (d < n->distance) {
        n->distance = d;
        snprintf(n->best, sizeof n->best, "%s", candidate);
    }
}

const char *pp_nearest_result(const pp_nearest *n)
{
    size_t len = strlen(n->word);
    unsigned allowed = len / 3 > 2 ? (unsigned)(len / 3) : 2;
    return n->best[0] && n->distance <= allowed ? n->best : NULL;
}
