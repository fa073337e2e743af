#!/bin/sh
# The architecture's rules, checked on the source tree and the built library
# (docs/architecture.md): parts are ordered base < log < archive < sim <
# import < bench < analyze < render < cli; a part includes its own headers and
# the public headers of lower parts only; cli includes public headers only;
# every symbol libssdrev exports carries its part's prefix.
set -u
fail() { echo "layout_rules: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=${SSDREV_ROOT:-.}
cd "$R" || fail "cannot cd to $R"
OBJ=$(cd "$(dirname "$S")" && pwd)/san
[ -d "$OBJ/base" ] || fail "no sanitizer objects under $OBJ"

python3 - "$OBJ" <<'PY' || exit 1
import os, re, subprocess, sys
order = ["base", "log", "archive", "sim", "import", "bench", "analyze", "render", "cli"]
public = {"base/ssdrev.h": "base", "log/ssdlog.h": "log", "archive/archive.h": "archive",
          "sim/sim.h": "sim", "import/import.h": "import", "bench/bench.h": "bench",
          "analyze/analyze.h": "analyze", "render/render.h": "render"}
prefix = {"base": ("ssdrev_",), "log": ("ssdlog_",), "archive": ("archive_",), "sim": ("sim_",),
          "import": ("import_",), "bench": ("bench_",), "analyze": ("analyze_",), "render": ("render_",)}
bad = []
for part in order:
    for root, _, files in os.walk(part):
        for f in files:
            if not f.endswith((".c", ".h")):
                continue
            path = os.path.join(root, f)
            for n, line in enumerate(open(path, encoding="utf-8"), 1):
                m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if not m:
                    continue
                h = m.group(1)
                owner = h.split("/")[0]
                if owner not in order:
                    bad.append("%s:%d: includes %s, outside every part" % (path, n, h))
                elif owner == part:
                    if part == "cli" or h in public or h.endswith("_int.h") or h.startswith("log/codec"):
                        continue
                    bad.append("%s:%d: includes %s, not a header of its part" % (path, n, h))
                elif order.index(owner) > order.index(part):
                    bad.append("%s:%d: includes %s, a part above %s" % (path, n, h, part))
                elif h not in public:
                    bad.append("%s:%d: includes %s, private to %s" % (path, n, h, owner))
for part in prefix:
    for root, _, files in os.walk(os.path.join(sys.argv[1], part)):
        for f in files:
            if not f.endswith(".o"):
                continue
            obj = os.path.join(root, f)
            src = os.path.relpath(obj, sys.argv[1])[:-2] + ".c"
            if not os.path.isfile(src):
                continue  # left in the build directory by an older tree
            out = subprocess.run(["nm", "-g", "--defined-only", obj], capture_output=True,
                                 text=True, check=True).stdout
            for line in out.splitlines():
                sym = line.split()[-1]
                if sym.startswith("__odr_asan."):  # ASan's one-definition-rule marker
                    sym = sym[len("__odr_asan."):]
                if not sym.startswith(prefix[part]):
                    bad.append("%s exports %s without the prefix %s"
                               % (os.path.relpath(obj, sys.argv[1]), sym, prefix[part][0]))
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
