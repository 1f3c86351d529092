#!/usr/bin/env bash
# Hard stops from the command line: the energy audit (--energy) on every
# hard-stop example at rtol 1e-8, energy variables on request,
# --no-contact-events, and a stiff contact that cannot be stepped through
# failing with a clear message and no output file.
. "$(dirname "$0")/../lib/cli.sh"
EX="$FLANGE_SRC/examples"

# the energy balance closes to 1e-6 of the throughput at rtol 1e-8
for m in "$EX/hardstop_hysteresis.mo" "$EX/msl/ElastoGap.mo" "$EX/msl/PreLoad.mo"; do
  name=$(basename "$m" .mo)
  if ! "$FLANGE" simulate "$m" --tolerance 1e-8 --energy -o "$T/$name.csv" --quiet > "$T/$name.txt"; then
    bad "$name: simulate failed"
    continue
  fi
  drift=$(grep -o '= [0-9.e+-]* of the throughput' "$T/$name.txt" | cut -d' ' -f2)
  if [ -n "$drift" ] && awk -v d="$drift" 'BEGIN { exit !(d <= 1e-6) }'; then
    ok "$name: energy drift $drift of the throughput"
  else
    bad "$name: energy drift '$drift': $(cat "$T/$name.txt")"
  fi
done

# the report: kinetic + stored + dissipated - work of sources
grep -q "^energy balance at t = 12.5664: kinetic .* J + stored .* J + dissipated .* J (of which impacts 0 J) - work of sources .* J; worst drift" \
  "$T/hardstop_hysteresis.txt" && ok "energy report" || bad "energy report: $(cat "$T/hardstop_hysteresis.txt")"

# energy totals in the CSV when the audit is on (--energy), never otherwise
"$FLANGE" simulate "$EX/hardstop_hysteresis.mo" -o "$T/plain.csv" --quiet
case ",$(head -n 1 "$T/plain.csv")," in *,energy.*) bad "energy variables without --energy" ;; *) ok "no energy variables without --energy" ;; esac
case ",$(head -n 1 "$T/hardstop_hysteresis.csv")," in *,energy.drift,*) ok "energy variables with --energy" ;; *) bad "energy variables missing with --energy" ;; esac
"$FLANGE" simulate "$EX/hardstop_hysteresis.mo" --energy --vars 'energy.*,hardStop.lossPower,damper.lossPower' \
  -o "$T/e.csv" --quiet > /dev/null
hdr=$(head -n 1 "$T/e.csv")
[ "$hdr" = "time,hardStop.lossPower,damper.lossPower,energy.kinetic,energy.potential,energy.dissipated,energy.work,energy.drift" ] \
  && ok "energy variables chosen with --vars" || bad "energy header: $hdr"
# kinetic + potential + dissipated - work stays the initial energy (body1 starts at 0.5 m/s: 0.125 J)
awk -F, 'NR == 2 { e0 = $4 + $5 + $6 - $7 }
         NR > 1 { b = $4 + $5 + $6 - $7 - e0; if (b < 0) b = -b; if (b > m) m = b }
         END { exit !(e0 > 0.12499 && e0 < 0.12501 && m < 1e-4) }' "$T/e.csv" \
  && ok "energy columns balance" || bad "energy columns do not balance"

# stepping through compliant contacts: same loop, no state events
"$FLANGE" simulate "$EX/hardstop_hysteresis.mo" --no-contact-events --vars body2.s -o "$T/n.csv" 2> "$T/n.err"
grep -q " 0 state events" "$T/n.err" && ok "--no-contact-events: no state events" || bad "--no-contact-events: $(cat "$T/n.err")"
awk -F, 'NR > 1 && $1 > 6.3 { if ($2 > hi) hi = $2; if ($2 < lo) lo = $2 }
         END { exit !(hi > 0.4022 && hi < 0.4028 && lo < -0.4022 && lo > -0.4028) }' "$T/n.csv" \
  && ok "--no-contact-events: the loop's travel" || bad "--no-contact-events: travel of body2"

# the default 1e10 stop cannot be stepped through at a tight tolerance
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
"$FLANGE" simulate "$T/stiff.mo" --tolerance 1e-8 --no-contact-events -o "$T/stiff.csv" 2> "$T/stiff.err"; rc=$?
[ $rc = 1 ] && grep -q "error: the solver cannot advance at t = 0.09.* in mass.s: its steps fell below the resolution of time" "$T/stiff.err" \
  && grep -q "locate the contacts as events" "$T/stiff.err" && [ ! -e "$T/stiff.csv" ] \
  && ok "stiff contact without events: clear failure, no output" || bad "stiff without events ($rc): $(cat "$T/stiff.err")"
# with events it runs, and the mass never gets more than ~1e-9 m into a face
"$FLANGE" simulate "$T/stiff.mo" --tolerance 1e-8 --vars hs.s_rel -o "$T/stiff.csv" --quiet \
  && awk -F, 'NR > 1 { a = $2 < 0 ? -$2 : $2; if (a > m) m = a } END { exit !(m > 0.0999 && m < 0.1 + 1e-9) }' "$T/stiff.csv" \
  && ok "stiff contact with events" || bad "stiff contact with events"

if [ $fails -ne 0 ]; then echo "$fails checks failed"; exit 1; fi
echo "all contact checks passed"
