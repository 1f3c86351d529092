#!/usr/bin/env bash
# User models as components (issue 11): extending the MSL partial models
# of Translational.Interfaces and Blocks.Interfaces with exactly their
# variables and equations, placed between built-in masses, exchanging
# signals with built-in blocks both ways, and user equations reading the
# variables of built-in components. Closed forms throughout.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# ---- PartialTwoFlanges (a rigid link of length 0.5 between two masses),
# PartialForce (3 N pushing), PartialElementaryOneFlangeAndSupport2 (a 4 N/m
# spring from the support, which is fixed at 0), PartialAbsoluteSensor and
# PartialRelativeSensor. The two masses (1 + 2 kg) move as one:
#   3 x'' = -4 x + 3, x(0) = x'(0) = 0  =>  x = 3/4 (1 - cos(w t)), w = sqrt(4/3)
model partials <<'EOF'
model Partials
  import Modelica.Mechanics.Translational.Interfaces;
  import Modelica.Mechanics.Translational.Components;
  model Link "a rigid link of length L"
    extends Interfaces.PartialTwoFlanges;
    parameter Real L = 1;
  equation
    flange_b.s = flange_a.s + L;
    flange_a.f + flange_b.f = 0;
  end Link;
  model Push "a constant force F on what is attached, in +s"
    extends Interfaces.PartialForce;
    parameter Real F = 1;
  equation
    f = -F;
  end Push;
  model Anchor "a linear spring from the support to the flange"
    extends Interfaces.PartialElementaryOneFlangeAndSupport2;
    parameter Real c = 1;
  equation
    flange.f = c*s;
  end Anchor;
  model Pos "position sensor"
    extends Interfaces.PartialAbsoluteSensor;
    Modelica.Blocks.Interfaces.RealOutput y;
  equation
    y = flange.s;
  end Pos;
  model Dist "distance sensor"
    extends Interfaces.PartialRelativeSensor;
    Modelica.Blocks.Interfaces.RealOutput d;
  equation
    d = flange_b.s - flange_a.s;
    flange_a.f = 0;
  end Dist;
  Components.Mass m1(m = 1, s(start = 0, fixed = true), v(start = 0, fixed = true));
  Link link(L = 0.5);
  Components.Mass m2(m = 2);
  Push push(F = 3);
  Anchor anchor(c = 4);
  Pos pos;
  Dist dist;
equation
  connect(m1.flange_b, link.flange_a);
  connect(link.flange_b, m2.flange_a);
  connect(push.flange, m2.flange_b);
  connect(anchor.flange, m1.flange_a);
  connect(pos.flange, m2.flange_b);
  connect(dist.flange_a, m1.flange_a);
  connect(dist.flange_b, m2.flange_b);
  annotation(experiment(StopTime = 2));
end Partials;
EOF
sim partials --tolerance 1e-10 && values "partials: link, force, one flange and support, sensors" partials <<'PY'
w = math.sqrt(4/3)
x = lambda t: 0.75*(1 - math.cos(w*t))
for name in ("link.flange_b.s", "link.flange_b.f", "link.flange_a.s", "link.flange_a.f", "push.s", "push.s_support",
             "push.f", "anchor.s", "anchor.s_support", "anchor.flange.f", "pos.y", "pos.flange.f", "dist.d"):
    col(name)
near(worst("m1.s", x), 0, 1e-8, "worst error of m1.s")
near(worst("m2.s", lambda t: x(t) + 0.5), 0, 1e-8, "worst error of m2.s (the link's length)")
near(worst("pos.y", lambda t: x(t) + 0.5), 0, 1e-8, "worst error of pos.y")
near(worst("dist.d", lambda t: 0.5), 0, 1e-12, "worst error of dist.d")
near(worst("push.f", lambda t: -3), 0, 0, "push.f")
near(worst("push.s", lambda t: x(t) + 0.5), 0, 1e-8, "push.s (support at 0)")
near(worst("anchor.flange.f", lambda t: 4*x(t)), 0, 4e-8, "anchor.flange.f = c s")
# the link carries what m2 needs: m2 a = -link.flange_b.f + 3
near(max(abs(2*r["m2.a"] - (-r["link.flange_b.f"] + 3)) for r in rows), 0, 1e-8, "force through the link")
near(max(abs(r["link.flange_a.f"] + r["link.flange_b.f"]) for r in rows), 0, 1e-12, "the link is massless")
PY

# ---- PartialRigid: a mass of your own (v = der(s), a = der(v), m a = sum
# of the flange forces) of length 0.2 on a 100 N/m spring, released with
# the spring stretched by 0.1: s = 0.1 + 0.1 cos(10 t)
model rigid <<'EOF'
model Rigid
  model MyMass
    extends Modelica.Mechanics.Translational.Interfaces.PartialRigid;
    parameter Real m = 1;
    Real v(start = 0);
    Real a;
  equation
    v = der(s);
    a = der(v);
    m*a = flange_a.f + flange_b.f;
  end MyMass;
  Modelica.Mechanics.Translational.Components.Fixed fixed;
  Modelica.Mechanics.Translational.Components.Spring spring(c = 100);
  MyMass mass(m = 1, L = 0.2, s(start = 0.2, fixed = true), v(fixed = true));
equation
  connect(fixed.flange, spring.flange_a);
  connect(spring.flange_b, mass.flange_a);
  annotation(experiment(StopTime = 1));
end Rigid;
EOF
sim rigid --tolerance 1e-10 && values "PartialRigid: s = 0.1 + 0.1 cos 10t, flanges at s -+ L/2" rigid <<'PY'
near(worst("mass.s", lambda t: 0.1 + 0.1*math.cos(10*t)), 0, 1e-8, "worst error of mass.s")
near(worst("mass.v", lambda t: -math.sin(10*t)), 0, 1e-7, "worst error of mass.v")
near(max(abs(r["mass.flange_a.s"] - r["mass.s"] + 0.1) for r in rows), 0, 1e-12, "flange_a.s = s - L/2")
near(max(abs(r["mass.flange_b.s"] - r["mass.s"] - 0.1) for r in rows), 0, 1e-12, "flange_b.s = s + L/2")
near(worst("mass.flange_b.f", lambda t: 0), 0, 0, "free flange_b")
PY

# ---- PartialCompliantWithRelativeStates: a spring-damper f = c s_rel +
# d v_rel holding a 1 kg mass, c = 100, d = 2, released from 0.1:
#   x'' + 2 x' + 100 x = 0  =>  x = 0.1 e^-t (cos(w t) + sin(w t)/w), w = sqrt(99)
model coupler <<'EOF'
model Coupled
  model Coupler
    extends Modelica.Mechanics.Translational.Interfaces.PartialCompliantWithRelativeStates;
    parameter Real c = 1;
    parameter Real d = 0;
  equation
    f = c*s_rel + d*v_rel;
  end Coupler;
  Modelica.Mechanics.Translational.Components.Fixed fixed;
  Coupler k(c = 100, d = 2);
  Modelica.Mechanics.Translational.Components.Mass m(m = 1, s(start = 0.1, fixed = true), v(fixed = true));
equation
  connect(fixed.flange, k.flange_a);
  connect(k.flange_b, m.flange_a);
  annotation(experiment(StopTime = 1));
end Coupled;
EOF
sim coupler --tolerance 1e-10 && values "PartialCompliantWithRelativeStates: damped oscillation" coupler <<'PY'
w = math.sqrt(99)
x = lambda t: 0.1*math.exp(-t)*(math.cos(w*t) + math.sin(w*t)/w)
near(worst("m.s", x), 0, 1e-8, "worst error of m.s")
near(worst("k.s_rel", x), 0, 1e-8, "worst error of k.s_rel")
near(max(abs(r["k.v_rel"] - r["m.v"]) for r in rows), 0, 1e-10, "k.v_rel = m.v")
near(max(abs(r["k.f"] - 100*r["k.s_rel"] - 2*r["k.v_rel"]) for r in rows), 0, 1e-9, "k.f = c s_rel + d v_rel")
PY

# ---- PartialElementaryTwoFlangesAndSupport2: a damper d = 2 between two
# 1 kg masses leaving at +1 and -1 m/s, its support connected to a free
# mass (useSupport = true), which the damper's balanced forces leave at rest:
#   v1 = e^-4t, s1 = (1 - e^-4t)/4, and the mirror image for m2.
# PartialElementaryOneFlangeAndSupport2 with its support on a Fixed at 0.25:
# s = flange.s - 0.25, a 4 N/m spring: m3.s = 0.25 + 0.25 cos 2t
model support <<'EOF'
model Support
  import Modelica.Mechanics.Translational.Interfaces;
  import Modelica.Mechanics.Translational.Components;
  model Pair "a damper between the flanges"
    extends Interfaces.PartialElementaryTwoFlangesAndSupport2;
    parameter Real d = 1;
  equation
    flange_b.f = d*(der(s_b) - der(s_a));
    flange_a.f = -flange_b.f;
  end Pair;
  model Anchor
    extends Interfaces.PartialElementaryOneFlangeAndSupport2;
    parameter Real c = 1;
  equation
    flange.f = c*s;
  end Anchor;
  Components.Mass m1(m = 1, s(start = 0, fixed = true), v(start = 1, fixed = true));
  Pair pair(d = 2, useSupport = true);
  Components.Mass m2(m = 1, s(start = 0, fixed = true), v(start = -1, fixed = true));
  Components.Mass base(m = 1, s(start = 0, fixed = true), v(start = 0, fixed = true));
  Anchor anchor(c = 4, useSupport = true);
  Components.Mass m3(m = 1, s(start = 0.5, fixed = true), v(start = 0, fixed = true));
  Components.Fixed fixed(s0 = 0.25);
equation
  connect(m1.flange_b, pair.flange_a);
  connect(pair.flange_b, m2.flange_a);
  connect(pair.support, base.flange_a);
  connect(anchor.flange, m3.flange_a);
  connect(anchor.support, fixed.flange);
  annotation(experiment(StopTime = 1));
end Support;
EOF
sim support --tolerance 1e-10 && values "two flanges and support, one flange and support, useSupport = true" support <<'PY'
near(worst("m1.v", lambda t: math.exp(-4*t)), 0, 1e-8, "worst error of m1.v")
near(worst("m1.s", lambda t: (1 - math.exp(-4*t))/4), 0, 1e-8, "worst error of m1.s")
near(worst("m2.s", lambda t: -(1 - math.exp(-4*t))/4), 0, 1e-8, "worst error of m2.s")
near(worst("base.s", lambda t: 0), 0, 1e-12, "the support's mass stays")
near(max(abs(r["pair.s_a"] - r["m1.s"]) + abs(r["pair.s_b"] - r["m2.s"]) for r in rows), 0, 1e-12, "s_a, s_b from the support at 0")
near(worst("pair.support.f", lambda t: 0), 0, 1e-12, "support.f = -(flange_a.f + flange_b.f) = 0")
near(worst("m3.s", lambda t: 0.25 + 0.25*math.cos(2*t)), 0, 1e-8, "worst error of m3.s")
near(worst("anchor.s", lambda t: 0.25*math.cos(2*t)), 0, 1e-8, "anchor.s relative to the support")
near(worst("anchor.s_support", lambda t: 0.25), 0, 1e-12, "anchor.s_support")
near(max(abs(r["anchor.support.f"] + r["anchor.flange.f"]) for r in rows), 0, 1e-12, "anchor.support.f = -flange.f")
PY

# ---- Blocks.Interfaces: SO, SISO, SI2SO, MISO, MIMO and SignalSource
# written by the user, feeding built-in force sources and fed by built-in
# sources and sensors.
#   wave (SO) 2 sin 3t -> force on a 2 kg mass:  v = (1 - cos 3t)/3, s = t/3 - sin(3t)/9
#   built-in ramp 2t -> gain (SISO, k = 3) -> force on 1 kg: s = t^3
#   built-in position sensor of the first mass -> gain2 (SISO, k = 5)
#   mul (SI2SO) of a built-in constant 2 and a built-in ramp t -> force on 1 kg: s = t^3/3
#   ramp (SignalSource, offset 0.5, from 0.4 on) -> force on 1 kg: v = 0.5 t + (t - 0.4)^2/2 after 0.4
#   sum3 (MISO) of {1, 2, time} -> force on 2 kg: s = 3t^2/4 + t^3/12
#   a SO made of a MIMO y = A u with u = {1, time}: y[2] = 3 + 4t -> force on 2 kg: s = 3t^2/4 + t^3/3
model blocks <<'EOF'
model Blocks
  import Modelica.Blocks.Interfaces;
  import Modelica.Mechanics.Translational.Sources.Force;
  import Modelica.Mechanics.Translational.Components.Mass;
  block Wave "y = amplitude*sin(w t)"
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
  block Mul
    extends Interfaces.SI2SO;
  equation
    y = u1*u2;
  end Mul;
  block RampFrom "a ramp from startTime on"
    extends Interfaces.SignalSource;
  equation
    y = offset + (if time < startTime then 0 else time - startTime);
  end RampFrom;
  block Sum3
    extends Interfaces.MISO(nin = 3);
  equation
    y = sum(u);
  end Sum3;
  block Mat
    extends Interfaces.MIMO(nin = 2, nout = 2);
    parameter Real A[2, 2] = [1, 2; 3, 4];
  equation
    y = A*u;
  end Mat;
  block MatOut "the second output of a MIMO fed with {1, time}"
    extends Interfaces.SO;
    Mat mat;
  equation
    mat.u = {1, time};
    y = mat.y[2];
  end MatOut;
  Wave wave(amplitude = 2, w = 3);
  Force f1;
  Mass m1(m = 2, s(start = 0, fixed = true), v(start = 0, fixed = true));
  Modelica.Mechanics.Translational.Sensors.PositionSensor sensor;
  Gain2 gain2(k = 5);
  Modelica.Blocks.Sources.Ramp ramp2(height = 2, duration = 1);
  Gain2 gain(k = 3);
  Force f2;
  Mass m2(m = 1, s(start = 0, fixed = true), v(start = 0, fixed = true));
  Modelica.Blocks.Sources.Constant two(k = 2);
  Modelica.Blocks.Sources.Ramp ramp1(height = 1, duration = 1);
  Mul mul;
  Force f3;
  Mass m3(m = 1, s(start = 0, fixed = true), v(start = 0, fixed = true));
  RampFrom ramp(offset = 0.5, startTime = 0.4);
  Force f4;
  Mass m4(m = 1, s(start = 0, fixed = true), v(start = 0, fixed = true));
  Sum3 sum3;
  Force f5;
  Mass m5(m = 2, s(start = 0, fixed = true), v(start = 0, fixed = true));
  MatOut matOut;
  Force f6;
  Mass m6(m = 2, s(start = 0, fixed = true), v(start = 0, fixed = true));
equation
  connect(wave.y, f1.f);
  connect(f1.flange, m1.flange_a);
  connect(sensor.flange, m1.flange_b);
  connect(sensor.s, gain2.u);
  connect(ramp2.y, gain.u);
  connect(gain.y, f2.f);
  connect(f2.flange, m2.flange_a);
  connect(two.y, mul.u1);
  connect(ramp1.y, mul.u2);
  connect(mul.y, f3.f);
  connect(f3.flange, m3.flange_a);
  connect(ramp.y, f4.f);
  connect(f4.flange, m4.flange_a);
  sum3.u = {1, 2, time};
  connect(sum3.y, f5.f);
  connect(f5.flange, m5.flange_a);
  connect(matOut.y, f6.f);
  connect(f6.flange, m6.flange_a);
  annotation(experiment(StopTime = 1));
end Blocks;
EOF
sim blocks --tolerance 1e-10 && values "user blocks SO, SISO, SI2SO, MISO, MIMO, SignalSource with built-in blocks" blocks <<'PY'
near(worst("wave.y", lambda t: 2*math.sin(3*t)), 0, 1e-11, "wave.y")
near(worst("m1.v", lambda t: (1 - math.cos(3*t))/3), 0, 1e-8, "m1.v driven by wave")
near(worst("m1.s", lambda t: t/3 - math.sin(3*t)/9), 0, 1e-8, "m1.s driven by wave")
near(max(abs(r["gain2.y"] - 5*r["m1.s"]) for r in rows), 0, 1e-11, "gain2.y = 5 sensor.s")
near(worst("gain.y", lambda t: 6*t), 0, 1e-12, "gain.y = 3 ramp2.y")
near(worst("m2.s", lambda t: t**3), 0, 1e-8, "m2.s driven through gain")
near(worst("mul.y", lambda t: 2*t), 0, 1e-12, "mul.y = 2 t")
near(worst("m3.s", lambda t: t**3/3), 0, 1e-8, "m3.s driven by mul")
near(worst("ramp.y", lambda t: 0.5 + max(t - 0.4, 0)), 0, 1e-12, "ramp.y")
near(worst("m4.v", lambda t: 0.5*t + max(t - 0.4, 0)**2/2), 0, 1e-8, "m4.v driven by ramp")
for i, f in enumerate((lambda t: 1, lambda t: 2, lambda t: t)):
    near(worst("sum3.u[%d]" % (i + 1), f), 0, 1e-12, "sum3.u[%d]" % (i + 1))
near(worst("sum3.y", lambda t: 3 + t), 0, 1e-12, "sum3.y")
near(worst("m5.s", lambda t: 0.75*t*t + t**3/12), 0, 1e-8, "m5.s driven by sum3")
near(worst("matOut.mat.y[1]", lambda t: 1 + 2*t), 0, 1e-12, "matOut.mat.y[1]")
near(worst("matOut.y", lambda t: 3 + 4*t), 0, 1e-12, "matOut.y")
near(worst("m6.s", lambda t: 0.75*t*t + t**3/3), 0, 1e-8, "m6.s driven by the MIMO")
PY

# ---- user equations reading variables of built-in components: positions,
# velocities and accelerations of masses, s_rel and v_rel of springs and
# dampers. A 1 kg mass on a 100 N/m spring and a 2 N.s/m damper from 0.1:
# x = 0.1 e^-t (cos wt + sin(wt)/w), w = sqrt(99); the model's own
# variables are its energy and the damper's power
model reads <<'EOF'
model Reads
  import Modelica.Mechanics.Translational.Components;
  Components.Fixed fixed;
  Components.Spring spring(c = 100);
  Components.Damper damper(d = 2);
  Components.Mass mass(m = 1, s(start = 0.1, fixed = true), v(start = 0, fixed = true));
  Real E "kinetic and stored energy";
  Real P "power of the damper";
  Real acc "mass.a";
  Real edge "mass.flange_b.s";
  Real W(start = 0, fixed = true) "dissipated energy";
equation
  connect(fixed.flange, spring.flange_a);
  connect(fixed.flange, damper.flange_a);
  connect(spring.flange_b, mass.flange_a);
  connect(damper.flange_b, mass.flange_a);
  E = mass.m*mass.v^2/2 + spring.c*spring.s_rel^2/2;
  P = damper.d*damper.v_rel^2;
  der(W) = P;
  acc = mass.a;
  edge = mass.flange_b.s;
  annotation(experiment(StopTime = 1));
end Reads;
EOF
sim reads --tolerance 1e-10 --vars 'E,P,acc,edge,W' && values "user equations read mass.s/v/a, spring.s_rel, damper.v_rel" reads <<'PY'
w = math.sqrt(99)
x = lambda t: 0.1*math.exp(-t)*(math.cos(w*t) + math.sin(w*t)/w)
v = lambda t: -10/w*math.exp(-t)*math.sin(w*t)
check(head == ["time", "E", "P", "acc", "edge", "W"], "columns %s" % head)
near(worst("edge", x), 0, 1e-8, "worst error of mass.flange_b.s")
near(worst("acc", lambda t: -100*x(t) - 2*v(t)), 0, 1e-6, "worst error of mass.a")
near(worst("E", lambda t: v(t)**2/2 + 50*x(t)**2), 0, 1e-8, "worst error of E")
near(worst("P", lambda t: 2*v(t)**2), 0, 1e-7, "worst error of P")
near(col("E")[0], 0.5, 1e-15, "E(0)")
near(max(abs(r["E"] + r["W"] - 0.5) for r in rows), 0, 1e-7, "E + dissipated energy stays 0.5")
PY

# ---- modifiers of variables of user components: the outermost wins
# (declaration start 5 < extends modifier 1 < the instance's 2)
model modprio <<'EOF'
model ModPrio
  model Base
    Real x(start = 5);
  equation
    der(x) = 0;
  end Base;
  model M2
    extends Base(x(start = 1));
  end M2;
  M2 m(x(start = 2, fixed = true));
  Base b(x.start = 3, x.fixed = true);
  annotation(experiment(StopTime = 1));
end ModPrio;
EOF
sim modprio && values "start values of user variables: the outermost modifier wins" modprio <<'PY'
near(col("m.x")[-1], 2, 0, "m.x")
near(col("b.x")[-1], 3, 0, "b.x")
PY

# ---- MSL components pasted as they are written in the MSL (Mass on
# PartialRigid with its extends modifier, SpringDamper with the heat-port
# partial) against flange's own classes in the same oscillator
model verbatim <<'EOF'
model Verbatim
  import SI = Modelica.Units.SI;
  import Modelica.Mechanics.Translational;
  model Mass "Sliding mass with inertia"
    parameter SI.Mass m(min=0, start=1) "Mass of the sliding mass";
    parameter StateSelect stateSelect=StateSelect.default
      "Priority to use s and v as states" annotation (Dialog(tab="Advanced"));
    extends Translational.Interfaces.PartialRigid(L=0, s(start=0, stateSelect=
            stateSelect));
    SI.Velocity v(start=0, stateSelect=stateSelect)
      "Absolute velocity of component";
    SI.Acceleration a(start=0) "Absolute acceleration of component";
  equation
    v = der(s);
    a = der(v);
    m*a = flange_a.f + flange_b.f;
  end Mass;
  model SpringDamper "Linear 1D translational spring and damper in parallel"
    extends Translational.Interfaces.PartialCompliantWithRelativeStates;
    parameter SI.TranslationalSpringConstant c(final min=0, start=1)
      "Spring constant";
    parameter SI.TranslationalDampingConstant d(final min=0, start=1)
      "Damping constant";
    parameter SI.Position s_rel0=0 "Unstretched spring length";
    extends Modelica.Thermal.HeatTransfer.Interfaces.PartialElementaryConditionalHeatPortWithoutT;
  protected
    SI.Force f_c "Spring force";
    SI.Force f_d "Damping force";
  equation
    f_c = c*(s_rel - s_rel0);
    f_d = d*v_rel;
    f = f_c + f_d;
    lossPower = f_d*v_rel;
  end SpringDamper;
  Modelica.Mechanics.Translational.Components.Fixed fixed;
  SpringDamper sd(c = 100, d = 2);
  Mass mass(m = 1, s(start = 0.1, fixed = true), v(start = 0, fixed = true));
  Modelica.Mechanics.Translational.Components.SpringDamper sd2(c = 100, d = 2);
  Modelica.Mechanics.Translational.Components.Mass mass2(m = 1, s(start = 0.1, fixed = true), v(start = 0, fixed = true));
equation
  connect(fixed.flange, sd.flange_a);
  connect(sd.flange_b, mass.flange_a);
  connect(fixed.flange, sd2.flange_a);
  connect(sd2.flange_b, mass2.flange_a);
  annotation(experiment(StopTime = 1));
end Verbatim;
EOF
sim verbatim --tolerance 1e-10 && values "MSL text of Mass and SpringDamper equals flange's classes" verbatim <<'PY'
# damped oscillator: s = 0.1 e^(-t) (cos(w t) + sin(w t)/w), w = sqrt(99)
w = math.sqrt(99)
near(worst("mass.s", lambda t: 0.1*math.exp(-t)*(math.cos(w*t) + math.sin(w*t)/w)), 0, 1e-8, "worst error of mass.s")
near(max(abs(r["mass.s"] - r["mass2.s"]) for r in rows), 0, 1e-8, "the same as flange's own classes")
near(max(abs(r["sd.lossPower"] - 2*r["sd.v_rel"]**2) for r in rows), 0, 1e-9, "lossPower = d v_rel^2")
PY

exit $((fails > 0))
