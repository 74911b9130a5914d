"use strict";
/* The report's tables (pompprof-report's own analysis, computed when the page was
 * written): tasks, overheads, granularity advice, by parameter, MPI. */
PP.tables = function (rep) {
  const box = PP.$("tables"), h = (t) => PP.el("h3", { text: t });
  const num = (key, label, title) => ({ key, label, num: true, title });
  const txt = (key, label) => ({ key, label });
  if (rep.tasks.length) {
    box.append(h("Tasks (seconds)"), PP.table("t-tasks", [
      txt("id", "id"), txt("name", "task construct"), num("instances", "inst"),
      num("mean", "mean"), num("min", "min"), num("max", "max"),
      num("mean_excl", "mean.excl"), num("mean_create", "create", "mean time of one creation"),
      num("task_time_at_sync", "taskT", "time executing the construct's tasks at scheduling points"),
      num("ratio", "excl/create"),
      { key: (r) => (r.too_fine ? "coarsen" : ""), label: "advice" }], rep.tasks));
    const vals = [];
    for (const t of rep.tasks) for (const v of t.values || [])
      vals.push(Object.assign({ construct: t.id + " " + t.name }, v));
    if (vals.length)
      box.append(h("Tasks per parameter values"), PP.table("t-task-values", [
        txt("construct", "task construct"), txt("params", "parameters"), num("instances", "inst"),
        num("mean", "mean"), num("min", "min"), num("max", "max"), num("mean_excl", "mean.excl")],
        vals));
  }
  const advice = PP.el("div", { id: "t-advice" }, h("Task granularity advice"));
  if (rep.advice.length)
    for (const a of rep.advice) advice.append(PP.el("pre", { class: "advice", text: a }));
  else advice.append(PP.el("p", { text: rep.tasks.length ?
    "all task constructs are > 10x their creation cost" : "no task constructs" }));
  box.append(advice);
  for (const e of rep.by_parameter) {
    box.append(h("By parameter: " + e.id + " " + e.name + " by " + e.parameter + " (" +
                 PP.fmt(e.total) + " s in all)"));
    const rows = e.rows.slice();
    if (e.without) rows.push(Object.assign({ value: "(without)" }, e.without));
    box.append(PP.table("t-param-" + e.id + "-" + e.parameter, [
      { key: "value", label: e.parameter, num: false }, num("instances", "instances"),
      num("mean", "mean"), num("time", "total"), { key: "pct", label: "%", num: true, fmt: PP.pct },
      { key: "cum_pct", label: "cum %", num: true, fmt: PP.pct }], rows));
    if (e.cutoff) box.append(PP.el("p", { class: "advice", text: "cut off at " + e.parameter +
      "=" + e.cutoff.value + ": from there on a task with all it spawns takes " +
      PP.fmt(e.cutoff.granularity) + " s < 10x its creation (" + PP.fmt(e.cutoff.mean_create) + " s)" }));
  }
  const ov = rep.overhead;
  const scopes = [ov.program].concat(ov.parallel_regions);
  const cats = Object.keys(ov.program.categories);
  box.append(h("Overhead analysis (seconds summed over threads)"), PP.table("t-overhead",
    [txt("name", "scope"), num("total", "total")].concat(cats.map((c) => ({
      key: (r) => r.categories[c].time, label: c, num: true }))).concat([
      { key: "overhead_pct", label: "ovhd %", num: true, fmt: PP.pct }]), scopes));
  box.append(PP.el("p", { text: "parallel coverage: " + PP.pct(ov.parallel_coverage) + " of wall time" }));
  if (ov.sources.length)
    box.append(h("Overheads by source"), PP.table("t-sources", [txt("id", "id"),
      txt("name", "region"), txt("category", "category"), txt("component", "component"),
      num("time", "time"), { key: "pct", label: "%", num: true, fmt: PP.pct }], ov.sources));
  if (rep.mpi && rep.mpi.functions && rep.mpi.functions.length)
    box.append(h("MPI (seconds summed over threads)"), PP.table("t-mpi",
      Object.keys(rep.mpi.functions[0]).filter((k) => typeof rep.mpi.functions[0][k] !== "object")
        .map((k) => ({ key: k, label: k, num: typeof rep.mpi.functions[0][k] === "number" })),
      rep.mpi.functions));
};
