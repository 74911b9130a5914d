"use strict";
/* Flame graph (icicle, root on top).  By default task-aware: below a stub (a scheduling
 * point where tasks of a construct ran) it draws that construct's task trees (its task
 * roots below TASKS, functions included), scaled to the stub's share of them, so one
 * picture shows the whole program with the work of its tasks where the tasks ran.  A
 * construct met again inside its own trees (recursion) is not opened a second time.
 * The toggle draws the plain call tree instead (stubs as leaves), and "tree" picks the
 * call tree or one task construct's merged trees.  Widths: the inclusive value of the
 * metric chosen in the metric pane (time for a metric that is no sum); click a box to
 * zoom into it, "up" to go back.  Colours: what a box is (PP.flameClass, the legend). */

/* the classes of boxes: [key, label, colour], the legend's order */
PP.FLAME_CLASSES = [
  ["task", "task construct (its instances' tree)", "#56a55a"],
  ["stub", "tasks run at a scheduling point (stub)", "#a9d8a0"],
  ["function", "function", "#e8a33d"],
  ["wait", "waiting: barrier, taskwait, critical, lock", "#d9706a"],
  ["create", "task creation", "#b07cc6"],
  ["omp", "other OpenMP construct (parallel, loop, single, ...)", "#7f9fd9"],
  ["mpi", "MPI call", "#3fb0b8"],
  ["other", "program, user region, TASKS", "#b8bcc8"],
];
PP.WAIT_ROLES = new Set(["barrier", "implicit barrier", "taskwait", "critical", "ordered",
  "taskgroup", "taskyield"]);
PP.flameClass = function (p, i) {
  const k = p.kind[i], r = p.meta.regions[p.region[i]];
  if (k === 2) return "task";
  if (k === 1) return "stub";
  if (k === 3) return "other";
  if (r.paradigm === "mpi") return "mpi";
  if (r.role === "function" && r.paradigm === "compiler") return "function";
  if (r.role === "task create") return "create";
  if (PP.WAIT_ROLES.has(r.role) || r.role === "wrapper") return "wait";
  if (r.paradigm === "openmp" && r.role !== "artificial") return "omp";
  return "other";
};

PP.Flame = class {
  constructor(view) {
    this.v = view;
    this.p = view.p;
    const p = this.p, sel = PP.$("flame-root");
    this.colours = Object.fromEntries(PP.FLAME_CLASSES.map(([k, , c]) => [k, c]));
    this.trees = [{ label: "call tree", kids: p.roots.filter((r) => p.kind[r] !== 3) }];
    // the task roots of each task construct (region), in document order
    this.taskRoots = new Map();
    for (let i = 0; i < p.n; i++) if (p.kind[i] === 2) {
      const r = p.region[i];
      if (!this.taskRoots.has(r)) this.taskRoots.set(r, []);
      this.taskRoots.get(r).push(i);
    }
    // the task constructs by their time, the 1000 largest (a select of 50,000 options
    // takes the browser longer than the rest of the page)
    const time = p.metric("time");
    const groups = [...this.taskRoots].map(([r, kids]) => ({ label: "task " + p.meta.regions[r].name, kids,
      t: time ? kids.reduce((s, i) => s + (p.value(time, i, "incl", -1) || 0), 0) : 0 }));
    groups.sort((a, b) => b.t - a.t);
    for (const g of groups.slice(0, 1000)) this.trees.push(g);
    this.trees.forEach((t, k) => sel.append(PP.el("option", { value: k, text: t.label })));
    sel.addEventListener("change", () => { this.focus = []; this.draw(); });
    PP.$("flame-tasks").addEventListener("change", () => { this.focus = []; this.draw(); });
    PP.$("flame-up").addEventListener("click", () => { this.focus.pop(); this.draw(); });
    const c = PP.$("flame");
    c.addEventListener("click", (e) => {
      const b = this.hit(e);
      if (b && b.node >= 0) { this.focus.push(b); this.draw(); }
    });
    c.addEventListener("mousemove", (e) => {
      const b = this.hit(e);
      PP.tip(PP.$("flame-tip"), e, b ? this.tipText(b) : null);
    });
    c.addEventListener("mouseleave", () => PP.tip(PP.$("flame-tip"), null, null));
    this.focus = [];   // the boxes zoomed into, the last one on top
    this.legend();
    window.addEventListener("resize", () => { if (!PP.$("view-flame").hidden) this.draw(); });
  }
  metric() { const m = this.v.metric; return m.additive ? m : this.p.metric("time"); }
  tree() { return this.trees[+PP.$("flame-root").value || 0]; }
  tasksBelowStubs() { return PP.$("flame-tasks").checked; }
  hit(e) {
    const r = PP.$("flame").getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
    return (this.boxes || []).find((b) => x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h);
  }
  tipText(b) {
    const m = this.metric();
    let html = "<b>" + PP.esc(b.label) + "</b><br>" + PP.esc(m.name) + ": " + PP.fmt(b.value, m.kind) +
      (b.share !== null ? " (" + PP.pct(b.share) + " of the view)" : "");
    if (b.below && b.node >= 0)
      html += "<br>in the tasks that ran at the scheduling point above (" + PP.pct(100 * b.scale) +
        " of the construct's tasks: " + PP.fmt(b.own, m.kind) + " in all)";
    return html;
  }
  legend() {
    const box = PP.$("flame-legend");
    box.textContent = "";
    for (const [k, label, colour] of PP.FLAME_CLASSES)
      box.append(PP.el("span", { "data-class": k }, PP.el("span", { class: "sw", style: "background:" + colour }), label));
  }
  /* the children of box b: its call-tree children, or below a stub in the task-aware
   * mode its construct's task roots (unless that construct is opened above already),
   * each with the factor that scales its values to this place */
  children(b, val) {
    const p = this.p, i = b.node;
    if (this.tasksBelowStubs() && p.kind[i] === 1 && this.taskRoots.has(p.region[i]) &&
        !b.open.includes(p.region[i])) {
      const roots = this.taskRoots.get(p.region[i]);
      const all = roots.reduce((s, r) => s + val(r), 0);
      const scale = all > 0 ? b.value / all : 0;
      const open = b.open.concat([p.region[i]]);
      return roots.map((r) => ({ node: r, scale, open, below: true }));
    }
    return Array.from(p.children(i), (k) => ({ node: k, scale: b.scale, open: b.open, below: b.below }));
  }
  draw() {
    const p = this.p, m = this.metric(), loc = this.v.loc;
    const { g, w } = PP.canvas(PP.$("flame"));
    const H = 18, boxes = [];
    const val = (i) => Math.max(0, p.value(m, i, "incl", loc) || 0);
    const t = this.tree();
    const top = this.focus.length ? [this.focus[this.focus.length - 1]]
      : t.kids.map((i) => ({ node: i, scale: 1, open: [], below: false }));
    for (const b of top) b.value = b.scale * val(b.node);
    const total = top.reduce((s, b) => s + b.value, 0);
    PP.$("flame-path").textContent = this.focus.length ? top[0].label : t.label;
    boxes.push({ x: 0, y: 0, w, h: H, node: -1, label: t.label, value: total, share: 100, scale: 1 });
    const stack = [];
    let x = 0;
    for (const b of top) {
      const vw = total ? w * b.value / total : 0;
      stack.push(Object.assign(b, { x, w: vw, d: 1 }));
      x += vw;
    }
    while (stack.length) {
      const b = stack.pop();
      if (b.w < 0.5) continue;
      b.y = b.d * H; b.h = H;
      b.label = p.label(b.node);
      b.own = val(b.node);
      b.share = total ? 100 * b.value / total : null;
      b.cls = PP.flameClass(p, b.node);
      boxes.push(b);
      let cx = b.x;
      for (const k of this.children(b, val)) {
        k.value = k.scale * val(k.node);
        k.w = b.value ? b.w * k.value / b.value : 0;
        k.x = cx; k.d = b.d + 1;
        stack.push(k);
        cx += k.w;
      }
    }
    const cv = PP.$("flame");
    // as tall as the deepest box, at least a few rows
    const need = Math.max(8 * H, Math.max(...boxes.map((b) => b.y)) + 2 * H);
    if (Math.abs(cv.clientHeight - need) > 1) { cv.style.height = need + "px"; return this.draw(); }
    g.font = "11px sans-serif";
    g.textBaseline = "middle";
    for (const b of boxes) {
      g.fillStyle = b.node < 0 ? "#ccd" : this.colours[b.cls];
      g.fillRect(b.x, b.y, Math.max(0.5, b.w - 0.5), b.h - 1);
      if (b.below && b.node >= 0) {     // a task tree drawn below its stub: a mark
        g.fillStyle = "rgba(0,0,0,0.25)";
        g.fillRect(b.x, b.y + b.h - 3, Math.max(0.5, b.w - 0.5), 2);
      }
      if (b.w > 30) {
        g.fillStyle = "#000";
        g.save(); g.beginPath(); g.rect(b.x, b.y, b.w - 2, b.h); g.clip();
        g.fillText(b.label, b.x + 3, b.y + H / 2);
        g.restore();
      }
    }
    this.boxes = boxes;
    cv.dataset.boxes = boxes.length;
  }
};
