"use strict";
/* The trace: pompprof-replay's summary at several zoom levels (each 4x finer than the
 * one before).  The timeline draws, per thread, what it did longest per bin at the
 * coarsest level that still has a bin per pixel of the visible window; the ready-tasks
 * curve below uses the same level.  The first task instances come with their fragments
 * and creating thread: hovering one shows it and a line from its creation to its
 * start.  With the task graph (pompprof-replay --graph) the critical path is drawn
 * over the rows where and when each of its stretches ran, joined by lines. */
PP.Trace = class {
  constructor(doc) {
    this.d = doc;
    const pic = doc.pictures;
    this.from = pic.from; this.to = pic.to;
    this.levels = [{ bins: pic.bins, ready: pic.ready,
                     runs: pic.threads.map((t) => Int32Array.from(t.runs.flat())) }];
    for (const l of pic.levels || [])
      this.levels.push({ bins: l.bins, ready: l.ready, runs: l.runs.map((r) => Int32Array.from(r)) });
    this.nthreads = pic.threads.length;
    // a job's threads by rank and thread ("rank 1 thread 0"), a process's by number
    this.names = doc.threads.map((t, i) => t.name || "thread " + i);
    this.ranks = doc.threads.map((t) => t.rank || 0);
    this.lines = (doc.mpi && doc.mpi.lines) || [];   // messages: [send s, from, receive s, to]
    this.labels = pic.labels;
    this.colour = {};
    let k = 0;
    const special = { idle: "#d0d0d0", "task creation": "#f5e050", "measurement (trace start, flushes)": "#888",
      "serial (outside parallel regions)": "#f5deb3", "fork/join": "#3d0a4a", "MPI (in MPI calls)": "#0000e0" };
    for (const [id, name] of Object.entries(this.labels)) {
      if (special[name]) this.colour[id] = special[name];
      else if (name.startsWith("overhead: scheduling")) this.colour[id] = "#e04040";
      else if (name.startsWith("overhead: blocked")) this.colour[id] = "#a01818";
      else if (name.startsWith("undetermined")) this.colour[id] = "#c8a0d0";
      else this.colour[id] = PP.PALETTE[k++ % PP.PALETTE.length];
    }
    this.instances = pic.instances || [];
    const tg = doc.task_graph;
    this.path = tg ? tg.path.stretches : [];     // [from, to, thread, construct, work, instance]
    this.pathNames = tg ? tg.constructs : [];
    this.drawnPath = [];
    this.v0 = this.from; this.v1 = this.to;
    this.hover = null;
    const c = PP.$("timeline");
    c.addEventListener("wheel", (e) => {
      e.preventDefault();
      const t = this.timeAt(e);
      this.zoom(e.deltaY < 0 ? 0.5 : 2, t);
    }, { passive: false });
    let drag = null;
    c.addEventListener("mousedown", (e) => { drag = { x: e.clientX, v0: this.v0, v1: this.v1 }; });
    window.addEventListener("mouseup", () => { drag = null; });
    c.addEventListener("mousemove", (e) => {
      if (drag) {
        const dt = (drag.x - e.clientX) / c.clientWidth * (drag.v1 - drag.v0);
        this.setWindow(drag.v0 + dt, drag.v1 + dt);
        return;
      }
      this.onHover(e);
    });
    c.addEventListener("mouseleave", () => { this.hover = null; PP.tip(PP.$("trace-tip"), null, null); this.draw(); });
    PP.$("zoom-in").addEventListener("click", () => this.zoom(0.5, (this.v0 + this.v1) / 2));
    PP.$("zoom-out").addEventListener("click", () => this.zoom(2, (this.v0 + this.v1) / 2));
    PP.$("zoom-reset").addEventListener("click", () => this.setWindow(this.from, this.to));
    PP.$("show-path").addEventListener("change", () => this.draw());
    PP.$("show-path").parentNode.hidden = !this.path.length;
    window.addEventListener("resize", () => { if (!PP.$("view-trace").hidden) this.draw(); });
    this.tables();
    this.legend();
  }
  timeAt(e) {
    const c = PP.$("timeline"), r = c.getBoundingClientRect();
    return this.v0 + (e.clientX - r.left) / c.clientWidth * (this.v1 - this.v0);
  }
  zoom(f, t) {
    const span = Math.max((this.v1 - this.v0) * f, (this.to - this.from) / this.finest().bins * 8);
    const a = t - (t - this.v0) * span / (this.v1 - this.v0);
    this.setWindow(a, a + span);
  }
  setWindow(a, b) {
    const span = Math.min(b - a, this.to - this.from);
    a = Math.max(this.from, Math.min(a, this.to - span));
    this.v0 = a; this.v1 = a + span;
    this.draw();
  }
  finest() { return this.levels[this.levels.length - 1]; }
  /* the coarsest level with at least one bin per pixel of the window */
  level(px) {
    const frac = (this.v1 - this.v0) / (this.to - this.from);
    for (let k = 0; k < this.levels.length; k++)
      if (this.levels[k].bins * frac >= px) return k;
    return this.levels.length - 1;
  }
  rowY(t, h) { return 4 + t * (h - 8) / this.nthreads; }
  draw() {
    const { g, w, h } = PP.canvas(PP.$("timeline"));
    const k = this.level(w), L = this.levels[k], span = this.to - this.from;
    const bw = span / L.bins, xs = w / (this.v1 - this.v0);
    const b0 = Math.floor((this.v0 - this.from) / bw), b1 = Math.ceil((this.v1 - this.from) / bw);
    const rh = (h - 8) / this.nthreads, strip = Math.min(8, rh / 4);
    for (let t = 0; t < this.nthreads; t++) {
      const runs = L.runs[t], y = this.rowY(t, h);
      // first run that may reach into the window: binary search on the start bin
      let lo = 0, hi = runs.length / 3;
      while (lo < hi) { const m = (lo + hi) >> 1; if (runs[3 * m] + runs[3 * m + 1] <= b0) lo = m + 1; else hi = m; }
      for (let r = lo; r < runs.length / 3; r++) {
        const s = runs[3 * r];
        if (s > b1) break;
        const x0 = (this.from + s * bw - this.v0) * xs;
        const x1 = (this.from + (s + runs[3 * r + 1]) * bw - this.v0) * xs;
        g.fillStyle = this.colour[runs[3 * r + 2]] || "#999";
        g.fillRect(Math.max(0, x0), y, Math.max(0.6, Math.min(w, x1) - Math.max(0, x0)), rh - strip - 2);
      }
      g.fillStyle = "#000";
      g.font = "11px sans-serif";
      g.fillText(this.names[t], 3, y + 11);
      if (t && this.ranks[t] !== this.ranks[t - 1])   // a line between ranks
        g.fillRect(0, y - 1, w, 1);
    }
    this.drawMessages(g, h, xs, rh);
    // task instances (the recorded ones), as a strip at the bottom of each row
    for (const inst of this.instances)
      for (const [a, b, loc, running] of inst.fragments) {
        if (!running || b < this.v0 || a > this.v1) continue;
        const y = this.rowY(loc, h) + rh - strip - 1;
        g.fillStyle = this.colour[inst.label] || "#555";
        g.fillRect((a - this.v0) * xs, y, Math.max(0.6, (b - a) * xs), strip);
      }
    if (this.hover) {     // the hovered instance, and its creation link
      const inst = this.hover, f = inst.fragments;
      const created = f.find((x) => !x[3]), first = f.find((x) => x[3]);
      g.strokeStyle = "#000"; g.lineWidth = 1.5;
      for (const [a, b, loc, running] of f) if (running)
        g.strokeRect((a - this.v0) * xs, this.rowY(loc, h) + rh - strip - 1, Math.max(1, (b - a) * xs), strip);
      if (created && first) {
        const xa = (created[0] - this.v0) * xs, ya = this.rowY(inst.creator, h) + rh / 2;
        const xb = (first[0] - this.v0) * xs, yb = this.rowY(first[2], h) + rh - strip / 2;
        g.beginPath(); g.moveTo(xa, ya); g.lineTo(xb, yb); g.stroke();
        g.beginPath(); g.arc(xa, ya, 3, 0, 7); g.fill();
      }
    }
    this.drawPath(g, h, xs, rh);
    PP.$("trace-window").textContent = PP.time(this.v0) + " \u2013 " + PP.time(this.v1);
    PP.$("trace-window").dataset.from = this.v0;
    PP.$("trace-window").dataset.to = this.v1;
    PP.$("trace-level").textContent = "level " + k + ": " + L.bins + " bins over the trace";
    PP.$("trace-level").dataset.level = k;
    this.drawReady(L, b0, b1, bw);
  }
  /* the critical path: a black bar through the middle of the row for each stretch in
   * the window, a line from each stretch's end to the next one's start */
  drawPath(g, h, xs, rh) {
    this.drawnPath = [];
    if (!this.path.length || !PP.$("show-path").checked) return;
    const mid = (loc) => this.rowY(loc, h) + (rh - Math.min(8, rh / 4) - 2) / 2;
    g.strokeStyle = "#000"; g.fillStyle = "#000"; g.lineWidth = 1;
    let prev = null;
    for (let i = 0; i < this.path.length; i++) {
      const [a, b, loc] = this.path[i];
      if (prev && !(prev[1] < this.v0 && a < this.v0) && !(prev[1] > this.v1 && a > this.v1)) {
        g.beginPath(); g.moveTo((prev[1] - this.v0) * xs, mid(prev[2]));
        g.lineTo((a - this.v0) * xs, mid(loc)); g.stroke();
      }
      prev = this.path[i];
      if (b < this.v0 || a > this.v1) continue;
      const x0 = Math.max(0, (a - this.v0) * xs), x1 = Math.min((this.v1 - this.v0) * xs, (b - this.v0) * xs);
      g.fillRect(x0, mid(loc) - 2, Math.max(1.5, x1 - x0), 4);
      this.drawnPath.push(i);
    }
    PP.$("timeline").dataset.pathDrawn = this.drawnPath.length;
  }
  /* a job's messages in the window: a thin line from the send to the receive */
  drawMessages(g, h, xs, rh) {
    g.strokeStyle = "rgba(0,0,0,0.5)"; g.lineWidth = 0.7;
    let drawn = 0;
    for (const [ts, a, tr, b] of this.lines) {
      if (tr < this.v0 || ts > this.v1) continue;
      g.beginPath(); g.moveTo((ts - this.v0) * xs, this.rowY(a, h) + rh / 2);
      g.lineTo((tr - this.v0) * xs, this.rowY(b, h) + rh / 2); g.stroke();
      drawn++;
    }
    PP.$("timeline").dataset.messagesDrawn = drawn;
  }
  drawReady(L, b0, b1, bw) {
    const { g, w, h } = PP.canvas(PP.$("ready"));
    const xs = w / (this.v1 - this.v0);
    let max = 0;
    for (let b = Math.max(0, b0); b < Math.min(L.bins, b1); b++) max = Math.max(max, L.ready[b]);
    g.fillStyle = "#4a78c2";
    for (let b = Math.max(0, b0); b < Math.min(L.bins, b1); b++) {
      const v = L.ready[b];
      if (!v) continue;
      const x = (this.from + b * bw - this.v0) * xs;
      g.fillRect(x, h - 2 - (h - 14) * v / (max || 1), Math.max(0.6, bw * xs), (h - 14) * v / (max || 1));
    }
    g.fillStyle = "#000";
    g.fillText("max " + PP.fmt(Number(max.toPrecision(3))) + " ready tasks (mean per bin)", 4, 11);
  }
  onHover(e) {
    const c = PP.$("timeline"), r = c.getBoundingClientRect(), t = this.timeAt(e);
    const row = Math.floor((e.clientY - r.top - 4) / ((c.clientHeight - 8) / this.nthreads));
    const found = this.instances.find((inst) =>
      inst.fragments.some(([a, b, loc, running]) => running && loc === row && a <= t && t <= b));
    this.hover = found || null;
    let html = null;
    if (found) {
      const f = found.fragments, c0 = f.find((x) => !x[3]);
      const run = f.filter((x) => x[3]).reduce((s, x) => s + x[1] - x[0], 0);
      html = "<b>" + PP.esc(this.labels[found.label] || "task") + "</b> (instance " +
        this.instances.indexOf(found) + ")<br>created on thread " + found.creator +
        (c0 ? " at " + PP.time(c0[0]) + ", began at " + PP.time(c0[1]) : "") +
        "<br>ran " + PP.time(run) + " in " + f.filter((x) => x[3]).length + " fragment(s)";
    } else if (row >= 0 && row < this.nthreads) {
      const k = this.level(c.clientWidth), L = this.levels[k];
      const b = Math.floor((t - this.from) / (this.to - this.from) * L.bins), runs = L.runs[row];
      for (let i = 0; i < runs.length; i += 3)
        if (runs[i] <= b && b < runs[i] + runs[i + 1]) {
          html = PP.esc(this.names[row]) + " at " + PP.time(t) + ": <b>" +
            PP.esc(this.labels[runs[i + 2]] || "?") + "</b>";
          break;
        }
    }
    const k = this.pathAt(row, t);
    if (k >= 0) {
      const [, , , c, work, inst] = this.path[k];
      html = (html ? html + "<br>" : "") + "<b>critical path</b>, stretch " + (k + 1) + " of " +
        this.path.length + ": " + PP.esc(this.pathNames[c]) + (inst >= 0 ? " #" + inst : "") +
        ", " + PP.time(work) + " of work";
    }
    PP.tip(PP.$("trace-tip"), e, html);
    this.draw();
  }
  /* the drawn stretch of the critical path on thread row at time t, or -1 */
  pathAt(row, t) {
    for (const i of this.drawnPath) {
      const [a, b, loc] = this.path[i];
      if (loc === row && a <= t && t <= b) return i;
    }
    return -1;
  }
  /* zoom to a dependent task instance of the task graph (its run, and as much again) */
  showInstance(node) {
    const [, , created, , began, ended] = node;
    const a = began !== null ? began : created, b = ended !== null ? ended : a;
    const pad = Math.max(b - a, (this.to - this.from) / this.finest().bins * 8) / 2;
    this.setWindow(a - pad, b + pad);
  }
  colourOfName(name) {
    for (const [id, n] of Object.entries(this.labels)) if (n === name) return this.colour[id];
    return "#bbb";
  }
  legend() {
    const box = PP.$("trace-legend");
    for (const [id, name] of Object.entries(this.labels))
      box.append(PP.el("span", {}, PP.el("span", { class: "sw", style: "background:" + this.colour[id] }), name));
  }
  /* a job's ranks: their threads summed, each with POT's quadrant of its team's time;
     the messages */
  rankTable(box) {
    const d = this.d, m = d.mpi;
    const column = Object.fromEntries(d.columns.map((c) => [c.key, c]));
    const rows = d.ranks.map((r) => Object.assign({}, r, { name: "rank " + r.rank,
      pot: r.pot ? r.pot.quadrant || "none" : "-" }));
    box.append(PP.el("h3", { text: "Ranks (summed over their threads; mpi: waiting for a partner and transfer)" }),
      PP.table("t-ranks", [{ key: "name", label: "rank" }, { key: "threads", label: "threads", num: true }].concat(
        d.rank_keys.map((k) => ({ key: k, label: column[k].column, num: true, kind: "time", title: column[k].what })),
        [{ key: "pot", label: "POT quadrant (" + (d.pot ? d.pot.left_out : "") + " left out)" }]), rows),
      PP.el("p", { id: "messages", text: m.matched + " messages matched (" + PP.fmt(m.bytes, "bytes") + "), " +
        m.late_senders + " late senders (" + PP.time(m.late_sender_wait) + " waiting), " + m.collectives +
        " collective calls (" + PP.time(m.collective_wait) + " waiting); " + m.receives_before_send +
        " receives before their send on the corrected clocks" }));
  }
  tables() {
    const d = this.d, box = PP.$("trace-tables");
    // pompprof-timeline's columns (analysis/overhead.py TIMELINE_PARTS, as the replay
    // prints them: the groups' sums before their parts)
    const cols = d.columns.map((c) => c.key);
    const rows = d.threads.map((t) => Object.assign({ thread: t.name }, t));
    rows.push(Object.assign({ thread: "total" }, d.total));
    const tt = d.total.time || 1;
    box.append(PP.el("h3", { text: "Breakdown (overhead = not working while a task was ready; creation and fork/join always)" }),
      PP.table("t-breakdown", [{ key: "thread", label: "thread" }].concat(
        d.columns.map((c) => ({ key: c.key, label: c.column, num: true, kind: "time", title: c.what || "" })),
        [{ key: (r) => 100 * r.work / (r.time || 1), label: "work %", num: true, fmt: PP.pct }]), rows),
      PP.el("p", { id: "breakdown-total", text: "total: " + d.columns.filter((c) => c.group === c.key && c.key !== "time")
        .map((c) => c.column + " " + PP.pct(100 * d.total[c.key] / tt)).join(", ") }));
    if (d.ranks) this.rankTable(box);
    const gr = d.graph, reg = d.task_region;
    const figures = (g) => "work " + PP.time(g.work) + " (task creation " + PP.time(g.work_creation) +
      " and serial code " + PP.time(g.work_serial) + " included), span " + PP.time(g.span) +
      ", parallelism " + PP.fmt(g.parallelism);
    box.append(PP.el("h3", { text: "Task graph and critical path" }),
      PP.el("p", { id: "graph", text: "whole trace: " + figures(gr) + " (" + gr.tasks + " explicit tasks); speedup bounds: " +
        gr.speedup.slice(0, 6).map((s) => s.threads + ": " + s.lower + "-" + s.upper).join("  ") }));
    if (reg)
      box.append(PP.el("p", { id: "task-region", text: "task region (" + PP.time(reg.from) + " to " + PP.time(reg.to) +
        ": the first task's creation to the last task's end): " + figures(reg) }));
    box.append(PP.el("p", { class: "note", text: "the graph's work holds task creation (a task exists once created), " +
      "which the breakdown counts as overhead, and serial code, which it counts apart" }));
    if (this.path.length)
      box.append(PP.el("p", { id: "path-note", text: "the critical path is drawn on the timeline in black (" +
        this.path.length + " stretches" + (d.task_graph.path.stretches_total > this.path.length ? " of " +
        d.task_graph.path.stretches_total : "") + "); each bar goes from the stretch's first to its last work" }));
    if (gr.span_path.length)
      box.append(PP.table("t-span", [{ key: "construct", label: "critical path, construct by construct" },
        { key: "seconds", label: "time", num: true, kind: "time" }, { key: "segments", label: "stretches", num: true }],
        gr.span_path));
    if (d.pot)
      box.append(PP.el("p", { id: "pot" }, PP.el("b", { text: "POT quadrant: " + (d.pot.quadrant || "none") }),
        " (idleness " + PP.time(d.total.idleness) + " = " + PP.pct(100 * d.pot.idleness_share) + ", overhead " +
        PP.time(d.total.overhead) + " = " + PP.pct(100 * d.pot.overhead_share) + " of the team's " +
        PP.time(d.pot.team_time) + ", " + d.pot.left_out + " left out; high from " + PP.pct(100 * d.pot.high) + "): ",
        PP.el("span", { class: "advice", text: d.pot.advice })));
    if (d.ready_wait && d.ready_wait.length)
      box.append(PP.el("h3", { text: "Ready wait per construct (from ready, all predecessors completed, to begin)" }),
        PP.table("t-ready-wait", [{ key: "construct", label: "construct" }, { key: "tasks", label: "tasks", num: true },
          { key: "total", label: "total", num: true, kind: "time" }, { key: "mean", label: "mean", num: true, kind: "time" },
          { key: "max", label: "max", num: true, kind: "time" }], d.ready_wait));
    if (d.task_graph && d.task_graph.dependences.edges.length) {
      const tg = new PP.TaskGraph(d.task_graph, (n) => this.colourOfName(n));
      box.append(PP.el("h3", { text: "Dependences per pair of constructs (" + d.graph.dependence_edges +
        " in all; " + d.depend.recorded + " dependent tasks, " + d.depend.items + " items)" }),
        PP.table("t-depend", [{ key: "from", label: "predecessor construct" }, { key: "to", label: "successor construct" },
          { key: "count", label: "dependences", num: true }], tg.pairs()));
    }
    const undetermined = d.depend ? d.depend.tasks - (d.depend.recorded || 0) : 0;
    if (undetermined > 0)
      box.append(PP.el("p", { text: undetermined + " tasks with depend clauses without recorded items: their readiness is undetermined" }));
    box.append(PP.el("p", { text: "trace: " + d.trace.events + " events, " + PP.time(d.trace.seconds) +
      ", " + d.trace.threads + " threads; " + (d.pictures.tasks_seen || 0) + " task instances, the first " +
      this.instances.length + " shown one by one" }));
  }
};
