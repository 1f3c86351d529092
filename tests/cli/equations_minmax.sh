#!/usr/bin/env bash
# min and max attributes of variables are checked while the model runs, as
# Modelica tools do: a variable that leaves its range is reported once, as a
# warning at the attribute (file:line:col) with the time it first left it and
# the bound, and the run goes on. The crossing is located as a state event,
# so the time is the exact one of the closed form.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# ---- x = t - 1 starts below min = 0 and leaves max = 2 at t = 3
model range <<'EOF'
model Range
  Real x(start = -1, fixed = true, min = 0, max = 2);
equation
  der(x) = 1;
  annotation(experiment(StopTime = 4));
end Range;
EOF
expect range 0 -- "range.mo:2:36: warning: at t = 0: x went below its min = 0
range.mo:2:45: warning: at t = 3: x went above its max = 2"
"$PY" - "$T/range.csv" <<'EOF' && ok "the run goes on to x(4) = 3" || bad "the run did not go on past the warnings"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
sys.exit(not (abs(float(rows[-1]['time']) - 4) < 1e-12 and abs(float(rows[-1]['x']) - 3) < 1e-9))
EOF

# ---- components: each instance's variable by its own name; w[2] (k = 3)
# leaves min = 0 at t = 1/3, w[1] reaches it exactly at the stop time
# (not below), w[3] never does
model wagons <<'EOF'
model Wagons
  model W
    Real x(start = 1, fixed = true, min = 0);
    parameter Real k = 1;
  equation
    der(x) = -k;
  end W;
  W w[3](k = {1, 3, 0.5});
  annotation(experiment(StopTime = 1));
end Wagons;
EOF
expect wagons 0 -- "wagons.mo:3:37: warning: at t = 0.333333333: w[2].x went below its min = 0"

# ---- inside its range: nothing to say; a bound from a parameter
model inside <<'EOF'
model Inside
  parameter Real lo = -0.25;
  Real y(min = lo, max = 1.5);
equation
  y = sin(time);
  annotation(experiment(StopTime = 2));
end Inside;
EOF
sim inside && { [ ! -s "$T/inside.err" ] && ok "inside its range: no warning" || { bad "inside its range: a message"; cat "$T/inside.err"; }; }

exit $((fails > 0))
