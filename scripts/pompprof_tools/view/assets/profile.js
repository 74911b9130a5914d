"use strict";
/* The profile in Cube's three panes: metrics, call tree (main tree and the task trees
 * below TASKS, as separate roots), system tree.  Inclusive values are sums of the
 * exclusive ones over the subtree, per location, computed once per metric. */

PP.Profile = class {
  constructor(meta, arrays, prefix) {
    // the regions come as columns (faster to parse); one object per region here
    const rc = meta.regions;
    if (!Array.isArray(rc))
      meta.regions = rc.name.map((name, k) => ({ name, file: rc.files[rc.file[k]],
        begin: rc.begin[k], end: rc.end[k], role: rc.roles[rc.role[k]],
        paradigm: rc.paradigms[rc.paradigm[k]] }));
    this.meta = meta;
    this.n = meta.nodes;
    this.nloc = meta.locations.length;
    this.parent = arrays[prefix + "parent"];
    this.region = arrays[prefix + "region"];
    this.param = arrays[prefix + "param"];
    this.kind = arrays[prefix + "kind"];  // 0 node, 1 stub, 2 task root, 3 TASKS
    this.excl = {};
    for (const m of meta.metrics) this.excl[m.id] = arrays[prefix + "m:" + m.id];
    this.inclCache = {};
    // children lists (document order), by counting: CSR
    const n = this.n, count = new Int32Array(n + 1);
    this.roots = [];
    for (let i = 0; i < n; i++) {
      const p = this.parent[i];
      if (p < 0) this.roots.push(i); else count[p + 1]++;
    }
    for (let i = 0; i < n; i++) count[i + 1] += count[i];
    this.kidStart = count;
    this.kids = new Int32Array(Math.max(1, count[n]));
    const fill = count.slice(0, n);
    for (let i = 0; i < n; i++) {
      const p = this.parent[i];
      if (p >= 0) this.kids[fill[p]++] = i;
    }
    this.metrics = this.derivedMetrics();
  }
  children(i) { return this.kids.subarray(this.kidStart[i], this.kidStart[i + 1]); }
  nkids(i) { return this.kidStart[i + 1] - this.kidStart[i]; }
  label(i) {
    const r = this.meta.regions[this.region[i]], p = this.param[i];
    return p >= 0 ? r.name + " (" + this.meta.strings[p] + ")" : r.name;
  }
  where(i) {
    const r = this.meta.regions[this.region[i]];
    return r.file ? r.file + (r.begin > 0 ? ":" + r.begin : "") : "";
  }
  /* " @file:line" unless the name says it already (OpenMP constructs' names do) */
  whereSuffix(i) {
    const w = this.where(i);
    return w && !this.meta.regions[this.region[i]].name.includes("@" + w) ? "  @" + w : "";
  }
  isTasks(i) { let r = i; while (this.parent[r] >= 0) r = this.parent[r]; return this.kind[r] === 3; }

  /* inclusive values per (node, location) of an additive metric */
  incl(id) {
    if (this.inclCache[id]) return this.inclCache[id];
    const ex = this.excl[id], L = this.nloc, out = new Float64Array(ex);
    for (let i = this.n - 1; i > 0; i--) {
      const p = this.parent[i];
      if (p < 0) continue;
      const a = i * L, b = p * L;
      for (let l = 0; l < L; l++) out[b + l] += out[a + l];
    }
    return (this.inclCache[id] = out);
  }

  /* what the metric pane offers: the stored metrics, then the derived ones */
  derivedMetrics() {
    const list = this.meta.metrics.map((m) => Object.assign({ derived: false }, m));
    const has = (id) => this.meta.metrics.some((m) => m.id === id);
    if (has("time") && has("visits"))
      list.push({ id: "time_per_visit", name: "time per visit", kind: "time", derived: true,
                  description: "time / visits", num: "time", den: "visits" });
    const byName = {};
    for (const m of this.meta.metrics) byName[m.name] = m.id;
    for (const r of this.meta.rates)
      if (byName[r.numerator] && byName[r.denominator])
        list.push({ id: "rate:" + r.label, name: r.label, kind: "rate", derived: true,
                    description: r.description, num: byName[r.numerator], den: byName[r.denominator] });
    return list;
  }

  /* value of node i: per location (loc >= 0) or aggregated over all */
  value(m, i, flavour, loc) {
    const L = this.nloc;
    if (m.derived) {
      const a = this.value(this.metric(m.num), i, flavour, loc);
      const b = this.value(this.metric(m.den), i, flavour, loc);
      return b ? a / b : null;
    }
    if (!m.additive) {      // min/max of one visit: over the locations that visited
      const v = this.excl[m.id], vis = this.excl.visits;
      let best = null;
      for (let l = loc >= 0 ? loc : 0; l < (loc >= 0 ? loc + 1 : L); l++) {
        if (vis && !vis[i * L + l]) continue;
        const x = v[i * L + l];
        if (best === null || (m.aggregate === "min" ? x < best : x > best)) best = x;
      }
      return best;
    }
    const arr = flavour === "incl" ? this.incl(m.id) : this.excl[m.id];
    if (loc >= 0) return arr[i * L + loc];
    let s = 0;
    for (let l = 0; l < L; l++) s += arr[i * L + l];
    return s;
  }
  metric(id) { return this.metrics.find((m) => m.id === id); }

  /* the metric's total, the denominator of "% of root": the main roots' inclusive sum
   * (for time the report's measured thread time: the task trees' time is in the main
   * tree already, at the stubs where the tasks ran); for visits all roots', the task
   * trees' too (their visits are nowhere else) */
  rootTotal(m, loc) {
    let s = 0;
    const all = m.id === "visits";
    for (const r of this.roots) if (all || this.kind[r] !== 3) s += this.value(m, r, "incl", loc) || 0;
    return s;
  }
  isRoot(i) { return this.parent[i] < 0; }
  /* the child of i (or the root, i < 0) of most inclusive value of metric m */
  hottest(list, m) {
    let best = -1, bv = -Infinity;
    for (const k of list) {
      const v = this.value(m, k, "incl", -1) || 0;
      if (v > bv) { bv = v; best = k; }
    }
    return best;
  }
  /* the task construct (region) of most time: its task roots' inclusive time summed */
  hottestTaskRegion(m) {
    const by = new Map();
    for (let i = 0; i < this.n; i++) if (this.kind[i] === 2)
      by.set(this.region[i], (by.get(this.region[i]) || 0) + (this.value(m, i, "incl", -1) || 0));
    let best = -1, bv = -Infinity;
    for (const [r, v] of by) if (v > bv) { bv = v; best = r; }
    return best;
  }
};

/* ---- the panes ------------------------------------------------------------------------ */
PP.ProfileView = class {
  constructor(model) {
    this.p = model;
    this.metric = model.metrics[0];
    this.flavour = "incl";
    this.percent = false;
    this.loc = -1;           // -1: all locations
    this.open = new Set();
    this.shown = new Map();  // node -> number of children shown (lazy: a page at a time)
    this.selected = model.roots[0];
    this.openHotPaths();
    document.querySelectorAll("input[name=flavour]").forEach((e) =>
      e.addEventListener("change", () => { this.flavour = e.value; this.render(); }));
    PP.$("percent").addEventListener("change", (e) => { this.percent = e.target.checked; this.render(); });
    PP.$("tree").addEventListener("click", (e) => this.onTreeClick(e));
    this.render();
  }
  render() { this.renderMetrics(); this.renderTree(); this.renderSystem(); }

  /* The first screen answers "where does the time go": the hottest path of the call
   * tree (through the call paths below which tasks ran, when there are any) open down
   * to the scheduling point whose tasks it waits on (the hottest task construct that
   * ran there selected), and the hottest task construct's tree open along its own
   * hottest path (functions included). */
  openHotPaths() {
    const p = this.p, m = p.metric("time") || p.metrics[0];
    // which call paths have tasks run below them (a stub): the path goes there when
    // it can, the hottest child with tasks below it, else the hottest child
    const tasksBelow = new Uint8Array(p.n);
    for (let i = p.n - 1; i >= 0; i--) {
      if (p.kind[i] === 1) tasksBelow[i] = 1;
      if (tasksBelow[i] && p.parent[i] >= 0) tasksBelow[p.parent[i]] = 1;
    }
    const next = (list) => {
      const withTasks = list.filter((k) => tasksBelow[k]);
      return p.hottest(withTasks.length ? withTasks : list, m);
    };
    const mains = p.roots.filter((r) => p.kind[r] !== 3);
    for (let i = next(mains), depth = 0; i >= 0 && depth < 64; depth++) {
      this.open.add(i);
      this.selected = i;
      const kids = Array.from(p.children(i));
      const stubs = kids.filter((k) => p.kind[k] === 1);
      if (stubs.length) { this.selected = p.hottest(stubs, m); break; }
      i = next(kids);
    }
    const region = p.hottestTaskRegion(m);
    if (region < 0) return;
    const roots = [];
    for (let i = 0; i < p.n; i++) if (p.kind[i] === 2 && p.region[i] === region) roots.push(i);
    for (let i = p.hottest(roots, m), depth = 0; i >= 0 && depth < 64; depth++) {
      for (let a = i; a >= 0; a = p.parent[a]) this.open.add(a);
      const kids = Array.from(p.children(i));
      if (!kids.length) break;
      i = p.hottest(kids, m);
      if ((p.value(m, i, "incl", -1) || 0) <= 0) break;
    }
    this.hotTask = region;
  }

  renderMetrics() {
    const ul = PP.$("metrics");
    ul.textContent = "";
    for (const m of this.p.metrics) {
      const total = m.additive || m.derived ? this.p.rootTotal(m, this.loc) : null;
      const li = PP.el("li", { "data-metric": m.id, title: m.description || "",
                               class: m === this.metric ? "on" : "" },
        PP.el("span", { class: "name", text: m.name }),
        PP.el("span", { class: "val", text: m.kind === "rate" || m.id === "time_per_visit" ? ""
          : PP.fmt(total, m.kind) }));
      li.addEventListener("click", () => { this.metric = m; this.render(); });
      ul.append(li);
    }
    PP.$("tree-scope").textContent = "(" + this.metric.name + ", " +
      (this.flavour === "incl" ? "inclusive" : "exclusive") +
      (this.loc >= 0 ? ", " + this.p.meta.locations[this.loc].name : ", all locations") + ")";
  }

  display(i) {
    const v = this.p.value(this.metric, i, this.flavour, this.loc);
    if (this.percent && this.metric.additive) {
      const t = this.p.rootTotal(this.metric, this.loc);
      return t ? PP.pct(100 * v / t) : "-";
    }
    return PP.fmt(v, this.metric.kind);
  }

  renderTree() {
    const box = PP.$("tree"), p = this.p, rows = [];
    const total = this.metric.additive ? this.p.rootTotal(this.metric, this.loc) : 0;
    const row = (i, depth) => {
      const nk = p.nkids(i);
      const v = this.p.value(this.metric, i, this.flavour, this.loc);
      const heat = total && v ? Math.min(1, Math.abs(v) / total) : 0;
      const k = p.kind[i];
      const div = PP.el("div", { class: "row" + (i === this.selected ? " on" : ""),
                                 "data-node": i, style: "padding-left:" + (depth * 14) + "px" },
        PP.el("span", { class: "tog", text: nk ? (this.open.has(i) ? "\u25be" : "\u25b8") : "" }),
        PP.el("span", { class: "heat", style: "background:rgba(200,40,40," + heat.toFixed(3) + ")" }),
        PP.el("span", { class: "val", text: this.display(i) }),
        PP.el("span", { class: "name" + (k === 1 ? " stub" : k === 2 ? " task" : ""),
                        text: p.label(i), title: p.where(i) }));
      rows.push(div);
      if (!nk || !this.open.has(i)) return;
      const kids = p.children(i), limit = this.shown.get(i) || 200;
      for (let j = 0; j < kids.length && j < limit; j++) row(kids[j], depth + 1);
      if (kids.length > limit)
        rows.push(PP.el("div", { class: "row more", "data-more": i,
                                 style: "padding-left:" + ((depth + 1) * 14) + "px",
                                 text: "\u2026 " + (kids.length - limit) + " more call paths" }));
    };
    for (const r of p.roots) row(r, 0);
    box.textContent = "";
    box.append(...rows);
  }

  onTreeClick(e) {
    const more = e.target.closest("[data-more]");
    if (more) {
      const i = +more.dataset.more;
      this.shown.set(i, (this.shown.get(i) || 200) + 1000);
      this.renderTree();
      return;
    }
    const row = e.target.closest("[data-node]");
    if (!row) return;
    const i = +row.dataset.node;
    if (e.target.classList.contains("tog")) {
      if (this.open.has(i)) this.open.delete(i); else this.open.add(i);
    } else {
      this.selected = i;
    }
    this.renderTree();
    this.renderSystem();
  }

  /* open the path to node i, select it and show it */
  reveal(i) {
    for (let c = i, a = this.p.parent[i]; a >= 0; c = a, a = this.p.parent[a]) {
      this.open.add(a);
      const k = this.p.children(a).indexOf(c);
      if (k >= (this.shown.get(a) || 200)) this.shown.set(a, k + 1);
    }
    this.selected = i;
    this.renderTree();
    this.renderSystem();
    const row = PP.$("tree").querySelector('[data-node="' + i + '"]');
    if (row) row.scrollIntoView({ block: "center" });
  }

  renderSystem() {
    const p = this.p, i = this.selected, box = PP.$("system");
    const locs = p.meta.locations;
    const vals = locs.map((_, l) => p.value(this.metric, i, this.flavour, l));
    const finite = vals.filter((v) => v !== null && isFinite(v));
    const max = Math.max(0, ...finite.map(Math.abs));
    PP.$("system-path").textContent = p.label(i) + p.whereSuffix(i);
    if (finite.length) {
      const mn = Math.min(...finite), mx = Math.max(...finite);
      const mean = finite.reduce((a, b) => a + b, 0) / finite.length;
      const st = PP.$("system-stats");
      st.textContent = "";
      const k = this.metric.kind;
      st.append("min ", PP.el("b", { id: "sys-min", text: PP.fmt(mn, k) }),
                "  mean ", PP.el("b", { id: "sys-mean", text: PP.fmt(mean, k) }),
                "  max ", PP.el("b", { id: "sys-max", text: PP.fmt(mx, k) }));
    } else {
      PP.$("system-stats").textContent = "no value";
    }
    box.textContent = "";
    // node > process > thread, as Cube's system tree; a process line only when
    // there are several
    let node = null, proc = null;
    const several = new Set(locs.map((l) => l.process + "\0" + l.rank)).size > 1;
    locs.forEach((loc, l) => {
      if (loc.node && loc.node !== node) {
        node = loc.node;
        proc = null;
        box.append(PP.el("div", { class: "node", text: node }));
      }
      if (several && loc.process + "\0" + loc.rank !== proc) {
        proc = loc.process + "\0" + loc.rank;
        box.append(PP.el("div", { class: "proc", text: loc.process + " (rank " + loc.rank + ")" }));
      }
      const v = vals[l];
      const w = max && v ? (100 * Math.abs(v) / max).toFixed(2) : 0;
      const div = PP.el("div", { class: "loc" + (l === this.loc ? " on" : ""), "data-loc": l,
                                 title: "click: call tree values of this location only" },
        PP.el("span", { class: "name", text: loc.name }),
        PP.el("span", {}, PP.el("div", { class: "bar", style: "width:" + w + "%" })),
        PP.el("span", { class: "val", text: PP.fmt(v, this.metric.kind) }));
      div.addEventListener("click", () => { this.loc = this.loc === l ? -1 : l; this.render(); });
      box.append(div);
    });
  }
};

/* Search over every call path: FILE:LINE finds the regions that begin at that line of a
 * file whose name ends with FILE (none there: the innermost ones holding the line);
 * anything else is looked for in the names (parameters included). */
PP.search = function (view, query) {
  const p = view.p, q = query.trim().toLowerCase(), out = [];
  if (!q) return out;
  let regionHit;
  const fl = /^(.*\S):(\d+)$/.exec(q);
  if (fl) {
    const file = fl[1], line = +fl[2], regs = p.meta.regions;
    const inFile = (r) => r.file && r.file.toLowerCase().endsWith(file);
    regionHit = regs.map((r) => inFile(r) && r.begin === line);
    if (!regionHit.some((x) => x)) {
      let best = -1;
      regs.forEach((r) => {
        if (inFile(r) && r.begin <= line && line <= r.end &&
            (best < 0 || r.end - r.begin < regs[best].end - regs[best].begin)) best = regs.indexOf(r);
      });
      regionHit = regs.map((_, k) => k === best);
    }
  } else {
    regionHit = p.meta.regions.map((r) => r.name.toLowerCase().includes(q));
  }
  const paramHit = p.meta.strings.map((s) => s.toLowerCase().includes(q));
  for (let i = 0; i < p.n; i++) {
    const pr = p.param[i];
    if (regionHit[p.region[i]] || (pr >= 0 && paramHit[pr])) out.push(i);
  }
  return out;
};
