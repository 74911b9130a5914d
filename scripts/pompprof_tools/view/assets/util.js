"use strict";
/* pompprof-view: shared helpers (decoding the packed data, numbers, elements,
 * sortable tables, tabs).  Everything the page shows is in the page itself. */
const PP = {};

PP.B64 = (() => {
  const t = new Uint8Array(256);
  const s = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (let i = 0; i < 64; i++) t[s.charCodeAt(i)] = i;
  return t;
})();

/* base64 text -> bytes (atob and a copy per character would be slower on 10 MB) */
PP.base64 = function (text) {
  text = text.trim();
  let n = text.length;
  while (n && text.charCodeAt(n - 1) === 61) n--;   // '='
  const out = new Uint8Array((n * 3) >> 2), t = PP.B64;
  let o = 0, i = 0;
  for (; i + 4 <= n; i += 4) {
    const v = (t[text.charCodeAt(i)] << 18) | (t[text.charCodeAt(i + 1)] << 12) |
              (t[text.charCodeAt(i + 2)] << 6) | t[text.charCodeAt(i + 3)];
    out[o++] = v >> 16; out[o++] = (v >> 8) & 255; out[o++] = v & 255;
  }
  if (n - i === 2) {
    out[o++] = ((t[text.charCodeAt(i)] << 2) | (t[text.charCodeAt(i + 1)] >> 4)) & 255;
  } else if (n - i === 3) {
    const v = (t[text.charCodeAt(i)] << 10) | (t[text.charCodeAt(i + 1)] << 4) |
              (t[text.charCodeAt(i + 2)] >> 2);
    out[o++] = (v >> 8) & 255; out[o++] = v & 255;
  }
  return out;
};

PP.inflate = async function (bytes) {
  if (typeof DecompressionStream === "undefined")
    throw new Error("this browser has no DecompressionStream (Chromium 80+, Firefox 113+ have it)");
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
};

PP.arrays = function (bytes, index) {
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1)
    throw new Error("the page's arrays are little-endian; this machine is not");
  const out = {}, types = { Float64Array, Int32Array, Uint8Array };
  for (const [name, a] of Object.entries(index))
    out[name] = new types[a.type](bytes.buffer, bytes.byteOffset + a.offset, a.length);
  return out;
};

/* Numbers as the page shows them, alike everywhere: times in s, ms, \u00b5s or ns and
 * other non-integers with PP.DIGITS significant digits, counts in full, bytes in B, kB,
 * MB or GB, shares with one decimal.  A value that rounds to zero is 0 (never -0).
 * kind: "time", "count", "bytes", "rate" (a metric's kind) or "share". */
PP.DIGITS = 4;
PP.TIME_UNITS = [[1, "s"], [1e-3, "ms"], [1e-6, "\u00b5s"], [1e-9, "ns"]];
PP.BYTE_UNITS = [[1e9, "GB"], [1e6, "MB"], [1e3, "kB"], [1, "B"]];
/* v in the largest unit it reaches (the smallest unit below all), PP.DIGITS digits */
PP.inUnits = function (v, units) {
  const a = Math.abs(v);
  let k = units.findIndex(([scale]) => a >= scale);
  if (k < 0) k = units.length - 1;
  let m = Number((v / units[k][0]).toPrecision(PP.DIGITS));
  if (Math.abs(m) >= 1000 && k > 0) {        // 999.97 ms is 1.000 s
    k--;
    m = Number((v / units[k][0]).toPrecision(PP.DIGITS));
  }
  return m === 0 ? "0" : m.toPrecision(Math.max(PP.DIGITS, String(Math.trunc(Math.abs(m))).length)) +
    " " + units[k][1];
};
PP.fmt = function (v, kind) {
  if (v === null || v === undefined || Number.isNaN(v)) return "-";
  if (!isFinite(v)) return v > 0 ? "\u221e" : "-\u221e";
  if (kind === "share") return PP.pct(v);
  if (v === 0 || Math.abs(v) < (kind === "time" ? 5e-13 : 1e-300)) return "0";
  if (kind === "time") return PP.inUnits(v, PP.TIME_UNITS);
  if (kind === "bytes") return Number.isInteger(v) && Math.abs(v) < 1000 ? v + " B"
    : PP.inUnits(v, PP.BYTE_UNITS);
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return String(v);
  const a = Math.abs(v);
  if (a >= 1e-3 && a < 1e7) {
    const m = Number(v.toPrecision(PP.DIGITS));
    return m === 0 ? "0" : String(m);
  }
  return v.toExponential(PP.DIGITS - 1);
};
PP.time = (v) => PP.fmt(v, "time");
PP.pct = (v) => {
  if (v === null || v === undefined || !isFinite(v)) return "-";
  const t = v.toFixed(1);
  return (Number(t) === 0 ? "0.0" : t) + " %";
};

PP.el = function (tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const k of kids) if (k !== null && k !== undefined)
    e.append(typeof k === "string" ? document.createTextNode(k) : k);
  return e;
};
PP.$ = (id) => document.getElementById(id);

/* A table sorted by clicking a column title (again: the other way).
 * cols: [{key, label, num, kind, fmt}], rows: objects (kind: PP.fmt's, for num columns).  The first PP.TABLE_ROWS rows (in the
 * chosen order) are laid out, the others on request: a profile of 50,000 task
 * constructs has a row for each. */
PP.TABLE_ROWS = 1000;
PP.table = function (id, cols, rows) {
  const t = PP.el("table", { class: "sort", id });
  const head = PP.el("tr");
  const body = PP.el("tbody");
  let sortKey = null, dir = 1, limit = PP.TABLE_ROWS;
  const fill = () => {
    body.textContent = "";
    for (const r of rows.slice(0, limit)) {
      const tr = PP.el("tr");
      for (const c of cols) {
        const v = typeof c.key === "function" ? c.key(r) : r[c.key];
        tr.append(PP.el("td", { class: c.num ? "num" : "", "data-value": c.num && typeof v === "number" ? v : null,
          text: c.fmt ? c.fmt(v, r) : c.num ? PP.fmt(v, c.kind) : (v === null || v === undefined ? "" : String(v)) }));
      }
      body.append(tr);
    }
    if (rows.length > limit) {
      const more = PP.el("td", { colspan: cols.length, class: "more",
                                 text: "\u2026 " + (rows.length - limit) + " more rows (click to show)" });
      more.addEventListener("click", () => { limit = rows.length; fill(); });
      body.append(PP.el("tr", {}, more));
    }
  };
  cols.forEach((c, i) => {
    const th = PP.el("th", { text: c.label, "data-col": i, title: c.title || "" });
    th.addEventListener("click", () => {
      dir = sortKey === i ? -dir : (c.num ? -1 : 1);
      sortKey = i;
      const get = (r) => (typeof c.key === "function" ? c.key(r) : r[c.key]);
      rows = rows.slice().sort((x, y) => {
        const a = get(x), b = get(y);
        if (a === b) return 0;
        if (a === null || a === undefined) return 1;
        if (b === null || b === undefined) return -1;
        return (a < b ? -1 : 1) * dir;
      });
      for (const h of head.children) h.className = "";
      th.className = dir > 0 ? "asc" : "desc";
      fill();
    });
    head.append(th);
  });
  t.append(PP.el("thead", {}, head), body);
  fill();
  return t;
};

/* Tabs: name -> section; show(name) */
PP.tabs = { list: [], show(name) {
  for (const t of this.list) {
    t.button.classList.toggle("on", t.name === name);
    t.section.hidden = t.name !== name;
  }
  const t = this.list.find((x) => x.name === name);
  if (t && t.onShow) t.onShow();
}, add(name, label, sectionId, onShow) {
  const button = PP.el("button", { id: "tab-" + name, text: label });
  button.addEventListener("click", () => this.show(name));
  PP.$("tabs").append(button);
  this.list.push({ name, button, section: PP.$(sectionId), onShow });
} };

/* colours of labels: a fixed palette by order of first use */
PP.PALETTE = ["#4a78c2", "#e8a33d", "#56a55a", "#b45fb0", "#3fb0b8", "#c9b53a", "#8c6d4f",
  "#7f8fd9", "#d86f8f", "#6fbf9f", "#a0a040", "#5f7f9f", "#c08060", "#9070c0", "#40a080"];

/* a canvas sized to its CSS box at the screen's pixel ratio; returns its 2D context */
PP.canvas = function (c) {
  const r = window.devicePixelRatio || 1;
  const w = c.clientWidth, h = c.clientHeight;
  if (c.width !== Math.round(w * r) || c.height !== Math.round(h * r)) {
    c.width = Math.round(w * r); c.height = Math.round(h * r);
  }
  const g = c.getContext("2d");
  g.setTransform(r, 0, 0, r, 0, 0);
  g.clearRect(0, 0, w, h);
  return { g, w, h };
};

PP.tip = function (tip, ev, html) {
  if (!html) { tip.hidden = true; return; }
  tip.innerHTML = html;
  tip.hidden = false;
  tip.style.left = Math.min(ev.clientX + 12, window.innerWidth - 320) + "px";
  tip.style.top = (ev.clientY + 14) + "px";
};
PP.esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
