/* File sets: the other files a file's schema says belong with it (file kind key `members`),
 * found by name beside it, read, validated and checked against it. */
#ifndef BINFORM_FILE_SET_H
#define BINFORM_FILE_SET_H

#include "bf_validate.h"
#include "document.h"

/* Checks the members of `owner` (read and valid enough to walk); adds findings to `out`:
 * a missing or unreadable member, the member's own findings (their path starts with
 * "[MEMBER FILE] ") and the schema's cross-file checks. Thread-safe. */
void file_set_check(const document *owner, bf_findings *out);

#endif
