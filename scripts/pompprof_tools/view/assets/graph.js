"use strict";
/* The task graph of a run with dependent tasks (pompprof-replay --graph): the
 * dependence graph as SVG, instance by instance for a small run (columns: the
 * longest chain of dependences that leads to a task; bold: the critical path), or
 * collapsed to task constructs for a large one (edges labelled with how many
 * dependences join two constructs).  Hovering a node says what it is. */
/* SVG's namespace, as the HTML parser gives it to an <svg> element (the page holds no
 * address at all, not even a namespace's) */
PP.SVG = (() => { const d = document.createElement("div"); d.innerHTML = "<svg></svg>"; return d.firstChild.namespaceURI; })();
PP.svg = function (tag, attrs, text) {
  const e = document.createElementNS(PP.SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
};


PP.TaskGraph = class {
  /* colourOf: construct name -> colour (the timeline's); onPick(node): a click on an
   * instance's box */
  constructor(tg, colourOf, onPick) {
    this.onPick = onPick;
    this.g = tg.dependences;
    this.names = tg.constructs;
    this.maxInstances = tg.max_instances;
    this.colourOf = colourOf;
  }
  /* columns: longest path (in edges) from a node without predecessors */
  columns(n, edges) {
    const col = new Array(n).fill(0), indeg = new Array(n).fill(0), out = [];
    for (let i = 0; i < n; i++) out.push([]);
    for (const [a, b] of edges) { out[a].push(b); indeg[b]++; }
    const queue = [];
    for (let i = 0; i < n; i++) if (!indeg[i]) queue.push(i);
    for (let q = 0; q < queue.length; q++)
      for (const b of out[queue[q]]) {
        col[b] = Math.max(col[b], col[queue[q]] + 1);
        if (--indeg[b] === 0) queue.push(b);
      }
    return col;
  }
  draw(box) {
    box.textContent = "";
    const g = this.g, n = g.nodes.length;
    // instances: a DAG, in columns; constructs: one row in order of first appearance
    // (their graph has cycles: lu0 -> fwd -> bmod -> lu0 of the next step)
    const col = g.collapsed ? g.nodes.map((_, i) => i) : this.columns(n, g.edges);
    const rows = {}, pos = [];
    for (let i = 0; i < n; i++) {
      const r = rows[col[i]] || 0;
      rows[col[i]] = r + 1;
      pos.push([col[i], r]);
    }
    const nw = g.collapsed ? 190 : 46, nh = g.collapsed ? 40 : 22, dx = nw + (g.collapsed ? 90 : 22), dy = nh + 14;
    const ncol = Math.max(1, ...col.map((c) => c + 1)), nrow = Math.max(1, ...Object.values(rows));
    const top = g.collapsed ? 40 + 26 * n : 0;     // room for the arcs above and below
    const W = 10 + ncol * dx, H = 10 + nrow * dy + 2 * top;
    const svg = PP.svg("svg", { id: "task-graph-svg", width: W, height: H, viewBox: "0 0 " + W + " " + H });
    const marker = PP.svg("marker", { id: "arrow", viewBox: "0 0 8 8", refX: 8, refY: 4,
      markerWidth: 7, markerHeight: 7, markerUnits: "userSpaceOnUse", orient: "auto" });
    marker.append(PP.svg("path", { d: "M0,0 L8,4 L0,8 z", fill: "#555" }));
    const defs = PP.svg("defs", {});
    defs.append(marker);
    svg.append(defs);
    const xy = (i) => [6 + pos[i][0] * dx, 6 + top + pos[i][1] * dy];
    for (const e of g.edges) {
      const [a, b] = e, onPath = e[e.length - 1];
      const [xa, ya] = xy(a), [xb, yb] = xy(b);
      let d, lx, ly;
      if (!g.collapsed) {          // left to right, straight
        d = "M" + (xa + nw) + "," + (ya + nh / 2) + " L" + xb + "," + (yb + nh / 2);
      } else if (a === b) {        // a loop over the node
        d = "M" + (xa + nw * 0.6) + "," + ya + " C" + (xa + nw * 0.6) + "," + (ya - 40) + " " +
          (xa + nw * 0.9) + "," + (ya - 40) + " " + (xa + nw * 0.9) + "," + ya;
        lx = xa + nw * 0.75; ly = ya - 34;
      } else {                     // forward above, backward below, higher the farther
        const up = b > a, h = 30 + 22 * Math.abs(b - a);
        const x1 = xa + nw / 2 + (up ? 10 : -10), x2 = xb + nw / 2 + (up ? -10 : 10);
        const y1 = up ? ya : ya + nh, yc = up ? ya - h : ya + nh + h;
        d = "M" + x1 + "," + y1 + " Q" + (x1 + x2) / 2 + "," + yc + " " + x2 + "," + y1;
        lx = (x1 + x2) / 2; ly = (y1 + yc) / 2 + (up ? 0 : 10);
      }
      svg.append(PP.svg("path", { d, fill: "none", class: "edge" + (onPath ? " critical" : ""),
        "data-from": a, "data-to": b, "marker-end": "url(#arrow)" }));
      if (g.collapsed)   // [from, to, dependences, predecessors' work, predecessors, on path]
        svg.append(PP.svg("text", { x: lx, y: ly, class: "elabel", "data-from": a, "data-to": b },
          e[2] + " \u00d7 from " + e[4] + " tasks, " + PP.time(e[3])));
    }
    for (let i = 0; i < n; i++) {
      const v = g.nodes[i], name = this.names[v[0]], [x, y] = xy(i);
      const crit = v[v.length - 1];
      const pick = !g.collapsed && this.onPick;
      const grp = PP.svg("g", { class: "gnode" + (crit ? " critical" : "") + (pick ? " pick" : ""),
                                "data-node": i });
      grp.append(PP.svg("rect", { x, y, width: nw, height: nh, rx: 3, fill: this.colourOf(name) }));
      const tip = g.collapsed
        ? name + ": " + v[1] + " tasks, work " + PP.time(v[2])
        : name + " #" + i + " on thread " + v[1] + ": created " + PP.time(v[2]) + ", ready " +
          PP.time(v[3]) + ", began " + PP.time(v[4]) + ", ended " + PP.time(v[5]) + "; work " +
          PP.time(v[6]);
      grp.append(PP.svg("title", {}, tip));
      grp.append(PP.svg("text", { x: x + 3, y: y + (g.collapsed ? 15 : nh - 7) },
        g.collapsed ? name.slice(0, 28) : "#" + i));
      if (g.collapsed)
        grp.append(PP.svg("text", { x: x + 3, y: y + 31 }, v[1] + " tasks, " + PP.time(v[2])));
      if (pick) grp.addEventListener("click", () => this.onPick(v));
      svg.append(grp);
    }
    this.legend(PP.$("task-graph-legend"));
    box.append(PP.el("p", { id: "graph-caption", text: g.collapsed
      ? "collapsed to task constructs (" + n + " constructs; more than " + this.maxInstances +
        " dependent tasks); an edge: how many dependences join two constructs, from how many " +
        "predecessor tasks, and those tasks' work (each counted once); bold: where the critical path passes"
      : n + " dependent task instances and " + g.edges.length +
        " dependences (columns: longest chain of dependences leading to a task); bold: the " +
        "critical path; click a task to see it on the timeline" }));
    box.append(svg);
  }
  /* what the colours and the bold lines mean */
  legend(box) {
    if (!box) return;
    box.textContent = "";
    const used = [...new Set(this.g.nodes.map((v) => v[0]))];
    for (const c of used)
      box.append(PP.el("span", { "data-construct": this.names[c] },
        PP.el("span", { class: "sw", style: "background:" + this.colourOf(this.names[c]) }), this.names[c]));
    box.append(PP.el("span", {}, PP.el("span", { class: "bold-sw" }), "critical path"));
  }
  /* dependences between constructs: [{from, to, count}] (the collapsed graph's
   * edges, or the instance edges counted per pair) */
  pairs() {
    const g = this.g, m = new Map();
    for (const e of g.edges) {
      const a = g.nodes[e[0]][0], b = g.nodes[e[1]][0];   // construct indices
      const k = a + " " + b, c = g.collapsed ? e[2] : 1;
      const cur = m.get(k) || { from: this.names[a], to: this.names[b], count: 0 };
      cur.count += c;
      m.set(k, cur);
    }
    return [...m.values()];
  }
};
