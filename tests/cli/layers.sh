#!/usr/bin/env bash
# The runtime carries no syntax tree (docs/architecture.md, "Layers"): no
# file of src/components, src/compile, src/sim, src/output, src/plot or src/sweep may
# reach, directly or through the project's own headers, the parser's
# headers (src/parse), the model-side headers other than model.h and
# value.h (the evaluator eval.h among them; classtext.h only for the .c
# files of src/compile), or the compile-time side of src/symbolic
# (func.h, func_int.h, ...). tests/lib/layers.py
# checks the source tree; then the same check must catch violations put
# into a copy of it, with the include chain that leads there.
. "$FLANGE_SRC/tests/lib/cli.sh"
check=(/usr/bin/python3 "$FLANGE_SRC/tests/lib/layers.py")

out=$("${check[@]}" "$FLANGE_SRC" 2>&1); rc=$?
if [ $rc -eq 0 ] && [[ "$out" =~ ^[0-9]+\ runtime\ files\ reach\ no\ syntax\ tree,\ evaluator\ or\ compiler\ header$ ]]
then ok "$out"
else bad "the source tree breaks the rule (status $rc):"; echo "$out"; fi

# the headers of the rule exist where the check looks for them
for f in src/parse/ast.h src/model/eval.h src/model/value.h src/model/classtext.h src/symbolic/func.h \
         src/symbolic/func_rt.h src/components/component.h; do
  [ -f "$FLANGE_SRC/$f" ] || bad "$f is missing: the rule names it"
done

# violations in a copy of the tree
cp -r "$FLANGE_SRC/src" "$FLANGE_SRC/include" "$T/"
printf '#include "model/eval.h"\n' > "$T/src/output/zz_probe.h"
printf '#include "output/zz_probe.h"\n' > "$T/src/plot/zz_probe.c"
printf '#include "sim/no_such_header.h"\n' > "$T/src/sim/zz_probe.c"
printf '#include "model/classtext.h"\n' > "$T/src/compile/zz_probe.h"
printf '#include "symbolic/func.h"\n' >> "$T/src/components/user.c"
"${check[@]}" "$T" > "$T/out" 2>&1; rc=$?
[ $rc -eq 1 ] && ok "violations: status 1" || bad "violations: status $rc, not 1"
while IFS= read -r want; do
  grep -Fxq -- "$want" "$T/out" && ok "reported: $want" || bad "not reported: $want"
done <<'EOF'
src/plot/zz_probe.c: reaches src/model/eval.h: src/plot/zz_probe.c -> src/output/zz_probe.h -> src/model/eval.h
src/plot/zz_probe.c: reaches src/parse/ast.h: src/plot/zz_probe.c -> src/output/zz_probe.h -> src/model/eval.h -> src/parse/ast.h
src/output/zz_probe.h: reaches src/model/eval.h: src/output/zz_probe.h -> src/model/eval.h
src/components/user.c: reaches src/symbolic/func.h: src/components/user.c -> src/symbolic/func.h
src/sim/zz_probe.c: #include "sim/no_such_header.h" in src/sim/zz_probe.c resolves to no file
src/compile/zz_probe.h: reaches src/model/classtext.h: src/compile/zz_probe.h -> src/model/classtext.h
EOF
# and nothing else of the copy: every reported file is one of the probes
others=$(grep -v '^src/plot/zz_probe.c: \|^src/output/zz_probe.h: \|^src/components/user.c: \|^src/sim/zz_probe.c: \|^src/compile/zz_probe.h: ' "$T/out")
[ -z "$others" ] && ok "only the probes are reported" || { bad "more reported:"; echo "$others"; }

[ $fails -eq 0 ]
