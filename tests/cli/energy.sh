#!/usr/bin/env bash
# The energy audit from the command line: a restitution impact against a case
# driven by a Speed source (issue 10: the source's work through the impulse,
# the true impact loss, positive dissipation, a balance that closes), and a
# run whose balance does not close (a stiff stop stepped through at a loose
# tolerance) reported as not closing in the warning, the --energy line and
# the summary.
. "$(dirname "$0")/../lib/cli.sh"

cat > "$T/rest.mo" <<'EOF'
model R
  Modelica.Blocks.Sources.Constant one(k=1);
  Modelica.Mechanics.Translational.Sources.Speed drive(exact=true);
  Flange.Components.HardStop hs(hs_model=Flange.Types.HardStopModel.RESTITUTION, cor=0.5, upper_bnd=0.1, lower_bnd=-0.1);
  Modelica.Mechanics.Translational.Components.Mass slider(m=1, s(fixed=true, start=0), v(fixed=true, start=0));
equation
  connect(one.y, drive.v_ref);
  connect(drive.flange, hs.C);
  connect(hs.R, slider.flange_a);
  annotation(experiment(StopTime=0.5));
end R;
EOF
# slider leaves at 1.5 m/s (1.125 J); the source does 1.5 J through the
# impulse; the impact loses 0.5 (1 - 0.25) 1 kg (1 m/s)^2 = 0.375 J
if "$FLANGE" simulate "$T/rest.mo" -o "$T/rest.csv" --energy > "$T/rest.out" 2> "$T/rest.err"; then
  line="energy balance at t = 0.5: kinetic 1.125 J + stored 0 J + dissipated 0.375 J (of which impacts 0.375 J) - work of sources 1.5 J; worst drift 0 J = 0 of the throughput 1.5 J"
  [ "$(cat "$T/rest.out")" = "$line" ] && ok "driven impact: the --energy line" || bad "driven impact: --energy line: $(cat "$T/rest.out")"
  grep -q "; the energy balance closes to 0 of the throughput.$" "$T/rest.err" && ! grep -q "warning" "$T/rest.err" \
    && ok "driven impact: the summary says it closes" || bad "driven impact: summary: $(cat "$T/rest.err")"
  # the CSV: dissipated never negative, 0.375 J after the impact; impactEnergy 0.375 J
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "energy.dissipated") d = i; if ($i == "hs.impactEnergy") e = i } next }
           { if ($d < 0) neg = 1; last = $d; imp = $e }
           END { exit !(d && e && !neg && last == 0.375 && imp == 0.375) }' "$T/rest.csv" \
    && ok "driven impact: dissipated energy in the CSV" || bad "driven impact: energy.dissipated / hs.impactEnergy columns"
else
  bad "driven impact: simulate failed: $(cat "$T/rest.err")"
fi

# a balance that does not close: the 1e10 stop of SymmetricHardStop stepped
# through at --tolerance 0.01 (the loosest allowed) jumps through the contact
cat > "$T/stiff.mo" <<'EOF'
model Stiff
  Modelica.Mechanics.Translational.Components.Fixed fixed;
  Flange.Components.SymmetricHardStop hs(b=0.2);
  Modelica.Mechanics.Translational.Components.Mass mass(m=1, s(fixed=true), v(start=1, fixed=true));
  Modelica.Mechanics.Translational.Sources.Force force;
  Modelica.Blocks.Sources.Sine sine(amplitude=5, f=2);
equation
  connect(fixed.flange, hs.flange_a);
  connect(hs.flange_b, mass.flange_a);
  connect(sine.y, force.f);
  connect(force.flange, mass.flange_b);
  annotation(experiment(StopTime=1));
end Stiff;
EOF
"$FLANGE" simulate "$T/stiff.mo" --tolerance 0.01 --no-contact-events --energy -o "$T/stiff.csv" > "$T/stiff.out" 2> "$T/stiff.err"; rc=$?
[ $rc = 0 ] && ok "open balance: the run itself succeeds" || bad "open balance: exit status $rc: $(cat "$T/stiff.err")"
grep -q "^warning: the energy balance does not close (drift [0-9.e+-]* of the throughput): the steps do not resolve the motion at this tolerance (contacts are stepped through: try with contact events)$" "$T/stiff.err" \
  && ok "open balance: the warning" || bad "open balance: warning: $(cat "$T/stiff.err")"
grep -q "; the energy balance does NOT close (worst drift [0-9.e+-]* of the throughput, see the warning).$" "$T/stiff.err" \
  && ! grep -q "closes to" "$T/stiff.err" \
  && ok "open balance: the summary says it does NOT close" || bad "open balance: summary: $(cat "$T/stiff.err")"
grep -q "^energy balance at t = 1: .*; the balance does NOT close$" "$T/stiff.out" \
  && ok "open balance: the --energy line says it does NOT close" || bad "open balance: --energy line: $(cat "$T/stiff.out")"

if [ $fails -ne 0 ]; then echo "$fails checks failed"; exit 1; fi
echo "all energy checks passed"
