/* File sets: the other files a file's schema says belong with it (file kind key `members`),
 * found by name beside it, read, validated and checked against it. */
#ifndef BINFORM_FILE_SET_H
#define BINFORM_FILE_SET_H

#include "bf_validate.h"
#include "document.h"

/* The libraries found by '*' patterns (a folder's .tml files), read once and kept for a whole
 * run, as many files share them. Thread-safe; NULL: read them for every file. */
typedef struct file_set_cache file_set_cache;

file_set_cache *file_set_cache_new(void);
/* Closes every file the cache kept; NULL is fine. */
void file_set_cache_free(file_set_cache *cache);

/* Checks the members of `owner` (read and valid enough to walk); adds findings to `out`:
 * a missing or unreadable member, the member's own findings (their path starts with
 * "[MEMBER FILE] ") and the schema's cross-file checks. Thread-safe. `cache` may be NULL. */
void file_set_check(const document *owner, file_set_cache *cache, bf_findings *out);

#endif
