#!/usr/bin/python3
"""layers.py - the include rule of the runtime (docs/architecture.md,
"Layers"): no file of the stages after the model (src/components,
src/compile, src/sim, src/output, src/plot, src/sweep) may reach the parser's syntax
tree, the expression evaluator or the function compiler, directly or
through the project's own headers.

Why a whitelist: a header a runtime file reaches must be one the runtime
may use, so a new model-side header is kept out until someone decides
otherwise, instead of slipping in unnoticed.

Usage: layers.py ROOT [--graph]. ROOT holds src/ and include/. Prints one
line per runtime file and header it must not reach, with the shortest
include chain, and exits 1; exits 0 when there is none. --graph prints,
for every runtime file, the project headers it reaches (for reviews).
Quoted includes are resolved as the compiler does: beside the including
file, then src/, then include/; one that resolves nowhere is an error too
(the check would be blind to it). Conditional includes count as
includes; includes inside comments do not."""
import os
import re
import sys
from collections import deque

RUNTIME = ("src/components/", "src/compile/", "src/sim/", "src/output/", "src/plot/", "src/sweep/")

# What the runtime may reach outside its own directories. src/model:
# the model description the compiler reads and the value type.
# src/symbolic: the run-time side of user functions and the register
# programs of user classes (with the expression graph and the analysed
# equations they are lowered from), none of which holds syntax trees.
ALLOWED_DIRS = ("src/util/", "include/") + RUNTIME
ALLOWED_FILES = {
    "src/model/model.h",
    "src/model/value.h",
    "src/symbolic/func_rt.h",
    "src/symbolic/prog.h",
    "src/symbolic/lower.h",
    "src/symbolic/analyze.h",
    "src/symbolic/flat.h",
    "src/symbolic/sym.h",
}
# The class tables' Modelica text, evaluated model-side behind a
# value-only interface: for the compiler's own files (params.c,
# structure.c), not for its headers, which the simulator reads too.
COMPILER_ONLY = {"src/model/classtext.h"}

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def includes(root, rel, cache):
    """Project files that rel includes (relative to root), and the names that resolve nowhere."""
    if rel not in cache:
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            text = f.read()
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        found, missing = [], []
        for name in INCLUDE.findall(text):
            for base in (os.path.dirname(rel), "src", "include"):
                cand = os.path.normpath(os.path.join(base, name))
                if os.path.isfile(os.path.join(root, cand)):
                    found.append(cand)
                    break
            else:
                missing.append(name)
        cache[rel] = (found, missing)
    return cache[rel]


def reach(root, start, cache):
    """Every project file start reaches, with the file it was first included from (shortest chains)."""
    prev = {start: None}
    queue = deque([start])
    while queue:
        f = queue.popleft()
        for g in includes(root, f, cache)[0]:
            if g not in prev:
                prev[g] = f
                queue.append(g)
    return prev


def chain(prev, f):
    out = []
    while f is not None:
        out.append(f)
        f = prev[f]
    return " -> ".join(reversed(out))


def allowed(f, start):
    if f in COMPILER_ONLY:
        return start.startswith("src/compile/") and start.endswith(".c")
    return f.startswith(ALLOWED_DIRS) or f in ALLOWED_FILES


def runtime_files(root):
    for d in RUNTIME:
        for name in sorted(os.listdir(os.path.join(root, d))):
            if name.endswith((".c", ".h")):
                yield d + name


def main(argv):
    root = argv[1]
    graph = "--graph" in argv[2:]
    cache, problems, n = {}, [], 0
    for f in runtime_files(root):
        n += 1
        prev = reach(root, f, cache)
        if graph:
            print(f + ": " + " ".join(sorted(g for g in prev if g != f)))
        for g in sorted(prev):
            if not allowed(g, f):
                problems.append("%s: reaches %s: %s" % (f, g, chain(prev, g)))
            for name in includes(root, g, cache)[1]:
                problems.append('%s: #include "%s" in %s resolves to no file' % (f, name, g))
    for p in problems:
        print(p)
    if not problems and not graph:
        print("%d runtime files reach no syntax tree, evaluator or compiler header" % n)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
