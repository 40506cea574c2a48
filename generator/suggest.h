/* "Did you mean" for misspelt keys, types and names in a schema. */
#ifndef BFGEN_SUGGEST_H
#define BFGEN_SUGGEST_H

#include <stddef.h>

/* A list of candidate spellings that grows as a caller finds them. */
typedef struct suggest_list {
    const char *word;  /* what the schema says */
    const char *best;  /* the closest candidate so far, or NULL */
    int best_distance;
} suggest_list;

void suggest_begin(suggest_list *s, const char *word);
void suggest_offer(suggest_list *s, const char *candidate);
void suggest_offer_all(suggest_list *s, const char *const *candidates); /* NULL-terminated */

/* " (did you mean 'x'?)" when a candidate is close enough to be a likely typo, else "". */
const char *suggest_hint(const suggest_list *s);

#endif
