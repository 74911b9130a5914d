"use strict";
/* Two runs side by side: the union of their call paths (matched as pompprof-diff
 * matches them), per path a's and b's value (summed over their locations), b - a, and a
 * colour: red where b takes more, green where it takes less, stronger for larger
 * differences (relative to the largest one shown). */
PP.Compare = class {
  constructor(meta, arrays) {
    this.meta = meta;
    this.n = meta.nodes;
    this.parent = arrays.parent;
    this.tasks = arrays.tasks;
    this.vals = {};
    for (const m of meta.metrics) this.vals[m.id] = { a: arrays["a:" + m.id], b: arrays["b:" + m.id] };
    this.kidsOf = Array.from({ length: this.n }, () => []);
    this.roots = [];
    for (let i = 0; i < this.n; i++) {
      const p = this.parent[i];
      if (p < 0) this.roots.push(i); else this.kidsOf[p].push(i);
    }
    this.cache = {};
    this.metric = meta.metrics[0].id;
    this.flavour = "excl";
    this.open = new Set(this.roots.filter((r) => !this.tasks[r]));
    const sel = PP.$("cmp-metric");
    for (const m of meta.metrics) sel.append(PP.el("option", { value: m.id, text: m.name }));
    sel.addEventListener("change", () => { this.metric = sel.value; this.render(); });
    document.querySelectorAll("input[name=cmp-flavour]").forEach((e) =>
      e.addEventListener("change", () => { this.flavour = e.value; this.render(); }));
    PP.$("cmp-tree").addEventListener("click", (e) => {
      const row = e.target.closest("[data-node]");
      if (!row) return;
      const i = +row.dataset.node;
      if (this.open.has(i)) this.open.delete(i); else this.open.add(i);
      this.render();
    });
    PP.$("subtitle").textContent = "a: " + meta.a.path + "  b: " + meta.b.path;
  }
  /* a and b per path (NaN: the run lacks it); inclusive = sums over the subtree */
  values(side) {
    const key = this.metric + ":" + side + ":" + this.flavour;
    if (this.cache[key]) return this.cache[key];
    const ex = this.vals[this.metric][side];
    if (this.flavour === "excl") return (this.cache[key] = ex);
    const out = new Float64Array(this.n), has = new Uint8Array(this.n);
    for (let i = 0; i < this.n; i++) { has[i] = !Number.isNaN(ex[i]); out[i] = has[i] ? ex[i] : 0; }
    for (let i = this.n - 1; i >= 0; i--) {
      const p = this.parent[i];
      if (p >= 0) { out[p] += out[i]; has[p] |= has[i]; }
    }
    for (let i = 0; i < this.n; i++) if (!has[i]) out[i] = NaN;
    return (this.cache[key] = out);
  }
  render() {
    const a = this.values("a"), b = this.values("b"), rows = [];
    let maxd = 0, maxv = 0;
    for (let i = 0; i < this.n; i++) {
      if (Math.abs(a[i]) > maxv) maxv = Math.abs(a[i]);
      const d = (Number.isNaN(b[i]) ? 0 : b[i]) - (Number.isNaN(a[i]) ? 0 : a[i]);
      if (Math.abs(d) > maxd) maxd = Math.abs(d);
    }
    const head = PP.$("cmp-head");
    head.textContent = "";
    head.append(PP.el("span", { class: "val", style: "min-width:8em;text-align:right", text: "a" }),
                PP.el("span", { style: "min-width:8em;text-align:right", text: "b" }),
                PP.el("span", { style: "min-width:8em;text-align:right", text: "b - a" }),
                PP.el("span", { style: "min-width:6em;text-align:right", text: "change" }),
                PP.el("span", { text: "call path" }));
    const kind = (this.meta.metrics.find((m) => m.id === this.metric) || {}).kind;
    const signed = (v, text) => (v > 0 && text !== "0" && text !== "0.0 %" ? "+" : "") + text;
    const row = (i, depth) => {
      const va = a[i], vb = b[i];
      const d = (Number.isNaN(vb) ? 0 : vb) - (Number.isNaN(va) ? 0 : va);
      const s = maxd ? Math.min(1, Math.abs(d) / maxd) : 0;
      const bg = d > 0 ? "rgba(224,96,96," + (0.1 + 0.8 * s).toFixed(3) + ")"
        : d < 0 ? "rgba(80,168,96," + (0.1 + 0.8 * s).toFixed(3) + ")" : "transparent";
      const status = Number.isNaN(va) ? " (only in b)" : Number.isNaN(vb) ? " (only in a)" : "";
      const kids = this.kidsOf[i];
      rows.push(PP.el("div", { class: "row cmp", "data-node": i, "data-delta": d,
                               style: "background:" + bg },
        PP.el("span", { class: "val va", text: PP.fmt(Number.isNaN(va) ? null : va, kind) }),
        PP.el("span", { class: "val vb", text: PP.fmt(Number.isNaN(vb) ? null : vb, kind) }),
        PP.el("span", { class: "val vd", text: signed(d, PP.fmt(d, kind)) }),
        // no relative change of a value that is rounding noise (an exclusive value of
        // a node whose children hold all its time)
        PP.el("span", { class: "val", style: "min-width:6em", text: !Number.isNaN(va) &&
          Math.abs(va) > 1e-9 * maxv && !Number.isNaN(vb) ? signed(d, PP.pct(100 * d / va)) : "" }),
        PP.el("span", { style: "padding-left:" + depth * 14 + "px" },
          PP.el("span", { class: "tog", text: kids.length ? (this.open.has(i) ? "\u25be" : "\u25b8") : "" }),
          PP.el("span", { class: "name", text: this.meta.labels[i] + status }))));
      if (this.open.has(i)) for (const k of kids.slice(0, 2000)) row(k, depth + 1);
    };
    for (const r of this.roots) row(r, 0);
    const box = PP.$("cmp-tree");
    box.textContent = "";
    box.append(...rows);
  }
};
