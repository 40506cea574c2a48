(function () {
  'use strict';
  const ROW = 18, MARGIN = 30;
  const raw = atob(DATA);
  const D = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) D[i] = raw.charCodeAt(i);
  const size = D.length, rows = Math.ceil(size / 16);
  const owner = new Int32Array(size).fill(-1);
  for (let r = 0; r < R.length; r += 2) {
    const end = r + 2 < R.length ? R[r + 2] : size;
    owner.fill(R[r + 1], R[r], end);
  }
  /* ---- the field tree, each branch's labels made when it is first opened ---- */
  const tree = document.getElementById('tree');
  const kids = [], depth = new Int32Array(N.length), paths = [], built = new Uint8Array(N.length);
  for (let k = 0; k < N.length; k++) {
    const p = N[k][2];
    if (p >= 0) { (kids[p] || (kids[p] = [])).push(k); depth[k] = depth[p] + 1; }
  }
  function esc(s) {
    return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\n/g, ' ');
  }
  /* node k's path: given, or the parent's and its name */
  function pathOf(k) {
    if (paths[k] !== undefined) return paths[k];
    const l = L[k];
    let p = l[5];
    if (typeof p !== 'string') {
      const pp = N[k][2] >= 0 ? pathOf(N[k][2]) : '';
      p = l[0][0] === '[' ? pp + l[0] : pp ? pp + '.' + l[0] : l[0];
    }
    return (paths[k] = p);
  }
  function labelHtml(k) {
    const l = L[k], n = N[k];
    let h = '<span class="n' + (l[4] ? ' fail' : '') + '" id="n' + k + '" data-path="' + esc(pathOf(k) || l[0]) + '"';
    if (l[3] >= 0) h += ' data-doc="' + l[3] + '"';
    h += '><b>' + esc(l[0]) + '</b> <span class="t">' + esc(l[1]) + '</span>';
    if (typeof l[2] === 'string') h += ' = <span class="v">' + esc(l[2]) + '</span>';
    if (n[1] > n[0]) h += ' <span class="g">0x' + hx(n[0]) + '..0x' + hx(n[1] - 1) + '</span>';
    if (typeof l[6] === 'string') h += ' <span class="e" title="' + esc(l[6]) + '">erratum</span>';
    if (l[4]) h += ' <span class="e">read failed here</span>';
    return h + '</span>';
  }
  function itemHtml(k) {
    if (!kids[k]) return '<li>' + labelHtml(k) + '</li>';
    return '<li><details data-k="' + k + '"><summary>' + labelHtml(k) + '</summary><ul></ul></details></li>';
  }
  function detailsOf(k) { const el = document.getElementById('n' + k); return el ? el.closest('details') : null; }
  /* opens node k's branch, its children's labels made the first time */
  function expand(k) {
    const d = detailsOf(k);
    if (!d) return;
    if (!built[k]) { built[k] = 1; d.lastElementChild.innerHTML = kids[k].map(itemHtml).join(''); }
    d.open = true;
  }
  /* makes node k's label exist and be in view: its ancestors opened */
  function reveal(k) {
    const chain = [];
    for (let p = N[k][2]; p >= 0; p = N[p][2]) chain.push(p);
    for (let i = chain.length - 1; i >= 0; i--) expand(chain[i]);
  }
  function openInitially(k) {
    if (!kids[k] || depth[k] >= OPEN_DEPTH) return;
    expand(k);
    for (const c of kids[k]) openInitially(c);
  }
  const roots = [];
  for (let k = 0; k < N.length; k++) if (N[k][2] < 0) roots.push(k);
  tree.innerHTML = '<ul>' + roots.map(itemHtml).join('') + '</ul>';
  for (const k of roots) openInitially(k);
  tree.addEventListener('toggle', function (ev) {
    const d = ev.target;
    if (d.open && d.dataset && d.dataset.k !== undefined) expand(Number(d.dataset.k));
  }, true);
  const hex = document.getElementById('hex'), space = document.getElementById('space');
  const rowsEl = document.getElementById('rows'), info = document.getElementById('info');
  const status = document.getElementById('status');
  space.style.height = (rows * ROW) + 'px';
  let cur = -1;          /* selected node */
  let sel = null;        /* highlighted bytes: [start, end) */
  let cursor = -1;       /* the byte the inspector reads */
  let pinned = false;    /* a click keeps the selection until the next click */
  let matches = [], mi = -1, mlen = 0;
  let first = 0, count = 0;
  function hx(n, w) { return n.toString(16).toUpperCase().padStart(w || 0, '0'); }
  function inMatch(b) {
    if (mi < 0) return false;
    const s = matches[mi];
    return b >= s && b < s + mlen;
  }
  function render() {
    const top = Math.floor(hex.scrollTop / ROW);
    const vis = Math.ceil((hex.clientHeight || 600) / ROW);
    first = Math.max(0, top - MARGIN);
    count = Math.min(rows - first, vis + 2 * MARGIN);
    const out = [];
    for (let r = first; r < first + count; r++) {
      const o = r * 16;
      out.push('<div class="r"><span class="o">', hx(o, 6), '</span>');
      let text = '';
      for (let b = o; b < o + 16 && b < size; b++) {
        const k = owner[b];
        let c = k < 0 ? 'u' : 'k' + (k % 10);
        if (sel && b >= sel[0] && b < sel[1]) c += ' hl';
        if (inMatch(b)) c += ' m';
        if (b === cursor) c += ' cur';
        if (FAIL && b === FAIL[1]) c += ' x';
        out.push('<i class="', c, '" data-b="', b, '">', hx(D[b], 2), '</i>');
        const ch = D[b];
        text += ch >= 0x20 && ch < 0x7f ? String.fromCharCode(ch) : '.';
      }
      out.push('<span class="a">', text.replace(/&/g, '&amp;').replace(/</g, '&lt;'), '</span></div>');
    }
    rowsEl.style.top = (first * ROW) + 'px';
    rowsEl.innerHTML = out.join('');
  }
  function show(b) {
    /* scroll the hex view so that byte b is in view, then draw */
    const y = Math.floor(b / 16) * ROW;
    if (y < hex.scrollTop || y + ROW > hex.scrollTop + hex.clientHeight)
      hex.scrollTop = Math.max(0, y - hex.clientHeight / 3);
    render();
  }
  function byteEl(b) { return rowsEl.querySelector('i[data-b="' + b + '"]'); }
  /* the element of array node k that holds byte b: [index, start, end], or null */
  function element(k, b) {
    const a = A[k];
    if (!a) return null;
    if (a[2] > 0) {
      const i = Math.floor((b - N[k][0]) / a[2]);
      const s = N[k][0] + i * a[2];
      return [a[3] + i, s, Math.min(s + a[2], N[k][1])];
    }
    const st = a[4];
    if (!st || !st.length) return null;
    let lo = 0, hi = st.length - 1;
    while (lo < hi) { const m = (lo + hi + 1) >> 1; if (st[m] <= b) lo = m; else hi = m - 1; }
    return [a[3] + lo, st[lo], lo + 1 < st.length ? st[lo + 1] : N[k][1]];
  }
  const dv = new DataView(D.buffer);
  /* a number of type p (bf_prim: u8 u16 u24 u32 u64 s8 s16 s24 s32 s64 f32 f64 char) at b */
  function number(p, b, le) {
    const w = [1, 2, 3, 4, 8, 1, 2, 3, 4, 8, 4, 8, 1][p];
    if (b + w > size) return '?';
    switch (p) {
    case 0: case 12: return String(dv.getUint8(b));
    case 1: return String(dv.getUint16(b, le));
    case 2: case 7: { let v = le ? D[b] | D[b + 1] << 8 | D[b + 2] << 16 : D[b] << 16 | D[b + 1] << 8 | D[b + 2];
      if (p === 7 && v & 0x800000) v -= 0x1000000; return String(v); }
    case 3: return String(dv.getUint32(b, le));
    case 4: return dv.getBigUint64(b, le).toString();
    case 5: return String(dv.getInt8(b));
    case 6: return String(dv.getInt16(b, le));
    case 8: return String(dv.getInt32(b, le));
    case 9: return dv.getBigInt64(b, le).toString();
    case 10: return String(dv.getFloat32(b, le));
    case 11: return String(dv.getFloat64(b, le));
    }
    return '?';
  }
  function inspect(b) {
    cursor = b;
    const t = document.getElementById('insp');
    document.getElementById('insp-off').textContent = b < 0 ? '\u2014' : '0x' + hx(b);
    const types = [['u8', 0], ['s8', 5], ['u16', 1], ['s16', 6], ['u32', 3], ['s32', 8], ['u64', 4], ['s64', 9], ['f32', 10], ['f64', 11]];
    const out = ['<tr><th>type</th><th>little-endian</th><th>big-endian</th></tr>'];
    for (const [name, p] of types)
      out.push('<tr><td>', name, '</td><td id="i-', name, '-le">', b < 0 ? '' : number(p, b, true), '</td><td id="i-', name,
               '-be">', b < 0 ? '' : number(p, b, false), '</td></tr>');
    t.innerHTML = out.join('');
  }
  function mark(k, on) {
    if (k < 0) return;
    const el = document.getElementById('n' + k);
    if (el) el.classList.toggle('hl', on);
  }
  /* selects node k (and, inside an array node, the element e of it) */
  function select(k, e, fromHex) {
    if (k >= 0 && (fromHex || !document.getElementById('n' + k))) reveal(k);
    mark(cur, false);
    cur = k;
    mark(k, true);
    if (k < 0) {
      sel = null;
      info.innerHTML = '<span id="selpath"></span>Unclaimed byte: no field reads it.';
      render();
      return;
    }
    sel = e ? [e[1], e[2]] : [N[k][0], N[k][1]];
    const el = document.getElementById('n' + k);
    if (fromHex && el) el.scrollIntoView({ block: 'nearest' });
    let path = pathOf(k) || L[k][0];
    if (e) {
      const base = A[k][0] ? path : pathOf(N[k][2]);
      path = base + '[' + e[0] + ']';
    }
    const bytes = [];
    for (let i = sel[0]; i < sel[1] && bytes.length < 32; i++) bytes.push(hx(D[i], 2));
    const n = sel[1] - sel[0];
    info.innerHTML = '';
    const head = document.createElement('div');
    if (e) {
      const a = A[k];
      head.innerHTML = '<b></b> <span class="t"></span>' + (a[0] ? ' = <span class="v"></span>' : '');
      head.children[0].textContent = '[' + e[0] + ']';
      head.children[1].textContent = a[0] ? ['u8', 'u16', 'u24', 'u32', 'u64', 's8', 's16', 's24', 's32', 's64', 'f32', 'f64', 'char'][a[0] - 1]
                                            : 'element of ' + (el ? el.querySelector('.t').textContent : '');
      if (a[0]) head.children[2].textContent = number(a[0] - 1, e[1], a[1] === 1);
    } else if (el) {
      head.innerHTML = el.innerHTML;
    }
    info.appendChild(head);
    const where = document.createElement('div');
    where.className = 'g';
    where.innerHTML = '<span id="selpath"></span>';
    where.firstChild.textContent = path;
    where.appendChild(document.createTextNode(' \u2014 ' + (n > 0 ? '0x' + hx(sel[0]) + '..0x' + hx(sel[1] - 1) + ', ' + n + ' byte' + (n === 1 ? '' : 's') : 'no bytes of its own') +
      (bytes.length ? ' \u2014 ' + bytes.join(' ') + (n > bytes.length ? ' \u2026' : '') : '')));
    info.appendChild(where);
    if (FAIL && k === FAIL[0]) {
      const f = document.createElement('div');
      f.className = 'failure';
      f.textContent = document.getElementById('failure').textContent;
      info.appendChild(f);
    }
    if (el && el.dataset.doc !== undefined) {
      const doc = document.createElement('div');
      doc.className = 'd';
      doc.textContent = DOCS[Number(el.dataset.doc)];
      info.appendChild(doc);
    }
    render();
  }
  function hoverByte(b) {
    inspect(b);
    const k = b < size ? owner[b] : -1;
    select(k, k >= 0 ? element(k, b) : null, true);
  }
  rowsEl.addEventListener('mouseover', function (ev) {
    const b = ev.target.dataset ? ev.target.dataset.b : undefined;
    if (b !== undefined && !pinned) hoverByte(Number(b));
  });
  rowsEl.addEventListener('click', function (ev) {
    const b = ev.target.dataset ? ev.target.dataset.b : undefined;
    if (b === undefined) return;
    pinned = false;
    hoverByte(Number(b));
    pinned = true;
  });
  document.getElementById('tree').addEventListener('mouseover', function (ev) {
    const el = ev.target.closest('.n');
    if (el && !el.title && el.dataset.doc !== undefined) el.title = DOCS[Number(el.dataset.doc)];
    if (!el || pinned) return;
    const k = Number(el.id.slice(1));
    select(k, null, false);
    if (N[k][1] > N[k][0]) { inspect(N[k][0]); show(N[k][0]); }
  });
  hex.addEventListener('scroll', function () {
    const top = Math.floor(hex.scrollTop / ROW);
    if (top < first + MARGIN / 3 || top > first + count - MARGIN) render();
  });
  /* ---- go to an offset ---- */
  function parseOffset(s) {
    s = s.trim().replace(/_/g, '');
    let v = /^0x[0-9a-f]+$/i.test(s) ? parseInt(s.slice(2), 16) : /^[0-9]+$/.test(s) ? parseInt(s, 10)
          : /^[0-9a-f]+h$/i.test(s) ? parseInt(s.slice(0, -1), 16) : NaN;
    return v;
  }
  function gotoOffset(text) {
    const b = parseOffset(text);
    if (!(b >= 0 && b < size)) { status.textContent = 'no byte at ' + text + ' (the file has ' + size + ')'; return; }
    pinned = false;
    show(b);
    hoverByte(b);
    pinned = true;
    status.textContent = 'at 0x' + hx(b);
  }
  /* ---- search ---- */
  /* the bytes to look for, or a message saying why there are none */
  function pattern(kind, text) {
    if (kind === 'text') return text.length ? Array.from(new TextEncoder().encode(text)) : 'nothing to find';
    if (kind === 'hex') {
      const h = text.replace(/0x/gi, '').replace(/[\s,]/g, '');
      if (!h.length || h.length % 2 || /[^0-9a-f]/i.test(h)) return 'hex bytes are pairs of hex digits, like 4d 6f 64';
      const out = [];
      for (let i = 0; i < h.length; i += 2) out.push(parseInt(h.slice(i, i + 2), 16));
      return out;
    }
    const m = /^([usf])(8|16|32|64)(le|be)$/.exec(kind);
    if (!m) return 'unknown search kind ' + kind;
    const w = Number(m[2]) / 8, le = m[3] === 'le', buf = new DataView(new ArrayBuffer(8));
    try {
      if (m[1] === 'f') {
        const v = Number(text);
        if (text.trim() === '' || isNaN(v) || w < 4) return 'not a float: ' + text;
        if (w === 4) buf.setFloat32(0, v, le); else buf.setFloat64(0, v, le);
      } else {
        const v = BigInt(text.trim());
        const bits = BigInt(8 * w);
        const lo = m[1] === 'u' ? 0n : -(1n << (bits - 1n)), hi = m[1] === 'u' ? (1n << bits) - 1n : (1n << (bits - 1n)) - 1n;
        if (v < lo || v > hi) return text + ' does not fit in ' + m[1] + m[2];
        const u = v < 0n ? v + (1n << bits) : v;
        for (let i = 0; i < w; i++) buf.setUint8(le ? i : w - 1 - i, Number((u >> BigInt(8 * i)) & 255n));
      }
    } catch (err) { return 'not a number: ' + text; }
    return Array.from(new Uint8Array(buf.buffer, 0, w));
  }
  function find(kind, text) {
    const p = pattern(kind, text);
    matches = []; mi = -1; mlen = 0;
    if (typeof p === 'string') { status.textContent = p; render(); return; }
    const c0 = p[0];
    for (let i = D.indexOf(c0); i >= 0 && i + p.length <= size && matches.length < 100000; i = D.indexOf(c0, i + 1)) {
      let j = 1;
      while (j < p.length && D[i + j] === p[j]) j++;
      if (j === p.length) matches.push(i);
    }
    mlen = p.length;
    if (!matches.length) { status.textContent = 'no match'; render(); return; }
    step(1);
  }
  function step(dir) {
    if (!matches.length) return;
    mi = (mi + dir + matches.length) % matches.length;
    const b = matches[mi];
    pinned = false;
    show(b);
    hoverByte(b);
    pinned = true;
    status.textContent = (mi + 1) + ' of ' + matches.length + ' match' + (matches.length === 1 ? '' : 'es') + ' \u2014 at 0x' + hx(b);
  }
  const gotoIn = document.getElementById('goto'), findIn = document.getElementById('find');
  const kindSel = document.getElementById('kind');
  document.getElementById('goto-go').addEventListener('click', function () { gotoOffset(gotoIn.value); });
  gotoIn.addEventListener('keydown', function (ev) { if (ev.key === 'Enter') gotoOffset(gotoIn.value); });
  document.getElementById('find-go').addEventListener('click', function () { find(kindSel.value, findIn.value); });
  findIn.addEventListener('keydown', function (ev) { if (ev.key === 'Enter') { if (ev.shiftKey) step(-1); else find(kindSel.value, findIn.value); } });
  document.getElementById('next').addEventListener('click', function () { step(1); });
  document.getElementById('prev').addEventListener('click', function () { step(-1); });
  document.addEventListener('keydown', function (ev) { if (ev.key === 'Escape') pinned = false; });
  /* ---- start: the failure, then the commands of the fragment ---- */
  render();
  inspect(-1);
  if (FAIL) {
    const b = Math.min(FAIL[1], Math.max(size - 1, 0));
    show(b);
    select(FAIL[0], null, true);
    if (size) inspect(b);
    render();
  }
  for (const cmd of decodeURIComponent(location.hash.slice(1)).split('&')) {
    const eq = cmd.indexOf('=');
    if (eq < 0) continue;
    const name = cmd.slice(0, eq), arg = cmd.slice(eq + 1);
    if (name === 'byte') {
      const b = Number(arg);
      if (b >= 0 && b < size) {
        show(b);
        const el = byteEl(b);
        if (el) el.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
      }
    } else if (name === 'goto') {
      gotoIn.value = arg;
      gotoOffset(arg);
    } else if (name === 'find') {
      const c = arg.indexOf(':');
      kindSel.value = arg.slice(0, c);
      findIn.value = arg.slice(c + 1);
      find(arg.slice(0, c), arg.slice(c + 1));
    }
  }
})();
