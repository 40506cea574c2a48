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
    const char *rule;   /* the rule's stable name (FORMAT.Type.name), static; NULL for a reader's error */
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
/* bf_findings_add for a finding of the rule named `rule` (static text). */
void bf_findings_add_rule(bf_findings *f, bf_severity severity, uint64_t offset, const char *path,
                          const char *message, const char *origin, const char *rule);
/* Removes the kept findings whose rule is `name` or whose rule's name starts with `name` and a
 * '.' (p3m.Bone silences every rule of P3M's Bone); returns how many were removed. The counts
 * of errors and warnings go down with them. */
size_t bf_findings_ignore(bf_findings *f, const char *name);
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

/* ---- rules: the generated validator evaluates them, the runtime reports them ---- */

/* One check of a schema, as a validator reports it. In `message`, %d is an integer, %x an
 * integer in hex digits, %g a float (from the values given with it, in order), %% a '%'. */
typedef struct bf_rule {
    bf_severity severity;
    const char *field;   /* reported at the current path + this ("" or NULL: the path itself) */
    const char *message;
    const char *origin;  /* the document's sentence it comes from, or NULL */
    const char *name;    /* its stable name, FORMAT.Type.name, for --ignore */
} bf_rule;

/* One value of a message: .i for %d and %x, .f for %g. */
typedef union bf_rule_value {
    int64_t i;
    double f;
} bf_rule_value;

/* Whether a rule whose check gave `ok` failed. When an expression helper failed while
 * evaluating the check, reports instead that the rule could not be evaluated, and returns 0. */
static inline int bf_rule_fails(bf_vctx *v, const bf_rule *r, int ok)
{
    if (v->eval_error.failed) {
        bf_eval_failed(v, r->field, r->origin);
        return 0;
    }
    return !ok;
}

/* Adds the finding of a failed check at `offset`, its message formatted from `values`. */
void bf_rule_add(bf_vctx *v, const bf_rule *r, uint64_t offset, const bf_rule_value *values);
/* bf_rule_add, then, when evaluating the message's values failed, reports that too. */
void bf_rule_report(bf_vctx *v, const bf_rule *r, uint64_t offset, const bf_rule_value *values);

/* The values an enum field may hold (every value the document lists). */
typedef struct bf_enum_check {
    const char *name;
    const char *origin;
    const int64_t *values;
    size_t count;
    const char *rule; /* FORMAT.Enum.enum */
} bf_enum_check;

/* The bits a flags field may have set. */
typedef struct bf_flags_check {
    const char *name;
    const char *origin;
    uint64_t mask;
    const char *rule; /* FORMAT.Flags.flags */
} bf_flags_check;

void bf_enum_report(bf_vctx *v, const bf_enum_check *e, int64_t x, uint64_t offset, const char *field);
void bf_flags_report(bf_vctx *v, const bf_flags_check *f, int64_t x, uint64_t offset, const char *field);

/* An error when `x` is none of the enum's values. */
static inline void bf_check_enum(bf_vctx *v, const bf_enum_check *e, int64_t x, uint64_t offset, const char *field)
{
    for (size_t i = 0; i < e->count; i++)
        if (e->values[i] == x)
            return;
    bf_enum_report(v, e, x, offset, field);
}

/* A warning when `x` has bits set that are none of the flags. */
static inline void bf_check_flags(bf_vctx *v, const bf_flags_check *f, int64_t x, uint64_t offset, const char *field)
{
    if ((uint64_t)x & ~f->mask)
        bf_flags_report(v, f, x, offset, field);
}

/* ---- named values, computed once per structure while validating ---- */

/* The last structure a value was computed for, and the result. */
typedef struct bf_memo {
    const void *of;
    uint64_t at;   /* over views: where the structure starts + 1 (0: none yet) */
    int64_t index; /* over views: its index (elements that take no bytes share where) */
    int64_t i;
    double f;
} bf_memo;

/* Keeps `x`, computed for `of`, unless the context has failed: then the rule using it
 * reports the failure, and it is computed again next time. (A failure is never cleared
 * while a value is computed, so a context that had failed before still has.) */
static inline int64_t bf_memo_keep_i(const bf_ctx *c, bf_memo *m, const void *of, int64_t x)
{
    if (!c->err->failed) {
        m->of = of;
        m->i = x;
    }
    return x;
}

static inline double bf_memo_keep_f(const bf_ctx *c, bf_memo *m, const void *of, double x)
{
    if (!c->err->failed) {
        m->of = of;
        m->f = x;
    }
    return x;
}

/* Over views, a structure is known by where it starts and its index. */
static inline int bf_memo_at(const bf_memo *m, size_t offset, int64_t index)
{
    return m->at == (uint64_t)offset + 1 && m->index == index;
}

static inline int64_t bf_memo_keep_at_i(const bf_ctx *c, bf_memo *m, size_t offset, int64_t index, int64_t x)
{
    if (!c->err->failed) {
        m->at = (uint64_t)offset + 1;
        m->index = index;
        m->i = x;
    }
    return x;
}

static inline double bf_memo_keep_at_f(const bf_ctx *c, bf_memo *m, size_t offset, int64_t index, double x)
{
    if (!c->err->failed) {
        m->at = (uint64_t)offset + 1;
        m->index = index;
        m->f = x;
    }
    return x;
}

#ifdef __cplusplus
}
#endif

#endif
