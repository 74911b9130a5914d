"""The MPI wrappers of libpompprof_mpi, generated from one table.

mpi/pp_mpi_functions.tbl lists every function of Open MPI 4.1's mpi.h, one
line each:

    name  group  fortran  bytes  prototype

- group: what the function does (p2p, coll, barrier, rma, io, env, other); it
  becomes the region's role in the profile (doc/mpi.md);
- fortran: "f" when the mpif.h / `use mpi` binding exists (a Fortran wrapper
  is generated), "-" otherwise;
- bytes: "-" for none, "special" for the functions written by hand
  (pp_mpi_lifecycle.c: MPI_Init, MPI_Finalize, ...), or a rule such as
  send(count,datatype,dest): the bytes sent and received by the call are
  those of pp_mpi_bytes_<rule>() (pp_mpi_bytes.c) applied to the named
  parameters;
- prototype: the C prototype as mpi.h declares it.

mpi/pp_mpi_trace.tbl (--trace-table) names the functions whose C wrappers also
write trace records (a hybrid trace, doc/trace.md), one line each: name and
rule, e.g. MPI_Isend isend(dest,tag,comm,request); TRACE_RULES below says
what each rule writes.

Usage:
  pp_mpi_gen.py --table T [--trace-table TT] --c OUT.c
                                             the C wrappers (PMPI interposition)
  pp_mpi_gen.py --table T --fortran OUT.c    the Fortran (mpif.h) wrappers
  pp_mpi_gen.py --table T --check MPI_H      the table against an mpi.h
  pp_mpi_gen.py --table T --update MPI_H     rewrite the table's prototypes from
                                             mpi.h (annotations kept; new functions
                                             get group "other", no bytes)
"""

from __future__ import annotations

import argparse
import re
import sys

GROUPS = ("p2p", "coll", "barrier", "rma", "io", "env", "other")

# bytes rules: parameter kinds in order (checked against the named
# parameters' C types); the C helper is pp_mpi_bytes_<rule>
RULES = {
    "send": ("int", "MPI_Datatype", "int"),
    "recv": ("MPI_Status *",),
    "irecv": ("int", "MPI_Datatype", "int"),
    "imrecv": ("int", "MPI_Datatype"),
    "sendrecv": ("int", "MPI_Datatype", "int", "MPI_Status *"),
    "bcast": ("int", "MPI_Datatype", "int", "MPI_Comm"),
    "reduce": ("int", "MPI_Datatype", "int", "MPI_Comm"),
    "allreduce": ("int", "MPI_Datatype", "MPI_Comm"),
    "gather": ("const void *", "int", "MPI_Datatype", "int", "MPI_Datatype", "int", "MPI_Comm"),
    "gatherv": ("const void *", "int", "MPI_Datatype", "const int []", "MPI_Datatype", "int",
                "MPI_Comm"),
    "scatter": ("int", "MPI_Datatype", "int", "MPI_Datatype", "int", "MPI_Comm"),
    "scatterv": ("const int []", "MPI_Datatype", "int", "MPI_Datatype", "int", "MPI_Comm"),
    "allgather": ("const void *", "int", "MPI_Datatype", "int", "MPI_Datatype", "MPI_Comm"),
    "allgatherv": ("const void *", "int", "MPI_Datatype", "const int []", "MPI_Datatype",
                   "MPI_Comm"),
    "alltoall": ("const void *", "int", "MPI_Datatype", "int", "MPI_Datatype", "MPI_Comm"),
    "alltoallv": ("const void *", "const int []", "MPI_Datatype", "const int []",
                  "MPI_Datatype", "MPI_Comm"),
    "alltoallw": ("const void *", "const int []", "const MPI_Datatype []", "const int []",
                  "const MPI_Datatype []", "MPI_Comm"),
    "reduce_scatter": ("const int []", "MPI_Datatype", "MPI_Comm"),
    "reduce_scatter_block": ("int", "MPI_Datatype", "MPI_Comm"),
    "scan": ("int", "MPI_Datatype", "MPI_Comm"),
    "neighbor": ("int", "MPI_Datatype", "int", "MPI_Datatype", "MPI_Comm"),
    "neighbor_allgatherv": ("int", "MPI_Datatype", "const int []", "MPI_Datatype", "MPI_Comm"),
    "neighbor_alltoallv": ("const int []", "MPI_Datatype", "const int []", "MPI_Datatype",
                           "MPI_Comm"),
    "neighbor_alltoallw": ("const int []", "const MPI_Datatype []", "const int []",
                           "const MPI_Datatype []", "MPI_Comm"),
    "put": ("int", "MPI_Datatype", "int"),
    "get": ("int", "MPI_Datatype", "int"),
    "get_accumulate": ("int", "MPI_Datatype", "int", "MPI_Datatype", "int", "MPI_Op"),
    "fetch_and_op": ("MPI_Datatype", "int", "MPI_Op"),
    "compare_and_swap": ("MPI_Datatype", "int"),
}

# trace rules: the kinds each argument may have (checked as the bytes rules' are);
# the C helpers are in mpi/pp_mpi_trace.c.  coll(OP,root,comm) is read apart: OP
# one of COLLECTIVE_OPS, root a parameter or "-".
REQUESTS = ("MPI_Request []",)
STATUSES = ("MPI_Status []", "MPI_Status *")
TRACE_RULES = {
    "send": (("int",), ("int",), ("MPI_Comm",)),
    "recv": (("MPI_Status *",), ("MPI_Comm",)),
    "sendrecv": (("int",), ("int",), ("MPI_Status *",), ("MPI_Comm",)),
    "isend": (("int",), ("int",), ("MPI_Comm",), ("MPI_Request *",)),
    "irecv": (("MPI_Comm",), ("MPI_Request *",)),
    "wait": (("MPI_Request *",), ("MPI_Status *",)),
    "test": (("MPI_Request *",), ("int *",), ("MPI_Status *",)),
    "waitall": (("int",), REQUESTS, STATUSES),
    "testall": (("int",), REQUESTS, ("int *",), STATUSES),
    "waitany": (("int",), REQUESTS, ("int *",), ("MPI_Status *",)),
    "testany": (("int",), REQUESTS, ("int *",), ("int *",), ("MPI_Status *",)),
    "some": (("int",), REQUESTS, ("int *",), ("int []",), STATUSES),
    "request_free": (("MPI_Request *",),),
    "newcomm": (("MPI_Comm",), ("MPI_Comm *",)),
    "comm_free": (("MPI_Comm *",),),
}
# OTF2_CollectiveOp's numbers (trace/pp_trace_otf2_mpi.c checks them against OTF2's)
COLLECTIVE_OPS = {
    "BARRIER": 0, "BCAST": 1, "GATHER": 2, "GATHERV": 3, "SCATTER": 4, "SCATTERV": 5,
    "ALLGATHER": 6, "ALLGATHERV": 7, "ALLTOALL": 8, "ALLTOALLV": 9, "ALLTOALLW": 10,
    "ALLREDUCE": 11, "REDUCE": 12, "REDUCE_SCATTER": 13, "SCAN": 14, "EXSCAN": 15,
    "REDUCE_SCATTER_BLOCK": 16,
}

# How a Fortran (mpif.h) argument, always passed by reference, becomes the C
# value a rule takes (MPI_Fint is int: pp_mpi_fortran.c checks).
FORTRAN_VALUE = {
    "int": "(int)*(const MPI_Fint *)%s",
    "MPI_Datatype": "PMPI_Type_f2c(*(const MPI_Fint *)%s)",
    "MPI_Comm": "PMPI_Comm_f2c(*(const MPI_Fint *)%s)",
    "MPI_Op": "PMPI_Op_f2c(*(const MPI_Fint *)%s)",
    "const int []": "(const int *)%s",
    "const MPI_Datatype []": "pp_mpi_types_f((const MPI_Fint *)%s)",
    "const void *": "pp_mpi_f_buffer(%s)",
    "MPI_Status *": "pp_mpi_f_status(%s, &pp_cstatus)",
}
C_VALUE = {"const MPI_Datatype []": "pp_mpi_types_c(%s)"}


class Param:
    def __init__(self, text: str):
        self.text = " ".join(text.split())
        m = re.match(r"^(.*?)(\w+)\s*((?:\[[^\]]*\])*)$", self.text)
        if not m:
            raise ValueError("cannot read parameter '%s'" % text)
        self.name = m.group(2)
        base = " ".join(m.group(1).split())
        self.kind = (base + " []") if m.group(3) else base
        self.is_char = re.search(r"\bchar\b", self.text) is not None


class Function:
    def __init__(self, name, group, fortran, rule, prototype, where):
        self.name, self.group, self.rule, self.where = name, group, rule, where
        self.trace = None  # (rule, [argument names]) from the trace table
        self.fortran = fortran == "f"
        self.prototype = normalize(prototype)
        m = re.match(r"^(.+?)\s*\b(MPI_\w+)\s*\((.*)\)$", self.prototype)
        if not m or m.group(2) != name:
            raise ValueError("%s: prototype does not declare %s" % (where, name))
        self.ret = m.group(1)
        args = m.group(3).strip()
        self.varargs = args.endswith("...")
        plist = [a for a in split_params(args) if a.strip() not in ("void", "...")]
        self.params = [Param(a) for a in plist]
        self.check()

    @property
    def pname(self) -> str:
        return "P" + self.name

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise ValueError("%s: %s has no parameter '%s'" % (self.where, self.name, name))

    def bytes_call(self):
        """(rule, [Param]) or None."""
        if self.rule in ("-", "special"):
            return None
        m = re.fullmatch(r"(\w+)\(([\w,]*)\)", self.rule)
        if not m or m.group(1) not in RULES:
            raise ValueError("%s: unknown bytes rule '%s'" % (self.where, self.rule))
        params = [self.param(a) for a in m.group(2).split(",") if a]
        want = RULES[m.group(1)]
        got = tuple(p.kind for p in params)
        if got != want:
            raise ValueError("%s: %s takes %s, the parameters are %s"
                             % (self.where, m.group(1), want, got))
        return m.group(1), params

    def check(self):
        if self.group not in GROUPS:
            raise ValueError("%s: unknown group '%s'" % (self.where, self.group))
        if self.varargs and self.rule != "special":
            raise ValueError("%s: %s takes '...': it must be written by hand" % (self.where, self.name))
        self.bytes_call()


def read_trace_table(path: str, funcs: list[Function]) -> None:
    """Attach each trace rule of the table at path to its function."""
    by_name = {f.name: f for f in funcs}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            where = "%s:%d" % (path, n)
            parts = line.split()
            if len(parts) != 2:
                raise ValueError("%s: expected 'name rule(arguments)'" % where)
            fn = by_name.get(parts[0])
            if not fn:
                raise ValueError("%s: %s is not in the function table" % (where, parts[0]))
            if fn.rule == "special":
                raise ValueError("%s: %s is written by hand" % (where, parts[0]))
            m = re.fullmatch(r"(\w+)\(([\w,-]*)\)", parts[1])
            if not m:
                raise ValueError("%s: cannot read rule '%s'" % (where, parts[1]))
            rule, args = m.group(1), m.group(2).split(",")
            if rule == "coll":
                if len(args) != 3 or args[0] not in COLLECTIVE_OPS:
                    raise ValueError("%s: coll takes (OP,root,comm) with OP one of %s"
                                     % (where, ", ".join(COLLECTIVE_OPS)))
                if args[1] != "-" and fn.param(args[1]).kind != "int":
                    raise ValueError("%s: the root %s is not an int" % (where, args[1]))
                if fn.param(args[2]).kind != "MPI_Comm":
                    raise ValueError("%s: %s is not an MPI_Comm" % (where, args[2]))
            elif rule in TRACE_RULES:
                want = TRACE_RULES[rule]
                if len(args) != len(want):
                    raise ValueError("%s: %s takes %d arguments" % (where, rule, len(want)))
                for a, kinds in zip(args, want):
                    if fn.param(a).kind not in kinds:
                        raise ValueError("%s: %s's argument %s is %s, not %s"
                                         % (where, rule, a, fn.param(a).kind, " or ".join(kinds)))
            else:
                raise ValueError("%s: unknown trace rule '%s'" % (where, rule))
            if fn.trace:
                raise ValueError("%s: %s is listed twice" % (where, fn.name))
            fn.trace = (rule, args)


def trace_code(f: Function, has_bytes: bool):
    """The trace parts of f's C wrapper: (before the call, after a successful call,
    always after the call), lists of lines."""
    if not f.trace:
        return [], [], []
    rule, a = f.trace
    sent = "pp_b.sent" if has_bytes else "0"
    received = "pp_b.received" if has_bytes else "0"
    on = "if (pp_mpi_trace_on())"
    pre, post, after = [], [], []
    # completion calls: (number of requests, the requests, the status(es))
    completion = {"wait": lambda: ("1", a[0], a[1]), "test": lambda: ("1", a[0], a[2]),
                  "waitall": lambda: (a[0], a[1], a[2]), "testall": lambda: (a[0], a[1], a[3]),
                  "waitany": lambda: (a[0], a[1], a[3]), "testany": lambda: (a[0], a[1], a[4]),
                  "some": lambda: (a[0], a[1], a[4])}
    if rule in completion:
        n, reqs, status = completion[rule]()
        pre += ["    pp_mpi_tcall pp_t;", "    pp_t.traced = 0;",
                "    %s" % on, "        pp_mpi_trace_pre(&pp_t, %s, %s, &%s);" % (n, reqs, status)]
        after += ["    if (pp_t.traced)", "        pp_mpi_trace_post(&pp_t);"]
        call = {
            "wait": lambda: "pp_mpi_trace_wait(&pp_t, %s)" % a[1],
            "test": lambda: "pp_mpi_trace_test(&pp_t, *%s, %s)" % (a[1], a[2]),
            "waitall": lambda: "pp_mpi_trace_waitall(&pp_t, %s)" % a[2],
            "testall": lambda: "pp_mpi_trace_testall(&pp_t, *%s, %s)" % (a[2], a[3]),
            "waitany": lambda: "pp_mpi_trace_any(&pp_t, *%s, 1, %s)" % (a[2], a[3]),
            "testany": lambda: "pp_mpi_trace_any(&pp_t, *%s, *%s, %s)" % (a[2], a[3], a[4]),
            "some": lambda: "pp_mpi_trace_some(&pp_t, *%s, %s, %s)" % (a[2], a[3], a[4]),
        }[rule]()
        post += ["        if (pp_t.traced)", "            %s;" % call]
    elif rule == "send":
        post += ["        %s" % on,
                 "            pp_mpi_trace_send(%s, %s, %s, %s);" % (a[0], a[1], a[2], sent)]
    elif rule == "recv":
        post += ["        %s" % on,
                 "            pp_mpi_trace_recv(%s, %s, %s);" % (a[0], a[1], received)]
    elif rule == "sendrecv":
        post += ["        if (pp_mpi_trace_on()) {",
                 "            pp_mpi_trace_send(%s, %s, %s, %s);" % (a[0], a[1], a[3], sent),
                 "            pp_mpi_trace_recv(%s, %s, %s);" % (a[2], a[3], received),
                 "        }"]
    elif rule == "isend":
        post += ["        %s" % on, "            pp_mpi_trace_isend(%s, %s, %s, %s, *%s);"
                 % (a[0], a[1], a[2], sent, a[3])]
    elif rule == "irecv":
        post += ["        %s" % on, "            pp_mpi_trace_irecv(%s, *%s);" % (a[0], a[1])]
    elif rule == "request_free":
        pre += ["    %s" % on, "        pp_mpi_trace_request_free(*%s);" % a[0]]
    elif rule == "coll":
        post += ["        %s" % on, "            pp_mpi_trace_coll(%d, %s, %s, %s, %s);"
                 % (COLLECTIVE_OPS[a[0]], "-1" if a[1] == "-" else a[1], a[2], sent, received)]
    elif rule == "newcomm":
        post += ["        %s" % on, '            pp_mpi_comm_created(%s, *%s, "%s");'
                 % (a[0], a[1], f.name)]
    elif rule == "comm_free":
        pre += ["    %s" % on, "        pp_mpi_comm_freed(*%s);" % a[0]]
    return pre, post, after


def normalize(proto: str) -> str:
    p = " ".join(proto.split())
    p = re.sub(r"\s*\(\s*", "(", p, count=1)
    p = re.sub(r"\s*,\s*", ", ", p)
    p = re.sub(r"\s*\)$", ")", p)
    p = re.sub(r"\*\s+(\w)", r"*\1", p)
    return p


def split_params(args: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in args:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return out


# ---- the table --------------------------------------------------------------------------

def read_table(path: str) -> list[Function]:
    funcs = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = line.split(None, 4)
            if len(parts) != 5:
                raise ValueError("%s:%d: expected 'name group fortran bytes prototype'" % (path, n))
            funcs.append(Function(*parts, where="%s:%d" % (path, n)))
    names = [f.name for f in funcs]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise ValueError("%s: listed twice: %s" % (path, ", ".join(sorted(dup))))
    return funcs


def write_table(path: str, header: list[str], funcs: list[Function]) -> None:
    with open(path, "w") as f:
        f.writelines(header)
        for fn in sorted(funcs, key=lambda x: x.name):
            f.write("%-28s %-7s %s %-64s %s\n" % (fn.name, fn.group, "f" if fn.fortran else "-",
                                                 fn.rule, fn.prototype))


def table_header(path: str) -> list[str]:
    with open(path) as f:
        return [line for line in f if line.startswith("#") or not line.strip()]


# ---- mpi.h ---------------------------------------------------------------------------

def read_mpi_h(path: str) -> dict[str, str]:
    """Every MPI_ function mpi.h declares (also those under #if: the removed
    MPI-1 functions, which libmpi still provides): name -> prototype."""
    with open(path) as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    found = {}
    for m in re.finditer(r"OMPI_DECLSPEC\s+(?!extern\b)([\w\s\*]+?)\b(MPI_\w+)\s*\(", text):
        # the parameter list up to its closing parenthesis
        depth, i = 1, m.end()
        while depth and i < len(text):
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        found[m.group(2)] = normalize("%s %s(%s)" % (m.group(1), m.group(2), text[m.end():i - 1]))
    return found


def check(funcs: list[Function], mpi_h: str) -> list[str]:
    header = read_mpi_h(mpi_h)
    table = {f.name: f for f in funcs}
    errors = []
    for name in sorted(set(header) - set(table)):
        errors.append("%s is declared in %s but not in the table" % (name, mpi_h))
    for name in sorted(set(table) - set(header)):
        errors.append("%s is in the table but not declared in %s" % (name, mpi_h))
    for name in sorted(set(table) & set(header)):
        if table[name].prototype != header[name]:
            errors.append("%s: the table says\n    %s\n  mpi.h says\n    %s"
                          % (name, table[name].prototype, header[name]))
    return errors


# ---- C wrappers -------------------------------------------------------------------------

C_HEAD = """/* Generated by mpi/pp_mpi_gen.py from mpi/pp_mpi_functions.tbl and
 * mpi/pp_mpi_trace.tbl: the C wrappers of every MPI function (do not edit;
 * edit the tables). */
#include "mpi/pp_mpi.h"
#include "mpi/pp_mpi_trace.h"

"""


def c_value(p: Param) -> str:
    return C_VALUE.get(p.kind, "%s") % p.name


def c_wrapper(i: int, f: Function) -> str:
    args = ", ".join(p.name for p in f.params)
    out = ["/* %s: %s */" % (f.name, f.group), f.prototype, "{"]
    out.append("    pp_region_id pp_r = pp_mpi_enter(%d);" % i)
    call = f.bytes_call()
    status = [p for p in (call[1] if call else []) if p.kind == "MPI_Status *"]
    for p in status:
        out.append("    MPI_Status pp_status;")
        out.append("    if (%s == MPI_STATUS_IGNORE)" % p.name)
        out.append("        %s = &pp_status;" % p.name)
    pre, post, after = trace_code(f, bool(call))
    out += pre
    out.append("    %s pp_rc = %s(%s);" % (f.ret, f.pname, args))
    if call or post:
        out.append("    if (pp_rc == MPI_SUCCESS) {")
    if call:
        rule, params = call
        out.append("        pp_mpi_bytes pp_b = {0, 0};")
        out.append("        pp_mpi_bytes_%s(&pp_b, %s);" % (rule, ", ".join(c_value(p) for p in params)))
        out.append("        pp_mpi_record(&pp_b);")
    out += post
    if call or post:
        out.append("    }")
    out += after
    out.append("    pp_mpi_exit(pp_r);")
    out.append("    return pp_rc;")
    out.append("}")
    return "\n".join(out) + "\n\n"


def generate_c(funcs: list[Function]) -> str:
    parts = [C_HEAD, function_table(funcs)]
    for i, f in enumerate(funcs):
        if f.rule != "special":
            parts.append(c_wrapper(i, f))
    return "".join(parts)


def function_table(funcs: list[Function]) -> str:
    lines = ["const pp_mpi_function pp_mpi_functions[PP_MPI_N_FUNCTIONS] = {"]
    lines += ['    {"%s", "%s"},' % (f.name, f.group) for f in funcs]
    lines.append("};")
    lines.append("const int pp_mpi_n_functions = %d;" % len(funcs))
    return "\n".join(lines) + "\n\n"


def index_header(funcs: list[Function]) -> str:
    """The function indexes, for the wrappers written by hand."""
    lines = ["/* Generated by mpi/pp_mpi_gen.py: the index of each MPI function in",
             " * pp_mpi_functions (do not edit). */",
             "#define PP_MPI_N_FUNCTIONS %d" % len(funcs)]
    lines += ["#define PP_MPI_F_%s %d" % (f.name[4:], i) for i, f in enumerate(funcs)
              if f.rule == "special"]
    return "\n".join(lines) + "\n"


# ---- Fortran wrappers ---------------------------------------------------------------------

F_HEAD = """/* Generated by mpi/pp_mpi_gen.py from mpi/pp_mpi_functions.tbl: wrappers of
 * the Fortran MPI binding (mpif.h and `use mpi`), every argument by
 * reference and a hidden length per CHARACTER argument (do not edit; edit
 * the table). */
#include "mpi/pp_mpi_fortran.h"

"""


def fortran_wrapper(i: int, f: Function) -> str:
    lname, uname = f.name.lower(), f.name.upper()
    chars = [p for p in f.params if p.is_char]
    lengths = ["size_t pp_len_%s" % p.name for p in chars]
    names = [p.name for p in f.params]
    is_function = f.ret == "double" and not f.params
    if is_function:
        decl_params, call_args = "void", ""
    else:
        decl_params = ", ".join(["void *%s" % n for n in names] + ["MPI_Fint *pp_ierr"] + lengths)
        call_args = ", ".join(names + ["pp_ierr"] + ["pp_len_%s" % p.name for p in chars])
    ret = "double" if is_function else "void"
    proto_p = "%s FC_FUNC_(p%s, P%s)(%s)" % (ret, lname, uname, decl_params)
    proto = "%s FC_FUNC_(%s, %s)(%s)" % (ret, lname, uname, decl_params)
    out = ["%s;" % proto_p, "%s;" % proto, "/* %s: %s */" % (f.name, f.group), proto, "{",
           "    pp_region_id pp_r = pp_mpi_enter(%d);" % i]
    call = f.bytes_call()
    status = [p for p in (call[1] if call else []) if p.kind == "MPI_Status *"]
    for p in status:
        out.append("    MPI_Fint pp_fstatus[PP_MPI_F_STATUS_INTS];")
        out.append("    if ((MPI_Fint *)%s == MPI_F_STATUS_IGNORE)" % p.name)
        out.append("        %s = pp_fstatus;" % p.name)
    if is_function:
        out.append("    double pp_rc = FC_FUNC_(p%s, P%s)();" % (lname, uname))
    else:
        out.append("    FC_FUNC_(p%s, P%s)(%s);" % (lname, uname, call_args))
    if call:
        rule, params = call
        out.append("    if (*pp_ierr == MPI_SUCCESS) {")
        if status:
            out.append("        MPI_Status pp_cstatus;")
        out.append("        pp_mpi_bytes pp_b = {0, 0};")
        out.append("        pp_mpi_bytes_%s(&pp_b, %s);"
                   % (rule, ", ".join(FORTRAN_VALUE[p.kind] % p.name for p in params)))
        out.append("        pp_mpi_record(&pp_b);")
        out.append("    }")
    out.append("    pp_mpi_exit(pp_r);")
    if is_function:
        out.append("    return pp_rc;")
    out.append("}")
    return "\n".join(out) + "\n\n"


def generate_fortran(funcs: list[Function]) -> str:
    parts = [F_HEAD]
    for i, f in enumerate(funcs):
        if f.fortran and f.rule != "special":
            parts.append(fortran_wrapper(i, f))
    return "".join(parts)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--table", required=True)
    ap.add_argument("--trace-table")
    ap.add_argument("--c")
    ap.add_argument("--index")
    ap.add_argument("--fortran")
    ap.add_argument("--check")
    ap.add_argument("--update")
    a = ap.parse_args(argv)
    try:
        funcs = read_table(a.table)
        if a.trace_table:
            read_trace_table(a.trace_table, funcs)
    except (OSError, ValueError) as e:
        sys.stderr.write("pp_mpi_gen.py: %s\n" % e)
        return 1
    if a.update:
        header = read_mpi_h(a.update)
        known = {f.name: f for f in funcs}
        new = []
        for name, proto in header.items():
            f = known.get(name)
            new.append(Function(name, f.group if f else "other",
                                "f" if f and f.fortran else "-", f.rule if f else "-", proto,
                                a.update))
        write_table(a.table, table_header(a.table), new)
        return 0
    if a.check:
        errors = check(funcs, a.check)
        for e in errors:
            print("FAIL: " + e)
        print("%d functions in the table, %d differences from %s" % (len(funcs), len(errors), a.check))
        return 1 if errors else 0
    for path, text in ((a.c, lambda: generate_c(funcs)), (a.index, lambda: index_header(funcs)),
                       (a.fortran, lambda: generate_fortran(funcs))):
        if path:
            with open(path + ".tmp", "w") as f:
                f.write(text())
            import os
            os.replace(path + ".tmp", path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
