/* Edit distance with adjacent transpositions (optimal string alignment): "tpye" is one edit
 * from "type", as a person counts it. */
#include "suggest.h"

#include "diag.h"

#include <string.h>

enum { MAX_WORD = 64 };

static int distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n >= MAX_WORD || m >= MAX_WORD)
        return MAX_WORD;
    int d[MAX_WORD + 1][MAX_WORD + 1];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++) {
        for (size_t j = 1; j <= m; j++) {
            int cost = a[i - 1] != b[j - 1];
            int best = d[i - 1][j - 1] + cost;
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    }
    return d[n][m];
}

/* How many edits still look like a typo rather than another word. */
static int tolerance(const char *word)
{
    size_t len = strlen(word);
    return len <= 3 ? 1 : len <= 7 ? 2 : 3;
}

void suggest_begin(suggest_list *s, const char *word)
{
    s->word = word;
    s->best = NULL;
    s->best_distance = MAX_WORD;
}

void suggest_offer(suggest_list *s, const char *candidate)
{
    if (!s->word || !candidate || strcmp(s->word, candidate) == 0)
        return;
    int d = distance(s->word, candidate);
    if (d < s->best_distance && d <= tolerance(s->word)) {
        s->best = candidate;
        s->best_distance = d;
    }
}

void suggest_offer_all(suggest_list *s, const char *const *candidates)
{
    for (size_t i = 0; candidates[i]; i++)
        suggest_offer(s, candidates[i]);
}

const char *suggest_hint(const suggest_list *s)
{
    return s->best ? pool_printf(" (did you mean '%s'?)", s->best) : "";
}
