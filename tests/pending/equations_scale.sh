#!/usr/bin/env bash
# PENDING (tests/pending is not run by make test): size of models written
# with for-loops.
#   FLANGE=build/flange bash tests/pending/equations_scale.sh    (about 20 s while it fails)
#
# Every subscripted use of an array variable inside a for-loop builds the
# whole array first (flatten.c: ref_fx -> var_fx creates a node for each
# element, then the subscript picks one), so loading is quadratic in time
# and memory: a chain of N masses written with a for-loop loads in 0.4 s at
# N = 2000, 2.3 s at 4000, 17 s and 1 GB at 8000 (20000 decoupled
# equations: 63 s), while der(x) = -k .* x over 8000 elements loads in
# 0.2 s and 40 MB. The issue asks for 10^5 wagons within 2x of the flat text.
# Checked here by peak memory (no timing), with the result's closed form.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# 8000 unit masses joined by unit springs, free at both ends, the first
# pushed with 1 N from rest: the centre of mass moves as t^2/(2 N), so the
# mean position is 1/16000 at t = 1
model chain <<'EOF'
model Chain
  parameter Integer N = 8000;
  Real x[N](each start = 0, each fixed = true);
  Real v[N](each start = 0, each fixed = true);
equation
  der(x) = v;
  der(v[1]) = 1 + x[2] - x[1];
  for i in 2:N - 1 loop
    der(v[i]) = x[i - 1] - 2*x[i] + x[i + 1];
  end for;
  der(v[N]) = x[N - 1] - x[N];
  annotation(experiment(StopTime = 1, Interval = 1));
end Chain;
EOF
/usr/bin/time -f "%M" -o "$T/chain.rss" "$FLANGE" simulate "$T/chain.mo" -o "$T/chain.csv" --quiet 2> "$T/chain.err"
rss=$(tail -n 1 "$T/chain.rss")
[ "$rss" -lt 200000 ] && ok "8000 masses in a for-loop: peak memory $rss KB" || bad "8000 masses in a for-loop: peak memory $rss KB (over 200 MB)"
values "8000 masses in a for-loop: the centre of mass" chain <<'PY'
near(sum(data[-1][1:8001])/8000, 1/16000, 1e-9, "mean position at t = 1")
PY

exit $((fails > 0))
