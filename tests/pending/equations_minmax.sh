#!/usr/bin/env bash
# PENDING (tests/pending is not run by make test): min and max attributes
# of variables are accepted but not checked while the model runs (Modelica
# tools report a variable leaving its range). README.md says so.
#   FLANGE=build/flange bash tests/pending/equations_minmax.sh
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# ---- min and max are checked (today x runs to -1 below min = 0 silently);
# Modelica tools report the violation
model minmax <<'EOF'
model MinMax
  Real x(start = 1, fixed = true, min = 0);
equation
  der(x) = -2;
  annotation(experiment(StopTime = 1));
end MinMax;
EOF
"$FLANGE" simulate "$T/minmax.mo" -o "$T/minmax.csv" --quiet 2> "$T/minmax.err"
grep -q "min" "$T/minmax.err" && ok "x below its min is reported" || { bad "x below its min is not reported"; cat "$T/minmax.err"; }


exit $((fails > 0))
