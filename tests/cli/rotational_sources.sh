#!/usr/bin/env bash
# Modelica.Mechanics.Rotational.Sources (issue 13), written as a user writes
# them with the MSL class names, against closed forms: the torque sources
# on free inertias (their sign conventions, the reaction on a support that
# moves, the speed-dependent laws as ODEs with known solutions and as
# functions of a prescribed speed), and the motion sources (exact and
# filtered Speed and Position, Accelerate, Move, ConstantSpeed) with the
# reaction torques J a; a motion source on a support that moves is refused.
#
# Tolerances: the runs use --tolerance 1e-10; a closed form that the
# integrator has to follow (exponentials, filters) is held to 1e-7 (about
# a thousand times the tolerance over a second of integration: the
# measured errors are 1e-11 .. 3e-8), a polynomial motion (constant torque
# or acceleration, exact in the integrator's polynomials) and a law
# evaluated at a prescribed speed to 1e-9 (measured 1e-12 or less).
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# ---- Torque, Torque2: tau is the torque that accelerates the flange
# (flange.tau = -tau); with a support, the support gets -tau. tau = 2:
#   j1 (J = 0.5) on a grounded Torque:     phi = tau t^2 / (2 J) = 2 t^2
#   jf (J = 1) / js (J = 4) on a Torque with its support on js:
#                                          phi_f = t^2, phi_s = -t^2 / 4
#   ja (J = 2) at flange_a, jb (J = 0.25) at flange_b of a Torque2
#   (flange_a.tau = tau, flange_b.tau = -tau):
#                                          phi_a = -t^2 / 2, phi_b = 4 t^2
# All start at rest: the kinetic energy at t is the work of the sources.
model torques <<'EOF'
model TorqueSources
  import Modelica.Mechanics.Rotational.Components;
  import Modelica.Mechanics.Rotational.Sources;
  Modelica.Blocks.Sources.Constant two(k = 2);
  Sources.Torque torque;
  Components.Inertia j1(J = 0.5, phi(fixed = true), w(fixed = true));
  Sources.Torque torqueS(useSupport = true);
  Components.Inertia jf(J = 1, phi(fixed = true), w(fixed = true));
  Components.Inertia js(J = 4, phi(fixed = true), w(fixed = true));
  Sources.Torque2 torque2;
  Components.Inertia ja(J = 2, phi(fixed = true), w(fixed = true));
  Components.Inertia jb(J = 0.25, phi(fixed = true), w(fixed = true));
equation
  connect(two.y, torque.tau);
  connect(torque.flange, j1.flange_a);
  connect(two.y, torqueS.tau);
  connect(torqueS.flange, jf.flange_a);
  connect(torqueS.support, js.flange_a);
  connect(two.y, torque2.tau);
  connect(torque2.flange_a, ja.flange_b);
  connect(torque2.flange_b, jb.flange_a);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end TorqueSources;
EOF
sim torques --tolerance 1e-10 --energy && values "Torque, Torque2: flange.tau = -tau, the support takes -tau" torques <<'PY'
for name, f in (("j1.phi", lambda x: 2*x*x), ("jf.phi", lambda x: x*x), ("js.phi", lambda x: -x*x/4),
                ("ja.phi", lambda x: -x*x/2), ("jb.phi", lambda x: 4*x*x)):
    near(worst(name, f), 0, 1e-9, "worst error of " + name)
near(worst("torque.flange.tau", lambda x: -2), 0, 0, "torque.flange.tau")
near(worst("torqueS.flange.tau", lambda x: -2), 0, 0, "torqueS.flange.tau")
near(worst("torqueS.support.tau", lambda x: 2), 0, 0, "torqueS.support.tau")
near(worst("torque2.flange_a.tau", lambda x: 2), 0, 0, "torque2.flange_a.tau")
near(worst("torque2.flange_b.tau", lambda x: -2), 0, 0, "torque2.flange_b.tau")
# kinetic energy at t = 1: 0.5 J w^2 summed = 4 + 2 + 0.5 + 1 + 8
near(at("energy.kinetic", 1), 15.5, 1e-8, "kinetic energy at t = 1")
near(at("energy.work", 1), 15.5, 1e-8, "work of the sources at t = 1")
PY

# ---- the torque laws on free inertias, as ODEs J w' = tau(t, w):
#   ConstantTorque 3 on J = 2:               phi = 3 t^2 / 4, w = 1.5 t
#   TorqueStep 0.5 + 2 from t = 0.5, J = 0.5: phi = t^2 / 2 + 2 (t - 0.5)^2 after 0.5
#   LinearSpeedDependentTorque -2 w / 1 (TorqueDirection = false), J = 1,
#     w(0) = 3:                              w = 3 e^(-2t), phi = 1.5 (1 - e^(-2t))
#   ... 1 |w| / 4 (TorqueDirection = true), J = 0.5, w(0) = -2: the torque
#     accelerates whatever the direction, w' = -w/2:   w = -2 e^(-t/2)
#   QuadraticSpeedDependentTorque -(w/1)^2 with the sign of w, J = 1,
#     w(0) = 2: w' = -w^2,                   w = 2 / (1 + 2t), phi = ln(1 + 2t)
#   ... -2 (w/1)^2 (TorqueDirection = true), J = 4, w(0) = -1: w' = -w^2/2
#     speeds it up:                          w = -1 / (1 - t/2), phi = 2 ln(1 - t/2)
#   InverseSpeedDependentTorque 1 * 1 / |w| (w0 = 0.1), J = 1, w(0) = 1:
#     w w' = 1,                              w = sqrt(1 + 2t), phi = ((1 + 2t)^1.5 - 1) / 3
#   SignTorque -1 (Linear, w0 = 0.1), J = 1, w(0) = 1: w = 1 - t until
#     w = w0 at t1 = 0.9 (an event), then w' = -w / w0:
#                                            w = 0.1 e^(-(t - 0.9)/0.1)
model laws <<'EOF'
model TorqueLaws
  import Modelica.Mechanics.Rotational.Components;
  import Modelica.Mechanics.Rotational.Sources;
  Sources.ConstantTorque ct(tau_constant = 3);
  Components.Inertia jc(J = 2, phi(fixed = true), w(fixed = true));
  Sources.TorqueStep ts(stepTorque = 2, offsetTorque = 0.5, startTime = 0.5);
  Components.Inertia jt(J = 0.5, phi(fixed = true), w(fixed = true));
  Sources.LinearSpeedDependentTorque lin(tau_nominal = -2, TorqueDirection = false, w_nominal = 1);
  Components.Inertia jl(J = 1, phi(fixed = true), w(start = 3, fixed = true));
  Sources.LinearSpeedDependentTorque linD(tau_nominal = 1, w_nominal = 4);
  Components.Inertia jld(J = 0.5, phi(fixed = true), w(start = -2, fixed = true));
  Sources.QuadraticSpeedDependentTorque quad(tau_nominal = -1, TorqueDirection = false, w_nominal = 1);
  Components.Inertia jq(J = 1, phi(fixed = true), w(start = 2, fixed = true));
  Sources.QuadraticSpeedDependentTorque quadD(tau_nominal = -2, w_nominal = 1);
  Components.Inertia jqd(J = 4, phi(fixed = true), w(start = -1, fixed = true));
  Sources.InverseSpeedDependentTorque inv(tau_nominal = 1, w_nominal = 1, w0 = 0.1);
  Components.Inertia ji(J = 1, phi(fixed = true), w(start = 1, fixed = true));
  Sources.SignTorque sgn(tau_nominal = -1, reg = Modelica.Blocks.Types.Regularization.Linear, w0 = 0.1);
  Components.Inertia jsg(J = 1, phi(fixed = true), w(start = 1, fixed = true));
equation
  connect(ct.flange, jc.flange_a);
  connect(ts.flange, jt.flange_a);
  connect(lin.flange, jl.flange_a);
  connect(linD.flange, jld.flange_a);
  connect(quad.flange, jq.flange_a);
  connect(quadD.flange, jqd.flange_a);
  connect(inv.flange, ji.flange_a);
  connect(sgn.flange, jsg.flange_a);
  annotation(experiment(StopTime = 1.5, Interval = 0.01));
end TorqueLaws;
EOF
sim laws --tolerance 1e-10 && values "torque laws on inertias: closed forms of J w' = tau(t, w)" laws <<'PY'
exp, log, sqrt = math.exp, math.log, math.sqrt
near(worst("jc.phi", lambda x: 0.75*x*x), 0, 1e-9, "ConstantTorque: jc.phi")
near(worst("ct.w", lambda x: 1.5*x), 0, 1e-9, "ConstantTorque: ct.w (= der(ct.phi))")
near(worst("ct.phi", lambda x: 0.75*x*x), 0, 1e-9, "ConstantTorque: ct.phi (= flange.phi)")
near(worst("ct.tau", lambda x: 3), 0, 0, "ConstantTorque: ct.tau = tau_constant")
near(worst("ct.flange.tau", lambda x: -3), 0, 0, "ConstantTorque: ct.flange.tau = -tau_constant")
near(worst("jt.phi", lambda x: x*x/2 + (2*(x - 0.5)**2 if x > 0.5 else 0)), 0, 1e-9, "TorqueStep: jt.phi")
near(at("ts.tau", 0.5, 0), 0.5, 0, "TorqueStep: ts.tau before the step")
near(at("ts.tau", 0.5, -1), 2.5, 0, "TorqueStep: ts.tau after the step")
near(worst("jl.w", lambda x: 3*exp(-2*x)), 0, 1e-7, "Linear, TorqueDirection = false: jl.w")
near(worst("jl.phi", lambda x: 1.5*(1 - exp(-2*x))), 0, 1e-7, "Linear, TorqueDirection = false: jl.phi")
near(worst("lin.tau", lambda x: -6*exp(-2*x)), 0, 1e-7, "Linear, TorqueDirection = false: lin.tau = -2 w")
near(worst("jld.w", lambda x: -2*exp(-x/2)), 0, 1e-7, "Linear, TorqueDirection = true: jld.w")
near(worst("linD.tau", lambda x: 0.5*exp(-x/2)), 0, 1e-7, "Linear, TorqueDirection = true: linD.tau = |w|/4 > 0")
near(worst("jq.w", lambda x: 2/(1 + 2*x)), 0, 1e-7, "Quadratic, TorqueDirection = false: jq.w")
near(worst("jq.phi", lambda x: log(1 + 2*x)), 0, 1e-7, "Quadratic, TorqueDirection = false: jq.phi")
# (w runs away as -1/(1 - t/2): each inertia is an independent group with
# its own step size, and this one alone ends 1.02e-7 from the closed form
# at the tolerance 1e-10 - as the model with nothing else in it does)
near(worst("jqd.w", lambda x: -1/(1 - x/2)), 0, 2e-7, "Quadratic, TorqueDirection = true: jqd.w")
near(worst("jqd.phi", lambda x: 2*log(1 - x/2)), 0, 2e-7, "Quadratic, TorqueDirection = true: jqd.phi")
near(worst("ji.w", lambda x: sqrt(1 + 2*x)), 0, 1e-7, "Inverse: ji.w")
near(worst("ji.phi", lambda x: ((1 + 2*x)**1.5 - 1)/3), 0, 1e-7, "Inverse: ji.phi")
near(worst("jsg.w", lambda x: 1 - x if x <= 0.9 else 0.1*exp(-(x - 0.9)/0.1)), 0, 1e-7, "SignTorque: jsg.w")
near(worst("jsg.phi", lambda x: x - x*x/2 if x <= 0.9 else 0.495 + 0.01*(1 - exp(-(x - 0.9)/0.1))), 0, 1e-7,
     "SignTorque: jsg.phi")
PY

# ---- the laws as functions of the speed: an exact Speed source sweeps the
# flange from w = -0.3 to 0.3 rad/s (a ramp over 1 s) through every branch;
# each source's tau is its MSL law of w. Inverse with TorqueDirection = false
# jumps where |w| crosses w0 (0.5 w/w0 = 0.5 inside, 0.5*0.2/w = 1 outside):
# the two rows of each event are the two sides.
model ofspeed <<'EOF'
model TorqueLawsOfSpeed
  import Modelica.Mechanics.Rotational.Sources;
  import Modelica.Blocks.Types.Regularization;
  Modelica.Blocks.Sources.Ramp ramp(height = 0.6, offset = -0.3, duration = 1);
  Sources.Speed speed(exact = true);
  Modelica.Mechanics.Rotational.Components.Inertia shaft(J = 1);
  Sources.SignTorque sExp(tau_nominal = 2, w0 = 0.1);
  Sources.SignTorque sSine(tau_nominal = 2, reg = Regularization.Sine, w0 = 0.1);
  Sources.SignTorque sLin(tau_nominal = 2, reg = Regularization.Linear, w0 = 0.1);
  Sources.SignTorque sCos(tau_nominal = 2, reg = Regularization.Cosine, w0 = 0.1);
  Sources.InverseSpeedDependentTorque invD(tau_nominal = 0.5, w_nominal = 0.2, w0 = 0.1);
  Sources.InverseSpeedDependentTorque inv(tau_nominal = 0.5, TorqueDirection = false, w_nominal = 0.2, w0 = 0.1);
  Sources.LinearSpeedDependentTorque linD(tau_nominal = 3, w_nominal = 0.3);
  Sources.QuadraticSpeedDependentTorque quad(tau_nominal = 3, TorqueDirection = false, w_nominal = 0.3);
equation
  connect(ramp.y, speed.w_ref);
  connect(speed.flange, shaft.flange_a);
  connect(shaft.flange_b, sExp.flange);
  connect(shaft.flange_b, sSine.flange);
  connect(shaft.flange_b, sLin.flange);
  connect(shaft.flange_b, sCos.flange);
  connect(shaft.flange_b, invD.flange);
  connect(shaft.flange_b, inv.flange);
  connect(shaft.flange_b, linD.flange);
  connect(shaft.flange_b, quad.flange);
  annotation(experiment(StopTime = 1, Interval = 0.01));
end TorqueLawsOfSpeed;
EOF
sim ofspeed --tolerance 1e-10 && values "torque laws of the speed: SignTorque (4 regularizations), Inverse, Linear, Quadratic" ofspeed <<'PY'
pi, exp, sin, cos = math.pi, math.exp, math.sin, math.cos
sg = lambda x: (x > 0) - (x < 0)
w = col("speed.w")
near(worst("speed.w", lambda x: -0.3 + 0.6*x), 0, 1e-9, "speed.w")
laws = {
    "sExp": lambda v: 2*(2/(1 + exp(-v/(0.01*0.1))) - 1),
    "sSine": lambda v: 2*(sg(v) if abs(v) >= 0.1 else sin(pi/2*v/0.1)),
    "sLin": lambda v: 2*(sg(v) if abs(v) >= 0.1 else v/0.1),
    "sCos": lambda v: 2*(sg(v) if abs(v) >= 0.1 else sg(v)*(1 - cos(pi/2*v/0.1))),
    "invD": lambda v: 0.5*0.2/0.1 if abs(v) < 0.1 else 0.5*0.2/abs(v),
    "inv": lambda v: 0.5*v/0.1 if abs(v) < 0.1 else 0.5*0.2/v,
    "linD": lambda v: 3*abs(v/0.3),
    "quad": lambda v: 3*(v/0.3)**2*sg(v),
}
ev = [t[i] for i in range(1, len(t)) if t[i] == t[i - 1]]
check(len(ev) == 2 and abs(ev[0] - 1/3) < 1e-9 and abs(ev[1] - 2/3) < 1e-9, "events where |w| = w0: %s" % ev)
rows = [i for i in range(len(t)) if t[i] not in ev]
for k, f in laws.items():
    c, cw = col(k + ".tau"), col(k + ".w")
    near(max(abs(c[i] - f(w[i])) for i in rows), 0, 1e-9, k + ".tau against its law (worst)")
    near(max(abs(cw[i] - w[i]) for i in rows), 0, 0, k + ".w")
near(at("inv.tau", ev[0], 0), -1, 1e-9, "inv.tau as w reaches -w0")
near(at("inv.tau", ev[0], -1), -0.5, 1e-9, "inv.tau inside |w| < w0")
near(at("inv.tau", ev[1], 0), 0.5, 1e-9, "inv.tau as w reaches w0")
near(at("inv.tau", ev[1], -1), 1, 1e-9, "inv.tau outside again")
PY

# ---- motion sources (supports grounded), each on an inertia whose flange
# torque is the reaction J a:
#   Speed exact, w_ref = 2 sin(3t), J = 0.5: phi = 2/3 (1 - cos 3t), a = 6 cos 3t,
#     speed.flange.tau = -J a; speed.a is 0 (the MSL's placeholder when exact)
#   Speed filtered (f_crit = 2 Hz, wc = 4 pi), w_ref a step of 1.5 at 0.2:
#     starts at w = w_ref(0) = 0; after the step w = 1.5 (1 - e^(-wc tau)),
#     phi = 1.5 (tau - (1 - e^(-wc tau)) / wc), a = 1.5 wc e^(-wc tau) (tau = t - 0.2)
#   Position exact, phi_ref = 0.1 + 0.4 sin(2 pi t), J = 2: w, a its derivatives,
#     pos.flange.tau = -J a; pos.w = pos.a = 0 (placeholders)
#   Position filtered (f_crit = 5 Hz, wc = 10 pi), phi_ref = 0.25 stepping by 1
#     at 0.2: starts at phi = phi_ref(0) = 0.25, w = 0; the step response of
#     1 / (1 + (af/wc) s + (bf/wc^2) s^2), af = 1.3617, bf = 0.6180, whose
#     poles are -sig +- i wd (sig = wc af / (2 bf), wd = wc sqrt(4 bf - af^2) / (2 bf)):
#     phi = 0.25 + 1 - e^(-sig tau) (cos wd tau + sig/wd sin wd tau),
#     w = e^(-sig tau) (sig^2/wd + wd) sin wd tau
#   Accelerate a_ref = 4, J = 3: phi = 2 t^2, w = 4 t, flange.tau = -12
#   ConstantSpeed 0.7 through an inertia into a damper (d = 3) to ground:
#     phi = 0.7 t; the source holds d w = 2.1 N.m: cs.flange.tau = -2.1
model motion <<'EOF'
model MotionSources
  import Modelica.Mechanics.Rotational.Components;
  import Modelica.Mechanics.Rotational.Sources;
  import Modelica.Constants.pi;
  Modelica.Blocks.Sources.Sine sine(amplitude = 2, f = 3/(2*pi));
  Sources.Speed speed(exact = true);
  Components.Inertia j1(J = 0.5);
  Modelica.Blocks.Sources.Step step(height = 1.5, startTime = 0.2);
  Sources.Speed speedF(f_crit = 2);
  Components.Inertia j2(J = 1);
  Modelica.Blocks.Sources.Sine sinP(amplitude = 0.4, f = 1, offset = 0.1);
  Sources.Position pos(exact = true);
  Components.Inertia j3(J = 2);
  Modelica.Blocks.Sources.Step stepP(height = 1, offset = 0.25, startTime = 0.2);
  Sources.Position posF(f_crit = 5);
  Components.Inertia j4(J = 1);
  Modelica.Blocks.Sources.Constant aref(k = 4);
  Sources.Accelerate acc;
  Components.Inertia j5(J = 3);
  Sources.ConstantSpeed cs(w_fixed = 0.7);
  Components.Inertia j6(J = 1);
  Components.Damper damper(d = 3);
  Components.Fixed fixed;
equation
  connect(sine.y, speed.w_ref);
  connect(speed.flange, j1.flange_a);
  connect(step.y, speedF.w_ref);
  connect(speedF.flange, j2.flange_a);
  connect(sinP.y, pos.phi_ref);
  connect(pos.flange, j3.flange_a);
  connect(stepP.y, posF.phi_ref);
  connect(posF.flange, j4.flange_a);
  connect(aref.y, acc.a_ref);
  connect(acc.flange, j5.flange_a);
  connect(cs.flange, j6.flange_a);
  connect(j6.flange_b, damper.flange_b);
  connect(damper.flange_a, fixed.flange);
  annotation(experiment(StopTime = 1, Interval = 0.01));
end MotionSources;
EOF
sim motion --tolerance 1e-10 && values "Speed, Position (exact and filtered), Accelerate, ConstantSpeed: motions and reactions" motion <<'PY'
pi, exp, sin, cos, sqrt = math.pi, math.exp, math.sin, math.cos, math.sqrt
near(worst("j1.w", lambda x: 2*sin(3*x)), 0, 1e-9, "Speed exact: j1.w")
near(worst("j1.phi", lambda x: 2/3*(1 - cos(3*x))), 0, 1e-7, "Speed exact: j1.phi")
near(worst("speed.phi", lambda x: 2/3*(1 - cos(3*x))), 0, 1e-7, "Speed exact: speed.phi")
near(worst("j1.a", lambda x: 6*cos(3*x)), 0, 1e-9, "Speed exact: j1.a")
near(worst("speed.flange.tau", lambda x: -3*cos(3*x)), 0, 1e-9, "Speed exact: speed.flange.tau = -J a")
near(worst("speed.a", lambda x: 0), 0, 0, "Speed exact: speed.a = 0")
wc = 4*pi
tau = lambda x: max(x - 0.2, 0)
near(worst("j2.w", lambda x: 1.5*(1 - exp(-wc*tau(x)))), 0, 1e-7, "Speed filtered: j2.w")
near(worst("speedF.w", lambda x: 1.5*(1 - exp(-wc*tau(x)))), 0, 1e-7, "Speed filtered: speedF.w")
near(worst("j2.phi", lambda x: 1.5*(tau(x) - (1 - exp(-wc*tau(x)))/wc)), 0, 1e-7, "Speed filtered: j2.phi")
near(worst("speedF.a", lambda x: 1.5*wc*exp(-wc*tau(x)), 0.21), 0, 1e-7, "Speed filtered: speedF.a after the step")
w = 2*pi
near(worst("j3.phi", lambda x: 0.1 + 0.4*sin(w*x)), 0, 1e-9, "Position exact: j3.phi")
near(worst("j3.w", lambda x: 0.4*w*cos(w*x)), 0, 1e-9, "Position exact: j3.w")
near(worst("j3.a", lambda x: -0.4*w*w*sin(w*x)), 0, 1e-9, "Position exact: j3.a")
near(worst("pos.flange.tau", lambda x: 0.8*w*w*sin(w*x)), 0, 1e-9, "Position exact: pos.flange.tau = -J a")
near(worst("pos.w", lambda x: 0) + worst("pos.a", lambda x: 0), 0, 0, "Position exact: pos.w = pos.a = 0")
wc, af, bf = 10*pi, 1.3617, 0.6180
sig, wd = wc*af/(2*bf), wc*sqrt(4*bf - af*af)/(2*bf)
near(worst("j4.phi", lambda x: 1.25 - exp(-sig*tau(x))*(cos(wd*tau(x)) + sig/wd*sin(wd*tau(x)))), 0, 1e-7,
     "Position filtered: j4.phi")
near(worst("posF.w", lambda x: exp(-sig*tau(x))*(sig*sig/wd + wd)*sin(wd*tau(x))), 0, 1e-7, "Position filtered: posF.w")
near(at("j4.phi", 0), 0.25, 1e-12, "Position filtered: starts at phi_ref")
near(worst("j5.phi", lambda x: 2*x*x), 0, 1e-9, "Accelerate: j5.phi")
near(worst("acc.w", lambda x: 4*x), 0, 1e-9, "Accelerate: acc.w")
near(worst("acc.a", lambda x: 4), 0, 0, "Accelerate: acc.a")
near(worst("acc.flange.tau", lambda x: -12), 0, 1e-9, "Accelerate: acc.flange.tau = -J a")
near(worst("j6.phi", lambda x: 0.7*x), 0, 1e-9, "ConstantSpeed: j6.phi")
near(worst("cs.w", lambda x: 0.7), 0, 0, "ConstantSpeed: cs.w")
near(worst("cs.flange.tau", lambda x: -2.1), 0, 1e-9, "ConstantSpeed: cs.flange.tau holds the damper")
near(worst("fixed.flange.tau", lambda x: 2.1), 0, 1e-9, "ConstantSpeed: the damper's torque on the ground")
PY

# ---- Move with consistent signals (angle sin 2 pi t and its derivatives);
# a Position relative to a support fixed at phi0 = 0.3 (phi = flange.phi -
# support.phi; the support takes the reaction); a ConstantTorque (2 N.m)
# between jf (J = 1) and its support on js (J = 4), both free:
#   phi_f = t^2, phi_s = -t^2/4, ct.phi = phi_f - phi_s = 1.25 t^2, ct.w = 2.5 t
model supports <<'EOF'
model MotionSupport
  import Modelica.Mechanics.Rotational.Components;
  import Modelica.Mechanics.Rotational.Sources;
  import Modelica.Constants.pi;
  Modelica.Blocks.Sources.Sine u1(amplitude = 1, f = 1);
  Modelica.Blocks.Sources.Sine u2(amplitude = 2*pi, f = 1, phase = pi/2);
  Modelica.Blocks.Sources.Sine u3(amplitude = 4*pi^2, f = 1, phase = pi);
  Sources.Move move;
  Components.Inertia jm(J = 0.5);
  Modelica.Blocks.Sources.Sine sinP(amplitude = 0.4, f = 1);
  Sources.Position pos(exact = true, useSupport = true);
  Components.Fixed frame(phi0 = 0.3);
  Components.Inertia arm(J = 2);
  Sources.ConstantTorque ct(tau_constant = 2, useSupport = true);
  Components.Inertia jf(J = 1, phi(fixed = true), w(fixed = true));
  Components.Inertia js(J = 4, phi(fixed = true), w(fixed = true));
equation
  connect(u1.y, move.u[1]);
  connect(u2.y, move.u[2]);
  connect(u3.y, move.u[3]);
  connect(move.flange, jm.flange_a);
  connect(frame.flange, pos.support);
  connect(sinP.y, pos.phi_ref);
  connect(pos.flange, arm.flange_a);
  connect(ct.flange, jf.flange_a);
  connect(ct.support, js.flange_a);
  annotation(experiment(StopTime = 1, Interval = 0.01));
end MotionSupport;
EOF
sim supports --tolerance 1e-10 && values "Move; Position on a support at 0.3 rad; ConstantTorque between two free inertias" supports <<'PY'
w, sin, cos = 2*math.pi, math.sin, math.cos
near(worst("jm.phi", lambda x: sin(w*x)), 0, 1e-9, "Move: jm.phi")
near(worst("move.phi", lambda x: sin(w*x)), 0, 1e-9, "Move: move.phi")
near(worst("jm.w", lambda x: w*cos(w*x)), 0, 1e-9, "Move: jm.w = u[2]")
near(worst("jm.a", lambda x: -w*w*sin(w*x)), 0, 1e-9, "Move: jm.a = u[3]")
near(worst("move.flange.tau", lambda x: 0.5*w*w*sin(w*x)), 0, 1e-9, "Move: move.flange.tau = -J a")
near(worst("arm.phi", lambda x: 0.3 + 0.4*sin(w*x)), 0, 1e-9, "Position with support: arm.phi = phi0 + phi_ref")
near(worst("pos.phi", lambda x: 0.4*sin(w*x)), 0, 1e-9, "Position with support: pos.phi relative")
near(worst("pos.support.tau", lambda x: -0.8*w*w*sin(w*x)), 0, 1e-9, "Position with support: support.tau = -flange.tau")
near(worst("jf.phi", lambda x: x*x), 0, 1e-9, "ConstantTorque with support: jf.phi")
near(worst("js.phi", lambda x: -x*x/4), 0, 1e-9, "ConstantTorque with support: js.phi")
near(worst("ct.phi", lambda x: 1.25*x*x), 0, 1e-9, "ConstantTorque with support: ct.phi")
near(worst("ct.w", lambda x: 2.5*x), 0, 1e-9, "ConstantTorque with support: ct.w")
near(worst("ct.support.tau", lambda x: 2), 0, 0, "ConstantTorque with support: support.tau")
PY

# ---- start values of the sources' phi and w: ConstantTorque 1 on J = 1
# from w = 1 (given on the source): phi = t + t^2/2
model starts <<'EOF'
model SourceStarts
  Modelica.Mechanics.Rotational.Sources.ConstantTorque ct(tau_constant = 1, w(start = 1, fixed = true));
  Modelica.Mechanics.Rotational.Components.Inertia j(J = 1, phi(fixed = true));
equation
  connect(ct.flange, j.flange_a);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end SourceStarts;
EOF
sim starts --tolerance 1e-10 && values "ConstantTorque: w(start, fixed) on the source" starts <<'PY'
near(worst("j.phi", lambda x: x + x*x/2), 0, 1e-9, "j.phi")
PY

# ---- what flange refuses: a motion source on a support that moves (a free
# housing); the filtered Position's initial equation named in rotational terms
model movingsupport <<'EOF'
model MovingSupport
  Modelica.Mechanics.Rotational.Components.Inertia housing(J = 3, phi(fixed = true), w(fixed = true));
  Modelica.Mechanics.Rotational.Components.Inertia rotor(J = 1);
  Modelica.Blocks.Sources.Constant aref(k = 4);
  Modelica.Mechanics.Rotational.Sources.Accelerate acc(useSupport = true);
equation
  connect(aref.y, acc.a_ref);
  connect(acc.support, housing.flange_a);
  connect(acc.flange, rotor.flange_a);
end MovingSupport;
EOF
expect movingsupport 1 -- "movingsupport.mo:5:52: error: acc: a support that moves is not supported for prescribed-motion sources; connect acc.support to a Fixed"
model posinit <<'EOF'
model PosInit
  Modelica.Mechanics.Rotational.Components.Inertia rotor(J = 1, phi(start = 1, fixed = true));
  Modelica.Blocks.Sources.Constant ref(k = 4);
  Modelica.Mechanics.Rotational.Sources.Position pos;
equation
  connect(ref.y, pos.phi_ref);
  connect(pos.flange, rotor.flange_a);
end PosInit;
EOF
expect posinit 1 -- "posinit.mo:4:50: error: initial conditions are over-determined: pos.phi = phi_ref (initial equation) is redundant (it is already determined by the other conditions and the model); remove fixed = true from it"

exit $((fails > 0))
