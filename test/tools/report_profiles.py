"""Profiles made up to reach every part of the tools' text outputs (not a test itself).

hybrid_profile() writes a hybrid MPI + OpenMP profile of fixed values with everything a
report can hold: run facts that warn (an interrupted, oversubscribed run), counters with a
rate, the dependences metric, MPI functions with bytes, every kind of construct, locks,
task constructs split by a numeric and a text parameter, functions in the task trees, a
recursion deeper than the call tree's indentation, and task constructs of every
granularity verdict.  The numbers are consistent (inclusive >= the children's, TASKS the
sum of its task trees) and the same on every run, so that a rendering can be compared
byte for byte."""

from pompprof_tools.cube.cubex_write import CubeWriter

# the share of a call path's time and visits each location has (a call path of the
# masters only: 1 + rank / 4)
SHARE = (1.0, 0.75, 1.5, 0.5, 1.25, 0.25)
RECURSION = 16          # deeper than the call tree's indentation (avail // 4)


class RankWriter(CubeWriter):
    """CubeWriter with one process (MPI rank) per group of `threads` locations."""

    def __init__(self, ranks, threads):
        super().__init__()
        self.ranks, self.threads = ranks, threads

    def anchor_xml(self):
        text = super().anchor_xml().decode("utf-8").rstrip("\n")
        head, tail = text.split('<locationgroup Id="0">', 1)
        tail = tail.split("</locationgroup>", 1)[1]
        groups = []
        for r in range(self.ranks):
            groups += ['<locationgroup Id="%d">' % r, "<name>MPI Rank %d</name>" % r,
                       "<rank>%d</rank>" % r, "<type>process</type>"]
            for k in range(self.threads):
                lid = r * self.threads + k
                groups += ['<location Id="%d">' % lid, "<name>%s</name>" % self.locations[lid],
                           "<rank>%d</rank>" % k, "<type>thread</type>", "</location>"]
            groups.append("</locationgroup>")
        text = head + "\n".join(groups) + tail + "\n"
        return text.encode("utf-8") + (b"\n" if len(text) % 512 == 0 else b"")


class Tree:
    """Call paths with their own (exclusive) values per location, written at the end with
    inclusive times; `master` call paths run on each rank's first thread only."""

    def __init__(self, w, ranks, threads):
        self.w, self.n, self.threads = w, ranks * threads, threads
        self.regions, self.nodes, self.tasks = {}, [], None

    def share(self, master):
        if master:
            return [0.0 if t % self.threads else 1.0 + t // self.threads / 4
                    for t in range(self.n)]
        return [SHARE[t % len(SHARE)] for t in range(self.n)]

    def add(self, parent, name, role, own, visits, master=False, paradigm="openmp",
            params=(), counts=None):
        key = (name, role)
        if key not in self.regions:
            line = int(name.rsplit(":", 1)[1]) if "@" in name else -1
            mod = "demo.c" if line > 0 else ("MPI" if paradigm == "mpi" else
                                             "OMP" if name.startswith("omp_") else "")
            self.regions[key] = self.w.add_region(name, mod, line, line + 3 if line > 0 else -1,
                                                  paradigm, role)
        c = self.w.add_cnode(self.regions[key], parent, params)
        share = self.share(master)
        self.nodes.append({"id": c, "parent": parent, "own": [own * s for s in share],
                           "visits": [int(round(visits * s)) for s in share],
                           "counts": counts or {}, "share": share})
        return c

    def inclusive(self):
        incl = {n["id"]: list(n["own"]) for n in self.nodes}
        for n in reversed(self.nodes):          # children come after their parents
            if n["parent"] is not None and n["id"] != self.tasks:
                incl[n["parent"]] = [a + b for a, b in zip(incl[n["parent"]], incl[n["id"]])]
        return incl


METRICS = (("visits", "Visits", "UINT64", "occ"), ("time", "Time", "DOUBLE", "sec"),
           ("min_time", "Minimum Inclusive Time", "MINDOUBLE", "sec"),
           ("max_time", "Maximum Inclusive Time", "MAXDOUBLE", "sec"),
           ("max_active_tasks", "Max active tasks", "MAXDOUBLE", "occ"),
           ("PAPI_TOT_INS", "PAPI_TOT_INS", "UINT64", "#"),
           ("PAPI_TOT_CYC", "PAPI_TOT_CYC", "UINT64", "#"),
           ("perf::PAGE-FAULTS", "perf::PAGE-FAULTS", "UINT64", "#"),
           ("dependences", "dependences", "UINT64", "#"),
           ("bytes_sent", "Bytes sent", "UINT64", "bytes"),
           ("bytes_received", "Bytes received", "UINT64", "bytes"))


def _run_facts(w, ranks, threads, scale):
    w.add_attr("Creator", "report_profiles.py")
    w.add_attr("CUBE_DATE", "2026-01-02 03:04:05")
    for key, value in (
            ("program", "demo"), ("host", "node-a"), ("cores_online", "2"),
            ("threads", str(threads)), ("version", "1.0"), ("end", "signal SIGINT"),
            ("event_source", "opari2"), ("date", "2026-01-02T03:04:05"),
            ("command_line", "./demo --size %d --blocks 64 --input /data/matrices/a-long-"
             "name-of-an-input-file-that-goes-on-and-on.mtx --repeat 3" % (100 * scale)),
            ("env::OMP_NUM_THREADS", str(threads)), ("env::OMP_PROC_BIND", "close"),
            ("env::POMPPROF_METRICS", "PAPI_TOT_INS,PAPI_TOT_CYC,perf::PAGE-FAULTS"),
            ("env::POMPPROF_TRACE", "0"), ("mpi_ranks", str(ranks))):
        w.add_attr("pompprof::" + key, value)


def _main_tree(t, scale):
    """The program's call tree: MPI calls, one parallel region with every construct."""
    root = t.add(None, "demo", "artificial", 2e-3, 1, master=True, paradigm="measurement")
    t.add(root, "MPI_Init", "function", 4e-3, 1, master=True, paradigm="mpi")
    t.add(root, "MPI_Allreduce", "function", 7e-4 * scale, 3, master=True, paradigm="mpi",
          counts={"bytes_sent": 24, "bytes_received": 24})
    t.add(root, "MPI_Send", "function", 2e-5, 2, master=True, paradigm="mpi",
          counts={"bytes_sent": 65536})
    par = t.add(root, "!$omp parallel @demo.c:10", "parallel", 1e-4, 1)
    loop = t.add(par, "!$omp for @demo.c:12", "loop", 3e-2 * scale, 1)
    bar = t.add(loop, "!$omp implicit barrier @demo.c:15", "implicit barrier", 2e-4, 1)
    t.add(bar, "!$omp task @demo.c:40", "task", 9e-3, 3)
    single = t.add(par, "!$omp single @demo.c:20", "single", 1e-6, 1, master=True)
    sblock = t.add(single, "!$omp single sblock @demo.c:20", "single sblock", 5e-5, 1,
                   master=True)
    for line, inst, own, deps in ((30, 1_200_000, 0.6, 2), (40, 40, 0.0, 1), (50, 12, 3e-6, 0)):
        t.add(sblock, "!$omp create task @demo.c:%d" % line, "task create", own, inst,
              master=True, counts={"dependences": deps * inst})
    wait = t.add(sblock, "!$omp taskwait @demo.c:60", "taskwait", 3e-4, 2, master=True)
    t.add(wait, "!$omp task @demo.c:30", "task", 0.2 * scale, 1000, master=True)
    t.add(single, "!$omp implicit barrier @demo.c:25", "implicit barrier", 4e-4, 1)
    crit = t.add(par, "!$omp critical @demo.c:70", "critical", 6e-5, 8)
    t.add(crit, "!$omp critical sblock @demo.c:70", "critical sblock", 2e-5, 8)
    t.add(par, "omp_set_lock", "wrapper", 3e-5, 16)
    t.add(par, "omp_unset_lock", "wrapper", 1e-6, 16)
    t.add(par, "!$omp implicit barrier @demo.c:90", "implicit barrier", 5e-4, 1)
    for n, own in ((1, 2e-3), (2, 5e-3)):
        phase = t.add(root, "phase", "user", own, 1, master=True, paradigm="user",
                      params=[("numeric", "n", str(n))])
    rec = phase
    for _ in range(RECURSION):
        rec = t.add(rec, "recurse_into_the_tree", "function", 1e-5, 1, master=True,
                    paradigm="compiler")
    return root


def _task_trees(t, root, scale):
    """TASKS: task @30 split by depth (and one `kind=leaf` root), @40 without a measured
    creation, @50 of coarse tasks; functions inside @30's and @50's tasks."""
    t.tasks = t.add(root, "TASKS", "artificial", 0.0, 0)
    inst = 1
    for depth in range(6):
        tr = t.add(t.tasks, "!$omp task @demo.c:30", "task", 4e-6 * 0.5 ** depth * inst * scale,
                   inst, params=[("numeric", "depth", str(depth))])
        t.add(tr, "kernel", "function", 2e-6 * 0.5 ** depth * inst, inst, paradigm="compiler")
        inst *= 4
    t.add(t.tasks, "!$omp task @demo.c:30", "task", 3e-3, 7, params=[("string", "kind", "leaf")])
    t.add(t.tasks, "!$omp task @demo.c:40", "task", 9e-3, 40)
    coarse = t.add(t.tasks, "!$omp task @demo.c:50", "task", 0.05, 12)
    helper = t.add(coarse, "solve_block", "function", 0.2 * scale, 12, paradigm="compiler")
    t.add(helper, "scale_row", "function", 0.01, 4800, paradigm="compiler")


def _write_values(w, t, mid):
    incl = t.inclusive()
    incl[t.tasks] = [sum(incl[n["id"]][k] for n in t.nodes if n["parent"] == t.tasks)
                     for k in range(t.n)]
    for n in t.nodes:
        c, vis = n["id"], n["visits"]
        w.set_row(mid["time"], c, incl[c])
        w.set_row(mid["visits"], c, vis)
        w.set_row(mid["min_time"], c, [incl[c][k] / vis[k] * 0.5 if vis[k] else 1e300
                                       for k in range(t.n)])
        w.set_row(mid["max_time"], c, [incl[c][k] / vis[k] * 1.5 if vis[k] else 0.0
                                       for k in range(t.n)])
        w.set_row(mid["max_active_tasks"], c, [float(3 + k) if c == t.tasks else 0.0
                                               for k in range(t.n)])
        w.set_row(mid["PAPI_TOT_INS"], c, [int(v * 4e9) for v in n["own"]])
        w.set_row(mid["PAPI_TOT_CYC"], c, [int(v * 2.5e9) for v in n["own"]])
        w.set_row(mid["perf::PAGE-FAULTS"], c, [int(v * 1e5) for v in n["own"]])
        for name in ("dependences", "bytes_sent", "bytes_received"):
            w.set_row(mid[name], c, [int(round(n["counts"].get(name, 0) * s))
                                     for s in n["share"]])


def hybrid_profile(path, ranks=2, threads=2, scale=1):
    """Write the profile of `ranks` ranks of `threads` threads; scale changes some times
    and the command line (a second run to compare with)."""
    w = RankWriter(ranks, threads)
    w.set_locations([("Master thread" if k == 0 else "OMP thread %d" % k)
                     for _ in range(ranks) for k in range(threads)])
    _run_facts(w, ranks, threads, scale)
    mid = {m[0]: w.add_metric(m[0], m[1], m[2], "INCLUSIVE" if m[0] == "time" else "EXCLUSIVE",
                              m[3]) for m in METRICS}
    t = Tree(w, ranks, threads)
    root = _main_tree(t, scale)
    _task_trees(t, root, scale)
    _write_values(w, t, mid)
    w.write(path)
