#!/usr/bin/env bash
# Selected outputs: a run that writes a few variables (--vars) computes only
# those, taking shortcuts for positions and velocities (no force balance at
# output points, no re-solve of massless nodes); the values must be the very
# ones a full run writes. Also the --stats line and contacts forced either
# way on a chain generated like the benchmark's.
. "$(dirname "$0")/../lib/cli.sh"
EX="$FLANGE_SRC/examples"

# column of a CSV by name
col() { awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next } { print $c }' "$1"; }

# a body on a hard stop (positions and velocities: the kinematic shortcut)
# and one with a massless node between springs (the re-solve skipped); the
# CSV keeps the model's order of variables
cat > "$T/node.mo" <<'EOF'
model Node
  Modelica.Mechanics.Translational.Components.Fixed ground;
  Modelica.Mechanics.Translational.Components.Spring k1(c=100);
  Modelica.Mechanics.Translational.Components.Spring k2(c=50);
  Modelica.Mechanics.Translational.Components.Spring k3(c=30);
  Modelica.Mechanics.Translational.Components.Damper d(d=2);
  Modelica.Mechanics.Translational.Components.Mass m(m=1, s(start=0.3, fixed=true), v(fixed=true));
equation
  connect(ground.flange, k1.flange_a);
  connect(k1.flange_b, k2.flange_a);
  connect(k1.flange_b, k3.flange_a);
  connect(k3.flange_b, ground.flange);
  connect(k2.flange_b, m.flange_a);
  connect(m.flange_b, d.flange_a);
  connect(d.flange_b, ground.flange);
  annotation(experiment(StopTime=3, Interval=0.01));
end Node;
EOF
for c in "$EX/hardstop_hysteresis.mo:body1.s,body2.s,body2.v" "$T/node.mo:m.s,m.v"; do
  model=${c%%:*} vars=${c#*:}
  name=$(basename "$model" .mo)
  "$FLANGE" simulate "$model" -o "$T/full.csv" --quiet --no-energy || { bad "$name: full run failed"; continue; }
  "$FLANGE" simulate "$model" -o "$T/sel.csv" --vars "$vars" --quiet --no-energy || { bad "$name: selected run failed"; continue; }
  [ "$(head -n 1 "$T/sel.csv")" = "time,${vars}" ] && ok "$name: header of the selection" \
    || bad "$name: header $(head -n 1 "$T/sel.csv")"
  same=1
  for v in time ${vars//,/ }; do
    cmp -s <(col "$T/full.csv" "$v") <(col "$T/sel.csv" "$v") || { same=0; bad "$name: $v differs from the full run"; }
  done
  [ $same = 1 ] && ok "$name: selected values identical to the full run's"
done

# --stats: one key=value line with the counters, on stdout
line=$("$FLANGE" simulate "$EX/hardstop_hysteresis.mo" -o "$T/h.csv" --quiet --stats)
echo "$line" | grep -Eq '^steps=[0-9]+ res=[0-9]+ jac=[0-9]+ lsetups=[0-9]+ state_events=[0-9]+ time_events=0 outputs=[0-9]+ model_s=[0-9.e-]+ load_s=[0-9.e-]+ compile_s=[0-9.e-]+ run_s=[0-9.e-]+ solver=dense$' \
  && ok "--stats line" || bad "--stats line: $line"

# a 30-wagon chain: contacts stepped through by default (more than 20, all
# moderately stiff), located with --contact-events; both end in the same place
"$BENCH_GEN" chain 30 > "$T/chain.mo"
"$FLANGE" simulate "$T/chain.mo" -o "$T/c1.csv" --vars m1.s --quiet --no-energy --stats > "$T/s1.txt" || bad "chain: default run failed"
"$FLANGE" simulate "$T/chain.mo" -o "$T/c2.csv" --vars m1.s --quiet --no-energy --stats --contact-events > "$T/s2.txt" \
  || bad "chain: run with contact events failed"
e1=$(grep -o 'state_events=[0-9]*' "$T/s1.txt" | cut -d= -f2)
e2=$(grep -o 'state_events=[0-9]*' "$T/s2.txt" | cut -d= -f2)
[ "${e1:-x}" = 0 ] && ok "chain: 29 buffers stepped through by default" || bad "chain: $e1 state events by default"
[ "${e2:-0}" -gt 0 ] && ok "chain: $e2 contact events with --contact-events" || bad "chain: no events with --contact-events"
x1=$(tail -n 1 "$T/c1.csv" | cut -d, -f2) x2=$(tail -n 1 "$T/c2.csv" | cut -d, -f2)
awk -v a="$x1" -v b="$x2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d < 1e-4 * (b < 0 ? -b : b) + 1e-6) }' \
  && ok "chain: final position $x1 either way ($x2)" || bad "chain: final positions $x1 and $x2 differ"

[ $fails = 0 ] && echo "all passed" || echo "$fails failed"
exit $((fails > 0))
