"use strict";
/* Start: inflate the data, build the views, mark the page ready (data-ready, and the
 * time it took in data-open-ms, for the tests and make bench). */
(async function () {
  const t0 = performance.now();
  const status = PP.$("status");
  const steps = [];   // where the opening time goes (data-open-steps, for make bench)
  const step = (name) => steps.push(name + " " + (performance.now() - t0).toFixed(0));
  try {
    const index = JSON.parse(PP.$("pp-index").textContent);
    const meta = JSON.parse(new TextDecoder().decode(await PP.inflate(PP.base64(PP.$("pp-meta").textContent))));
    step("json");
    const arrays = PP.arrays(await PP.inflate(PP.base64(PP.$("pp-arrays").textContent)), index);
    step("arrays");
    if (meta.mode === "compare") {
      const c = new PP.Compare(meta.compare, arrays);
      PP.$("title").textContent = "pompprof: " + meta.compare.a.program + " vs " + meta.compare.b.program;
      PP.PAGE = { compare: c };
      PP.tabs.add("compare", "Comparison", "view-compare", () => c.render());
      PP.$("searchbox").hidden = true;
      PP.tabs.show("compare");
    } else {
      const model = new PP.Profile(meta.profile, arrays, "");
      step("model");
      const view = new PP.ProfileView(model);
      step("panes");
      let flame = null;   // made when first shown
      PP.$("title").textContent = "pompprof: " + meta.profile.program;
      PP.$("subtitle").textContent = meta.profile.path + " (" + model.n + " call paths, " +
        model.nloc + " locations)";
      PP.tabs.add("profile", "Profile", "view-profile", null);
      PP.tabs.add("flame", "Flame graph", "view-flame", () => {
        if (!flame) PP.PAGE.flame = flame = new PP.Flame(view);
        flame.draw();
      });
      let tablesDone = false;   // laid out when first shown
      PP.tabs.add("tables", "Tables", "view-tables", () => {
        if (!tablesDone) { PP.tables(meta.profile.report); tablesDone = true; }
      });
      let trace = null;
      if (meta.trace) {
        trace = new PP.Trace(meta.trace);
        PP.tabs.add("trace", "Trace", "view-trace", () => trace.draw());
        const tg = meta.trace.task_graph;
        if (tg && tg.dependences.nodes.length) {
          let drawn = false;    // laid out when first shown
          PP.tabs.add("graph", "Task graph", "view-graph", () => {
            if (!drawn) new PP.TaskGraph(tg, (n) => trace.colourOfName(n), (node) => {
              PP.tabs.show("trace");
              trace.showInstance(node);
            }).draw(PP.$("task-graph"));
            drawn = true;
          });
        }
      }
      PP.PAGE = { model, view, flame: null, trace };
      const results = PP.$("search-results");
      const run = () => {
        const hits = PP.search(view, PP.$("search").value);
        results.textContent = "";
        PP.$("search-count").textContent = PP.$("search").value ? hits.length + " found" : "";
        results.hidden = !hits.length;
        for (const i of hits.slice(0, 300)) {
          const li = PP.el("li", { "data-node": i, text: model.label(i) + model.whereSuffix(i) +
            (model.isTasks(i) ? "  [TASKS]" : "") });
          li.addEventListener("click", () => { results.hidden = true; PP.tabs.show("profile"); view.reveal(i); });
          results.append(li);
        }
      };
      PP.$("search").addEventListener("keydown", (e) => { if (e.key === "Enter") run(); });
      PP.$("search").addEventListener("input", () => { if (!PP.$("search").value) run(); });
      PP.tabs.show("profile");
    }
    status.textContent = "";
    step("ready");
    document.body.dataset.openSteps = steps.join(", ");
    document.body.dataset.openMs = (performance.now() - t0).toFixed(0);
    document.body.dataset.ready = "1";
  } catch (e) {
    status.textContent = "cannot show this page: " + e.message;
    status.className = "error";
    document.body.dataset.ready = "error";
    throw e;
  }
})();
