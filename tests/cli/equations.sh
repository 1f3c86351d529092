#!/usr/bin/env bash
# Models written as equations (issue 11), simulated as a user runs them and
# checked against closed forms: an ODE with an algebraic variable, a
# hardening spring (energy, and the period from quadrature), a drag law in a
# function, initial equations (values and a steady state), a pendulum that
# needs index reduction, a chain from variable arrays and for-equations
# against the same chain of built-in classes, matrix and vector equations,
# variable attributes, protected/constant/final and extends chains.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# ---- an ODE with an algebraic variable:
# x' = -k x + y, y = sin t, x(0) = 1, k = 2
#   x(t) = (1 + 1/(k^2+1)) e^(-k t) + (k sin t - cos t)/(k^2 + 1) = 1.2 e^(-2t) + (2 sin t - cos t)/5
model ode <<'EOF'
model ODE
  parameter Real k = 2;
  Real x(start = 1, fixed = true);
  Real y "algebraic";
equation
  der(x) = -k*x + y;
  y = sin(time);
  annotation(experiment(StopTime = 2));
end ODE;
EOF
sim ode --tolerance 1e-9 && values "ODE with an algebraic variable: x = 1.2 e^-2t + (2 sin t - cos t)/5" ode <<'PY'
check(head == ["time", "x", "y"], "columns %s" % head)
near(t[-1], 2, 0, "stop time")
near(worst("x", lambda t: 1.2*math.exp(-2*t) + (2*math.sin(t) - math.cos(t))/5), 0, 5e-8, "worst error of x")
near(worst("y", math.sin), 0, 1e-12, "worst error of y")
PY
# --param reaches a parameter of the model's own equations: k = 4 gives
# x = (1 + 1/17) e^(-4t) + (4 sin t - cos t)/17
sim ode --tolerance 1e-9 --param k=4 && values "--param k=4 changes the equations' parameter" ode <<'PY'
near(worst("x", lambda t: 18/17*math.exp(-4*t) + (4*math.sin(t) - math.cos(t))/17), 0, 5e-8, "worst error of x")
PY

# ---- a user hardening spring f = c s + c3 s^3 (PartialCompliant) holding a
# mass released at rest from s = A: the energy
#   E = m v^2/2 + c s^2/2 + c3 s^4/4 = c A^2/2 + c3 A^4/4
# stays constant, and the period is
#   T = 4 int_0^A ds / sqrt(2 (E - U(s))/m);
# with s = A sin(th), E - U(s) = (A^2 - s^2)(c/2 + c3 (A^2 + s^2)/4), so
#   T = 4 int_0^(pi/2) dth / sqrt((c + c3 (A^2 + A^2 sin^2 th)/2)/m),
# a smooth integrand (Simpson's rule below). The mass passes s = 0 first at T/4.
model hardening <<'EOF'
model Hardening
  model HardeningSpring "f = c s_rel + c3 s_rel^3"
    extends Modelica.Mechanics.Translational.Interfaces.PartialCompliant;
    parameter Modelica.Units.SI.TranslationalSpringConstant c = 1;
    parameter Real c3(unit = "N/m3") = 0;
  equation
    f = c*s_rel + c3*s_rel^3;
  end HardeningSpring;
  Modelica.Mechanics.Translational.Components.Fixed fixed;
  HardeningSpring spring(c = 100, c3 = 4e4);
  Modelica.Mechanics.Translational.Components.Mass mass(m = 0.5, s(start = 0.1, fixed = true), v(start = 0, fixed = true));
equation
  connect(fixed.flange, spring.flange_a);
  connect(spring.flange_b, mass.flange_a);
  annotation(experiment(StopTime = 1, Interval = 1e-3));
end Hardening;
EOF
sim hardening --tolerance 1e-9 && values "hardening spring: energy conserved, period from quadrature" hardening <<'PY'
m, c, c3, A = 0.5, 100.0, 4e4, 0.1
U = lambda s: c*s*s/2 + c3*s**4/4
E = U(A)
near(E, 1.5, 1e-15, "initial energy")
en = [m*v*v/2 + U(s) for v, s in zip(col("mass.v"), col("spring.s_rel"))]
near(max(abs(e - E) for e in en), 0, 2e-6, "worst energy drift")
g = lambda th: 1/math.sqrt((c + c3*(A*A + (A*math.sin(th))**2)/2)/m)
n = 200
h = (math.pi/2)/n
T = 4*h/3*(g(0) + g(math.pi/2) + sum((4 if i % 2 else 2)*g(i*h) for i in range(1, n)))
near(T, 0.224840392, 1e-9, "period by quadrature")
z = crossings("mass.s", 0, -1)
check(len(z) == 5, "downward zero crossings: %s" % z)
near(z[0], T/4, 2e-7, "first pass through s = 0")
for k in range(1, len(z)):
    near(z[k] - z[k-1], T, 2e-7, "period %d" % k)
# the spring's force and its flanges follow its own equation
near(max(abs(f - (c*s + c3*s**3)) for f, s in zip(col("spring.f"), col("spring.s_rel"))), 0, 1e-9, "f = c s + c3 s^3")
near(max(abs(a + b) for a, b in zip(col("spring.flange_a.f"), col("spring.flange_b.f"))), 0, 1e-12, "flange forces balance")
PY
# --param reaches the user component's parameters: c3 = 0 leaves a linear
# spring, with m = 1: s = 0.1 cos(10 t)
sim hardening --tolerance 1e-10 --param spring.c3=0 --param mass.m=1 && values "--param spring.c3=0: s = 0.1 cos 10t" hardening <<'PY'
near(worst("mass.s", lambda t: 0.1*math.cos(10*t)), 0, 1e-8, "worst error of mass.s")
PY

# ---- a drag law written as a function with an algorithm:
#   m v' = -c v|v|, v(0) = v0  =>  v = v0/(1 + c v0 t/m), s = (m/c) ln(1 + c v0 t/m)
# m = 2, c = 0.4 (a named argument over the default 0.5), v0 = 10: v = 10/(1 + 2t), s = 5 ln(1 + 2t);
# a function with two outputs in a tuple equation (a, b) = sq(time): a = t^2, b = 2t;
# a function in a parameter binding: k = sq(3) = 9
model drag <<'EOF'
model Drag
  function dragForce "quadratic drag"
    input Real v;
    input Real c = 0.5;
    output Real f;
  algorithm
    f := c*v*abs(v);
  end dragForce;
  function sq
    input Real x;
    output Real y;
    output Real dy;
  algorithm
    y := x*x;
    dy := 2*x;
  end sq;
  parameter Real m = 2;
  parameter Real k = sq(3);
  Real v(start = 10, fixed = true);
  Real s(start = 0, fixed = true);
  Real a, b;
  Real p;
equation
  m*der(v) = -dragForce(v, c = 0.4);
  der(s) = v;
  (a, b) = sq(time);
  p = k*time;
  annotation(experiment(StopTime = 2));
end Drag;
EOF
sim drag --tolerance 1e-9 && values "drag law in a function: v = 10/(1 + 2t), s = 5 ln(1 + 2t)" drag <<'PY'
near(worst("v", lambda t: 10/(1 + 2*t)), 0, 1e-7, "worst error of v")
near(worst("s", lambda t: 5*math.log(1 + 2*t)), 0, 1e-7, "worst error of s")
near(worst("a", lambda t: t*t), 0, 1e-12, "worst error of a = t^2")
near(worst("b", lambda t: 2*t), 0, 1e-12, "worst error of b = 2t")
near(worst("p", lambda t: 9*t), 0, 1e-12, "worst error of p = sq(3) t")
PY

# ---- the same drag as a force element (PartialForce: f is the force on
# the element, -f acts on the mass) between the ground and a 2 kg mass
model dragforce <<'EOF'
model DragForce
  function dragForce
    input Real v;
    input Real c = 0.5;
    output Real f;
  algorithm
    f := c*v*abs(v);
  end dragForce;
  model QuadraticDrag
    extends Modelica.Mechanics.Translational.Interfaces.PartialForce;
    parameter Real c = 0.5;
    Real v "velocity of the flange";
  equation
    v = der(s);
    f = dragForce(v, c);
  end QuadraticDrag;
  QuadraticDrag drag(c = 0.4);
  Modelica.Mechanics.Translational.Components.Mass mass(m = 2, s(start = 0, fixed = true), v(start = 10, fixed = true));
equation
  connect(drag.flange, mass.flange_a);
  annotation(experiment(StopTime = 2));
end DragForce;
EOF
sim dragforce --tolerance 1e-9 && values "drag force element: v = 10/(1 + 2t), f = 0.4 v^2" dragforce <<'PY'
near(worst("mass.v", lambda t: 10/(1 + 2*t)), 0, 1e-7, "worst error of mass.v")
near(worst("mass.s", lambda t: 5*math.log(1 + 2*t)), 0, 1e-7, "worst error of mass.s")
near(worst("drag.f", lambda t: 0.4*(10/(1 + 2*t))**2), 0, 1e-5, "worst error of drag.f")
near(worst("drag.v", lambda t: 10/(1 + 2*t)), 0, 1e-7, "worst error of drag.v")
PY

# ---- initial equations
# (a) an algebraic variable given initially: y(0) = 2, x = 2y, x' = -x  =>  x = 4 e^-t, y = 2 e^-t
model initeq <<'EOF'
model InitEq
  Real x;
  Real y;
initial equation
  y = 2;
equation
  x = 2*y;
  der(x) = -x;
  annotation(experiment(StopTime = 1));
end InitEq;
EOF
sim initeq --tolerance 1e-9 && values "initial equation on an algebraic variable: x = 4 e^-t" initeq <<'PY'
near(col("x")[0], 4, 1e-12, "x(0)")
near(worst("x", lambda t: 4*math.exp(-t)), 0, 1e-7, "worst error of x")
near(worst("y", lambda t: 2*math.exp(-t)), 0, 1e-7, "worst error of y")
PY
# (b) a steady state: der(x) = der(v) = 0 at the start gives x = 3, v = 0
# for x'' + x' + 4 (x - 3) = u with u = 0 before t = 0.5; afterwards u = 1:
# with tau = t - 0.5 and w = sqrt(15)/2,
#   x = 13/4 + e^(-tau/2) (-1/4 cos(w tau) - 1/(4 sqrt 15) sin(w tau))
model steady <<'EOF'
model Steady
  parameter Real k = 4;
  Real x;
  Real v;
initial equation
  der(x) = 0;
  der(v) = 0;
equation
  der(x) = v;
  der(v) = -k*(x - 3) - v + (if time > 0.5 then 1 else 0);
  annotation(experiment(StopTime = 2));
end Steady;
EOF
sim steady --tolerance 1e-9 && values "initial equations der(x) = 0: steady state, then a step response" steady <<'PY'
w = math.sqrt(15)/2
def x(t):
    if t <= 0.5:
        return 3.0
    u = t - 0.5
    return 3.25 + math.exp(-u/2)*(-0.25*math.cos(w*u) - 0.25/math.sqrt(15)*math.sin(w*u))
near(col("x")[0], 3, 1e-12, "x(0)")
near(col("v")[0], 0, 1e-12, "v(0)")
near(worst("x", x), 0, 1e-7, "worst error of x")
PY

# ---- a pendulum in Cartesian coordinates (index 3: the constraint
# x^2 + y^2 = L^2 needs index reduction): the constraint holds, the energy
# v^2/2 + g y is conserved, and the period from 30 degrees is
#   T = 4 sqrt(L/g) K(sin(15 deg)), K by the arithmetic-geometric mean
model pendulum <<'EOF'
model Pendulum
  parameter Real L = 1;
  parameter Real g = 9.81;
  Real x(start = 0.5, fixed = true);
  Real y(start = -0.8);
  Real vx(start = 0, fixed = true);
  Real vy;
  Real lambda;
equation
  der(x) = vx;
  der(y) = vy;
  der(vx) = -lambda*x;
  der(vy) = -lambda*y - g;
  x^2 + y^2 = L^2;
  annotation(experiment(StopTime = 2));
end Pendulum;
EOF
sim pendulum --tolerance 1e-8 && values "pendulum by index reduction: constraint, energy, period" pendulum <<'PY'
g = 9.81
near(col("y")[0], -math.sqrt(0.75), 1e-12, "y(0) from the constraint")
near(max(abs(a*a + b*b - 1) for a, b in zip(col("x"), col("y"))), 0, 1e-9, "worst violation of x^2 + y^2 = 1")
near(max(abs(a*c + b*d) for a, b, c, d in zip(col("x"), col("y"), col("vx"), col("vy"))), 0, 1e-9, "worst violation of x vx + y vy = 0")
E = [0.5*(a*a + b*b) + g*c for a, b, c in zip(col("vx"), col("vy"), col("y"))]
near(max(E) - min(E), 0, 1e-5, "energy drift")
k = math.sin(math.radians(15))
a, b = 1.0, math.sqrt(1 - k*k)
for i in range(8):
    a, b = (a + b)/2, math.sqrt(a*b)
T = 4*math.sqrt(1/g)*math.pi/(2*a)
z = crossings("x", 0, -1)
check(len(z) == 1, "downward crossings of x = 0: %s" % z)
near(z[0], T/4, 1e-6, "first pass through the bottom")
PY

# ---- a chain from variable arrays and for-equations against the same
# chain of built-in classes: five 1 kg masses, springs of 100 N/m from the
# ground, 2 N pulling the last one, released from x_i = 0.01 i. The two
# trajectories agree, and both conserve
#   E = sum m v_i^2/2 + sum c (x_i - x_(i-1))^2/2 - F x_N
model chaineq <<'EOF'
model ChainEq "five masses and springs as arrays and for-equations"
  parameter Integer N = 5;
  parameter Real m = 1;
  parameter Real c = 100;
  parameter Real F = 2;
  Real x[N](start = {0.01*i for i in 1:N}, each fixed = true);
  Real v[N](each start = 0, each fixed = true);
  Real f[N] "spring forces";
equation
  f[1] = c*x[1];
  for i in 2:N loop
    f[i] = c*(x[i] - x[i - 1]);
  end for;
  der(x) = v;
  for i in 1:N - 1 loop
    m*der(v[i]) = f[i + 1] - f[i];
  end for;
  m*der(v[N]) = F - f[N];
  annotation(experiment(StopTime = 1, Interval = 0.01));
end ChainEq;
EOF
model chainlib <<'EOF'
model ChainLib "the same chain of built-in classes"
  import Modelica.Mechanics.Translational.Components;
  Components.Fixed fixed;
  Components.Spring s1(c = 100), s2(c = 100), s3(c = 100), s4(c = 100), s5(c = 100);
  Components.Mass m1(m = 1, s(start = 0.01, fixed = true), v(fixed = true));
  Components.Mass m2(m = 1, s(start = 0.02, fixed = true), v(fixed = true));
  Components.Mass m3(m = 1, s(start = 0.03, fixed = true), v(fixed = true));
  Components.Mass m4(m = 1, s(start = 0.04, fixed = true), v(fixed = true));
  Components.Mass m5(m = 1, s(start = 0.05, fixed = true), v(fixed = true));
  Modelica.Mechanics.Translational.Sources.ConstantForce force(f_constant = 2);
equation
  connect(fixed.flange, s1.flange_a);
  connect(s1.flange_b, m1.flange_a);
  connect(m1.flange_b, s2.flange_a);
  connect(s2.flange_b, m2.flange_a);
  connect(m2.flange_b, s3.flange_a);
  connect(s3.flange_b, m3.flange_a);
  connect(m3.flange_b, s4.flange_a);
  connect(s4.flange_b, m4.flange_a);
  connect(m4.flange_b, s5.flange_a);
  connect(s5.flange_b, m5.flange_a);
  connect(m5.flange_b, force.flange);
  annotation(experiment(StopTime = 1, Interval = 0.01));
end ChainLib;
EOF
if sim chaineq --tolerance 1e-10 && sim chainlib --tolerance 1e-10; then
  values "chain of variable arrays and for-equations equals the chain of built-in classes" chaineq <<PY
lib = load("$T/chainlib.csv")
li = {n: i for i, n in enumerate(lib[0])}
check(len(lib[1]) == len(data) == 101, "rows %d and %d" % (len(lib[1]), len(data)))
check(head == ["time"] + ["x[%d]" % i for i in range(1, 6)] + ["v[%d]" % i for i in range(1, 6)] + ["f[%d]" % i for i in range(1, 6)], "columns %s" % head)
dev = 0.0
for r, q in zip(data, lib[1]):
    check(r[0] == q[0], "times %r and %r" % (r[0], q[0]))
    for i in range(1, 6):
        dev = max(dev, abs(r[index["x[%d]" % i]] - q[li["m%d.s" % i]]), abs(r[index["v[%d]" % i]] - q[li["m%d.v" % i]])/10)
near(dev, 0, 1e-10, "largest deviation (x in m, v/10 in m/s)")
def energy(x, v):
    return sum(vi*vi/2 for vi in v) + sum(100*(x[i] - (x[i-1] if i else 0))**2/2 for i in range(5)) - 2*x[4]
E = [energy([r[index["x[%d]" % i]] for i in range(1, 6)], [r[index["v[%d]" % i]] for i in range(1, 6)]) for r in data]
near(E[0], 0.5*0.05 - 0.1, 1e-15, "initial energy")
near(max(abs(e - E[0]) for e in E), 0, 1e-8, "energy drift")
PY
fi

# ---- vector and matrix equations: der(x) = A*x with A = [0, 1; -4, 0],
# x(0) = {1, 0}: x = {cos 2t, -2 sin 2t}; x*x is the dot product;
# der(y) = -k .* y with parameter arrays: y_i = e^(-k_i t); sum, size,
# fill, ones, zeros and ranges
model vectors <<'EOF'
model Vectors
  parameter Integer N = 4;
  parameter Real A[2, 2] = [0, 1; -4, 0];
  parameter Real k[N] = {1, 2, 3, 4};
  parameter Real w[N] = fill(2, N);
  Real x[2](start = {1, 0}, each fixed = true);
  Real e "x*x";
  Real y[N](start = ones(N), each fixed = true);
  Real wy[N];
  Real total;
  Real n;
  Real z[2] = zeros(2);
equation
  der(x) = A*x;
  e = x*x;
  der(y) = -k .* y;
  for i in 1:N loop
    wy[i] = w[i]*y[i];
  end for;
  total = sum(wy);
  n = size(y, 1) + sum(1:N) + sum(k[2:3]);
  annotation(experiment(StopTime = 1));
end Vectors;
EOF
sim vectors --tolerance 1e-10 && values "vector and matrix equations, sum, size, fill, ones, zeros, ranges" vectors <<'PY'
near(worst("x[1]", lambda t: math.cos(2*t)), 0, 1e-8, "worst error of x[1]")
near(worst("x[2]", lambda t: -2*math.sin(2*t)), 0, 2e-8, "worst error of x[2]")
near(worst("e", lambda t: math.cos(2*t)**2 + 4*math.sin(2*t)**2), 0, 1e-7, "worst error of x*x")
for i in range(1, 5):
    near(worst("y[%d]" % i, lambda t: math.exp(-i*t)), 0, 1e-8, "worst error of y[%d]" % i)
    near(worst("wy[%d]" % i, lambda t: 2*math.exp(-i*t)), 0, 2e-8, "worst error of wy[%d]" % i)
near(worst("total", lambda t: 2*sum(math.exp(-i*t) for i in range(1, 5))), 0, 1e-7, "worst error of total")
near(worst("n", lambda t: 4 + 10 + 5), 0, 0, "n = size + sum(1:N) + sum(k[2:3])")
near(worst("z[1]", lambda t: 0), 0, 0, "z[1]")
PY

# ---- attributes: unit (in the .units file), nominal, min, max, stateSelect
# are accepted; start and fixed give the initial value
model attributes <<'EOF'
model Attributes
  Real x(start = 1, fixed = true, nominal = 1e-3, unit = "m", min = -10, max = 10, stateSelect = StateSelect.prefer);
  Modelica.Units.SI.Velocity v;
  Real f(unit = "N", displayUnit = "kN");
equation
  der(x) = v;
  v = -2;
  f = 3*x;
  annotation(experiment(StopTime = 1));
end Attributes;
EOF
sim attributes --tolerance 1e-9 && values "attributes: start, fixed, nominal, min, max, stateSelect" attributes <<'PY'
near(worst("x", lambda t: 1 - 2*t), 0, 1e-12, "worst error of x")
PY
[ "$(cat "$T/attributes.csv.units")" = "variable,unit
time,s
x,m
v,m/s
f,N" ] && ok "units of the variables in the .units file" || { bad "units file"; cat "$T/attributes.csv.units"; }

# ---- a user model as a component with output, protected, constant and
# final parameters: x = cos(w t), its protected energy e = (v^2 + w^2 x^2)/2 = w^2/2
model osc <<'EOF'
model Osc
  model Oscillator
    parameter Real w = 2;
    final parameter Real w2 = w*w;
    constant Real half = 0.5;
    output Real x(start = 1, fixed = true);
    Real v(start = 0, fixed = true);
  protected
    Real e;
  equation
    der(x) = v;
    der(v) = -w2*x;
    e = half*(v^2 + w2*x^2);
  end Oscillator;
  Oscillator osc(w = 3);
  annotation(experiment(StopTime = 1));
end Osc;
EOF
sim osc --tolerance 1e-10 && values "component with output, protected, constant and final: x = cos 3t" osc <<'PY'
check(head == ["time", "osc.x", "osc.v", "osc.e"], "columns %s" % head)
near(worst("osc.x", lambda t: math.cos(3*t)), 0, 1e-8, "worst error of osc.x")
near(worst("osc.e", lambda t: 4.5), 0, 1e-7, "worst error of osc.e")
PY

# ---- extends chains across the file: a partial base with part of the
# force law, an extension completing it, and a model that only sets the
# parameters; f = 400 s with a 1 kg mass: s = 0.1 cos(20 t)
model extchain <<'EOF'
package ExtChain
  partial model LinearBase "the linear part of the force law"
    extends Modelica.Mechanics.Translational.Interfaces.PartialCompliant;
    parameter Real c = 100;
    Real fc "c s_rel";
  equation
    fc = c*s_rel;
  end LinearBase;
  model Cubic
    extends LinearBase;
    parameter Real c3 = 1;
  equation
    f = fc + c3*s_rel^3;
  end Cubic;
  model Stiff
    extends Cubic(c = 400, c3 = 0);
  end Stiff;
  model Test
    Modelica.Mechanics.Translational.Components.Fixed fixed;
    Stiff spring;
    Modelica.Mechanics.Translational.Components.Mass mass(m = 1, s(start = 0.1, fixed = true), v(start = 0, fixed = true));
  equation
    connect(fixed.flange, spring.flange_a);
    connect(spring.flange_b, mass.flange_a);
    annotation(experiment(StopTime = 1));
  end Test;
end ExtChain;
EOF
sim extchain --model Test --tolerance 1e-10 && values "extends chain across the file: s = 0.1 cos 20t" extchain <<'PY'
near(worst("mass.s", lambda t: 0.1*math.cos(20*t)), 0, 1e-8, "worst error of mass.s")
near(worst("spring.fc", lambda t: 40*math.cos(20*t)), 0, 1e-5, "worst error of spring.fc")
PY

# ---- a model whose only equations are the bindings of its declarations
# (it was under-determined, and the binding of an Integer leaked)
model bindonly <<'EOF'
model BindOnly
  Real x = 2*time;
  Integer n = 2 - 1;
  Real y = x + n;
  annotation(experiment(StopTime = 1));
end BindOnly;
EOF
sim bindonly && values "bindings alone: x = 2t, n = 1, y = 2t + 1" bindonly <<'PY'
near(worst("x", lambda t: 2*t), 0, 1e-12, "worst error of x")
near(worst("n", lambda t: 1), 0, 0, "worst error of n")
near(worst("y", lambda t: 2*t + 1), 0, 1e-12, "worst error of y")
PY

exit $((fails > 0))
