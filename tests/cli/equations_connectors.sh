#!/usr/bin/env bash
# Connector classes of your own: a Pin with a flow variable (an RC circuit
# against its closed form; a network with outer pins and a component
# connected at one end only), a renamed flange connector; fixed = true on
# variables that are not states (initial equations, as Modelica tools make
# them).
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# ---- 1. an RC circuit with a connector of its own: R = 2, C = 0.5,
# u(0) = 1: u = e^(-t/(R C)) = e^-t, i = -u/R
model rc <<'EOF'
model RC
  connector Pin "a user connector: potential and flow"
    Real v;
    flow Real i;
  end Pin;
  model Resistor
    Pin p, n;
    parameter Real R = 1;
  equation
    p.v - n.v = R*p.i;
    p.i + n.i = 0;
  end Resistor;
  model Capacitor
    Pin p, n;
    parameter Real C = 1;
    Real u(start = 1, fixed = true);
  equation
    u = p.v - n.v;
    C*der(u) = p.i;
    p.i + n.i = 0;
  end Capacitor;
  model Ground
    Pin p;
  equation
    p.v = 0;
  end Ground;
  Resistor r(R = 2);
  Capacitor c(C = 0.5);
  Ground g;
equation
  connect(r.p, c.p);
  connect(r.n, c.n);
  connect(c.n, g.p);
  annotation(experiment(StopTime = 1));
end RC;
EOF
sim rc --tolerance 1e-10 && values "a user connector with a flow variable: RC discharge u = e^-t" rc <<'PY'
near(worst("c.u", lambda t: math.exp(-t)), 0, 1e-8, "worst error of c.u")
# the set {r.p, c.p}: r.p.i = -c.p.i = -C du/dt = e^-t/2 (the current enters r at p)
near(worst("r.p.i", lambda t: math.exp(-t)/2), 0, 1e-8, "worst error of r.p.i")
PY

# a mechanical connector of your own, an alias of Flange_a: a spring of
# 100 N/m between it and a Flange_b holds a 1 kg mass: s = 0.1 cos 10t
model myflange <<'EOF'
model MyFlangeModel
  connector MyFlange = Modelica.Mechanics.Translational.Interfaces.Flange_a;
  model Sp
    MyFlange a;
    Modelica.Mechanics.Translational.Interfaces.Flange_b b;
    parameter Real c = 100;
  equation
    a.f = c*(a.s - b.s);
    a.f + b.f = 0;
  end Sp;
  Sp sp;
  Modelica.Mechanics.Translational.Components.Fixed fixed;
  Modelica.Mechanics.Translational.Components.Mass m(m = 1, s(start = 0.1, fixed = true), v(fixed = true));
equation
  connect(fixed.flange, sp.b);
  connect(sp.a, m.flange_a);
  annotation(experiment(StopTime = 1));
end MyFlangeModel;
EOF
sim myflange --tolerance 1e-10 && values "a user flange connector: s = 0.1 cos 10t" myflange <<'PY'
near(worst("m.s", lambda t: 0.1*math.cos(10*t)), 0, 1e-8, "worst error of m.s")
PY

# ---- 2. fixed = true on an algebraic variable: y(0) = 2, x = 2 y, x' = -x
#   => x = 4 e^-t
model fixedalg <<'EOF'
model FixedAlg
  Real x;
  Real y(start = 2, fixed = true);
equation
  x = 2*y;
  der(x) = -x;
  annotation(experiment(StopTime = 1));
end FixedAlg;
EOF
sim fixedalg --tolerance 1e-10 && values "fixed = true on an algebraic variable is an initial equation" fixedalg <<'PY'
near(worst("x", lambda t: 4*math.exp(-t)), 0, 1e-8, "worst error of x")
PY
sed 's/Real y(start = 2, fixed = true);/Real y(start = 2, fixed = true, stateSelect = StateSelect.prefer);/; s/Real x;/Real x(stateSelect = StateSelect.never);/' \
  "$T/fixedalg.mo" > "$T/preferalg.mo"
sim preferalg --tolerance 1e-10 && values "stateSelect = prefer on the fixed variable" preferalg <<'PY'
near(worst("x", lambda t: 4*math.exp(-t)), 0, 1e-8, "worst error of x")
PY


# ---- a network with outer pins: Series (2 + 3 ohm) behind p, n across a
# 10 V source; a resistor connected at one end only carries no current
model net <<'EOF'
model Net
  connector Pin
    Real v;
    flow Real i;
  end Pin;
  model Resistor
    Pin p, n;
    parameter Real R = 1;
  equation
    p.v - n.v = R*p.i;
    p.i + n.i = 0;
  end Resistor;
  model Series "two resistors in series behind outer pins"
    Pin p, n;
    Resistor r1(R = 2), r2(R = 3);
  equation
    connect(p, r1.p);
    connect(r1.n, r2.p);
    connect(r2.n, n);
  end Series;
  model Source
    Pin p, n;
  equation
    p.v - n.v = 10;
    p.i + n.i = 0;
  end Source;
  model Ground
    Pin p;
  equation
    p.v = 0;
  end Ground;
  Series s;
  Source src;
  Ground gnd;
  Resistor loose(R = 7);
equation
  connect(src.p, s.p);
  connect(s.n, src.n);
  connect(src.n, gnd.p);
  connect(loose.p, src.p);
end Net;
EOF
sim net && values "outer pins of a composite, a loose end" net <<'PY'
near(col("s.r1.p.i")[-1], 2, 1e-12, "current through the series")
near(col("s.r1.n.v")[-1], 6, 1e-12, "voltage between the resistors")
near(col("s.p.i")[-1], 2, 1e-12, "current into the outer pin")
near(col("loose.p.i")[-1], 0, 1e-12, "current of the loose resistor")
near(col("loose.n.v")[-1], 10, 1e-12, "its free end follows the source")
near(col("gnd.p.i")[-1], 0, 1e-12, "no current into the ground")
PY
exit $((fails > 0))
