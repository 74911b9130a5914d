"""The facts of a run, as libpompprof stores them in the profile's attributes
(profile/pp_profile_runfacts.c, doc/cube4-layout.md): command line, host, cores online,
the OMP_*/POMPPROF_* settings, start time, pompprof version, threads, how the run
ended, and the event source that measured it (opari2: a rebuilt program; ompt: an
unchanged one through OMPT; gomp: through the libgomp interposer).  pompprof-report shows
them; pompprof-diff and pompprof-scaling compare them before they compare numbers, so that
runs that do not belong together are said to be so.  Profiles of one program made by two
event sources are compared (their binaries may be named differently: they are one program
when their constructs lie in the same source files), and the comparison names both.

A profile written by an older pompprof or by Score-P has some or none of them: every
fact is then None and nothing is claimed about it.
"""

from __future__ import annotations

from ..cli import ToolError

PREFIX = "pompprof::"
ENV_PREFIX = PREFIX + "env::"


def facts(cube) -> dict:
    """The run facts of a Cube (attrs), None where the profile does not say."""
    a = cube.attrs

    def num(key):
        try:
            return int(a.get(PREFIX + key, ""))
        except ValueError:
            return None

    env = {k[len(ENV_PREFIX):]: v for k, v in a.items() if k.startswith(ENV_PREFIX)}
    return {
        "program": a.get(PREFIX + "program"),
        "command_line": a.get(PREFIX + "command_line"),
        "host": a.get(PREFIX + "host"),
        "cores_online": num("cores_online"),
        "threads": num("threads"),
        "start": a.get(PREFIX + "date"),
        "version": a.get(PREFIX + "version"),
        "end": a.get(PREFIX + "end"),
        "event_source": a.get(PREFIX + "event_source"),
        "busy_threads": a.get(PREFIX + "busy_threads"),
        "env": env if env or PREFIX + "host" in a else None,
        "diff_of": ((a.get(PREFIX + "diff_a"), a.get(PREFIX + "diff_b"))
                    if PREFIX + "diff_a" in a else None),
    }


def is_diff(cube) -> bool:
    """A profile written by pompprof-diff (its values are differences, not a run)."""
    return PREFIX + "diff_a" in cube.attrs


def refuse_diff(profile, tool: str):
    """One clear line instead of an analysis of differences as if they were a run."""
    if is_diff(profile.cube):
        f = facts(profile.cube)
        raise ToolError("%s is a difference profile written by pompprof-diff (b - a of %s and "
                        "%s), not a run: its values are differences; read pompprof-diff's text, "
                        "or give %s the profiles themselves"
                        % (profile.path, f["diff_of"][0], f["diff_of"][1], tool))


def interrupted(f: dict) -> str | None:
    """How the run did not end normally, None when it did (or the profile does not say)."""
    end = f.get("end")
    if not end or end == "normal":
        return None
    if end.startswith("signal "):
        return "INTERRUPTED by %s: the profile holds what was measured until then" % end[7:]
    if end.startswith("crash: signal "):
        return ("CRASHED (%s): the profile holds what was measured until the crash"
                % end[len("crash: signal "):])
    if end.startswith("exit"):
        return ("EXITED EARLY (%s): the regions still open were closed at the exit" % end)
    return "ended: %s" % end


def incomplete(f: dict) -> str | None:
    """A warning when the end left threads out (they were inside an event)."""
    busy = f.get("busy_threads")
    if not busy:
        return None
    return ("INCOMPLETE: thread%s %s still inside an event when the profile was written: "
            "%s values are left out" % ("s" if " " in busy else "", busy.replace(" ", ", "),
                                        "their" if " " in busy else "its"))


def oversubscribed(f: dict, nthreads: int) -> str | None:
    """A warning when more threads ran than cores were online."""
    cores = f.get("cores_online")
    if cores and nthreads > cores:
        return ("OVERSUBSCRIBED: %d threads on %d core%s online; threads waited for a core, "
                "so times (and work) are inflated" % (nthreads, cores, "" if cores == 1 else "s"))
    return None


def settings_text(f: dict, prefix: str = "OMP_") -> str:
    env = f.get("env") or {}
    return " ".join("%s=%s" % (k, v) for k, v in sorted(env.items()) if k.startswith(prefix))


def header_rows(f: dict) -> list[tuple[str, str]]:
    """(label, value) rows for a report header, for the facts the profile has."""
    rows = []
    if f.get("command_line"):
        rows.append(("command line", f["command_line"]))
    if f.get("host"):
        cores = f.get("cores_online")
        rows.append(("host", f["host"] + (" (%d cores online)" % cores if cores else "")))
    if f.get("env") is not None:
        rows.append(("OMP settings", settings_text(f, "OMP_") or "(none)"))
        pp = settings_text(f, "POMPPROF_")
        if pp:
            rows.append(("pompprof settings", pp))
    if f.get("version"):
        rows.append(("pompprof version", f["version"]))
    if f.get("end"):
        rows.append(("run ended", f["end"]))
    if f.get("event_source"):
        rows.append(("event source", f["event_source"]))
    return rows


def _args(command_line: str | None) -> str | None:
    if command_line is None:
        return None
    parts = command_line.split(" ", 1)
    return parts[1] if len(parts) > 1 else ""


def source_files(profile) -> set[str]:
    """The source files (base names) of a profile's OpenMP constructs: what makes two
    binaries one program."""
    return {r.mod.rsplit("/", 1)[-1] for r in profile.cube.regions.values()
            if r.paradigm == "openmp" and r.mod and r.mod != "OMP" and "." in r.mod}


def event_sources(profiles) -> list[str | None]:
    """The event source of each profile (None where the profile does not say)."""
    return [facts(p.cube)["event_source"] for p in profiles]


def one_program(profiles) -> bool:
    """Whether profiles of binaries named differently are of one program measured by
    different event sources: the sources differ and the constructs share their files."""
    srcs = event_sources(profiles)
    if None in srcs or len(set(srcs)) < 2:
        return False
    files = [source_files(p) for p in profiles]
    return bool(set.intersection(*files))


def inputs_differ(profiles) -> str | None:
    """Why the profiles are not runs of one program on one input (different programs,
    or different arguments), or None: comparing their work then means nothing."""
    fs = [(p, facts(p.cube)) for p in profiles]
    if len({f["program"] or p.program for p, f in fs}) > 1 and not one_program(profiles):
        return "the runs are of different programs"
    if len({_args(f["command_line"]) for _, f in fs if f["command_line"] is not None}) > 1:
        return "the runs had different arguments (different inputs)"
    return None


def compare(profiles, force: bool = False) -> list[str]:
    """Warnings about profiles that may not belong together (one line each); raises
    ToolError when they are runs of different programs, unless force."""
    fs = [(p, facts(p.cube)) for p in profiles]
    warnings = []
    programs = sorted({f["program"] or p.program for p, f in fs})
    srcs = [f["event_source"] for _, f in fs]
    if len(set(srcs)) > 1 and None not in srcs:
        warnings.append("NOTE: the profiles were made by different event sources (%s): "
                        "constructs are matched by source position and kind; what differs "
                        "between the sources by nature is in doc/ompt.md"
                        % ", ".join("%s: %s" % (p.path, f["event_source"]) for p, f in fs))
    if len(programs) > 1 and not one_program(profiles):
        msg = ("the profiles are of different programs (%s)"
               % ", ".join("%s: %s" % (p.path, f["program"] or p.program) for p, f in fs))
        if not force:
            raise ToolError(msg + "; comparing them means nothing (--force compares anyway)")
        warnings.append("WARNING: " + msg)
    args = {_args(f["command_line"]) for _, f in fs if f["command_line"] is not None}
    if len(args) > 1:
        warnings.append("WARNING: the runs had different arguments (%s): different inputs "
                        "make the times incomparable"
                        % "; ".join("%s: %s" % (p.path, f["command_line"]) for p, f in fs
                                    if f["command_line"] is not None))
    hosts = {f["host"] for _, f in fs if f["host"]}
    if len(hosts) > 1:
        warnings.append("WARNING: the runs were on different hosts (%s)" % ", ".join(sorted(hosts)))
    for name in ("OMP_SCHEDULE", "OMP_PROC_BIND", "OMP_PLACES", "OMP_WAIT_POLICY",
                 "OMP_DYNAMIC", "OMP_MAX_ACTIVE_LEVELS"):
        vals = {(f["env"] or {}).get(name) for _, f in fs if f["env"] is not None}
        if len(vals) > 1:
            warnings.append("WARNING: %s differs between the runs (%s)"
                            % (name, ", ".join(sorted(v or "unset" for v in vals))))
    for p, f in fs:
        why = interrupted(f)
        if why:
            warnings.append("WARNING: %s: %s" % (p.path, why))
        over = oversubscribed(f, p.nthreads)
        if over:
            warnings.append("WARNING: %s: %s" % (p.path, over))
    return warnings
