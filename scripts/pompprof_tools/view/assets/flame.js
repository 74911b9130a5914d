"use strict";
/* Flame graph (icicle, root on top) of the call tree or of one task construct's trees
 * (its task roots below TASKS, one per parameter combination, merged under one box).
 * Widths: the inclusive value of the metric chosen in the metric pane (time for a
 * metric that is no sum); click a box to zoom into it, "up" to go back. */
PP.Flame = class {
  constructor(view) {
    this.v = view;
    this.p = view.p;
    const p = this.p, sel = PP.$("flame-root");
    this.trees = [{ label: "call tree", kids: p.roots.filter((r) => p.kind[r] !== 3) }];
    const byRegion = new Map();
    for (let i = 0; i < p.n; i++) if (p.kind[i] === 2) {
      const r = p.region[i];
      if (!byRegion.has(r)) byRegion.set(r, []);
      byRegion.get(r).push(i);
    }
    // the task constructs by their time, the 1000 largest (a select of 50,000 options
    // takes the browser longer than the rest of the page)
    const time = p.metric("time");
    const groups = [...byRegion].map(([r, kids]) => ({ label: "task " + p.meta.regions[r].name, kids,
      t: time ? kids.reduce((s, i) => s + (p.value(time, i, "incl", -1) || 0), 0) : 0 }));
    groups.sort((a, b) => b.t - a.t);
    for (const g of groups.slice(0, 1000)) this.trees.push(g);
    this.trees.forEach((t, k) => sel.append(PP.el("option", { value: k, text: t.label })));
    sel.addEventListener("change", () => { this.focus = null; this.draw(); });
    PP.$("flame-up").addEventListener("click", () => {
      if (this.focus !== null) {
        const par = p.parent[this.focus];
        this.focus = par >= 0 && this.inTree(par) ? par : null;
        this.draw();
      }
    });
    const c = PP.$("flame");
    c.addEventListener("click", (e) => {
      const b = this.hit(e);
      if (b && b.node >= 0) { this.focus = b.node; this.draw(); }
    });
    c.addEventListener("mousemove", (e) => {
      const b = this.hit(e);
      PP.tip(PP.$("flame-tip"), e, b ? "<b>" + PP.esc(b.label) + "</b><br>" +
        PP.esc(this.metric().name) + ": " + PP.fmt(b.value) +
        (b.share !== null ? " (" + PP.pct(b.share) + " of the view)" : "") : null);
    });
    c.addEventListener("mouseleave", () => PP.tip(PP.$("flame-tip"), null, null));
    this.focus = null;
    window.addEventListener("resize", () => { if (!PP.$("view-flame").hidden) this.draw(); });
  }
  metric() { const m = this.v.metric; return m.additive ? m : this.p.metric("time"); }
  tree() { return this.trees[+PP.$("flame-root").value || 0]; }
  inTree(i) {
    const t = this.tree();
    for (let a = i; a >= 0; a = this.p.parent[a]) if (t.kids.includes(a)) return true;
    return false;
  }
  hit(e) {
    const r = PP.$("flame").getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
    return (this.boxes || []).find((b) => x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h);
  }
  draw() {
    const p = this.p, m = this.metric(), loc = this.v.loc;
    const { g, w } = PP.canvas(PP.$("flame"));
    const H = 18, boxes = [];
    const val = (i) => Math.max(0, p.value(m, i, "incl", loc) || 0);
    const t = this.tree();
    const top = this.focus !== null ? [this.focus] : t.kids;
    const total = top.reduce((s, i) => s + val(i), 0);
    PP.$("flame-path").textContent = this.focus !== null ? p.label(this.focus) : t.label;
    boxes.push({ x: 0, y: 0, w, h: H, node: -1, label: t.label, value: total, share: 100 });
    const stack = [];
    let x = 0;
    for (const i of top) { const vw = total ? w * val(i) / total : 0; stack.push([i, x, vw, 1]); x += vw; }
    while (stack.length) {
      const [i, x0, vw, d] = stack.pop();
      if (vw < 0.5) continue;
      const v = val(i);
      boxes.push({ x: x0, y: d * H, w: vw, h: H, node: i, label: p.label(i), value: v,
                   share: total ? 100 * v / total : null });
      let cx = x0;
      for (const k of p.children(i)) {
        const kw = v ? vw * val(k) / v : 0;
        stack.push([k, cx, kw, d + 1]);
        cx += kw;
      }
    }
    const cv = PP.$("flame");
    // as tall as the deepest box, at least a few rows
    const need = Math.max(8 * H, Math.max(...boxes.map((b) => b.y)) + 2 * H);
    if (Math.abs(cv.clientHeight - need) > 1) { cv.style.height = need + "px"; return this.draw(); }
    g.font = "11px sans-serif";
    g.textBaseline = "middle";
    for (const b of boxes) {
      const k = b.node >= 0 ? p.kind[b.node] : 0;
      const hue = b.node < 0 ? 210 : (p.region[b.node] * 47) % 60 + (k === 2 ? 100 : k === 1 ? 30 : 0);
      g.fillStyle = b.node < 0 ? "#ccd" : "hsl(" + hue + ",70%," + (k === 1 ? 80 : 65) + "%)";
      g.fillRect(b.x, b.y, Math.max(0.5, b.w - 0.5), b.h - 1);
      if (b.w > 30) {
        g.fillStyle = "#000";
        g.save(); g.beginPath(); g.rect(b.x, b.y, b.w - 2, b.h); g.clip();
        g.fillText(b.label, b.x + 3, b.y + H / 2);
        g.restore();
      }
    }
    this.boxes = boxes;
    PP.$("flame").dataset.boxes = boxes.length;
  }
};
