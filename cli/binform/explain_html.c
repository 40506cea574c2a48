/* binform explain --html: one self-contained page (inline CSS and script, nothing fetched).
 *
 * The hex view shows the whole file, drawn lazily (only the rows in view exist in the page) from
 * the bytes embedded in base64, each byte coloured by the innermost field that holds it. Beside
 * it, the field tree and an info pane: hovering a byte selects the innermost field (an element
 * of an array, for arrays), hovering a field highlights its bytes. A toolbar goes to an offset
 * and searches for a text, bytes or a number; a data inspector shows the bytes at the cursor as
 * every integer and float type in both byte orders. A file that failed to read shows its tree
 * as far as it was read, the failing field and byte marked.
 *
 * For links and tests, the page runs commands from its URL's fragment on load, separated by
 * '&': byte=N (hover byte N), goto=OFFSET, find=KIND:VALUE (KIND: text, hex, u8 ... f64 with le
 * or be, e.g. f32le:1.5). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "explain_out.h"
#include "explain_page.h"

/* Tree levels open when the page loads; deeper ones open when one of their bytes is hovered
 * (or when clicked: their labels are made then). */
#define OPEN_DEPTH_TEXT "3"
/* Colours of fields in the hex view (the CSS classes k0..k9). */
#define PALETTE 10

static void esc(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\n': fputc(' ', out); break;
        default: fputc(*s, out);
        }
    }
}

/* A string inside the script: JSON escapes, and no "</" that would end the script. */
static void js_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '<')
            fputs("\\u003c", out);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

static void base64(FILE *out, const uint8_t *d, size_t n)
{
    static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)d[i] << 16 | (i + 1 < n ? (uint32_t)d[i + 1] << 8 : 0) | (i + 2 < n ? d[i + 2] : 0);
        char q[4] = {A[v >> 18 & 63], A[v >> 12 & 63], i + 1 < n ? A[v >> 6 & 63] : '=', i + 2 < n ? A[v & 63] : '='};
        fwrite(q, 1, 4, out);
    }
}

/* The page's style and behaviour are explain_page.css and explain_page.js, built in. The
 * script reads the data written before it:
 *   OPEN_DEPTH = the tree levels open when the page loads
 *   L[k] = [name, type, value, doc, failed, path, erratum] of node k (the later ones may be
 *          left out; 0: none; no path: the parent's path and the name)
 *   N[k] = [start, end, parent] of node k (its label in the tree is #nK)
 *   A[k] = [prim + 1, little, element size, first index, starts] for nodes whose elements have
 *          no node (number arrays: prim; structures past the first ones: 0), starts for
 *          elements of varying size
 *   R    = [start, owner, start, owner, ...]: the innermost node of each run of bytes (-1: none)
 *   DOCS = the docs the labels' data-doc number
 *   DATA = the file in base64; FAIL = [node, offset] of a failed read, or null. */

/* Docs are written once each (DOCS in the script) and labels name them by number: the same
 * field's doc would otherwise be repeated for every element of an array. */
typedef struct doc_table {
    const char **docs;
    size_t count, cap;
} doc_table;

/* The number of `doc` in the table, added if new; -1 when out of memory. */
static long doc_number(doc_table *d, const char *doc)
{
    for (size_t i = d->count; i-- > 0;) /* recent docs first: elements of one array follow each other */
        if (d->docs[i] == doc)
            return (long)i;
    if (d->count == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 64;
        const char **docs = realloc(d->docs, cap * sizeof *docs);
        if (!docs)
            return -1;
        d->docs = docs;
        d->cap = cap;
    }
    d->docs[d->count] = doc;
    return (long)d->count++;
}

/* A node's path as the page derives it from its parent's when none is given: "parent.name",
 * "parent[3]" for an element, "name" under the root. */
static int path_derived(const xtree *t, const xnode *n)
{
    const char *pp = n->parent >= 0 ? t->nodes[n->parent].path : "";
    size_t lp = strlen(pp);
    if (n->name[0] == '[')
        return strncmp(n->path, pp, lp) == 0 && strcmp(n->path + lp, n->name) == 0;
    if (!lp)
        return strcmp(n->path, n->name) == 0;
    return strncmp(n->path, pp, lp) == 0 && n->path[lp] == '.' && strcmp(n->path + lp + 1, n->name) == 0;
}

/* L[k] = [name, type, value, doc, failed, path, erratum] of every node, the defaults at the
 * end left out (0: none; a path only where it is not the derived one): the page builds each
 * label when its branch is opened. As markup, a label was ten times this and the browser built
 * them all before it showed anything. */
static void write_nodes(FILE *out, const xtree *t, doc_table *docs, int *ok)
{
    for (size_t i = 0; i < t->count; i++) {
        const xnode *n = &t->nodes[i];
        long d = n->doc ? doc_number(docs, n->doc) : -1;
        if (n->doc && d < 0)
            *ok = 0;
        int explicit_path = !path_derived(t, n);
        int fields = n->erratum ? 7 : explicit_path ? 6 : n->failed ? 5 : d >= 0 ? 4 : n->value ? 3 : 2;
        fputs(i ? ",\n[" : "[", out);
        js_string(out, n->name);
        fputc(',', out);
        js_string(out, n->type);
        if (fields > 2) {
            fputc(',', out);
            n->value ? js_string(out, n->value) : (void)fputc('0', out);
        }
        if (fields > 3)
            fprintf(out, ",%ld", d);
        if (fields > 4)
            fprintf(out, ",%d", n->failed ? 1 : 0);
        if (fields > 5) {
            fputc(',', out);
            explicit_path ? js_string(out, n->path) : (void)fputc('0', out);
        }
        if (fields > 6) {
            fputc(',', out);
            js_string(out, n->erratum);
        }
        fputc(']', out);
    }
}

static void write_toolbar(FILE *out, int big_endian)
{
    static const char *const kinds[] = {"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "f32", "f64"};
    fputs("<div class=\"bar\">\n<span><label for=\"goto\">Go to</label> <input id=\"goto\" placeholder=\"offset: 0x1A2B or 6699\">"
          " <button id=\"goto-go\">Go</button></span>\n"
          "<span><label for=\"find\">Find</label> <select id=\"kind\"><option value=\"text\">text</option>"
          "<option value=\"hex\">hex bytes</option>",
          out);
    /* numbers in the format's byte order first, then the other */
    for (int order = 0; order < 2; order++) {
        const char *e = (order == 0) == big_endian ? "be" : "le";
        for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
            fprintf(out, "<option value=\"%s%s\">%s %s</option>", kinds[i], e, kinds[i], e[0] == 'b' ? "big-endian" : "little-endian");
    }
    fputs("</select> <input id=\"find\" placeholder=\"text, 4d 6f 64, or a number\"> <button id=\"find-go\">Find</button>"
          " <button id=\"prev\" title=\"previous match (shift+Enter)\">&lsaquo;</button>"
          "<button id=\"next\" title=\"next match\">&rsaquo;</button></span>\n"
          "<span id=\"status\"></span>\n</div>\n",
          out);
}

int explain_write_html(FILE *out, const xtree *t, const explain_info *info)
{
    int ok = 1;
    uint64_t unclaimed = explain_unclaimed_count(t);
    int big_endian = !info->endian || info->endian[0] == 'b'; /* the default order of number searches */
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>binform explain: ",
          out);
    esc(out, info->path);
    fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header><h1>", explain_page_css);
    esc(out, info->path);
    fputs("</h1><p>", out);
    esc(out, info->format);
    fputs(" ", out);
    esc(out, info->kind);
    if (info->title) {
        fputs(" (", out);
        esc(out, info->title);
        fputs(")", out);
    }
    fprintf(out, " · %zu bytes · %" PRIu64 " read by fields · <span class=\"key u\">%" PRIu64 " unclaimed</span>"
                 " · <span class=\"key hl\">highlighted</span> · bytes coloured by the innermost field that holds them;"
                 " hover a byte or a field, click to keep it</p>",
            t->size, (uint64_t)t->size - unclaimed, unclaimed);
    if (t->failed) {
        fputs("<div class=\"failure\" id=\"failure\">The read failed at ", out);
        esc(out, t->fail_path[0] ? t->fail_path : "(file)");
        fprintf(out, " @0x%" PRIX64 ": ", t->fail_offset);
        esc(out, t->fail_message);
        fputs(" — the tree shows what was read before it.</div>", out);
    }
    fputs("</header>\n", out);
    write_toolbar(out, big_endian);
    fputs("<div class=\"panes\">\n<section class=\"hex\" id=\"hex\"><div id=\"space\"><div id=\"rows\"></div></div></section>\n"
          "<div class=\"side\">\n<section class=\"tree\" id=\"tree\">\n",
          out);
    fputs("</section>\n<div class=\"info\" id=\"info\">Hover a byte or a field.</div>\n"
          "<div class=\"insp\">Data inspector at <b id=\"insp-off\">—</b><table id=\"insp\"></table></div>\n"
          "</div>\n</div>\n<script>\nconst OPEN_DEPTH = " OPEN_DEPTH_TEXT ";\nconst L = [",
          out);
    doc_table docs = {0};
    write_nodes(out, t, &docs, &ok);
    fputs("];\nconst N = [",
          out);
    for (size_t i = 0; i < t->count; i++)
        fprintf(out, "%s[%" PRIu64 ",%" PRIu64 ",%d]", i ? "," : "", t->nodes[i].start, t->nodes[i].end, t->nodes[i].parent);
    fputs("];\nconst A = {", out);
    int any = 0;
    for (size_t i = 0; i < t->count; i++) {
        const xnode *n = &t->nodes[i];
        if (!n->elem_prim && !n->elem_size && !n->nstarts)
            continue;
        fprintf(out, "%s%zu:[%d,%d,%" PRId64 ",%" PRIu64 ",[", any ? "," : "", i, n->elem_prim, n->elem_little, n->elem_size,
                n->first_index);
        for (size_t k = 0; k < n->nstarts; k++)
            fprintf(out, "%s%" PRIu64, k ? "," : "", n->starts[k]);
        fputs("]]", out);
        any = 1;
    }
    fputs("};\nconst R = [", out);
    int32_t *owner = explain_owners(t);
    if (!owner && t->size)
        ok = 0;
    int32_t last = -2;
    int first = 1;
    for (size_t b = 0; owner && b < t->size; b++) {
        int32_t k = explain_claimed(t, b) ? owner[b] : -1; /* a byte no field reads is unclaimed */
        if (k == last)
            continue;
        last = k;
        fprintf(out, "%s%zu,%d", first ? "" : ",", b, (int)last);
        first = 0;
    }
    free(owner);
    fputs("];\nconst DOCS = [", out);
    for (size_t i = 0; i < docs.count; i++) {
        fputs(i ? "," : "", out);
        js_string(out, docs.docs[i]);
    }
    free(docs.docs);
    fputs("];\nconst FAIL = ", out);
    if (t->failed)
        fprintf(out, "[%d,%" PRIu64 "]", t->fail_node, t->fail_offset);
    else
        fputs("null", out);
    fputs(";\nconst DATA = \"", out);
    base64(out, t->data, t->size);
    fprintf(out, "\";\n%s</script>\n</body>\n</html>\n", explain_page_js);
    return ok;
}
