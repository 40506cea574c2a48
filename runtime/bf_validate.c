/* Collecting findings. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bf_validate.h"

void bf_findings_free(bf_findings *f)
{
    free(f->items);
    memset(f, 0, sizeof *f);
}

int bf_findings_keeps(const bf_findings *f)
{
    size_t limit = f->limit && f->limit < BF_MAX_FINDINGS ? f->limit : BF_MAX_FINDINGS;
    return f->count < limit;
}

void bf_findings_add(bf_findings *f, bf_severity severity, uint64_t offset, const char *path,
                     const char *message, const char *origin)
{
    bf_findings_add_rule(f, severity, offset, path, message, origin, NULL);
}

size_t bf_findings_ignore(bf_findings *f, const char *name)
{
    size_t n = strlen(name), kept = 0, removed = 0;
    for (size_t i = 0; i < f->count; i++) {
        const char *r = f->items[i].rule;
        if (r && strlen(r) >= n && memcmp(r, name, n) == 0 && (r[n] == '\0' || r[n] == '.')) {
            if (f->items[i].severity == BF_SEVERITY_ERROR)
                f->errors--;
            else
                f->warnings--;
            removed++;
        } else {
            f->items[kept++] = f->items[i];
        }
    }
    f->count = kept;
    return removed;
}

void bf_findings_add_rule(bf_findings *f, bf_severity severity, uint64_t offset, const char *path,
                          const char *message, const char *origin, const char *rule)
{
    if (severity == BF_SEVERITY_ERROR)
        f->errors++;
    else
        f->warnings++;
    if (offset > f->max_offset)
        f->max_offset = offset;
    if (!bf_findings_keeps(f)) {
        f->dropped++;
        return;
    }
    if (f->count == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 16;
        bf_finding *bigger = realloc(f->items, cap * sizeof *bigger);
        if (!bigger) {
            f->dropped++;
            return;
        }
        f->items = bigger;
        f->cap = cap;
    }
    bf_finding *n = &f->items[f->count++];
    n->severity = severity;
    n->offset = offset;
    snprintf(n->path, sizeof n->path, "%s", path ? path : "");
    snprintf(n->message, sizeof n->message, "%s", message ? message : "");
    n->origin = origin;
    n->rule = rule;
}

int bf_finding_format(const bf_finding *f, const char *file, char *buf, size_t size)
{
    return snprintf(buf, size, "%s%s%s: %s @0x%llx: %s", file ? file : "", file ? ": " : "",
                    f->severity == BF_SEVERITY_ERROR ? "error" : "warning", f->path[0] ? f->path : "(file)",
                    (unsigned long long)f->offset, f->message);
}

void bf_vctx_init(bf_vctx *v, const void *root, const uint8_t *data, size_t size, bf_findings *out)
{
    /* the arena is never used: validators only read. The frames and the error's text are
     * written before they are read: clearing them (2 KB) would cost small files. */
    bf_ctx *c = &v->c;
    c->data = data;
    c->size = size;
    c->pos = 0;
    c->end = size;
    c->arena = NULL;
    c->err = &v->eval_error;
    c->root = root;
    c->depth = 0;
    c->claimed = NULL;
    c->revision = 0;
    v->eval_error.failed = 0;
    v->eval_error.offset = 0;
    v->eval_error.path[0] = v->eval_error.message[0] = '\0';
    v->out = out;
    v->cache = NULL;
}

/* bf_report for the rule named `rule` (NULL: none). */
static void report_rule(bf_vctx *v, const char *rule, bf_severity severity, uint64_t offset, const char *field,
                        const char *origin, const char *fmt, va_list ap)
{
    if (!bf_findings_keeps(v->out)) { /* only counted: no need to format it */
        bf_findings_add_rule(v->out, severity, offset, NULL, NULL, origin, rule);
        return;
    }
    char path[BF_PATH_MAX], message[BF_MESSAGE_MAX];
    bf_format_path(&v->c, field, path, sizeof path);
    vsnprintf(message, sizeof message, fmt, ap);
    bf_findings_add_rule(v->out, severity, offset, path, message, origin, rule);
}

void bf_report(bf_vctx *v, bf_severity severity, uint64_t offset, const char *field, const char *origin,
               const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_rule(v, NULL, severity, offset, field, origin, fmt, ap);
    va_end(ap);
}

static void report_named(bf_vctx *v, const char *rule, bf_severity severity, uint64_t offset, const char *field,
                         const char *origin, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;
static void report_named(bf_vctx *v, const char *rule, bf_severity severity, uint64_t offset, const char *field,
                         const char *origin, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_rule(v, rule, severity, offset, field, origin, fmt, ap);
    va_end(ap);
}

int bf_eval_failed(bf_vctx *v, const char *field, const char *origin)
{
    if (!v->eval_error.failed)
        return 0;
    bf_report(v, BF_SEVERITY_ERROR, v->eval_error.offset, field, origin, "rule could not be evaluated: %s",
              v->eval_error.message);
    memset(&v->eval_error, 0, sizeof v->eval_error);
    return 1;
}

/* The message of a rule: its text with %d, %x and %g replaced by `values`, in order. */
static void format_message(const char *text, const bf_rule_value *values, char *out, size_t size)
{
    size_t used = 0, next = 0;
    out[0] = '\0';
    for (const char *p = text; *p && used + 1 < size; p++) {
        char piece[48];
        const char *add = piece;
        if (p[0] == '%' && p[1] == 'd')
            snprintf(piece, sizeof piece, "%lld", (long long)values[next++].i);
        else if (p[0] == '%' && p[1] == 'x')
            snprintf(piece, sizeof piece, "%llx", (unsigned long long)values[next++].i);
        else if (p[0] == '%' && p[1] == 'g')
            snprintf(piece, sizeof piece, "%g", values[next++].f);
        else if (p[0] == '%' && p[1] == '%')
            add = "%";
        else {
            out[used++] = *p;
            out[used] = '\0';
            continue;
        }
        p++;
        used += (size_t)snprintf(out + used, size - used, "%s", add);
        if (used >= size)
            used = size - 1;
    }
}

void bf_rule_add(bf_vctx *v, const bf_rule *r, uint64_t offset, const bf_rule_value *values)
{
    if (!bf_findings_keeps(v->out)) { /* only counted: no need to format it */
        bf_findings_add_rule(v->out, r->severity, offset, NULL, NULL, r->origin, r->name);
        return;
    }
    char path[BF_PATH_MAX], message[BF_MESSAGE_MAX];
    bf_format_path(&v->c, r->field, path, sizeof path);
    format_message(r->message, values, message, sizeof message);
    bf_findings_add_rule(v->out, r->severity, offset, path, message, r->origin, r->name);
}

void bf_rule_report(bf_vctx *v, const bf_rule *r, uint64_t offset, const bf_rule_value *values)
{
    bf_rule_add(v, r, offset, values);
    bf_eval_failed(v, r->field, r->origin);
}

void bf_enum_report(bf_vctx *v, const bf_enum_check *e, int64_t x, uint64_t offset, const char *field)
{
    report_named(v, e->rule, BF_SEVERITY_ERROR, offset, field, e->origin, "%lld (0x%llx) is not a value of %s",
                 (long long)x, (unsigned long long)x, e->name);
}

void bf_flags_report(bf_vctx *v, const bf_flags_check *f, int64_t x, uint64_t offset, const char *field)
{
    report_named(v, f->rule, BF_SEVERITY_WARNING, offset, field, f->origin, "bits 0x%llx are not %s flags",
                 (unsigned long long)((uint64_t)x & ~f->mask), f->name);
}
