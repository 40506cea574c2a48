/* binform explain --html: one self-contained page (inline CSS and script, nothing fetched):
 * the hex view and the field tree side by side; hovering a byte shows the field that holds it,
 * hovering a field highlights its bytes. */
#include <inttypes.h>

#include "explain_out.h"

/* Bytes drawn in the hex view; the tree still covers the whole file. */
#define HEX_LIMIT 65536
/* Tree levels open when the page loads; deeper ones open when one of their bytes is hovered. */
#define OPEN_DEPTH 3

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

static const char CSS[] =
    "*{box-sizing:border-box}\n"
    "body{margin:0;height:100vh;display:flex;flex-direction:column;color:#1c2330;background:#fff;"
    "font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}\n"
    "header{padding:.6rem 1rem;border-bottom:1px solid #d5dbe4;background:#f5f7fa}\n"
    "header h1{font-size:1.2rem;margin:0 0 .2rem}\n"
    "header p{margin:0;color:#5d6776}\n"
    ".key{display:inline-block;padding:0 .4em;border-radius:3px}\n"
    ".panes{flex:1;display:flex;min-height:0}\n"
    ".hex{flex:0 0 auto;overflow:auto;padding:.5rem 1rem;border-right:1px solid #d5dbe4;"
    "font:12px/1.5 ui-monospace,'SFMono-Regular',Menlo,Consolas,'DejaVu Sans Mono',monospace}\n"
    ".r{white-space:nowrap}\n"
    ".o{color:#8a94a3;margin-right:1ch}\n"
    ".hex i{font-style:normal;display:inline-block;width:2.6ch;text-align:center;cursor:default}\n"
    ".hex i:nth-child(8){margin-right:1ch}\n"
    ".a{color:#5d6776;margin-left:1ch;white-space:pre}\n"
    ".u{background:#ffd5d5;color:#9b1c1c}\n"
    ".hl{background:#ffe27a!important;color:#1c2330!important}\n"
    ".side{flex:1;display:flex;flex-direction:column;min-width:0}\n"
    ".tree{flex:1;overflow:auto;padding:.5rem 1rem}\n"
    ".tree ul{list-style:none;margin:0;padding-left:1.1rem}\n"
    ".tree>ul{padding-left:0}\n"
    ".tree summary{cursor:pointer}\n"
    ".n{border-radius:3px;padding:0 .2em}\n"
    ".n b{font-weight:600}\n"
    ".t{color:#1f56c3}\n"
    ".v{font-family:ui-monospace,'SFMono-Regular',Menlo,Consolas,'DejaVu Sans Mono',monospace;font-size:.92em}\n"
    ".g{color:#8a94a3;font-size:.85em}\n"
    ".d{color:#5d6776;font-size:.88em}\n"
    ".e{color:#7a4d00;font-weight:600}\n"
    ".info{border-top:1px solid #d5dbe4;background:#f5f7fa;padding:.5rem 1rem;min-height:4.5rem;max-height:30vh;overflow:auto}\n";

/* Hover logic: N[k] = [start, end, parent] of node k, the tree's label of node k is #nK.
 * A page opened as FILE.html#byte=N starts with byte N selected. */
static const char SCRIPT[] =
    "(function () {\n"
    "  'use strict';\n"
    "  const B = Array.from(document.querySelectorAll('#hex i'));\n"
    "  const shown = B.length;\n"
    "  const owner = new Int32Array(shown).fill(-1);\n"
    "  for (let k = 0; k < N.length; k++) {\n"
    "    for (let i = N[k][0]; i < N[k][1] && i < shown; i++) owner[i] = k;\n"
    "  }\n"
    "  B.forEach(function (el, i) { el.bfByte = i; });\n"
    "  const info = document.getElementById('info');\n"
    "  let cur = -1;\n"
    "  function hex(n) { return '0x' + n.toString(16).toUpperCase(); }\n"
    "  function mark(k, on) {\n"
    "    if (k < 0) return;\n"
    "    for (let i = N[k][0]; i < N[k][1] && i < shown; i++) B[i].classList.toggle('hl', on);\n"
    "    const el = document.getElementById('n' + k);\n"
    "    if (el) el.classList.toggle('hl', on);\n"
    "  }\n"
    "  function select(k, fromHex) {\n"
    "    if (k === cur) return;\n"
    "    mark(cur, false);\n"
    "    cur = k;\n"
    "    mark(k, true);\n"
    "    if (k < 0) { info.textContent = 'Unclaimed byte: no field reads it.'; return; }\n"
    "    const el = document.getElementById('n' + k);\n"
    "    if (!el) return;\n"
    "    if (fromHex) {\n"
    "      for (let d = el.closest('details'); d; d = d.parentElement.closest('details')) d.open = true;\n"
    "      el.scrollIntoView({ block: 'nearest' });\n"
    "    } else if (N[k][0] < shown && N[k][1] > N[k][0]) {\n"
    "      B[N[k][0]].scrollIntoView({ block: 'nearest' });\n"
    "    }\n"
    "    const size = N[k][1] - N[k][0];\n"
    "    const bytes = [];\n"
    "    for (let i = N[k][0]; i < N[k][1] && i < shown && bytes.length < 32; i++) bytes.push(B[i].textContent);\n"
    "    info.innerHTML = '';\n"
    "    const head = document.createElement('div');\n"
    "    head.innerHTML = el.innerHTML;\n"
    "    info.appendChild(head);\n"
    "    const where = document.createElement('div');\n"
    "    where.className = 'g';\n"
    "    where.textContent = el.dataset.path + ' \\u2014 ' + (size > 0 ? hex(N[k][0]) + '..' + hex(N[k][1] - 1) + ', ' + size + ' byte' + (size === 1 ? '' : 's') : 'no bytes of its own') + (bytes.length ? ' \\u2014 ' + bytes.join(' ') + (size > bytes.length ? ' \\u2026' : '') : '');\n"
    "    info.appendChild(where);\n"
    "    if (el.title) {\n"
    "      const doc = document.createElement('div');\n"
    "      doc.className = 'd';\n"
    "      doc.textContent = el.title;\n"
    "      info.appendChild(doc);\n"
    "    }\n"
    "  }\n"
    "  document.getElementById('hex').addEventListener('mouseover', function (ev) {\n"
    "    if (ev.target.bfByte !== undefined) select(owner[ev.target.bfByte], true);\n"
    "  });\n"
    "  document.getElementById('tree').addEventListener('mouseover', function (ev) {\n"
    "    const el = ev.target.closest('.n');\n"
    "    if (el) select(Number(el.id.slice(1)), false);\n"
    "  });\n"
    "  /* #byte=N selects the field holding byte N, for links into the page */\n"
    "  const m = /^#byte=([0-9]+)$/.exec(location.hash);\n"
    "  if (m && Number(m[1]) < shown) select(owner[Number(m[1])], true);\n"
    "})();\n";

static void write_hex(FILE *out, const xtree *t)
{
    uint64_t shown = t->size < HEX_LIMIT ? t->size : HEX_LIMIT;
    for (uint64_t row = 0; row < shown; row += 16) {
        fprintf(out, "<div class=\"r\"><span class=\"o\">%06" PRIX64 "</span>", row);
        for (uint64_t i = row; i < row + 16 && i < shown; i++)
            fprintf(out, explain_claimed(t, i) ? "<i>%02x</i>" : "<i class=\"u\">%02x</i>", t->data[i]);
        fputs("<span class=\"a\">", out);
        for (uint64_t i = row; i < row + 16 && i < shown; i++) {
            char c = (char)t->data[i];
            char s[2] = {c >= 0x20 && c < 0x7F ? c : '.', 0};
            esc(out, s);
        }
        fputs("</span></div>\n", out);
    }
    if (shown < t->size)
        fprintf(out, "<p class=\"d\">The first %" PRIu64 " of %zu bytes are shown; the tree covers them all.</p>\n",
                shown, t->size);
}

static void write_label(FILE *out, const xtree *t, size_t i)
{
    const xnode *n = &t->nodes[i];
    fprintf(out, "<span class=\"n\" id=\"n%zu\" data-path=\"", i);
    esc(out, n->path[0] ? n->path : n->name);
    fputs("\"", out);
    if (n->doc) {
        fputs(" title=\"", out);
        esc(out, n->doc);
        fputs("\"", out);
    }
    fputs("><b>", out);
    esc(out, n->name);
    fputs("</b> <span class=\"t\">", out);
    esc(out, n->type);
    fputs("</span>", out);
    if (n->value) {
        fputs(" = <span class=\"v\">", out);
        esc(out, n->value);
        fputs("</span>", out);
    }
    if (n->end > n->start)
        fprintf(out, " <span class=\"g\">0x%" PRIX64 "..0x%" PRIX64 "</span>", n->start, n->end - 1);
    if (n->erratum) {
        fputs(" <span class=\"e\" title=\"", out);
        esc(out, n->erratum);
        fputs("\">erratum</span>", out);
    }
    fputs("</span>", out);
}

static void write_tree(FILE *out, const xtree *t)
{
    int depth = -1;
    fputs("<ul>\n", out);
    for (size_t i = 0; i < t->count; i++) {
        const xnode *n = &t->nodes[i];
        for (; depth >= n->depth; depth--)
            fputs("</ul></details></li>\n", out);
        if (explain_has_children(t, i)) {
            fprintf(out, "<li><details%s><summary>", n->depth < OPEN_DEPTH ? " open" : "");
            write_label(out, t, i);
            fputs("</summary><ul>\n", out);
            depth = n->depth;
        } else {
            fputs("<li>", out);
            write_label(out, t, i);
            fputs("</li>\n", out);
        }
    }
    for (; depth >= 0; depth--)
        fputs("</ul></details></li>\n", out);
    fputs("</ul>\n", out);
}

void explain_write_html(FILE *out, const xtree *t, const explain_info *info)
{
    uint64_t unclaimed = explain_unclaimed_count(t);
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>binform explain: ", out);
    esc(out, info->path);
    fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header><h1>", CSS);
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
                 " · <span class=\"key hl\">highlighted</span> · hover a byte or a field</p></header>\n",
            t->size, (uint64_t)t->size - unclaimed, unclaimed);
    fputs("<div class=\"panes\">\n<section class=\"hex\" id=\"hex\">\n", out);
    write_hex(out, t);
    fputs("</section>\n<div class=\"side\">\n<section class=\"tree\" id=\"tree\">\n", out);
    write_tree(out, t);
    fputs("</section>\n<div class=\"info\" id=\"info\">Hover a byte or a field.</div>\n</div>\n</div>\n<script>\nconst N = [", out);
    for (size_t i = 0; i < t->count; i++)
        fprintf(out, "%s[%" PRIu64 ",%" PRIu64 ",%d]", i ? "," : "", t->nodes[i].start, t->nodes[i].end, t->nodes[i].parent);
    fprintf(out, "];\n%s</script>\n</body>\n</html>\n", SCRIPT);
}
