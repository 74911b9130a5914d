"""Every POMPPROF_* variable pompprof reads is one the library knows: the
library warns about unknown POMPPROF_* variables (lib/pp_config.c,
pp_config_known), so a setting read somewhere but missing from that list
would draw a false "not a pompprof setting" line on the program's stderr
whenever a user sets it (POMPPROF_FILTER did, when functions and the check
came together)."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_file_references as refs  # noqa: E402

# reads of a setting: getenv("POMPPROF_X") in C, os.environ[...]/.get("POMPPROF_X")
# and a module's ENVIRONMENT = "POMPPROF_X" in Python
READ = re.compile(r'(?:getenv\(\s*|environ(?:\.get)?[\[(]\s*|ENVIRONMENT\s*=\s*)"(POMPPROF_[A-Z0-9_]+)"')
KNOWN = re.compile(r"pp_config_known\[\]\s*=\s*\{(.*?)\};", re.S)


def main():
    src = os.path.abspath(os.environ.get("top_srcdir", "."))
    with open(os.path.join(src, "lib", "pp_config.c")) as f:
        block = KNOWN.search(f.read())
    if not block:
        print("FAIL: no pp_config_known list in lib/pp_config.c")
        return 1
    known = set(re.findall(r'"(POMPPROF_[A-Z0-9_]+)"', block.group(1)))
    read = {}
    for rel, text in refs.project_texts(src):
        if rel.startswith(("test/", "examples/")) or not rel.endswith((".c", ".h", ".py")):
            continue
        for m in READ.finditer(text):
            read.setdefault(m.group(1), rel)
    missing = sorted(set(read) - known)
    for name in missing:
        print("FAIL: %s is read (%s) but not in lib/pp_config.c's pp_config_known" %
              (name, read[name]))
    if len(read) < 10:
        print("FAIL: only %d settings found read: is top_srcdir right?" % len(read))
        return 1
    if missing:
        return 1
    print("%d settings read, all known" % len(read))
    return 0


if __name__ == "__main__":
    sys.exit(main())
