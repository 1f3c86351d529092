#!/usr/bin/env bash
# Messages of models written as equations: located, about what the user
# wrote (der() of an acceleration signal, strings, force laws given twice
# or missing, unconnected inputs and joined outputs of user blocks, failed
# assertions and warnings, follow-up noise, unsupported types and
# functions, edge() of a Real, singular systems, start values used, argument
# counts), and a result without -0.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# ---- der() of an input whose source has no derivative (an acceleration
# sensor): a structural error at the equation; today the run starts and
# stops with "error: the solution is not finite at t = 0: b.y = nan"
model deracc <<'EOF'
model DerAcc
  block D
    extends Modelica.Blocks.Interfaces.SISO;
  equation
    y = der(u);
  end D;
  D b;
  Modelica.Mechanics.Translational.Components.Fixed fixed;
  Modelica.Mechanics.Translational.Components.Spring spring(c = 10);
  Modelica.Mechanics.Translational.Components.Mass mass(m = 1, s(start = 1, fixed = true), v(fixed = true));
  Modelica.Mechanics.Translational.Sensors.AccSensor acc;
equation
  connect(fixed.flange, spring.flange_a);
  connect(spring.flange_b, mass.flange_a);
  connect(mass.flange_b, acc.flange);
  connect(acc.a, b.u);
end DerAcc;
EOF
expect_re deracc 1 -- "^deracc\.mo:7:5: error: b: the equations need the first derivative of b\.u, which comes from acc\.a"

# ---- der(der(x)): an auxiliary variable der(x) stands for the inner
# derivative: x = sin t, y = der(der(x)) = -sin t
model derder <<'EOF'
model DerDer
  Real x(start = 0, fixed = true);
  Real v(start = 1, fixed = true);
  Real y;
equation
  der(x) = v;
  der(v) = -x;
  y = der(der(x));
  annotation(experiment(StopTime = 2));
end DerDer;
EOF
sim derder --tolerance 1e-10 && values "der(der(x))" derder <<'PY'
near(worst("y", lambda t: -math.sin(t)), 0, 1e-7, "worst error of y")
PY

# ---- a string in an if-expression of an equation: located and about
# strings (today "error: the model: an equation uses a function whose
# derivative flange cannot form (second derivatives of functions)")
model strif <<'EOF'
model StrIf
  Real x(start = 0, fixed = true);
  Real y;
equation
  der(x) = 1;
  y = if x > 1 then "a" else "b";
end StrIf;
EOF
expect_re strif 1 -- "^strif\.mo:6:[0-9]+: error: .*string"

# ---- a user force law given twice: over-determined, at the user's second
# equation (today "under-determined ... nothing determines (generalized
# force 1)" located in flange's bundled Interfaces text)
model twolaws <<'EOF'
model TwoLaws
  model Bad
    extends Modelica.Mechanics.Translational.Interfaces.PartialCompliant;
  equation
    f = 10*s_rel;
    f = 20*s_rel;
  end Bad;
  Bad bad;
  Modelica.Mechanics.Translational.Components.Mass m1(m = 1);
  Modelica.Mechanics.Translational.Components.Fixed fixed;
equation
  connect(fixed.flange, bad.flange_a);
  connect(bad.flange_b, m1.flange_a);
end TwoLaws;
EOF
expect_re twolaws 1 -- "^twolaws\.mo:8:7: error: bad: the equations are over-determined: 5 equations for 6 variables"

# ---- a missing force equation of a two-flange component names the flange
# forces (today "nothing determines (generalized force 1)")
model noforce <<'EOF'
model NoForce
  model Bad
    extends Modelica.Mechanics.Translational.Interfaces.PartialTwoFlanges;
  equation
    flange_b.s = flange_a.s + 1;
  end Bad;
  Bad bad;
  Modelica.Mechanics.Translational.Components.Mass m1(m = 1), m2(m = 1);
equation
  connect(m1.flange_b, bad.flange_a);
  connect(bad.flange_b, m2.flange_a);
end NoForce;
EOF
expect_re noforce 1 -- "^noforce\.mo:[0-9]+:[0-9]+: error: bad: the equations are under-determined.*flange_[ab]\.f"

# ---- signal connections of user blocks, worded as for built-in blocks
# ("input force.f is not connected to any signal source", "outputs c1.y and
# c2.y are connected to each other"); today an unconnected input is located
# in flange's bundled Blocks.Interfaces text, and two outputs on one input
# say "s1: this equation determines no variable (it holds anyway: remove
# it) (as 0 = 0)"
model unconnected <<'EOF'
model Unconnected
  block B
    extends Modelica.Blocks.Interfaces.SISO;
  equation
    y = 2*u;
  end B;
  B b;
end Unconnected;
EOF
expect_re unconnected 1 -- "^unconnected\.mo:7:[0-9]+: error: input b\.u is not connected to any signal source$"

model twooutputs <<'EOF'
model TwoOutputs
  block S
    extends Modelica.Blocks.Interfaces.SO;
  equation
    y = time;
  end S;
  block B
    extends Modelica.Blocks.Interfaces.SISO;
  equation
    y = 2*u;
  end B;
  S s1;
  S s2;
  B b;
equation
  connect(s1.y, b.u);
  connect(s2.y, b.u);
end TwoOutputs;
EOF
expect_re twooutputs 1 -- "^twooutputs\.mo:[0-9]+:[0-9]+: error: outputs s1\.y and s2\.y are connected to each other$"

# ---- a failed assert() of an equation: the message starts with its place
# (today "error: at t = 0.5: the equations of the model: assertion.mo:5:3:
# assertion failed: x went beyond 0.5")
model assertion <<'EOF'
model Assertion
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  assert(x < 0.5, "x went beyond 0.5");
  annotation(experiment(StopTime = 1));
end Assertion;
EOF
expect_re assertion 1 -- "^assertion\.mo:5:3: error: .*t = 0\.5.*x went beyond 0\.5$"

# ---- assert(..., AssertionLevel.warning): a warning, the run goes on
# (today "unknown name 'AssertionLevel.warning'")
model warnlevel <<'EOF'
model WarnLevel
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  assert(x < 0.5, "x is large", AssertionLevel.warning);
  annotation(experiment(StopTime = 1));
end WarnLevel;
EOF
expect_re warnlevel 0 -- "^warnlevel\.mo:5:3: warning: .*x is large"

# ---- no follow-up errors after a declaration in error (today also
# "arr3.mo:4:3: error: unknown name 'a'")
model arr3 <<'EOF'
model Arr3
  Real a[2, 2, 2];
equation
  a = zeros(2, 2, 2);
end Arr3;
EOF
expect arr3 1 -- "arr3.mo:2:3: error: arrays of more than two dimensions are not supported ('a')"

# ---- String variables and delay(): not supported, rather than "unknown
# component type 'String'; did you mean '...Spring'?" and "unknown function
# 'delay'"
model strvar <<'EOF'
model StrVar
  String s;
end StrVar;
EOF
expect_re strvar 1 -- "^strvar\.mo:2:3: error: .*String.*not supported"
model delay <<'EOF'
model Delay
  Real y;
equation
  y = delay(time, 0.1);
end Delay;
EOF
expect_re delay 1 -- "^delay\.mo:4:7: error: .*delay.*not supported"

# ---- edge() of a Real is an error (today accepted; it never fires)
model edgereal <<'EOF'
model EdgeReal
  Real x(start = 0, fixed = true);
  discrete Real z(start = 0);
equation
  der(x) = 1;
  when edge(x) then
    z = 1;
  end when;
end EdgeReal;
EOF
expect_re edgereal 1 -- "^edgereal\.mo:6:[0-9]+: error: .*edge"

# ---- a singular system names the variable where it is declared (today z
# at y's place, 2:8)
model singular <<'EOF'
model Singular
  Real y;
  Real z;
equation
  y + z = 1;
  2*y + 2*z = 3;
end Singular;
EOF
expect_re singular 1 -- "^singular\.mo:3:8: error: .*\bz\b"

# ---- the warning of a start value used for an under-determined initial
# condition is located at that variable (today v's warning points at x, 2:8)
model underinit <<'EOF'
model UnderInit
  Real x(start = 3);
  Real v;
equation
  der(x) = v;
  der(v) = -x;
  annotation(experiment(StopTime = 1));
end UnderInit;
EOF
expect underinit 0 -- "underinit.mo:2:8: warning: initial conditions are under-determined: using the start value of x (= 3)
underinit.mo:3:8: warning: initial conditions are under-determined: using the start value of v (= 0)"

# ---- argument counts of built-in functions in plain words (today "sin()
# takes 1 to 1 arguments, not 2")
model sinargs <<'EOF'
model SinArgs
  Real y;
equation
  y = sin(time, 2);
end SinArgs;
EOF
expect sinargs 1 -- "sinargs.mo:4:7: error: sin() takes 1 argument, not 2"

# ---- an exact zero is written as 0, not -0
model negzero <<'EOF'
model NegZero
  Real x(start = 0, fixed = true);
  Real y;
equation
  der(x) = 1;
  if x > 0.5 then
    y = 1;
  else
    y = 0;
  end if;
  annotation(experiment(StopTime = 1, Interval = 0.25));
end NegZero;
EOF
sim negzero && { grep -q -- '-0\(,\|$\)' "$T/negzero.csv" && { bad "-0 in the result"; cat "$T/negzero.csv"; } || ok "no -0 in the result"; }

exit $((fails > 0))
