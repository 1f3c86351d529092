#!/usr/bin/env bash
# Names of what user equations define and read: the model's own variables
# beside user components, user blocks connected to each other, variables of
# built-in components read by equations (once in the result), parameters of
# user components read by the enclosing model, forces and signals of
# built-in components (mass.flange_a.f, sine.y, force.f).
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# ---- 1. the model's equation and a user spring in one group: columns
# keep their own names (y, not spring.y); x = 0.1 cos 10t, y = 2x
model ownnames <<'EOF'
model OwnNames
  model Sp
    extends Modelica.Mechanics.Translational.Interfaces.PartialCompliant;
  equation
    f = 100*s_rel;
  end Sp;
  Modelica.Mechanics.Translational.Components.Fixed fixed;
  Sp spring;
  Modelica.Mechanics.Translational.Components.Mass mass(m = 1, s(start = 0.1, fixed = true), v(fixed = true));
  Real y;
equation
  connect(fixed.flange, spring.flange_a);
  connect(spring.flange_b, mass.flange_a);
  y = 2*spring.s_rel;
  annotation(experiment(StopTime = 1));
end OwnNames;
EOF
sim ownnames --tolerance 1e-10 && values "the model's own variable keeps its name beside a user component" ownnames <<'PY'
check("y" in head and "spring.y" not in head, "columns %s" % head)
near(worst("y", lambda t: 0.2*math.cos(10*t)), 0, 1e-8, "worst error of y")
PY

# user blocks connected to each other: wave (2 sin 3t) -> gain (k = 3) -> integ (y(0) = 1)
#   integ.y = 1 + 2 (1 - cos 3t)
model blocknames <<'EOF'
model BlockNames
  import Modelica.Blocks.Interfaces;
  block Wave
    extends Interfaces.SO;
    parameter Real amplitude = 1;
    parameter Real w = 1;
  equation
    y = amplitude*sin(w*time);
  end Wave;
  block Gain2
    extends Interfaces.SISO;
    parameter Real k = 1;
  equation
    y = k*u;
  end Gain2;
  block Integrate
    extends Interfaces.SISO;
  initial equation
    y = 1;
  equation
    der(y) = u;
  end Integrate;
  Wave wave(amplitude = 2, w = 3);
  Gain2 gain(k = 3);
  Integrate integ;
equation
  connect(wave.y, gain.u);
  connect(gain.y, integ.u);
  annotation(experiment(StopTime = 1));
end BlockNames;
EOF
sim blocknames --tolerance 1e-10 && values "user blocks connected to each other keep their names" blocknames <<'PY'
check(head == ["time", "wave.y", "gain.u", "gain.y", "integ.u", "integ.y"], "columns %s" % head)
near(worst("integ.y", lambda t: 1 + 2*(1 - math.cos(3*t))), 0, 1e-8, "worst error of integ.y")
PY

# ---- 2. each column once
model readtwice <<'EOF'
model ReadTwice
  Modelica.Mechanics.Translational.Components.Fixed fixed;
  Modelica.Mechanics.Translational.Components.Spring spring(c = 100);
  Modelica.Mechanics.Translational.Components.Mass mass(m = 1, s(start = 0.1, fixed = true), v(fixed = true));
  Real y;
  Real z;
equation
  connect(fixed.flange, spring.flange_a);
  connect(spring.flange_b, mass.flange_a);
  y = mass.v^2;
  z = 2*spring.s_rel;
  annotation(experiment(StopTime = 1));
end ReadTwice;
EOF
sim readtwice && values "variables of built-in components read by equations appear once" readtwice <<'PY'
dup = sorted(set(n for n in head if head.count(n) > 1))
check(not dup, "columns written twice: %s" % dup)
PY
sim readtwice --vars 'mass.v,y' && values "--vars selects a read variable once" readtwice <<'PY'
check(head == ["time", "mass.v", "y"], "columns %s" % head)
PY

# ---- 3. a parameter of a user component in the enclosing model's equation
model userparam <<'EOF'
model UserParam
  model Sp
    extends Modelica.Mechanics.Translational.Interfaces.PartialCompliant;
    parameter Real c = 100;
  equation
    f = c*s_rel;
  end Sp;
  Modelica.Mechanics.Translational.Components.Fixed fixed;
  Sp spring(c = 400);
  Modelica.Mechanics.Translational.Components.Mass mass(m = 1, s(start = 0.1, fixed = true), v(fixed = true));
  Real E;
equation
  connect(fixed.flange, spring.flange_a);
  connect(spring.flange_b, mass.flange_a);
  E = mass.m*mass.v^2/2 + spring.c*spring.s_rel^2/2;
  annotation(experiment(StopTime = 1));
end UserParam;
EOF
sim userparam --tolerance 1e-10 && values "a user component's parameter read by the model (E = 2 J conserved)" userparam <<'PY'
near(worst("E", lambda t: 2), 0, 1e-6, "worst error of E")
PY

# ---- 4. forces and signals of built-in components in user equations:
# a 1 kg mass pushed by a built-in Force with a built-in Sine (amplitude 1,
# f = 1/(2 pi)): y = mass.flange_a.f = sin t, u = 2 sine.y, w = force.f = sin t
model readforces <<'EOF'
model ReadForces
  Modelica.Blocks.Sources.Sine sine(f = 1/(2*Modelica.Constants.pi));
  Modelica.Mechanics.Translational.Sources.Force force;
  Modelica.Mechanics.Translational.Components.Mass mass(m = 1, s(start = 0, fixed = true), v(start = 0, fixed = true));
  Real y;
  Real u;
  Real w;
equation
  connect(sine.y, force.f);
  connect(force.flange, mass.flange_a);
  y = mass.flange_a.f;
  u = 2*sine.y;
  w = force.f;
  annotation(experiment(StopTime = 1));
end ReadForces;
EOF
sim readforces --tolerance 1e-10 --vars 'y,u,w' && values "equations read mass.flange_a.f, sine.y, force.f" readforces <<'PY'
near(worst("y", math.sin), 0, 1e-9, "y = mass.flange_a.f")
near(worst("u", lambda t: 2*math.sin(t)), 0, 1e-9, "u = 2 sine.y")
near(worst("w", math.sin), 0, 1e-9, "w = force.f")
PY

# ---- components whose names begin with "der" keep their variables in the
# result (the analysis's own der(x), der2(x) are what stays hidden): a Der
# block der1 after a first-order filter, and a variable derivative.
model dernames <<'EOF'
model DerNames
  Modelica.Blocks.Sources.Ramp ramp(height = 2, duration = 1);
  Modelica.Blocks.Continuous.Der der1;
  Real derivative = 3 * time;
equation
  connect(ramp.y, der1.u);
  annotation(experiment(StopTime = 0.5, Interval = 0.1));
end DerNames;
EOF
sim dernames --tolerance 1e-10 && values "names beginning with der stay in the result" dernames <<'PY'
near(worst("der1.y", lambda t: 2.0), 0, 1e-6, "der1.y = slope of the ramp")
near(worst("der1.u", lambda t: 2 * t), 0, 1e-9, "der1.u")
near(worst("derivative", lambda t: 3 * t), 0, 1e-9, "derivative")
PY

exit $((fails > 0))
