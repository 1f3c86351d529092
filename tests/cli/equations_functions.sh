#!/usr/bin/env bash
# User functions in models written as equations (issue 11): inputs with
# defaults, outputs, protected locals, :=, if, for, while, return, Integer
# and array arguments and results, recursion, calls from equations (also
# where the equation must be solved for the function's argument, which needs
# its derivative) and from parameter bindings, tuple equations, functions
# called inside user components. Closed forms throughout.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# ---- algorithms: sqrt by Newton's iteration (while, if, return, a
# protected counter), Horner's rule (for over a reversed range, an output
# with a binding, an open array input), a recursive factorial, an Integer
# division with two outputs, an array result.
#   x' = -newtonSqrt(x), x(0) = 1       =>  x = (1 - t/2)^2
#   p = poly({1, 2, 3}, t)              =  1 + 2t + 3t^2
#   r2 = newtonSqrt(2), f5 = fact(5)    =  1.41421356..., 120 (parameter bindings)
#   (q, r) = divmod(17, 5)              =  (3, 2)
#   u = unit(time)                      =  {cos t, sin t}
model algorithms <<'EOF'
model Algorithms
  function newtonSqrt "sqrt by Newton's iteration"
    input Real x;
    output Real y;
  protected
    Integer n = 0;
  algorithm
    if x <= 0 then
      y := 0;
      return;
    end if;
    y := max(x, 1);
    while abs(y*y - x) > 1e-15*x and n < 100 loop
      y := (y + x/y)/2;
      n := n + 1;
    end while;
  end newtonSqrt;
  function poly "sum of c[i] x^(i-1) by Horner's rule"
    input Real c[:];
    input Real x;
    output Real p = 0;
  algorithm
    for i in size(c, 1):-1:1 loop
      p := p*x + c[i];
    end for;
  end poly;
  function fact
    input Integer n;
    output Integer f;
  algorithm
    if n <= 1 then
      f := 1;
    else
      f := n*fact(n - 1);
    end if;
  end fact;
  function divmod
    input Integer a;
    input Integer b;
    output Integer q;
    output Integer r;
  algorithm
    q := div(a, b);
    r := a - q*b;
  end divmod;
  function unit "the unit vector at angle phi"
    input Real phi;
    output Real u[2];
  algorithm
    u := {cos(phi), sin(phi)};
  end unit;
  parameter Real c[3] = {1, 2, 3};
  parameter Real r2 = newtonSqrt(2);
  parameter Integer f5 = fact(5);
  Real x(start = 1, fixed = true);
  Real p;
  Real s2;
  Real s5;
  Real q, r;
  Real u[2];
equation
  der(x) = -newtonSqrt(x);
  p = poly(c, time);
  s2 = r2;
  s5 = f5;
  (q, r) = divmod(17, 5);
  u = unit(time);
  annotation(experiment(StopTime = 1));
end Algorithms;
EOF
sim algorithms --tolerance 1e-10 && values "functions: while, if, return, for, recursion, two outputs, array result" algorithms <<'PY'
near(worst("x", lambda t: (1 - t/2)**2), 0, 1e-8, "worst error of x")
near(worst("p", lambda t: 1 + 2*t + 3*t*t), 0, 1e-11, "worst error of p")
near(worst("s2", lambda t: math.sqrt(2)), 0, 1e-11, "newtonSqrt(2) in a parameter binding")
near(worst("s5", lambda t: 120), 0, 0, "fact(5) in a parameter binding")
near(worst("q", lambda t: 3), 0, 0, "q")
near(worst("r", lambda t: 2), 0, 0, "r")
near(worst("u[1]", math.cos), 0, 1e-11, "u[1]")
near(worst("u[2]", math.sin), 0, 1e-11, "u[2]")
PY

# ---- equations solved for the argument of a function: the solver needs
# the function's derivative (forward mode through the algorithm, also
# through the while loop):
#   newtonSqrt(y) = 1 + t  =>  y = (1 + t)^2
#   z + z^3 = t (in a function)  =>  z = cbrt(t/2 + sqrt(t^2/4 + 1/27)) + cbrt(t/2 - sqrt(t^2/4 + 1/27))
model implicit <<'EOF'
model Implicit
  function newtonSqrt
    input Real x;
    output Real y;
  protected
    Integer n = 0;
  algorithm
    y := max(x, 1);
    while abs(y*y - x) > 1e-15*x and n < 100 loop
      y := (y + x/y)/2;
      n := n + 1;
    end while;
  end newtonSqrt;
  function cubic
    input Real y;
    output Real r;
  algorithm
    r := y + y^3;
  end cubic;
  Real y(start = 1);
  Real z(start = 0.5);
equation
  newtonSqrt(y) = 1 + time;
  cubic(z) = time;
  annotation(experiment(StopTime = 1, Interval = 0.05));
end Implicit;
EOF
sim implicit --tolerance 1e-10 && values "equations solved through functions (derivatives of algorithms)" implicit <<'PY'
cbrt = lambda a: math.copysign(abs(a)**(1/3), a)
def z(t):
    d = math.sqrt(t*t/4 + 1/27)
    return cbrt(t/2 + d) + cbrt(t/2 - d)
near(worst("y", lambda t: (1 + t)**2), 0, 1e-10, "worst error of y")
near(worst("z", z), 0, 1e-10, "worst error of z")
PY

# ---- a function inside a user component, with named arguments and a
# default: a 1 kg mass between two user springs, one linear (c = 50 through
# the default k) and one written with a cubic term that is zero (c3 = 0):
# the mass oscillates at w = sqrt(100) from 0.1: s = 0.1 cos 10t
model incomponent <<'EOF'
model InComponent
  function springForce
    input Real s;
    input Real k = 50;
    input Real k3 = 0;
    output Real f;
  algorithm
    f := k*s + k3*s^3;
  end springForce;
  model FunSpring
    extends Modelica.Mechanics.Translational.Interfaces.PartialCompliant;
    parameter Real k3 = 0;
  equation
    f = springForce(s_rel, k3 = k3);
  end FunSpring;
  Modelica.Mechanics.Translational.Components.Fixed left;
  Modelica.Mechanics.Translational.Components.Fixed right(s0 = 0.2);
  FunSpring spring1;
  FunSpring spring2(k3 = 0);
  Modelica.Mechanics.Translational.Components.Mass mass(m = 1, s(start = 0.2, fixed = true), v(start = 0, fixed = true));
equation
  connect(left.flange, spring1.flange_a);
  connect(spring1.flange_b, mass.flange_a);
  connect(mass.flange_b, spring2.flange_a);
  connect(spring2.flange_b, right.flange);
  annotation(experiment(StopTime = 1));
end InComponent;
EOF
sim incomponent --tolerance 1e-10 && values "a function called in user components, named arguments, defaults" incomponent <<'PY'
near(worst("mass.s", lambda t: 0.1 + 0.1*math.cos(10*t)), 0, 1e-8, "worst error of mass.s")
near(max(abs(r["spring1.f"] - 50*r["spring1.s_rel"]) for r in rows), 0, 1e-10, "spring1.f = 50 s_rel")
PY

# ---- a function that fails while the model runs: its assert message
# reaches the user, and the run fails without a result
model fails <<'EOF'
model Fails
  function g
    input Real x;
    output Real y;
  algorithm
    assert(x < 1, "x must stay below 1");
    y := sqrt(1 - x);
  end g;
  Real x(start = 0, fixed = true);
equation
  der(x) = g(x) + 0.5;
  annotation(experiment(StopTime = 2));
end Fails;
EOF
"$FLANGE" simulate "$T/fails.mo" -o "$T/fails.csv" --quiet 2> "$T/fails.err"; rc=$?
if [ $rc = 1 ] && grep -qF "fails.mo:6:5: assertion failed in function 'Fails.g': x must stay below 1" "$T/fails.err" &&
   ! ls "$T"/fails.csv* > /dev/null 2>&1; then ok "a failing function stops the run with its message"
else bad "a failing function: exit status $rc"; cat "$T/fails.err"; fi

# ---- an endless loop in a function (a while whose counter never moves):
# the first evaluation that passes the loop limit stops the run with the
# loop's location, at once (it was retried at every trial point: minutes)
model endless <<'EOF'
model Endless
  function root2
    input Real x;
    output Real y;
  protected
    Integer n = 0;
  algorithm
    y := 1;
    while n < 10 loop
      y := (y + x/y)/2;
      n := n + 0;
    end while;
  end root2;
  Real y(start = 1);
equation
  root2(y) = 1 + time;
end Endless;
EOF
expect endless 1 -- "error: the initialisation failed: a function the equations call cannot be evaluated: endless.mo:9:5: while loop: more than 10000000 loop iterations in one function evaluation (endless loop?)"

exit $((fails > 0))
