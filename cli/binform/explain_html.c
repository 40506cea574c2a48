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

static const char CSS[] =
    "*{box-sizing:border-box}\n"
    "body{margin:0;height:100vh;display:flex;flex-direction:column;color:#1c2330;background:#fff;"
    "font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}\n"
    "header{padding:.5rem 1rem;border-bottom:1px solid #d5dbe4;background:#f5f7fa}\n"
    "header h1{font-size:1.15rem;margin:0 0 .15rem}\n"
    "header p{margin:0;color:#5d6776}\n"
    ".failure{margin-top:.35rem;padding:.3rem .6rem;border-radius:4px;background:#fde2e2;color:#8b1a1a;font-weight:600}\n"
    ".key{display:inline-block;padding:0 .4em;border-radius:3px}\n"
    ".bar{display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;align-items:center;padding:.35rem 1rem;border-bottom:1px solid #d5dbe4}\n"
    ".bar label{color:#5d6776}\n"
    ".bar input,.bar select,.bar button{font:inherit;font-size:.9em;padding:.1rem .35rem}\n"
    ".bar input{width:12rem;font-family:ui-monospace,'SFMono-Regular',Menlo,Consolas,'DejaVu Sans Mono',monospace}\n"
    "#status{color:#5d6776;font-size:.9em}\n"
    ".panes{flex:1;display:flex;min-height:0}\n"
    ".hex{flex:0 0 auto;overflow-y:auto;overflow-x:hidden;padding:0 .8rem 0 1rem;border-right:1px solid #d5dbe4;"
    "font:12px/18px ui-monospace,'SFMono-Regular',Menlo,Consolas,'DejaVu Sans Mono',monospace}\n"
    "#space{position:relative;width:67.5ch}\n"
    "#rows{position:absolute;left:0;right:0}\n"
    ".r{white-space:nowrap;height:18px}\n"
    ".o{color:#8a94a3;margin-right:1ch}\n"
    ".hex i{font-style:normal;display:inline-block;width:2.6ch;text-align:center;cursor:default}\n"
    ".hex i:nth-of-type(8){margin-right:1ch}\n"
    ".a{color:#5d6776;margin-left:1ch;white-space:pre}\n"
    ".k0{background:#e4efff}.k1{background:#fff0d6}.k2{background:#e2f6e6}.k3{background:#f6e4f7}.k4{background:#e0f5f5}"
    ".k5{background:#f9ecdf}.k6{background:#ebe8fb}.k7{background:#f1f6dc}.k8{background:#fbe4ea}.k9{background:#e6eef2}\n"
    ".u{background:#ffd5d5;color:#9b1c1c}\n"
    ".m{background:#9be59b!important}\n"
    ".hl{background:#ffe27a!important;color:#1c2330!important}\n"
    ".cur{outline:2px solid #1f56c3;outline-offset:-1px}\n"
    ".x{outline:2px solid #c62828;outline-offset:-1px;color:#c62828!important;font-weight:700}\n"
    ".side{flex:1;display:flex;flex-direction:column;min-width:0}\n"
    ".tree{flex:1;overflow:auto;padding:.5rem 1rem}\n"
    ".tree ul{list-style:none;margin:0;padding-left:1.1rem}\n"
    ".tree>ul{padding-left:0}\n"
    ".tree summary{cursor:pointer}\n"
    ".n{border-radius:3px;padding:0 .2em}\n"
    ".n b{font-weight:600}\n"
    ".n.fail{background:#fde2e2;color:#8b1a1a;outline:1px solid #c62828}\n"
    ".t{color:#1f56c3}\n"
    ".v{font-family:ui-monospace,'SFMono-Regular',Menlo,Consolas,'DejaVu Sans Mono',monospace;font-size:.92em}\n"
    ".g{color:#8a94a3;font-size:.85em}\n"
    ".d{color:#5d6776;font-size:.88em}\n"
    ".e{color:#7a4d00;font-weight:600}\n"
    ".info{border-top:1px solid #d5dbe4;background:#f5f7fa;padding:.45rem 1rem;min-height:4rem;max-height:24vh;overflow:auto}\n"
    ".insp{border-top:1px solid #d5dbe4;padding:.3rem 1rem .5rem;font-size:.85em}\n"
    ".insp table{border-collapse:collapse;font-family:ui-monospace,'SFMono-Regular',Menlo,Consolas,'DejaVu Sans Mono',monospace}\n"
    ".insp td,.insp th{padding:0 .8em 0 0;text-align:left;white-space:nowrap}\n"
    ".insp th{color:#5d6776;font-weight:600}\n";

/* The page's behaviour. Data from the C side:
 *   L[k] = [name, type, value, doc, failed, path, erratum] of node k (the later ones may be
 *          left out; 0: none; no path: the parent's path and the name)
 *   N[k] = [start, end, parent] of node k (its label in the tree is #nK)
 *   A[k] = [prim + 1, little, element size, first index, starts] for nodes whose elements have
 *          no node (number arrays: prim; structures past the first ones: 0), starts for
 *          elements of varying size
 *   R    = [start, owner, start, owner, ...]: the innermost node of each run of bytes (-1: none)
 *   DOCS = the docs the labels' data-doc number
 *   DATA = the file in base64; FAIL = [node, offset] of a failed read, or null. */
static const char SCRIPT[] =
    "(function () {\n"
    "  'use strict';\n"
    "  const ROW = 18, MARGIN = 30;\n"
    "  const raw = atob(DATA);\n"
    "  const D = new Uint8Array(raw.length);\n"
    "  for (let i = 0; i < raw.length; i++) D[i] = raw.charCodeAt(i);\n"
    "  const size = D.length, rows = Math.ceil(size / 16);\n"
    "  const owner = new Int32Array(size).fill(-1);\n"
    "  for (let r = 0; r < R.length; r += 2) {\n"
    "    const end = r + 2 < R.length ? R[r + 2] : size;\n"
    "    owner.fill(R[r + 1], R[r], end);\n"
    "  }\n"
    "  /* ---- the field tree, each branch's labels made when it is first opened ---- */\n"
    "  const tree = document.getElementById('tree');\n"
    "  const kids = [], depth = new Int32Array(N.length), paths = [], built = new Uint8Array(N.length);\n"
    "  for (let k = 0; k < N.length; k++) {\n"
    "    const p = N[k][2];\n"
    "    if (p >= 0) { (kids[p] || (kids[p] = [])).push(k); depth[k] = depth[p] + 1; }\n"
    "  }\n"
    "  function esc(s) {\n"
    "    return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\"/g, '&quot;').replace(/\\n/g, ' ');\n"
    "  }\n"
    "  /* node k's path: given, or the parent's and its name */\n"
    "  function pathOf(k) {\n"
    "    if (paths[k] !== undefined) return paths[k];\n"
    "    const l = L[k];\n"
    "    let p = l[5];\n"
    "    if (typeof p !== 'string') {\n"
    "      const pp = N[k][2] >= 0 ? pathOf(N[k][2]) : '';\n"
    "      p = l[0][0] === '[' ? pp + l[0] : pp ? pp + '.' + l[0] : l[0];\n"
    "    }\n"
    "    return (paths[k] = p);\n"
    "  }\n"
    "  function labelHtml(k) {\n"
    "    const l = L[k], n = N[k];\n"
    "    let h = '<span class=\"n' + (l[4] ? ' fail' : '') + '\" id=\"n' + k + '\" data-path=\"' + esc(pathOf(k) || l[0]) + '\"';\n"
    "    if (l[3] >= 0) h += ' data-doc=\"' + l[3] + '\"';\n"
    "    h += '><b>' + esc(l[0]) + '</b> <span class=\"t\">' + esc(l[1]) + '</span>';\n"
    "    if (typeof l[2] === 'string') h += ' = <span class=\"v\">' + esc(l[2]) + '</span>';\n"
    "    if (n[1] > n[0]) h += ' <span class=\"g\">0x' + hx(n[0]) + '..0x' + hx(n[1] - 1) + '</span>';\n"
    "    if (typeof l[6] === 'string') h += ' <span class=\"e\" title=\"' + esc(l[6]) + '\">erratum</span>';\n"
    "    if (l[4]) h += ' <span class=\"e\">read failed here</span>';\n"
    "    return h + '</span>';\n"
    "  }\n"
    "  function itemHtml(k) {\n"
    "    if (!kids[k]) return '<li>' + labelHtml(k) + '</li>';\n"
    "    return '<li><details data-k=\"' + k + '\"><summary>' + labelHtml(k) + '</summary><ul></ul></details></li>';\n"
    "  }\n"
    "  function detailsOf(k) { const el = document.getElementById('n' + k); return el ? el.closest('details') : null; }\n"
    "  /* opens node k's branch, its children's labels made the first time */\n"
    "  function expand(k) {\n"
    "    const d = detailsOf(k);\n"
    "    if (!d) return;\n"
    "    if (!built[k]) { built[k] = 1; d.lastElementChild.innerHTML = kids[k].map(itemHtml).join(''); }\n"
    "    d.open = true;\n"
    "  }\n"
    "  /* makes node k's label exist and be in view: its ancestors opened */\n"
    "  function reveal(k) {\n"
    "    const chain = [];\n"
    "    for (let p = N[k][2]; p >= 0; p = N[p][2]) chain.push(p);\n"
    "    for (let i = chain.length - 1; i >= 0; i--) expand(chain[i]);\n"
    "  }\n"
    "  function openInitially(k) {\n"
    "    if (!kids[k] || depth[k] >= OPEN_DEPTH) return;\n"
    "    expand(k);\n"
    "    for (const c of kids[k]) openInitially(c);\n"
    "  }\n"
    "  const roots = [];\n"
    "  for (let k = 0; k < N.length; k++) if (N[k][2] < 0) roots.push(k);\n"
    "  tree.innerHTML = '<ul>' + roots.map(itemHtml).join('') + '</ul>';\n"
    "  for (const k of roots) openInitially(k);\n"
    "  tree.addEventListener('toggle', function (ev) {\n"
    "    const d = ev.target;\n"
    "    if (d.open && d.dataset && d.dataset.k !== undefined) expand(Number(d.dataset.k));\n"
    "  }, true);\n"
    "  const hex = document.getElementById('hex'), space = document.getElementById('space');\n"
    "  const rowsEl = document.getElementById('rows'), info = document.getElementById('info');\n"
    "  const status = document.getElementById('status');\n"
    "  space.style.height = (rows * ROW) + 'px';\n"
    "  let cur = -1;          /* selected node */\n"
    "  let sel = null;        /* highlighted bytes: [start, end) */\n"
    "  let cursor = -1;       /* the byte the inspector reads */\n"
    "  let pinned = false;    /* a click keeps the selection until the next click */\n"
    "  let matches = [], mi = -1, mlen = 0;\n"
    "  let first = 0, count = 0;\n"
    "  function hx(n, w) { return n.toString(16).toUpperCase().padStart(w || 0, '0'); }\n"
    "  function inMatch(b) {\n"
    "    if (mi < 0) return false;\n"
    "    const s = matches[mi];\n"
    "    return b >= s && b < s + mlen;\n"
    "  }\n"
    "  function render() {\n"
    "    const top = Math.floor(hex.scrollTop / ROW);\n"
    "    const vis = Math.ceil((hex.clientHeight || 600) / ROW);\n"
    "    first = Math.max(0, top - MARGIN);\n"
    "    count = Math.min(rows - first, vis + 2 * MARGIN);\n"
    "    const out = [];\n"
    "    for (let r = first; r < first + count; r++) {\n"
    "      const o = r * 16;\n"
    "      out.push('<div class=\"r\"><span class=\"o\">', hx(o, 6), '</span>');\n"
    "      let text = '';\n"
    "      for (let b = o; b < o + 16 && b < size; b++) {\n"
    "        const k = owner[b];\n"
    "        let c = k < 0 ? 'u' : 'k' + (k % 10);\n"
    "        if (sel && b >= sel[0] && b < sel[1]) c += ' hl';\n"
    "        if (inMatch(b)) c += ' m';\n"
    "        if (b === cursor) c += ' cur';\n"
    "        if (FAIL && b === FAIL[1]) c += ' x';\n"
    "        out.push('<i class=\"', c, '\" data-b=\"', b, '\">', hx(D[b], 2), '</i>');\n"
    "        const ch = D[b];\n"
    "        text += ch >= 0x20 && ch < 0x7f ? String.fromCharCode(ch) : '.';\n"
    "      }\n"
    "      out.push('<span class=\"a\">', text.replace(/&/g, '&amp;').replace(/</g, '&lt;'), '</span></div>');\n"
    "    }\n"
    "    rowsEl.style.top = (first * ROW) + 'px';\n"
    "    rowsEl.innerHTML = out.join('');\n"
    "  }\n"
    "  function show(b) {\n"
    "    /* scroll the hex view so that byte b is in view, then draw */\n"
    "    const y = Math.floor(b / 16) * ROW;\n"
    "    if (y < hex.scrollTop || y + ROW > hex.scrollTop + hex.clientHeight)\n"
    "      hex.scrollTop = Math.max(0, y - hex.clientHeight / 3);\n"
    "    render();\n"
    "  }\n"
    "  function byteEl(b) { return rowsEl.querySelector('i[data-b=\"' + b + '\"]'); }\n"
    "  /* the element of array node k that holds byte b: [index, start, end], or null */\n"
    "  function element(k, b) {\n"
    "    const a = A[k];\n"
    "    if (!a) return null;\n"
    "    if (a[2] > 0) {\n"
    "      const i = Math.floor((b - N[k][0]) / a[2]);\n"
    "      const s = N[k][0] + i * a[2];\n"
    "      return [a[3] + i, s, Math.min(s + a[2], N[k][1])];\n"
    "    }\n"
    "    const st = a[4];\n"
    "    if (!st || !st.length) return null;\n"
    "    let lo = 0, hi = st.length - 1;\n"
    "    while (lo < hi) { const m = (lo + hi + 1) >> 1; if (st[m] <= b) lo = m; else hi = m - 1; }\n"
    "    return [a[3] + lo, st[lo], lo + 1 < st.length ? st[lo + 1] : N[k][1]];\n"
    "  }\n"
    "  const dv = new DataView(D.buffer);\n"
    "  /* a number of type p (bf_prim: u8 u16 u24 u32 u64 s8 s16 s24 s32 s64 f32 f64 char) at b */\n"
    "  function number(p, b, le) {\n"
    "    const w = [1, 2, 3, 4, 8, 1, 2, 3, 4, 8, 4, 8, 1][p];\n"
    "    if (b + w > size) return '?';\n"
    "    switch (p) {\n"
    "    case 0: case 12: return String(dv.getUint8(b));\n"
    "    case 1: return String(dv.getUint16(b, le));\n"
    "    case 2: case 7: { let v = le ? D[b] | D[b + 1] << 8 | D[b + 2] << 16 : D[b] << 16 | D[b + 1] << 8 | D[b + 2];\n"
    "      if (p === 7 && v & 0x800000) v -= 0x1000000; return String(v); }\n"
    "    case 3: return String(dv.getUint32(b, le));\n"
    "    case 4: return dv.getBigUint64(b, le).toString();\n"
    "    case 5: return String(dv.getInt8(b));\n"
    "    case 6: return String(dv.getInt16(b, le));\n"
    "    case 8: return String(dv.getInt32(b, le));\n"
    "    case 9: return dv.getBigInt64(b, le).toString();\n"
    "    case 10: return String(dv.getFloat32(b, le));\n"
    "    case 11: return String(dv.getFloat64(b, le));\n"
    "    }\n"
    "    return '?';\n"
    "  }\n"
    "  function inspect(b) {\n"
    "    cursor = b;\n"
    "    const t = document.getElementById('insp');\n"
    "    document.getElementById('insp-off').textContent = b < 0 ? '\\u2014' : '0x' + hx(b);\n"
    "    const types = [['u8', 0], ['s8', 5], ['u16', 1], ['s16', 6], ['u32', 3], ['s32', 8], ['u64', 4], ['s64', 9], ['f32', 10], ['f64', 11]];\n"
    "    const out = ['<tr><th>type</th><th>little-endian</th><th>big-endian</th></tr>'];\n"
    "    for (const [name, p] of types)\n"
    "      out.push('<tr><td>', name, '</td><td id=\"i-', name, '-le\">', b < 0 ? '' : number(p, b, true), '</td><td id=\"i-', name,\n"
    "               '-be\">', b < 0 ? '' : number(p, b, false), '</td></tr>');\n"
    "    t.innerHTML = out.join('');\n"
    "  }\n"
    "  function mark(k, on) {\n"
    "    if (k < 0) return;\n"
    "    const el = document.getElementById('n' + k);\n"
    "    if (el) el.classList.toggle('hl', on);\n"
    "  }\n"
    "  /* selects node k (and, inside an array node, the element e of it) */\n"
    "  function select(k, e, fromHex) {\n"
    "    if (k >= 0 && (fromHex || !document.getElementById('n' + k))) reveal(k);\n"
    "    mark(cur, false);\n"
    "    cur = k;\n"
    "    mark(k, true);\n"
    "    if (k < 0) {\n"
    "      sel = null;\n"
    "      info.innerHTML = '<span id=\"selpath\"></span>Unclaimed byte: no field reads it.';\n"
    "      render();\n"
    "      return;\n"
    "    }\n"
    "    sel = e ? [e[1], e[2]] : [N[k][0], N[k][1]];\n"
    "    const el = document.getElementById('n' + k);\n"
    "    if (fromHex && el) el.scrollIntoView({ block: 'nearest' });\n"
    "    let path = pathOf(k) || L[k][0];\n"
    "    if (e) {\n"
    "      const base = A[k][0] ? path : pathOf(N[k][2]);\n"
    "      path = base + '[' + e[0] + ']';\n"
    "    }\n"
    "    const bytes = [];\n"
    "    for (let i = sel[0]; i < sel[1] && bytes.length < 32; i++) bytes.push(hx(D[i], 2));\n"
    "    const n = sel[1] - sel[0];\n"
    "    info.innerHTML = '';\n"
    "    const head = document.createElement('div');\n"
    "    if (e) {\n"
    "      const a = A[k];\n"
    "      head.innerHTML = '<b></b> <span class=\"t\"></span>' + (a[0] ? ' = <span class=\"v\"></span>' : '');\n"
    "      head.children[0].textContent = '[' + e[0] + ']';\n"
    "      head.children[1].textContent = a[0] ? ['u8', 'u16', 'u24', 'u32', 'u64', 's8', 's16', 's24', 's32', 's64', 'f32', 'f64', 'char'][a[0] - 1]\n"
    "                                            : 'element of ' + (el ? el.querySelector('.t').textContent : '');\n"
    "      if (a[0]) head.children[2].textContent = number(a[0] - 1, e[1], a[1] === 1);\n"
    "    } else if (el) {\n"
    "      head.innerHTML = el.innerHTML;\n"
    "    }\n"
    "    info.appendChild(head);\n"
    "    const where = document.createElement('div');\n"
    "    where.className = 'g';\n"
    "    where.innerHTML = '<span id=\"selpath\"></span>';\n"
    "    where.firstChild.textContent = path;\n"
    "    where.appendChild(document.createTextNode(' \\u2014 ' + (n > 0 ? '0x' + hx(sel[0]) + '..0x' + hx(sel[1] - 1) + ', ' + n + ' byte' + (n === 1 ? '' : 's') : 'no bytes of its own') +\n"
    "      (bytes.length ? ' \\u2014 ' + bytes.join(' ') + (n > bytes.length ? ' \\u2026' : '') : '')));\n"
    "    info.appendChild(where);\n"
    "    if (FAIL && k === FAIL[0]) {\n"
    "      const f = document.createElement('div');\n"
    "      f.className = 'failure';\n"
    "      f.textContent = document.getElementById('failure').textContent;\n"
    "      info.appendChild(f);\n"
    "    }\n"
    "    if (el && el.dataset.doc !== undefined) {\n"
    "      const doc = document.createElement('div');\n"
    "      doc.className = 'd';\n"
    "      doc.textContent = DOCS[Number(el.dataset.doc)];\n"
    "      info.appendChild(doc);\n"
    "    }\n"
    "    render();\n"
    "  }\n"
    "  function hoverByte(b) {\n"
    "    inspect(b);\n"
    "    const k = b < size ? owner[b] : -1;\n"
    "    select(k, k >= 0 ? element(k, b) : null, true);\n"
    "  }\n"
    "  rowsEl.addEventListener('mouseover', function (ev) {\n"
    "    const b = ev.target.dataset ? ev.target.dataset.b : undefined;\n"
    "    if (b !== undefined && !pinned) hoverByte(Number(b));\n"
    "  });\n"
    "  rowsEl.addEventListener('click', function (ev) {\n"
    "    const b = ev.target.dataset ? ev.target.dataset.b : undefined;\n"
    "    if (b === undefined) return;\n"
    "    pinned = false;\n"
    "    hoverByte(Number(b));\n"
    "    pinned = true;\n"
    "  });\n"
    "  document.getElementById('tree').addEventListener('mouseover', function (ev) {\n"
    "    const el = ev.target.closest('.n');\n"
    "    if (el && !el.title && el.dataset.doc !== undefined) el.title = DOCS[Number(el.dataset.doc)];\n"
    "    if (!el || pinned) return;\n"
    "    const k = Number(el.id.slice(1));\n"
    "    select(k, null, false);\n"
    "    if (N[k][1] > N[k][0]) { inspect(N[k][0]); show(N[k][0]); }\n"
    "  });\n"
    "  hex.addEventListener('scroll', function () {\n"
    "    const top = Math.floor(hex.scrollTop / ROW);\n"
    "    if (top < first + MARGIN / 3 || top > first + count - MARGIN) render();\n"
    "  });\n"
    "  /* ---- go to an offset ---- */\n"
    "  function parseOffset(s) {\n"
    "    s = s.trim().replace(/_/g, '');\n"
    "    let v = /^0x[0-9a-f]+$/i.test(s) ? parseInt(s.slice(2), 16) : /^[0-9]+$/.test(s) ? parseInt(s, 10)\n"
    "          : /^[0-9a-f]+h$/i.test(s) ? parseInt(s.slice(0, -1), 16) : NaN;\n"
    "    return v;\n"
    "  }\n"
    "  function gotoOffset(text) {\n"
    "    const b = parseOffset(text);\n"
    "    if (!(b >= 0 && b < size)) { status.textContent = 'no byte at ' + text + ' (the file has ' + size + ')'; return; }\n"
    "    pinned = false;\n"
    "    show(b);\n"
    "    hoverByte(b);\n"
    "    pinned = true;\n"
    "    status.textContent = 'at 0x' + hx(b);\n"
    "  }\n"
    "  /* ---- search ---- */\n"
    "  /* the bytes to look for, or a message saying why there are none */\n"
    "  function pattern(kind, text) {\n"
    "    if (kind === 'text') return text.length ? Array.from(new TextEncoder().encode(text)) : 'nothing to find';\n"
    "    if (kind === 'hex') {\n"
    "      const h = text.replace(/0x/gi, '').replace(/[\\s,]/g, '');\n"
    "      if (!h.length || h.length % 2 || /[^0-9a-f]/i.test(h)) return 'hex bytes are pairs of hex digits, like 4d 6f 64';\n"
    "      const out = [];\n"
    "      for (let i = 0; i < h.length; i += 2) out.push(parseInt(h.slice(i, i + 2), 16));\n"
    "      return out;\n"
    "    }\n"
    "    const m = /^([usf])(8|16|32|64)(le|be)$/.exec(kind);\n"
    "    if (!m) return 'unknown search kind ' + kind;\n"
    "    const w = Number(m[2]) / 8, le = m[3] === 'le', buf = new DataView(new ArrayBuffer(8));\n"
    "    try {\n"
    "      if (m[1] === 'f') {\n"
    "        const v = Number(text);\n"
    "        if (text.trim() === '' || isNaN(v) || w < 4) return 'not a float: ' + text;\n"
    "        if (w === 4) buf.setFloat32(0, v, le); else buf.setFloat64(0, v, le);\n"
    "      } else {\n"
    "        const v = BigInt(text.trim());\n"
    "        const bits = BigInt(8 * w);\n"
    "        const lo = m[1] === 'u' ? 0n : -(1n << (bits - 1n)), hi = m[1] === 'u' ? (1n << bits) - 1n : (1n << (bits - 1n)) - 1n;\n"
    "        if (v < lo || v > hi) return text + ' does not fit in ' + m[1] + m[2];\n"
    "        const u = v < 0n ? v + (1n << bits) : v;\n"
    "        for (let i = 0; i < w; i++) buf.setUint8(le ? i : w - 1 - i, Number((u >> BigInt(8 * i)) & 255n));\n"
    "      }\n"
    "    } catch (err) { return 'not a number: ' + text; }\n"
    "    return Array.from(new Uint8Array(buf.buffer, 0, w));\n"
    "  }\n"
    "  function find(kind, text) {\n"
    "    const p = pattern(kind, text);\n"
    "    matches = []; mi = -1; mlen = 0;\n"
    "    if (typeof p === 'string') { status.textContent = p; render(); return; }\n"
    "    const c0 = p[0];\n"
    "    for (let i = D.indexOf(c0); i >= 0 && i + p.length <= size && matches.length < 100000; i = D.indexOf(c0, i + 1)) {\n"
    "      let j = 1;\n"
    "      while (j < p.length && D[i + j] === p[j]) j++;\n"
    "      if (j === p.length) matches.push(i);\n"
    "    }\n"
    "    mlen = p.length;\n"
    "    if (!matches.length) { status.textContent = 'no match'; render(); return; }\n"
    "    step(1);\n"
    "  }\n"
    "  function step(dir) {\n"
    "    if (!matches.length) return;\n"
    "    mi = (mi + dir + matches.length) % matches.length;\n"
    "    const b = matches[mi];\n"
    "    pinned = false;\n"
    "    show(b);\n"
    "    hoverByte(b);\n"
    "    pinned = true;\n"
    "    status.textContent = (mi + 1) + ' of ' + matches.length + ' match' + (matches.length === 1 ? '' : 'es') + ' \\u2014 at 0x' + hx(b);\n"
    "  }\n"
    "  const gotoIn = document.getElementById('goto'), findIn = document.getElementById('find');\n"
    "  const kindSel = document.getElementById('kind');\n"
    "  document.getElementById('goto-go').addEventListener('click', function () { gotoOffset(gotoIn.value); });\n"
    "  gotoIn.addEventListener('keydown', function (ev) { if (ev.key === 'Enter') gotoOffset(gotoIn.value); });\n"
    "  document.getElementById('find-go').addEventListener('click', function () { find(kindSel.value, findIn.value); });\n"
    "  findIn.addEventListener('keydown', function (ev) { if (ev.key === 'Enter') { if (ev.shiftKey) step(-1); else find(kindSel.value, findIn.value); } });\n"
    "  document.getElementById('next').addEventListener('click', function () { step(1); });\n"
    "  document.getElementById('prev').addEventListener('click', function () { step(-1); });\n"
    "  document.addEventListener('keydown', function (ev) { if (ev.key === 'Escape') pinned = false; });\n"
    "  /* ---- start: the failure, then the commands of the fragment ---- */\n"
    "  render();\n"
    "  inspect(-1);\n"
    "  if (FAIL) {\n"
    "    const b = Math.min(FAIL[1], Math.max(size - 1, 0));\n"
    "    show(b);\n"
    "    select(FAIL[0], null, true);\n"
    "    if (size) inspect(b);\n"
    "    render();\n"
    "  }\n"
    "  for (const cmd of decodeURIComponent(location.hash.slice(1)).split('&')) {\n"
    "    const eq = cmd.indexOf('=');\n"
    "    if (eq < 0) continue;\n"
    "    const name = cmd.slice(0, eq), arg = cmd.slice(eq + 1);\n"
    "    if (name === 'byte') {\n"
    "      const b = Number(arg);\n"
    "      if (b >= 0 && b < size) {\n"
    "        show(b);\n"
    "        const el = byteEl(b);\n"
    "        if (el) el.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));\n"
    "      }\n"
    "    } else if (name === 'goto') {\n"
    "      gotoIn.value = arg;\n"
    "      gotoOffset(arg);\n"
    "    } else if (name === 'find') {\n"
    "      const c = arg.indexOf(':');\n"
    "      kindSel.value = arg.slice(0, c);\n"
    "      findIn.value = arg.slice(c + 1);\n"
    "      find(arg.slice(0, c), arg.slice(c + 1));\n"
    "    }\n"
    "  }\n"
    "})();\n";

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
    fprintf(out, "\";\n%s</script>\n</body>\n</html>\n", SCRIPT);
    return ok;
}
