#!/usr/bin/env bash
# The simulate, check and components commands as a user runs them: variable
# selection, experiment overrides, parameter overrides, packages, the default
# output name, and the texts of check and components.
. "$(dirname "$0")/../lib/cli.sh"
EX="$FLANGE_SRC/examples/msl"

# --vars, --stop, --interval: header and row count
"$FLANGE" simulate "$EX/Oscillator.mo" -o "$T/o.csv" --vars 'mass1.s,mass1.v,sine1.y' --stop 0.5 --interval 0.01 --quiet
hdr=$(head -n 1 "$T/o.csv")
rows=$(($(wc -l < "$T/o.csv") - 1))
[ "$hdr" = "time,mass1.s,mass1.v,sine1.y" ] && ok "vars header" || bad "vars header: $hdr"
[ "$rows" = 51 ] && ok "rows on the interval grid" || bad "rows: $rows"
last=$(tail -n 1 "$T/o.csv" | cut -d, -f1)
[ "$last" = "0.5" ] && ok "stop time" || bad "last time $last"

# glob patterns: '*' stays within a name component, '**' crosses them
"$FLANGE" simulate "$EX/Sensors.mo" -o "$T/s.csv" --vars '*Sensor*.s,mass.?' --quiet
hdr=$(head -n 1 "$T/s.csv")
[ "$hdr" = "time,positionSensor1.s,positionSensor2.s,mass.s,mass.v,mass.a" ] && ok "glob selection" || bad "glob header: $hdr"
"$FLANGE" simulate "$EX/Sensors.mo" -o "$T/s2.csv" --vars 'mass.**.f' --quiet
hdr=$(head -n 1 "$T/s2.csv")
[ "$hdr" = "time,mass.flange_a.f,mass.flange_b.f" ] && ok "glob **" || bad "glob ** header: $hdr"

# every variable by default, with Modelica names
"$FLANGE" simulate "$EX/Sensors.mo" -o "$T/all.csv" --quiet
hdr=$(head -n 1 "$T/all.csv")
for v in time mass.s mass.v mass.a mass.flange_a.f forceSensor.f multiSensor.power accSensor1.a speedSensor1.v sineForce.y force.f; do
  echo ",$hdr," | grep -q ",$v," || { bad "variable $v missing from the header"; }
done
ok "default variables"

# parameter override: a heavier mass moves less (s = t^2/(2m) under 1 N)
"$FLANGE" simulate "$EX/SignConvention.mo" -o "$T/p.csv" --param mass1.m=2 --vars 'mass1.s,mass2.s' --quiet
line=$(tail -n 1 "$T/p.csv")
awk -F, '{ exit !($2 > 0.2499 && $2 < 0.2501 && $3 > 0.4999 && $3 < 0.5001) }' <<< "$line" && ok "--param" || bad "--param: $line"

# --start shifts the grid
"$FLANGE" simulate "$EX/Accelerate.mo" -o "$T/a.csv" --start 0.5 --stop 1 --interval 0.25 --quiet
[ "$(cut -d, -f1 "$T/a.csv" | tr '\n' ' ')" = "time 0.5 0.75 1 " ] && ok "--start" || bad "--start: $(cut -d, -f1 "$T/a.csv" | tr '\n' ' ')"

# default output name: <model>.csv in the current directory
(cd "$T" && "$FLANGE" simulate "$EX/Damper.mo" --quiet) && [ -s "$T/Damper.csv" ] && ok "default output name" || bad "default output name"

# a package with several models: --model chooses one
cat > "$T/pkg.mo" <<'EOF'
package Demo
  model A
    Modelica.Mechanics.Translational.Components.Mass m(m=1, s(fixed=true), v(start=1, fixed=true));
    annotation(experiment(StopTime=2));
  end A;
  model B
    Modelica.Mechanics.Translational.Components.Mass m(m=1, s(fixed=true), v(start=2, fixed=true));
    annotation(experiment(StopTime=2));
  end B;
end Demo;
EOF
"$FLANGE" simulate "$T/pkg.mo" -o "$T/b.csv" --model B --vars m.s --quiet && [ "$(tail -n 1 "$T/b.csv")" = "2,4" ] && ok "--model" || bad "--model: $(tail -n 1 "$T/b.csv")"
"$FLANGE" simulate "$T/pkg.mo" -o "$T/x.csv" 2> "$T/x.err"; rc=$?
[ $rc = 1 ] && grep -q "choose one with --model NAME" "$T/x.err" && ok "several models need --model" || bad "several models ($rc)"

# check: flattened structure
"$FLANGE" check "$EX/Sensors.mo" > "$T/check.txt" || bad "check exit status"
for s in "model Sensors" "connection sets (" "{forceSensor.flange_a, force.flange}" "force.f <- sineForce.y" \
         "free, m = 1 kg" "unknowns (2; 2 differential)" "mass.s = 0" "linear solver: dense"; do
  grep -qF "$s" "$T/check.txt" || bad "check output lacks '$s'"
done
ok "check"

# components: every class with ports and parameters, the C classes and
# those written in Modelica (src/model/msl; a port a final modifier removes
# is not listed)
"$FLANGE" components > "$T/comp.txt"
for s in "Modelica.Mechanics.Translational.Components.Mass" "parameter Real m = 1 (start value) [kg]" \
         "Modelica.Blocks.Sources.CombiTimeTable" "ports: flange (flange), support (flange if useSupport), f (input)" \
         "Modelica.Mechanics.Translational.Sensors.MultiSensor" \
         "Modelica.Mechanics.Translational.Components.GeneralForceToPositionAdaptor" \
         "ports: p (output), pder (output if use_pder), pder2 (output if (use_pder and use_pder2)), f (input), flange (flange)"; do
  grep -qF "$s" "$T/comp.txt" || bad "components output lacks '$s'"
done
ok "components"

# --version and --help
"$FLANGE" --version | grep -q "^flange [0-9]" && ok "--version" || bad "--version"
"$FLANGE" simulate --help | grep -q "usage: flange simulate" && ok "simulate --help" || bad "simulate --help"

if [ $fails -ne 0 ]; then echo "$fails checks failed"; exit 1; fi
echo "all simulate/check/components checks passed"

# two time events a rounding error apart (a Ramp ending at 0.2 + 0.4, a
# Trapezoid corner at 2 * 0.3) are one event: the run goes through, and the
# mass under the ramp force F = 7.5 (t - 0.2) N, then 3 N, has at t = 1
# v = 3.75 * 0.4^2 + 3 * 0.4 = 1.8 m/s, s = 1.25 * 0.4^3 + 0.6 * 0.4 + 1.5 * 0.4^2 = 0.56 m
"$FLANGE" simulate "$FLANGE_SRC/tests/fuzz/regressions/ramp_trapezoid_time_events.mo" -o "$T/rt.csv" \
  --vars m1.s,m1.v --tolerance 1e-10 --quiet && line=$(tail -n 1 "$T/rt.csv") &&
  awk -F, '{ exit !($1 == 1 && $2 > 0.5599999 && $2 < 0.5600001 && $3 > 1.7999999 && $3 < 1.8000001) }' <<< "$line" &&
  ok "time events a rounding error apart" || bad "time events a rounding error apart: ${line:-failed}"
