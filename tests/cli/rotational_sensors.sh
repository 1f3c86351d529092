#!/usr/bin/env bash
# Modelica.Mechanics.Rotational.Sensors (issue 13) against known motions:
# absolute and relative angle, speed and acceleration of shafts driven by
# an exact Position and a ConstantSpeed; the cut torque and the power
# (= tau w) through torque, power and multi sensors in both directions of
# the torque flow; sensor outputs feeding torques back (closed forms of
# the resulting ODEs); a sensor on a node whose speed is undetermined.
#
# Tolerances (runs at --tolerance 1e-10): values of prescribed motions and
# of polynomial motions are exact up to rounding and the integrator's
# error on polynomials (measured 5e-11 or less): 1e-9; the exponential and
# the oscillation of the feedback loops follow the integrator: 1e-7.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# ---- a known motion: arm at phi = 0.1 + 0.4 sin(2 pi t) (exact Position),
# cs.flange at phi = 0.7 t (ConstantSpeed); the relative sensors measure
# flange_b - flange_a = cs - arm.
# Through sensors: a ConstantTorque of 3 N.m drives, through torque, power
# and multi sensors in a row, an inertia J = 2 from rest: w = 1.5 t; the
# cut torque tau = flange_a.tau = 3 (positive: the torque flows from a to
# b), power = tau w = 4.5 t. A power sensor turned round (its flange_b on
# the source's side) measures -tau and -power.
model sensors <<'EOF'
model Sensors
  import Modelica.Mechanics.Rotational.Components;
  import Modelica.Mechanics.Rotational.Sources;
  import Modelica.Mechanics.Rotational.Sensors;
  Modelica.Blocks.Sources.Sine sinP(amplitude = 0.4, f = 1, offset = 0.1);
  Sources.Position pos(exact = true);
  Components.Inertia arm(J = 2);
  Sources.ConstantSpeed cs(w_fixed = 0.7);
  Sensors.AngleSensor angle;
  Sensors.SpeedSensor speed;
  Sensors.AccSensor acc;
  Sensors.RelAngleSensor relAngle;
  Sensors.RelSpeedSensor relSpeed;
  Sensors.RelAccSensor relAcc;
  Sources.ConstantTorque ct(tau_constant = 3);
  Sensors.TorqueSensor torque;
  Sensors.PowerSensor power;
  Sensors.MultiSensor multi;
  Sensors.MultiSensor reversed;
  Components.Inertia load(J = 2, phi(fixed = true), w(fixed = true));
equation
  connect(sinP.y, pos.phi_ref);
  connect(pos.flange, arm.flange_a);
  connect(arm.flange_b, angle.flange);
  connect(arm.flange_b, speed.flange);
  connect(arm.flange_b, acc.flange);
  connect(arm.flange_b, relAngle.flange_a);
  connect(cs.flange, relAngle.flange_b);
  connect(arm.flange_b, relSpeed.flange_a);
  connect(cs.flange, relSpeed.flange_b);
  connect(arm.flange_b, relAcc.flange_a);
  connect(cs.flange, relAcc.flange_b);
  connect(ct.flange, torque.flange_a);
  connect(torque.flange_b, power.flange_a);
  connect(power.flange_b, multi.flange_a);
  connect(multi.flange_b, reversed.flange_b);
  connect(reversed.flange_a, load.flange_a);
  annotation(experiment(StopTime = 1, Interval = 0.01));
end Sensors;
EOF
sim sensors --tolerance 1e-10 && values "sensors: angle, speed, acceleration (absolute, relative), torque, power, multi" sensors <<'PY'
w, sin, cos = 2*math.pi, math.sin, math.cos
P = lambda x: 0.1 + 0.4*sin(w*x)
W = lambda x: 0.4*w*cos(w*x)
A = lambda x: -0.4*w*w*sin(w*x)
near(worst("angle.phi", P), 0, 1e-9, "AngleSensor: phi")
near(worst("speed.w", W), 0, 1e-9, "SpeedSensor: w")
near(worst("acc.a", A), 0, 1e-9, "AccSensor: a")
near(worst("acc.w", W), 0, 1e-9, "AccSensor: w")
near(worst("relAngle.phi_rel", lambda x: 0.7*x - P(x)), 0, 1e-9, "RelAngleSensor: phi_rel = flange_b.phi - flange_a.phi")
near(worst("relSpeed.w_rel", lambda x: 0.7 - W(x)), 0, 1e-9, "RelSpeedSensor: w_rel")
near(worst("relSpeed.phi_rel", lambda x: 0.7*x - P(x)), 0, 1e-9, "RelSpeedSensor: phi_rel")
near(worst("relAcc.a_rel", lambda x: -A(x)), 0, 1e-9, "RelAccSensor: a_rel")
near(worst("relAcc.w_rel", lambda x: 0.7 - W(x)), 0, 1e-9, "RelAccSensor: w_rel")
for s in ("angle.flange", "relAngle.flange_a", "relSpeed.flange_b", "relAcc.flange_a"):
    near(worst(s + ".tau", lambda x: 0), 0, 0, s + ".tau (a sensor puts no torque on its flanges)")
near(worst("load.w", lambda x: 1.5*x), 0, 1e-9, "load.w")
near(worst("torque.tau", lambda x: 3), 0, 1e-12, "TorqueSensor: tau")
near(worst("power.power", lambda x: 4.5*x), 0, 1e-9, "PowerSensor: power = tau w")
near(worst("multi.tau", lambda x: 3), 0, 1e-12, "MultiSensor: tau")
near(worst("multi.w", lambda x: 1.5*x), 0, 1e-9, "MultiSensor: w")
near(worst("multi.power", lambda x: 4.5*x), 0, 1e-9, "MultiSensor: power")
near(worst("reversed.tau", lambda x: -3), 0, 1e-12, "MultiSensor turned round: tau")
near(worst("reversed.power", lambda x: -4.5*x), 0, 1e-9, "MultiSensor turned round: power")
PY

# ---- sensor outputs drive torques:
#   a SpeedSensor feeding a Torque: J w' = w, J = 2, w(0) = 1: w = e^(t/2)
#   an AngleSensor through a gain of -k (k = 4) feeding a Torque: J phi'' =
#   -k phi, J = 1, phi(0) = 0.5: phi = 0.5 cos(2 t)
#   a RelSpeedSensor across a shaft and ground (w_rel = 0 - w) as a torque:
#   J w' = -w, J = 1, w(0) = 2: w = 2 e^(-t) (a damper made of signals)
model feedback <<'EOF'
model SensorFeedback
  import Modelica.Mechanics.Rotational.Components;
  import Modelica.Mechanics.Rotational.Sources;
  import Modelica.Mechanics.Rotational.Sensors;
  Components.Inertia j1(J = 2, phi(fixed = true), w(start = 1, fixed = true));
  Sensors.SpeedSensor speed;
  Sources.Torque t1;
  Components.Inertia j2(J = 1, phi(start = 0.5, fixed = true), w(fixed = true));
  Sensors.AngleSensor angle;
  Modelica.Blocks.Math.Gain k(k = -4);
  Sources.Torque t2;
  Components.Inertia j3(J = 1, phi(fixed = true), w(start = 2, fixed = true));
  Components.Fixed fixed;
  Sensors.RelSpeedSensor rel;
  Sources.Torque t3;
equation
  connect(j1.flange_b, speed.flange);
  connect(speed.w, t1.tau);
  connect(t1.flange, j1.flange_a);
  connect(j2.flange_b, angle.flange);
  connect(angle.phi, k.u);
  connect(k.y, t2.tau);
  connect(t2.flange, j2.flange_a);
  connect(j3.flange_b, rel.flange_a);
  connect(fixed.flange, rel.flange_b);
  connect(rel.w_rel, t3.tau);
  connect(t3.flange, j3.flange_a);
  annotation(experiment(StopTime = 2, Interval = 0.01));
end SensorFeedback;
EOF
sim feedback --tolerance 1e-10 && values "sensor outputs fed back as torques: closed forms" feedback <<'PY'
near(worst("j1.w", lambda x: math.exp(x/2)), 0, 1e-7, "SpeedSensor -> Torque: j1.w")
near(worst("j2.phi", lambda x: 0.5*math.cos(2*x)), 0, 1e-7, "AngleSensor -> gain -> Torque: j2.phi")
near(worst("j3.w", lambda x: 2*math.exp(-x)), 0, 1e-7, "RelSpeedSensor -> Torque: j3.w")
PY

# ---- a speed sensor on a massless node between a spring and nothing else:
# its speed is not determined
model massless <<'EOF'
model Massless
  Modelica.Mechanics.Rotational.Components.Fixed fixed;
  Modelica.Mechanics.Rotational.Components.Spring spring(c = 100);
  Modelica.Mechanics.Rotational.Sensors.SpeedSensor speed;
equation
  connect(fixed.flange, spring.flange_a);
  connect(spring.flange_b, speed.flange);
end Massless;
EOF
expect massless 1 -- "massless.mo:4:53: error: speed needs the velocity of {spring.flange_b, speed.flange}, a massless node between springs whose velocity is not determined; add a mass or a damper there"

exit $((fails > 0))
