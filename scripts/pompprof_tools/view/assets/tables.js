"use strict";
/* The report's tables (pompprof-report's own analysis, computed when the page was
 * written): tasks with their granularity verdicts, by parameter, overheads, MPI.  Every
 * number is the report's (pompprof-report --format csv has the same), in PP.fmt's units. */
PP.tables = function (rep) {
  const box = PP.$("tables"), h = (t) => PP.el("h3", { text: t });
  const time = (key, label, title) => ({ key, label, num: true, kind: "time", title });
  const count = (key, label, title) => ({ key, label, num: true, kind: "count", title });
  const share = (key, label) => ({ key, label, num: true, fmt: PP.pct });
  const txt = (key, label) => ({ key, label });
  if (rep.tasks.length) {
    const perInstance = Object.keys(rep.tasks[0].counters_per_instance || {});
    box.append(h("Tasks"), PP.table("t-tasks", [
      txt("id", "id"), txt("name", "task construct"), count("instances", "inst"),
      time("mean", "mean"), time("min", "min"), time("max", "max"),
      time("mean_work", "work", "mean work per instance: the task's own code and the functions it calls, not its child tasks, creating or waiting"),
      time("mean_create", "create", "mean time of one creation"),
      { key: "ratio", label: "work/create", num: true, fmt: (v) => (v === null || v === undefined ? "-" : v.toFixed(1) + "x") },
      { key: (r) => r.granularity || "", label: "verdict",
        title: "coarsen: work < " + rep.granularity_factor + "x creation; not measured: creation took no measured time" },
      time("task_time_at_sync", "taskT", "time executing the construct's tasks at scheduling points")]
      .concat(perInstance.map((c) => ({ key: (r) => (r.counters_per_instance || {})[c], label: c + "/i",
                                        num: true, kind: "count", title: c + " per instance" }))),
      rep.tasks));
    const vals = [];
    for (const t of rep.tasks) for (const v of t.values || [])
      vals.push(Object.assign({ construct: t.id + " " + t.name }, v));
    if (vals.length)
      box.append(h("Tasks per parameter values"), PP.table("t-task-values", [
        txt("construct", "task construct"), txt("params", "parameters"), count("instances", "inst"),
        time("mean", "mean"), time("min", "min"), time("max", "max"), time("mean_work", "work")],
        vals));
  }
  const advice = PP.el("div", { id: "t-advice" }, h("Task granularity (work per instance, functions included, against one creation; < " +
    rep.granularity_factor + "x: coarsen)"));
  // pompprof-report's verdicts (report.granularity_lines), with the numbers they rest on
  const verdict = (t) => PP.el("p", { class: t.granularity === "coarsen" ? "advice verdict" : "verdict",
    "data-task": t.id, text: t.id + " " + t.name + ": work " + PP.time(t.mean_work) + " per instance" +
      (t.granularity === "not measured" ? "; creation not measured (no time: pompprof run sees no " +
        "creation's end): no verdict" : " = " + t.ratio.toFixed(1) + "x creation (" + PP.time(t.mean_create) + "): " +
        t.granularity) });
  const judged = rep.tasks.filter((t) => t.granularity);
  const fine = judged.filter((t) => t.granularity === "fine");
  for (const t of judged.length <= 12 ? judged : judged.filter((x) => x.granularity !== "fine"))
    advice.append(verdict(t));
  if (judged.length > 12 && fine.length) {
    const low = fine.reduce((a, b) => (b.ratio < a.ratio ? b : a));
    advice.append(PP.el("p", { class: "verdict", text: fine.length + " more task constructs are fine, the closest:" }), verdict(low));
  }
  if (!judged.length)
    advice.append(PP.el("p", { text: rep.tasks.length ? "no task ran: no verdict" : "no task constructs" }));
  box.append(advice);
  for (const e of rep.by_parameter) {
    box.append(h("By parameter: " + e.id + " " + e.name + " by " + e.parameter + " (" +
                 PP.time(e.total) + " in all)"));
    const rows = e.rows.slice();
    if (e.without) rows.push(Object.assign({ value: "(without)" }, e.without));
    box.append(PP.table("t-param-" + e.id + "-" + e.parameter, [
      { key: "value", label: e.parameter, num: false }, count("instances", "instances"),
      time("mean", "mean"), time("time", "total"), share("pct", "%"), share("cum_pct", "cum %")], rows));
    if (e.cutoff) box.append(PP.el("p", { class: "advice", text: "cut off at " + e.parameter +
      "=" + e.cutoff.value + ": from there on a task with all it spawns takes " +
      PP.time(e.cutoff.granularity) + " < " + rep.granularity_factor + "x its creation (" +
      PP.time(e.cutoff.mean_create) + ")" }));
  }
  const ov = rep.overhead;
  const scopes = [ov.program].concat(ov.parallel_regions);
  const cats = Object.keys(ov.program.categories);
  box.append(h("Overhead analysis (summed over threads)"), PP.table("t-overhead",
    [txt("name", "scope"), time("total", "total")].concat(cats.map((c) => ({
      key: (r) => r.categories[c].time, label: c, num: true, kind: "time" }))).concat([
      share("overhead_pct", "ovhd %")]), scopes));
  box.append(PP.el("p", { id: "t-coverage", text: "parallel coverage: " + PP.pct(100 * ov.parallel_coverage) +
    " of wall time" }));
  if (ov.sources.length)
    box.append(h("Overheads by source"), PP.table("t-sources", [txt("id", "id"),
      txt("name", "region"), txt("category", "category"), txt("component", "component"),
      time("time", "time"), share("pct", "%")], ov.sources));
  if (rep.mpi && rep.mpi.functions && rep.mpi.functions.length) {
    const kind = (k) => (/^(time|mean|min|max)$/.test(k) ? "time" : k.startsWith("bytes") ? "bytes" : "count");
    box.append(h("MPI (summed over threads)"), PP.table("t-mpi",
      Object.keys(rep.mpi.functions[0]).filter((k) => typeof rep.mpi.functions[0][k] !== "object")
        .map((k) => (/pct$/.test(k) ? share(k, k) : { key: k, label: k, num: typeof rep.mpi.functions[0][k] === "number",
                                                      kind: kind(k) })),
      rep.mpi.functions));
  }
};
