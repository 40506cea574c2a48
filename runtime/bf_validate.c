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
}

int bf_finding_format(const bf_finding *f, const char *file, char *buf, size_t size)
{
    return snprintf(buf, size, "%s%s%s: %s @0x%llx: %s", file ? file : "", file ? ": " : "",
                    f->severity == BF_SEVERITY_ERROR ? "error" : "warning", f->path[0] ? f->path : "(file)",
                    (unsigned long long)f->offset, f->message);
}

void bf_vctx_init(bf_vctx *v, const void *root, const uint8_t *data, size_t size, bf_findings *out)
{
    /* the arena is never used: validators only read */
    bf_ctx_init(&v->c, data, size, NULL, &v->eval_error);
    v->c.root = root;
    v->out = out;
    v->cache = NULL;
}

void bf_report(bf_vctx *v, bf_severity severity, uint64_t offset, const char *field, const char *origin,
               const char *fmt, ...)
{
    if (!bf_findings_keeps(v->out)) { /* only counted: no need to format it */
        bf_findings_add(v->out, severity, offset, NULL, NULL, origin);
        return;
    }
    char path[BF_PATH_MAX], message[BF_MESSAGE_MAX];
    bf_format_path(&v->c, field, path, sizeof path);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    bf_findings_add(v->out, severity, offset, path, message, origin);
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
