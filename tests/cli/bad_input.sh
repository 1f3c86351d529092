#!/usr/bin/env bash
# Every class of bad input gets a clear message (file:line:column where there
# is one) and a non-zero exit status, and never leaves an output file behind.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0

# expect NAME EXPECTED_STATUS "message fragment" [more fragments...] -- MODEL_TEXT
# runs `flange simulate` on the model and checks status, stderr and that no CSV appears
expect() {
  local name=$1 status=$2; shift 2
  local frags=()
  while [ "$1" != "--" ]; do frags+=("$1"); shift; done
  shift
  printf '%s\n' "$1" > "$T/$name.mo"
  "$FLANGE" simulate "$T/$name.mo" -o "$T/$name.csv" --quiet 2> "$T/$name.err" >/dev/null
  local rc=$?
  if [ "$rc" != "$status" ]; then
    echo "FAIL $name: exit status $rc, expected $status"; cat "$T/$name.err"; fails=$((fails+1)); return
  fi
  for f in "${frags[@]}"; do
    if ! grep -qF -- "$f" "$T/$name.err"; then
      echo "FAIL $name: message lacks '$f':"; cat "$T/$name.err"; fails=$((fails+1)); return
    fi
  done
  if ls "$T/$name".csv* >/dev/null 2>&1; then
    echo "FAIL $name: an output file was left behind"; ls "$T"; fails=$((fails+1)); return
  fi
  echo "ok   $name"
}

MTC=Modelica.Mechanics.Translational.Components
MTS=Modelica.Mechanics.Translational.Sources

# a dotted name longer than the parser's scratch buffer comes through whole
LONG=$(printf 'Abcdefghij.%.0s' $(seq 29))Abcdefghij
expect long_name 1 "long_name.mo:2:3: error: unknown component type '$LONG'" -- "model M
  $LONG x;
end M;"

expect syntax 1 "syntax.mo:3:52: error: syntax error: expected a component name, found '('" -- "model M
  $MTC.Mass m1(m=1);
  $MTC.Mass (m2;
end M;"

expect empty_modifier 1 "empty_modifier.mo:2:55: error: syntax error: expected a modifier name, found ','" -- "model M
  $MTC.Mass m1(, s(fixed=true), v(fixed=true));
end M;"

expect modified_twice 1 "modified_twice.mo:2:60: error: 'm' is modified twice (first at 2:55)" -- "model M
  $MTC.Mass m1(m=1, m=2, s(fixed=true), v(fixed=true));
end M;"

expect attribute_twice 1 "attribute_twice.mo:2:79: error: 's.start' is modified twice (first at 2:57)" -- "model M
  $MTC.Mass m1(s(start=1, fixed=true), s.start=2, v(fixed=true));
end M;"

expect unterminated_string 1 "unterminated_string.mo:1:9: error: unterminated string" -- "model M \"doc
  $MTC.Mass m1(m=1);"

expect end_mismatch 1 "end_mismatch.mo:3:5: error: 'end N' does not match" -- "model M
  $MTC.Mass m1(m=1);
end N;"

expect unknown_type 1 "unknown_type.mo:2:3: error:" "'$MTC.Massive'" -- "model M
  $MTC.Massive m1(m=1);
end M;"

expect unknown_param 1 "unknown_param.mo:2:75:" "m1 ($MTC.Mass) has no parameter 'mass'" -- "model M
  $MTC.Mass m1(m=1, s(fixed=true), mass=3, v(fixed=true));
end M;"

expect unknown_connector 1 "unknown_connector.mo:5:11:" "m1 has no connector 'flange_c'" -- "model M
  $MTC.Mass m1(m=1, s(fixed=true), v(fixed=true));
  $MTC.Fixed fixed;
equation
  connect(m1.flange_c, fixed.flange);
end M;"

expect flange_to_signal 1 "flange_to_signal.mo:6:3:" "cannot connect flange m1.flange_a to signal sine.y" -- "model M
  $MTC.Mass m1(m=1, s(fixed=true), v(fixed=true));
  Modelica.Blocks.Sources.Sine sine(f=1);
  $MTS.Force force;
equation
  connect(m1.flange_a, sine.y);
end M;"

expect duplicate 1 "duplicate.mo:3:" "duplicate declaration of 'm1'" -- "model M
  $MTC.Mass m1(m=1);
  $MTC.Spring m1(c=1);
end M;"

expect negative_mass 1 "negative_mass.mo:2:55: error: m1.m = -2 is invalid: it must be >= 0" -- "model M
  $MTC.Mass m1(m=-2, s(fixed=true), v(fixed=true));
end M;"

expect negative_damping 1 "d.d = -1 is invalid: it must be >= 0" -- "model M
  $MTC.Damper d(d=-1);
  $MTC.Fixed f;
equation
  connect(f.flange, d.flange_a);
end M;"

expect missing_value 1 "missing_value.mo:2:18: error: parameter 'k' has no value" -- "model M
  parameter Real k;
  $MTC.Mass m1(m=k, s(fixed=true), v(fixed=true));
end M;"

expect unsupported_algorithm 1 "unsupported_algorithm.mo:4:1: error: algorithm sections in models are not supported (write equations, or call a function from an equation)" -- "model M
  $MTC.Mass m1(m=1, s(fixed=true), v(fixed=true));
  Real x;
algorithm
  x := m1.s;
end M;"

# numerically singular: the free end of the spring cannot balance the force
expect singular 1 "the initialisation problem is singular" -- "model M
  $MTS.ConstantForce force(f_constant=1);
  $MTC.Spring spring(c=1);
  $MTC.Fixed fixed;
  $MTC.Damper dummy(d=1);
equation
  connect(force.flange, spring.flange_b);
  connect(fixed.flange, dummy.flange_a);
  connect(fixed.flange, dummy.flange_b);
end M;"

# a massless rod pushed by a force and held by nothing (a Mass with m = 0
# gets its own message: tests/cli/bad_input_model.sh)
expect singular_free_node 1 "structurally singular" "the position of {rod.flange_a, force.flange}" -- "model M
  $MTC.Rod rod(L=1);
  $MTS.ConstantForce force(f_constant=1);
equation
  connect(force.flange, rod.flange_a);
end M;"

# under-determined initial conditions: as Modelica tools do, the start values
# of m2.s and m2.v complete them, with a warning each; --strict-init refuses
printf 'model M\n  %s.Mass m1(m=1, s(fixed=true), v(fixed=true));\n  %s.Mass m2(m=1);\n  %s.Spring sp(c=10);\nequation\n  connect(m1.flange_b, sp.flange_a);\n  connect(sp.flange_b, m2.flange_a);\nend M;\n' "$MTC" "$MTC" "$MTC" > "$T/under.mo"
"$FLANGE" simulate "$T/under.mo" -o "$T/under.csv" --quiet 2> "$T/under.err"; rc=$?
printf '%s\n' "$T/under.mo:3:52: warning: initial conditions are under-determined: using the start value of m2.s (= 0)" \
  "$T/under.mo:3:52: warning: initial conditions are under-determined: using the start value of m2.v (= 0)" > "$T/under.want"
[ $rc = 0 ] && diff "$T/under.want" "$T/under.err" && [ -f "$T/under.csv" ] && echo "ok   underdetermined" || { echo "FAIL underdetermined ($rc)"; cat "$T/under.err"; fails=$((fails+1)); }
"$FLANGE" simulate "$T/under.mo" -o "$T/under_strict.csv" --quiet --strict-init 2> "$T/under_strict.err"; rc=$?
echo "$T/under.mo:3:52: error: initial conditions are under-determined: 2 more needed; nothing fixes m2.s, m2.v; set fixed = true (and a start value) on some of: m2.s, sp.s_rel, m2.v" > "$T/under_strict.want"
[ $rc = 1 ] && diff "$T/under_strict.want" "$T/under_strict.err" && [ ! -e "$T/under_strict.csv" ] && echo "ok   underdetermined_strict" || { echo "FAIL underdetermined_strict ($rc)"; cat "$T/under_strict.err"; fails=$((fails+1)); }

expect overdetermined 1 "initial conditions are over-determined" "sp.s_rel" -- "model M
  $MTC.Mass m1(m=1, s(fixed=true), v(fixed=true));
  $MTC.Mass m2(m=1, s(start=2, fixed=true), v(fixed=true));
  $MTC.Spring sp(c=10, s_rel(start=1, fixed=true));
equation
  connect(m1.flange_b, sp.flange_a);
  connect(sp.flange_b, m2.flange_a);
end M;"

expect fixed_to_ground 1 "m1.s is fixed, but it is already determined" -- "model M
  $MTC.Mass m1(m=1, s(start=1, fixed=true));
  $MTC.Fixed fixed;
equation
  connect(fixed.flange, m1.flange_a);
end M;"

expect rigid_loop 1 "closes a loop of rigid connections" -- "model M
  $MTC.Rod r1(L=1);
  $MTC.Rod r2(L=1);
  $MTC.Fixed fixed;
equation
  connect(fixed.flange, r1.flange_a);
  connect(fixed.flange, r2.flange_a);
  connect(r1.flange_b, r2.flange_b);
end M;"

expect unconnected_input 1 "input force.f is not connected" -- "model M
  $MTC.Mass m1(m=1, s(fixed=true), v(fixed=true));
  $MTS.Force force;
equation
  connect(force.flange, m1.flange_a);
end M;"

# a runaway (positive velocity feedback, e^(1000 t)) overflows: the solver
# reports the time and the component where the solution blows up
expect solver_failure 1 "the solver failed at t = 0." "in m1" -- "model M
  $MTC.Mass m1(m=1, s(fixed=true), v(start=1, fixed=true));
  $MTS.LinearSpeedDependentForce push(f_nominal=1000, v_nominal=1, ForceDirection=false);
equation
  connect(push.flange, m1.flange_a);
  annotation(experiment(StopTime=2));
end M;"

expect bad_experiment 1 "StopTime (0) must be greater than StartTime" -- "model M
  $MTC.Mass m1(m=1, s(fixed=true), v(fixed=true));
  annotation(experiment(StopTime=0));
end M;"

# command-line usage errors: status 2
"$FLANGE" simulate 2> "$T/u1.err"; [ $? = 2 ] && grep -q "no model file given" "$T/u1.err" && echo "ok   usage_no_file" || { echo "FAIL usage_no_file"; fails=$((fails+1)); }
"$FLANGE" simulate x.mo --frobnicate 2> "$T/u2.err"; [ $? = 2 ] && grep -q "unknown option '--frobnicate'" "$T/u2.err" && echo "ok   usage_option" || { echo "FAIL usage_option"; fails=$((fails+1)); }
"$FLANGE" simulate x.mo --stop abc 2> "$T/u3.err"; [ $? = 2 ] && grep -q -- "--stop needs a number" "$T/u3.err" && echo "ok   usage_number" || { echo "FAIL usage_number"; fails=$((fails+1)); }
"$FLANGE" simulate "$T/nonexistent.mo" 2> "$T/u4.err"; [ $? = 1 ] && grep -q "cannot open $T/nonexistent.mo: No such file" "$T/u4.err" && echo "ok   missing_file" || { echo "FAIL missing_file"; cat "$T/u4.err"; fails=$((fails+1)); }
mkdir -p "$T/adir.mo"
"$FLANGE" simulate "$T/adir.mo" 2> "$T/u5.err"; [ $? = 1 ] && grep -qx "error: $T/adir.mo is a directory, not a model file" "$T/u5.err" && echo "ok   directory" || { echo "FAIL directory"; cat "$T/u5.err"; fails=$((fails+1)); }
"$FLANGE" frobnicate 2> "$T/u5.err"; [ $? = 2 ] && grep -q "unknown command 'frobnicate'" "$T/u5.err" && echo "ok   unknown_command" || { echo "FAIL unknown_command"; fails=$((fails+1)); }

# a bad --param value is located on the command line
printf 'model M\n  %s.Mass m1(m=1, s(fixed=true), v(fixed=true));\nend M;\n' "$MTC" > "$T/p.mo"
"$FLANGE" simulate "$T/p.mo" -o "$T/p.csv" --param m1.m=-3 2> "$T/p.err"; rc=$?
[ $rc = 1 ] && grep -q "m1.m = -3 is invalid" "$T/p.err" && echo "ok   bad_param_override" || { echo "FAIL bad_param_override ($rc)"; cat "$T/p.err"; fails=$((fails+1)); }
"$FLANGE" simulate "$T/p.mo" -o "$T/p.csv" --param m1.q=1 2> "$T/p2.err"; rc=$?
[ $rc = 1 ] && grep -q "has no parameter 'q'" "$T/p2.err" && echo "ok   unknown_param_override" || { echo "FAIL unknown_param_override ($rc)"; cat "$T/p2.err"; fails=$((fails+1)); }
"$FLANGE" simulate "$T/p.mo" -o "$T/p.csv" --vars 'nothing*' 2> "$T/p3.err"; rc=$?
[ $rc = 1 ] && grep -q "no variable matches 'nothing\*'" "$T/p3.err" && [ ! -e "$T/p.csv" ] && echo "ok   bad_vars" || { echo "FAIL bad_vars ($rc)"; cat "$T/p3.err"; fails=$((fails+1)); }
"$FLANGE" simulate "$T/p.mo" -o "$T/nodir/p.csv" 2> "$T/p4.err"; rc=$?
[ $rc = 1 ] && grep -q "cannot create $T/nodir/p.csv" "$T/p4.err" && echo "ok   unwritable_output" || { echo "FAIL unwritable_output ($rc)"; cat "$T/p4.err"; fails=$((fails+1)); }

if [ $fails -ne 0 ]; then echo "$fails bad-input checks failed"; exit 1; fi
echo "all bad-input checks passed"
