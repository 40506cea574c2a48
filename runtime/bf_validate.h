/* Validation findings: every rule that fails adds one, with severity, field path, byte offset,
 * message and the document sentence the rule comes from. */
#ifndef BF_VALIDATE_H
#define BF_VALIDATE_H

#include "bf_gen.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { BF_SEVERITY_ERROR, BF_SEVERITY_WARNING } bf_severity;

typedef struct bf_finding {
    bf_severity severity;
    uint64_t offset;
    char path[BF_PATH_MAX];
    char message[BF_MESSAGE_MAX];
    const char *origin; /* static text from the schema, or NULL */
} bf_finding;

/* Findings of one file. At most BF_MAX_FINDINGS (or the findings' own limit) are kept; the
 * rest are only counted, without formatting their messages. */
#define BF_MAX_FINDINGS 10000
typedef struct bf_findings {
    bf_finding *items;
    size_t count, cap;
    size_t errors, warnings, dropped;
    size_t limit;        /* findings kept at most; 0: BF_MAX_FINDINGS */
    uint64_t max_offset; /* the largest offset of any finding, dropped ones included */
} bf_findings;

void bf_findings_free(bf_findings *f);
/* Whether another finding would be kept rather than only counted. */
int bf_findings_keeps(const bf_findings *f);
/* Adds a finding (a copy); used for reader errors too. */
void bf_findings_add(bf_findings *f, bf_severity severity, uint64_t offset, const char *path,
                     const char *message, const char *origin);
/* "FILE: error: PATH @0xOFF: MESSAGE" */
int bf_finding_format(const bf_finding *f, const char *file, char *buf, size_t size);

/* The validator's context: a reading context for paths and expression helpers. */
typedef struct bf_vctx {
    bf_ctx c;
    bf_error eval_error; /* where expression helpers report (index out of range, ...) */
    bf_findings *out;
    void *cache; /* the generated validator's values computed once per document */
} bf_vctx;

void bf_vctx_init(bf_vctx *v, const void *root, const uint8_t *data, size_t size, bf_findings *out);

/* Adds a finding at the current path (+ `field`). */
void bf_report(bf_vctx *v, bf_severity severity, uint64_t offset, const char *field, const char *origin,
               const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* After evaluating a rule: when an expression helper failed (an index out of range, a
 * division by zero), reports that the rule could not be evaluated, clears it, returns 1. */
int bf_eval_failed(bf_vctx *v, const char *field, const char *origin);

#ifdef __cplusplus
}
#endif

#endif
