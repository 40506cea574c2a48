/* binform explain, as text: one line per structure, field and element, in schema order. */
#include <inttypes.h>
#include <string.h>

#include "explain_out.h"

/* Raw bytes shown per line. */
#define BYTES_SHOWN 16
/* Doc text shown per line. */
#define DOC_SHOWN 100

/* A doc string on one line, cut after DOC_SHOWN characters. */
static void print_doc(FILE *out, const char *doc)
{
    int n = 0, space = 0;
    const char *p = doc;
    for (; *p && n < DOC_SHOWN; p++) {
        if (*p == ' ' || *p == '\n' || *p == '\t') {
            space = 1;
            continue;
        }
        if (space && n) {
            fputc(' ', out);
            n++;
        }
        space = 0;
        fputc(*p, out);
        n++;
    }
    while (*p == ' ' || *p == '\n' || *p == '\t')
        p++;
    if (*p)
        fputs("…", out);
}

static void print_bytes(FILE *out, const xtree *t, uint64_t start, uint64_t end)
{
    fputs("  [", out);
    for (uint64_t i = start; i < end && i < t->size && i < start + BYTES_SHOWN; i++)
        fprintf(out, "%s%02x", i > start ? " " : "", t->data[i]);
    fputs(end - start > BYTES_SHOWN ? " …]" : "]", out);
}

void explain_write_text(FILE *out, const xtree *t, const explain_info *info)
{
    uint64_t unclaimed = explain_unclaimed_count(t);
    fprintf(out, "%s: %s %s (%s), %zu bytes, %" PRIu64 " read by fields, %" PRIu64 " unclaimed\n", info->path,
            info->format, info->kind, info->title ? info->title : "", t->size, (uint64_t)t->size - unclaimed, unclaimed);
    if (t->failed)
        fprintf(out, "%s: the read failed: %s @0x%" PRIx64 ": %s\n%s: the tree below is what was read before it; "
                     "the field marked !! is where it failed\n",
                info->path, t->fail_path[0] ? t->fail_path : "(file)", t->fail_offset, t->fail_message, info->path);
    int w = 4;
    while (w < 16 && ((uint64_t)t->size >> (4 * w)) != 0)
        w++;
    for (size_t i = 0; i < t->count; i++) {
        const xnode *n = &t->nodes[i];
        if (n->end > n->start)
            fprintf(out, "0x%0*" PRIx64 "-0x%0*" PRIx64 " %6" PRIu64 "  ", w, n->start, w, n->end - 1, n->end - n->start);
        else
            fprintf(out, "%*s %6s  ", 2 * w + 5, "", "-"); /* no bytes of its own */
        fprintf(out, "%*s%s: %s", 2 * n->depth, "", n->path[0] ? n->path : n->name, n->type);
        if (n->value)
            fprintf(out, " = %s", n->value);
        if (!explain_has_children(t, i) && n->end > n->start)
            print_bytes(out, t, n->start, n->end);
        if (n->doc) {
            fputs("  # ", out);
            print_doc(out, n->doc);
        }
        if (n->erratum)
            fputs(" [erratum]", out);
        if (n->failed)
            fprintf(out, "  !! read failed here @0x%" PRIx64 ": %s", t->fail_offset, t->fail_message);
        fputc('\n', out);
    }
    fprintf(out, "unclaimed: %" PRIu64 " byte%s\n", unclaimed, unclaimed == 1 ? "" : "s");
    for (uint64_t i = 0; i < t->size;) {
        if (explain_claimed(t, i)) {
            i++;
            continue;
        }
        uint64_t j = i;
        while (j < t->size && !explain_claimed(t, j))
            j++;
        fprintf(out, "0x%0*" PRIx64 "-0x%0*" PRIx64 " %6" PRIu64 "  (unclaimed)", w, i, w, j - 1, j - i);
        print_bytes(out, t, i, j);
        fputc('\n', out);
        i = j;
    }
}
