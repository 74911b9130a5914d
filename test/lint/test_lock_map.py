"""The map of the library's locks in doc/engine.md ("Locks and global state") stays true.

Every lock the library defines (pthread_mutex_t, pthread_rwlock_t, pthread_spinlock_t and
pthread_once_t, at file scope, as a function's static, or as a member of a struct of which
a variable is defined at file scope: `pp_profile_g.lock`) is a row of the section's lock
table, in the file where it is defined, and every row is such a lock.  The order line
names every lock of the table once, and no lock's "may take next" names a lock of its own
group or of an earlier one.  The library's sources are those of the libraries
libpompprof*.la are made of, read from Makefile.am and */local.mk (the generated MPI wrappers are not among them; a
struct that is a member of another struct is not followed)."""
import os
import re
import sys

LOCK_TYPES = r"pthread_(?:mutex|rwlock|spinlock|once)_t"
SECTION = "## Locks and global state"


# ---- the library's sources ------------------------------------------------------------

def makefile_vars(src):
    """{variable: [words]} of Makefile.am and every */local.mk (+= appends; conditionals
    are ignored, so both branches count)."""
    texts = [os.path.join(src, "Makefile.am")]
    for d in sorted(os.listdir(src)):
        if os.path.isfile(os.path.join(src, d, "local.mk")):
            texts.append(os.path.join(src, d, "local.mk"))
    found = {}
    for path in texts:
        with open(path, encoding="utf-8") as f:
            text = f.read().replace("\\\n", " ")
        for m in re.finditer(r"^([A-Za-z0-9_]+)\s*(\+?=)(.*)$", text, re.M):
            words = m.group(3).split()
            if m.group(2) == "=":
                found[m.group(1)] = words
            else:
                found.setdefault(m.group(1), []).extend(words)
    return found


def library_sources(src):
    """The C files and headers of every libpompprof*.la and the libraries it links."""
    found = makefile_vars(src)
    todo = [w for w in found.get("lib_LTLIBRARIES", []) if w.startswith("libpompprof")]
    seen, files = set(), set()
    while todo:
        canon = re.sub(r"[^A-Za-z0-9]", "_", todo.pop())
        if canon in seen:
            continue
        seen.add(canon)
        for word in found.get(canon + "_SOURCES", []):
            if word.endswith((".c", ".h")) and os.path.isfile(os.path.join(src, word)):
                files.add(word)
        todo += [w for w in expand(found, found.get(canon + "_LIBADD", []))
                 if w.endswith(".la") and not w.startswith("$")]
    return sorted(files)


def expand(found, words):
    """words with each $(VARIABLE) of the makefiles replaced by its words."""
    out = []
    for w in words:
        m = re.fullmatch(r"\$\((\w+)\)", w)
        out += expand(found, found.get(m.group(1), [])) if m else [w]
    return out


# ---- the locks a C text defines ----------------------------------------------------------

def strip_c(text):
    """text without comments, string and character literals and preprocessor lines (each
    replaced by spaces of the same length, so offsets stay)."""
    out = re.sub(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'",
                 lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", lambda m: re.sub(r"[^\n]", " ", m.group(0)),
                  out, flags=re.M)


def blocks(code):
    """Every brace pair of code as (open, close, kind): kind 'struct' for a struct or union
    body, 'function' for a function body (at file scope, after a parameter list), 'other'
    for an initializer or a block inside a function."""
    found, stack = [], []
    for i, ch in enumerate(code):
        if ch == "{":
            before = code[:i].rstrip()
            if re.search(r"\b(?:struct|union)(?:\s+\w+)?$", before):
                kind = "struct"
            elif before.endswith(")") and not stack:
                kind = "function"
            else:
                kind = "other"
            stack.append((i, kind))
        elif ch == "}" and stack:
            start, kind = stack.pop()
            found.append((start, i, kind))
    return found


def enclosing(blocks_, pos):
    """The blocks around pos, outermost first (empty at file scope)."""
    return sorted((b for b in blocks_ if b[0] < pos < b[1]), key=lambda b: b[0])


def struct_names(code, block):
    """The names a struct body is known by: its tag ('struct tag'), its typedef name, and
    the variables declared right after its closing brace."""
    start, end, _ = block
    tag = re.search(r"\b(?:struct|union)\s+(\w+)\s*$", code[:start])
    types = {"struct " + tag.group(1)} if tag else set()
    after = code[end + 1:]
    declarators = re.match(r"\s*([^;={]*)", after).group(1)
    names = re.findall(r"\b(\w+)\b", declarators)
    if re.search(r"\btypedef\s+(?:struct|union)\b[^;]*$", code[:start]):
        types.update(names)
        names = []
    return types, names


def c_locks(texts):
    """{lock name: file} of the locks texts ({file: C text}) define."""
    locks, members, code_of = {}, [], {}
    for rel, text in texts.items():
        code = strip_c(text)
        code_of[rel] = (code, blocks(code))
        for m in re.finditer(r"\b(" + LOCK_TYPES + r")\s+(\w+)\s*(?:\[[^\]]*\])?\s*[=;,]", code):
            decl_start = max(code.rfind(";", 0, m.start()), code.rfind("{", 0, m.start()),
                             code.rfind("}", 0, m.start())) + 1
            head = code[decl_start:m.start()]
            around = enclosing(code_of[rel][1], m.start())
            if re.search(r"\bextern\b", head):
                continue
            if not around:
                locks[m.group(2)] = rel
            elif around[-1][2] == "struct":
                members.append((rel, around[-1], m.group(2)))
            elif around[0][2] == "function" and re.search(r"\bstatic\b", head):
                locks[m.group(2)] = rel
    for rel, block, member in members:
        code, _ = code_of[rel]
        types, names = struct_names(code, block)
        for name in names:
            locks["%s.%s" % (name, member)] = rel
        for type_name in types:
            for other, (ocode, oblocks) in code_of.items():
                pattern = r"(?<![\w.>])" + re.escape(type_name) + r"\s+(\w+)\s*(?:=|;)"
                for m in re.finditer(pattern, ocode):
                    head = ocode[max(ocode.rfind(";", 0, m.start()),
                                     ocode.rfind("}", 0, m.start())) + 1:m.start()]
                    if not enclosing(oblocks, m.start()) and "extern" not in head:
                        locks["%s.%s" % (m.group(1), member)] = other
    return locks


# ---- the map in the document -------------------------------------------------------------

def doc_map(text):
    """(rows, order) of the section: rows {lock: (file, [locks it may take next])} of its
    lock table, order [[locks of a group]] of its order line (None when missing)."""
    start = text.find(SECTION)
    if start < 0:
        return {}, None
    end = text.find("\n## ", start + len(SECTION))
    section = text[start:end if end > 0 else len(text)]
    rows, order, in_table = {}, None, False
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| lock |"):
            in_table = True
        elif in_table and line.startswith("|") and not line.startswith("|---"):
            names = re.findall(r"`([^`]+)`", cells[0])
            files = re.findall(r"`([^`]+)`", cells[1]) if len(cells) > 1 else []
            nexts = re.findall(r"`([^`]+)`", cells[4]) if len(cells) > 4 else []
            if names:
                rows[names[0]] = (files[0] if files else "", nexts)
        elif in_table and not line.startswith("|"):
            in_table = False
        if line.startswith("    ") and " > " in line and order is None:
            order = [[n.strip() for n in group.split(",")] for group in line.split(" > ")]
    return rows, order


def compare(defined, rows, order):
    """The lines that say where code and document disagree (none: they agree)."""
    bad = []
    for name in sorted(set(defined) - set(rows)):
        bad.append("lock %s (%s) is missing from the table in doc/engine.md"
                   % (name, defined[name]))
    for name in sorted(set(rows) - set(defined)):
        bad.append("the table names %s, which the library does not define" % name)
    for name in sorted(set(rows) & set(defined)):
        if rows[name][0] != defined[name]:
            bad.append("the table places %s in %s; it is defined in %s"
                       % (name, rows[name][0], defined[name]))
    if order is None:
        return bad + ["no order line (groups of locks separated by ' > ')"]
    level = {}
    for i, group in enumerate(order):
        for name in group:
            if name in level:
                bad.append("the order names %s twice" % name)
            level[name] = i
    for name in sorted(set(rows) - set(level)):
        bad.append("the order line does not name %s" % name)
    for name in sorted(set(level) - set(rows)):
        bad.append("the order line names %s, which the table does not" % name)
    for name, (_, nexts) in sorted(rows.items()):
        for after in nexts:
            if name in level and after in level and level[after] <= level[name]:
                bad.append("%s may take %s, which the order does not put after it"
                           % (name, after))
    return bad


# ---- the test's own check, and main --------------------------------------------------------

SAMPLE_H = """
typedef struct pp_state { pthread_mutex_t lock; int n; } pp_state;
extern pp_state pp_state_g;
extern pthread_mutex_t pp_shared_lock;
"""
SAMPLE_C = """
/* pthread_mutex_t in_comment; */
static pthread_mutex_t pp_file_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t pp_shared_lock = PTHREAD_MUTEX_INITIALIZER;
pp_state pp_state_g = {.lock = PTHREAD_MUTEX_INITIALIZER};
static struct {
    pthread_rwlock_t lock;
    pthread_once_t once;
} pp_mod = {.lock = PTHREAD_RWLOCK_INITIALIZER, .once = PTHREAD_ONCE_INIT};
static void pp_reset(void)
{
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static pthread_once_t pp_reset_once = PTHREAD_ONCE_INIT;
    const char *s = "pthread_mutex_t in_string;";
}
"""
SAMPLE_DOC = """## Locks and global state

| lock | file | guards | taken by | may take next |
|---|---|---|---|---|
| `pp_file_lock` | `a.c` | x | y | `pp_mod.lock` |
| `pp_shared_lock` | `a.c` | x | y | - |
| `pp_state_g.lock` | `a.c` | x | y | - |
| `pp_mod.lock` | `a.c` | x | y | - |
| `pp_mod.once` | `a.c` | x | y | - |
| `pp_reset_once` | `a.c` | x | y | - |

    pp_file_lock > pp_shared_lock, pp_state_g.lock, pp_mod.lock > pp_mod.once, pp_reset_once

## Next
"""


def checks_itself():
    """The scanner finds exactly the sample's locks; the comparison passes the sample's
    document and fails it with a row removed, a file wrong, or an order reversed."""
    defined = c_locks({"a.h": SAMPLE_H, "a.c": SAMPLE_C})
    expected = {"pp_file_lock", "pp_shared_lock", "pp_state_g.lock", "pp_mod.lock",
                "pp_mod.once", "pp_reset_once"}
    if set(defined) != expected or set(defined.values()) != {"a.c"}:
        return "the scanner found %s" % sorted(defined.items())
    if compare(defined, *doc_map(SAMPLE_DOC)):
        return "the sample's document fails: %s" % compare(defined, *doc_map(SAMPLE_DOC))
    broken = {
        "a row removed": SAMPLE_DOC.replace("| `pp_mod.once` | `a.c` | x | y | - |\n", ""),
        "a file wrong": SAMPLE_DOC.replace("| `pp_mod.lock` | `a.c`", "| `pp_mod.lock` | `b.c`"),
        "the order reversed": SAMPLE_DOC.replace("pp_file_lock > pp_shared_lock",
                                                 "pp_shared_lock > pp_file_lock"),
    }
    for what, doc in broken.items():
        if not compare(defined, *doc_map(doc)):
            return "the comparison passes a document with %s" % what
    return None


def main():
    src = os.path.abspath(os.environ.get("top_srcdir", "."))
    problem = checks_itself()
    if problem:
        print("FAIL: the check itself is wrong: " + problem)
        return 1
    sources = library_sources(src)
    if len(sources) < 50:
        print("FAIL: only %d library sources found: is top_srcdir right?" % len(sources))
        return 1
    texts = {}
    for rel in sources:
        with open(os.path.join(src, rel), encoding="utf-8") as f:
            texts[rel] = f.read()
    defined = c_locks(texts)
    with open(os.path.join(src, "doc", "engine.md"), encoding="utf-8") as f:
        rows, order = doc_map(f.read())
    bad = compare(defined, rows, order)
    for line in bad:
        print("FAIL: " + line)
    print("%d library sources, %d locks defined, %d in doc/engine.md's table"
          % (len(sources), len(defined), len(rows)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
