#!/usr/bin/env bash
# The MSL's own Rotational example texts and the ModelicaTest.Rotational
# test models, run as the MSL has them (issue 13): each defect they showed,
# reproduced by a small model written here (no MSL text is copied).
#
#  - a file within Modelica.Mechanics.Rotational.Examples: relative names
#    (Rotational.Components.Inertia, Components.Spring, SI.Torque,
#    Modelica.Icons.Example, Blocks.Sources.Constant, Thermal...) resolve
#    as in the MSL
#  - the input/output blocks of Examples.Utilities (GenerationOfFMUs) are
#    flange's classes; a file within Examples.Utilities names them bare
#  - Components.FreeWheel (DemoFreeWheel)
#  - connect() of a connector of an array of components (sine.y of sine[3]),
#    as a vector, to a vector input or another array (AllComponents)
#  - an IdealGear of ratio 1 on a support: the support is not in the
#    relation (SupportTorque1)
#  - SpringDamper's a_rel(fixed = true) (InitializationConversion)
#  - a gear on a fixed support feeding a planetary gear whose ring is
#    damped: the shaft between them is moved by two constraints
#    (AllComponents); it was singular after every event
#  - --model with the full name of a model of a package file (within
#    ModelicaTest; package Rotational ...)
#  - messages: names MSL 4 renamed (freqHz, mue_pos), the classes of
#    libraries flange lacks (Thermal), the energy warning of a Move whose
#    inputs are not each other's derivatives
#
# Tolerances: runs at --tolerance 1e-10 against closed forms: 1e-7 unless
# said (the FreeWheel's residual slip and friction are 1e-5 by design).
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

MRC=Modelica.Mechanics.Rotational.Components

# ---- a model written within Modelica.Mechanics.Rotational.Examples, with
# the relative names of the MSL's own examples. Torque T = 2 on an inertia
# J1 = 0.5 tied by a spring (c = 200) to J2 = 1.5, both from rest: the
# centre of mass accelerates with T/(J1 + J2), the spring oscillates about
# it with omega = sqrt(c (J1 + J2)/(J1 J2)), amplitude T J2 / (c (J1 + J2)):
#   phi_rel = phi2 - phi1 = -(T J2/(c (J1+J2))) (1 - cos(omega t))
model within <<'EOF'
within Modelica.Mechanics.Rotational.Examples;
model WithinExamples "relative names as the MSL's examples write them"
  extends Modelica.Icons.Example;
  import Modelica.Constants.pi;
  parameter SI.Torque T = 2 "driving torque";
  parameter SI.Inertia J1 = 0.5;
  output SI.AngularVelocity w1 = inertia1.w;
  Blocks.Sources.Constant const(k = T);
  Sources.Torque torque(useSupport = true);
  Rotational.Components.Fixed fixed;
  Rotational.Components.Inertia inertia1(J = J1, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  Components.Spring spring(c = 200, phi_rel(fixed = true, start = 0));
  Modelica.Mechanics.Rotational.Components.Inertia inertia2(J = 1.5, w(fixed = true, start = 0));
  Sensors.SpeedSensor speed;
equation
  connect(const.y, torque.tau);
  connect(torque.support, fixed.flange);
  connect(torque.flange, inertia1.flange_a);
  connect(inertia1.flange_b, spring.flange_a);
  connect(spring.flange_b, inertia2.flange_a);
  connect(inertia2.flange_b, speed.flange);
  annotation (experiment(StopTime = 1, Interval = 0.01), Documentation(info = "<html>
<a href=\"modelica://Modelica.Mechanics.Rotational\">a link</a></html>"));
end WithinExamples;
EOF
sim within --tolerance 1e-10 && values "within Modelica.Mechanics.Rotational.Examples: relative names, SI, Icons, Blocks" within <<'PY'
T, J1, J2, c = 2.0, 0.5, 1.5, 200.0
om = math.sqrt(c*(J1 + J2)/(J1*J2))
amp = T*J2/(c*(J1 + J2))
near(worst("spring.phi_rel", lambda x: -amp*(1 - math.cos(om*x))), 0, 1e-7, "spring.phi_rel")
near(worst("inertia1.phi", lambda x: T*x*x/(2*(J1 + J2)) + J2/(J1 + J2)*amp*(1 - math.cos(om*x))), 0, 1e-7, "inertia1.phi")
near(worst("speed.w", lambda x: T*x/(J1 + J2) - J1/(J1 + J2)*amp*om*math.sin(om*x)), 0, 1e-6, "speed.w")
near(worst("w1", lambda x: T*x/(J1 + J2) + J2/(J1 + J2)*amp*om*math.sin(om*x)), 0, 1e-6, "w1 = inertia1.w")
PY

# the classes of a library flange lacks, named relative to the within
# package (HeatLosses, EddyCurrentBrake), are not supported rather than unknown
model thermal <<'EOF'
within Modelica.Mechanics.Rotational.Examples;
model Thermal2
  Thermal.HeatTransfer.Components.HeatCapacitor heatCapacitor(C = 1);
  Sources.EddyCurrentTorque eddy(tau_nominal = 100, w_nominal = 10);
end Thermal2;
EOF
expect thermal 1 -- "thermal.mo:3:3: error: component type 'Thermal.HeatTransfer.Components.HeatCapacitor' (Modelica.Thermal.HeatTransfer.Components.HeatCapacitor) is not supported by flange (see \`flange components\`)
thermal.mo:4:3: error: component type 'Sources.EddyCurrentTorque' (Modelica.Mechanics.Rotational.Sources.EddyCurrentTorque) is not supported by flange (see \`flange components\`)"

# ---- Examples.Utilities (GenerationOfFMUs): a direct and an inverse inertia
# joined through signals are one inertia J1 + J2 under the driving torque,
#   phi = T t^2 / (2 (J1 + J2)), and the inverse inertia's torque is J2 a;
# the spring block between two inertias (phi1, phi2 in, torques out)
# oscillates as a spring: with T on J3 only, phi_rel as above.
model fmus <<'EOF'
model Fmus
  Modelica.Blocks.Sources.Constant T(k = 3);
  Modelica.Mechanics.Rotational.Examples.Utilities.DirectInertia directInertia(J = 1.1);
  Modelica.Mechanics.Rotational.Examples.Utilities.InverseInertia inverseInertia(J = 2.2);
  Modelica.Mechanics.Rotational.Examples.Utilities.Spring spring(c = 100);
  Modelica.Mechanics.Rotational.Sources.Torque torque3;
  Modelica.Mechanics.Rotational.Components.Inertia inertia3(J = 1, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  Modelica.Mechanics.Rotational.Components.TorqueToAngleAdaptor toAngle3(use_w = false, use_a = false);
  Modelica.Mechanics.Rotational.Components.Inertia inertia4(J = 3, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  Modelica.Mechanics.Rotational.Components.TorqueToAngleAdaptor toAngle4(use_w = false, use_a = false);
equation
  connect(T.y, directInertia.tauDrive);
  connect(directInertia.phi, inverseInertia.phi);
  connect(directInertia.w, inverseInertia.w);
  connect(directInertia.a, inverseInertia.a);
  connect(inverseInertia.tau, directInertia.tau);
  connect(T.y, torque3.tau);
  connect(torque3.flange, inertia3.flange_a);
  connect(inertia3.flange_b, toAngle3.flange);
  connect(toAngle3.phi, spring.phi1);
  connect(toAngle3.tau, spring.tau1);
  connect(spring.phi2, toAngle4.phi);
  connect(spring.tau2, toAngle4.tau);
  connect(toAngle4.flange, inertia4.flange_a);
  annotation(experiment(StopTime = 1, Interval = 0.01));
end Fmus;
EOF
sim fmus --tolerance 1e-10 && values "Examples.Utilities: DirectInertia + InverseInertia, the Spring block" fmus <<'PY'
T, J1, J2 = 3.0, 1.1, 2.2
near(worst("directInertia.inertia.phi", lambda x: T*x*x/(2*(J1 + J2))), 0, 1e-7, "directInertia.inertia.phi")
near(worst("inverseInertia.inertia.phi", lambda x: T*x*x/(2*(J1 + J2))), 0, 1e-7, "inverseInertia.inertia.phi")
near(worst("inverseInertia.angleToTorque.tau", lambda x: J2*T/(J1 + J2)), 0, 1e-7, "inverseInertia.tau = J2 a")
J3, J4, c = 1.0, 3.0, 100.0
om, amp = math.sqrt(c*(J3 + J4)/(J3*J4)), T*J4/(c*(J3 + J4))
near(worst("spring.spring.phi_rel", lambda x: -amp*(1 - math.cos(om*x))), 0, 1e-7, "spring block: phi_rel")
near(worst("inertia4.phi", lambda x: T*x*x/(2*(J3 + J4)) - J3/(J3 + J4)*amp*(1 - math.cos(om*x))), 0, 1e-7, "inertia4.phi")
PY
# within Examples.Utilities (as the MSL's own files are), a bare name of
# another utility resolves
model sdwithin <<'EOF'
within Modelica.Mechanics.Rotational.Examples.Utilities;
model SDWithin
  SpringDamperNoRelativeStates springDamper(c = 1e4, d = 10);
  Modelica.Mechanics.Rotational.Components.Fixed fixed;
  Modelica.Mechanics.Rotational.Components.Inertia inertia(J = 1, phi(fixed = true, start = 0.01), w(fixed = true, start = 0));
equation
  connect(fixed.flange, springDamper.flange_a);
  connect(springDamper.flange_b, inertia.flange_a);
  annotation(experiment(StopTime = 0.1, Interval = 0.01));
end SDWithin;
EOF
sim sdwithin --tolerance 1e-10 && values "within Examples.Utilities: SpringDamperNoRelativeStates by its bare name" sdwithin <<'PY'
# J phi'' = -c phi - d phi': omega0 = 100, zeta = 0.05
z, w0 = 0.05, 100.0
wd = w0*math.sqrt(1 - z*z)
near(worst("inertia.phi", lambda x: 0.01*math.exp(-z*w0*x)*(math.cos(wd*x) + z*w0/wd*math.sin(wd*x))), 0, 1e-8, "inertia.phi")
PY

# ---- FreeWheel: T = 1 on J1 = 1 couples J2 = 1 (flange_a drives): both
# accelerate with T/(J1 + J2) up to t = 1; then T = -1: J1 slows down with
# -1 rad/s2 and J2 runs free at 0.5 rad/s. The residual slip while coupled
# is w_rel = tau tauRes = 0.5e-5, the residual drag while free wRes w_rel
# <= 1e-5 N.m: 1e-4 on the speeds.
model freewheel <<EOF
model FreeWheel1
  Modelica.Blocks.Sources.Step T(height = -2, offset = 1, startTime = 1);
  Modelica.Mechanics.Rotational.Sources.Torque torque;
  $MRC.Inertia inertia1(J = 1, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  $MRC.FreeWheel freeWheel;
  $MRC.Inertia inertia2(J = 1, phi(fixed = true, start = 0), w(fixed = true, start = 0));
equation
  connect(T.y, torque.tau);
  connect(torque.flange, inertia1.flange_a);
  connect(inertia1.flange_b, freeWheel.flange_a);
  connect(freeWheel.flange_b, inertia2.flange_a);
  annotation(experiment(StopTime = 2, Interval = 0.01));
end FreeWheel1;
EOF
sim freewheel --tolerance 1e-10 && values "FreeWheel: coupled while flange_a drives, free after" freewheel <<'PY'
near(worst("inertia2.w", lambda x: 0.5*x, 0, 0.999), 0, 1e-4, "coupled: w2 = t/2")
near(worst("inertia1.w", lambda x: 0.5*x, 0, 0.999), 0, 1e-4, "coupled: w1 = t/2")
near(worst("freeWheel.tau", lambda x: 0.5, 0.01, 0.999), 0, 1e-4, "coupled: tau = J2 a")
near(worst("inertia2.w", lambda x: 0.5, 1.01, 2), 0, 1e-4, "free: w2 stays 0.5")
near(worst("inertia1.w", lambda x: 0.5 - (x - 1), 1.01, 2), 0, 1e-4, "free: w1 = 0.5 - (t - 1)")
check(at("freeWheel.free", 0.5) == 0 and at("freeWheel.free", 1.5) == 1, "free = false while coupled, true after")
PY
"$FLANGE" components > "$T/components.txt"
grep -qxF "    ports: flange_a (rotational flange), flange_b (rotational flange)" "$T/components.txt" \
  && grep -qxF "$MRC.FreeWheel" "$T/components.txt" && ok "components: FreeWheel, rotational flanges" \
  || bad "components: FreeWheel"

# ---- arrays of components in connect(): sine.y of Sine sine[3] is a vector
# of three signals. Move gets phi = sin(2 pi t) with its derivatives (a
# consistent motion: the energy audit closes), gain[k].y = k sine[k].y.
model arrays <<EOF
model Arrays
  import Modelica.Constants.pi;
  parameter Real w0 = 2*pi;
  Modelica.Blocks.Sources.Sine sine[3](amplitude = {1, w0, -w0^2}, each f = 1, phase = {0, pi/2, 0});
  Modelica.Mechanics.Rotational.Sources.Move move;
  $MRC.Inertia inertia(J = 3);
  Modelica.Blocks.Math.Gain gain[3](k = {1, 2, 3});
equation
  connect(sine.y, move.u);
  connect(move.flange, inertia.flange_a);
  connect(sine.y, gain.u);
  annotation(experiment(StopTime = 1, Interval = 0.01));
end Arrays;
EOF
sim arrays --energy && values "connect() of an array of components: Move.u and an array of gains" arrays <<'PY'
w0 = 2*math.pi
near(worst("inertia.phi", lambda x: math.sin(w0*x)), 0, 1e-12, "inertia.phi = sine[1].y")
near(worst("inertia.w", lambda x: w0*math.cos(w0*x)), 0, 1e-11, "inertia.w = sine[2].y")
# (the CSV holds 12 significant digits: 1e-9 on values up to 120)
near(worst("inertia.flange_a.tau", lambda x: -3*w0*w0*math.sin(w0*x)), 0, 1e-9, "flange_a.tau = J sine[3].y")
for k in (1, 2, 3):
    near(max(abs(a - k*b) for a, b in zip(col("gain[%d].y" % k), col("sine[%d].y" % k))), 0, 1e-9, "gain[%d].y" % k)
near(max(abs(x) for x in col("energy.drift")), 0, 1e-8, "energy drift")
PY
# three equal sines are no motion (w is not der(phi)): the warning says so
sed 's/amplitude = {1, w0, -w0^2}, each f = 1, phase = {0, pi\/2, 0}/each amplitude = 2, each f = 1/' "$T/arrays.mo" > "$T/equal.mo"
"$FLANGE" simulate "$T/equal.mo" -o "$T/equal.csv" --quiet 2> "$T/equal.err"
grep -qF "warning: the energy balance does not close (drift 1 of the throughput): the steps do not resolve the motion at this tolerance, or the inputs of move (a Move) are not each other's derivatives (u[2] = der(u[1]), u[3] = der(u[2]))" "$T/equal.err" \
  && ok "Move with inputs that are not each other's derivatives: the energy warning names it" \
  || { bad "Move: energy warning"; cat "$T/equal.err"; }
# a vector connector of an array of components would be a matrix: refused
model arrays2 <<'EOF'
model Arrays2
  Modelica.Blocks.Sources.Sine sine[2](each f = 1);
  Modelica.Blocks.Math.Gain gain[3](each k = 1);
equation
  connect(sine.y, gain.u);
end Arrays2;
EOF
expect arrays2 1 -- "arrays2.mo:5:3: error: cannot connect sine.y (2 signals) to gain.u (3 signals): the sizes differ"

# ---- an IdealGear of ratio 1 on a support: phi_a - phi_s = 1 (phi_b - phi_s)
# ties the shafts only. The housing (an inertia of its own) gets no torque
# and stays at rest; the shafts turn as one inertia J1 + J2.
model ratio1 <<EOF
model Ratio1
  Modelica.Blocks.Sources.Constant T(k = 2);
  Modelica.Mechanics.Rotational.Sources.Torque torque;
  $MRC.Inertia inertia1(J = 0.5, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  $MRC.IdealGear gear(ratio = 1, useSupport = true);
  $MRC.Inertia inertia2(J = 1.5);
  $MRC.Inertia housing(J = 2, phi(fixed = true, start = 0), w(fixed = true, start = 0));
equation
  connect(T.y, torque.tau);
  connect(torque.flange, inertia1.flange_a);
  connect(inertia1.flange_b, gear.flange_a);
  connect(gear.flange_b, inertia2.flange_a);
  connect(gear.support, housing.flange_a);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end Ratio1;
EOF
sim ratio1 --tolerance 1e-10 && values "IdealGear ratio 1 on a moving housing: the housing is not in the relation" ratio1 <<'PY'
near(worst("inertia2.phi", lambda x: 2*x*x/(2*2.0)), 0, 1e-9, "inertia2.phi = T t^2 / (2 (J1 + J2))")
near(worst("housing.phi", lambda x: 0), 0, 1e-12, "housing at rest")
near(worst("gear.flange_a.tau", lambda x: 2 - 0.5*1.0), 0, 1e-9, "gear.flange_a.tau = T - J1 a")
PY

# ---- SpringDamper and Damper with a_rel(fixed = true): der(w_rel) given at
# the start. A SpringDamper (c = 1e4, d = 10) from the housing to J = 1 with
# w_rel(0) = -2 and a_rel(0) = 0: no torque at the start, so c phi_rel + d
# w_rel = 0, phi_rel(0) = 0.002. A Damper (d = 4) from the housing to J = 2
# under T = 10 with a_rel(0) = 1: J a = T - d w, w(0) = (T - J)/d = 2, then
# w = T/d + (w(0) - T/d) e^{-d t/J}.
model arel <<EOF
model ARel
  $MRC.Fixed fixed;
  $MRC.SpringDamper springDamper(c = 1e4, d = 10, a_rel(fixed = true), phi_rel(fixed = false, start = -1), w_rel(fixed = true, start = -2));
  $MRC.Inertia inertia(J = 1);
  $MRC.Damper damper(d = 4, a_rel(fixed = true, start = 1), phi_rel(fixed = true, start = 0));
  $MRC.Inertia inertia2(J = 2);
  Modelica.Mechanics.Rotational.Sources.ConstantTorque T(tau_constant = 10);
equation
  connect(fixed.flange, springDamper.flange_a);
  connect(springDamper.flange_b, inertia.flange_a);
  connect(fixed.flange, damper.flange_a);
  connect(damper.flange_b, inertia2.flange_a);
  connect(T.flange, inertia2.flange_b);
  annotation(experiment(StopTime = 1, Interval = 0.01));
end ARel;
EOF
sim arel --tolerance 1e-10 && values "SpringDamper and Damper: a_rel(fixed = true)" arel <<'PY'
near(at("springDamper.phi_rel", 0), 0.002, 1e-12, "springDamper.phi_rel(0) = -d w_rel/c")
near(at("springDamper.a_rel", 0), 0, 1e-9, "springDamper.a_rel(0)")
z, w0 = 0.05, 100.0
wd = w0*math.sqrt(1 - z*z)
x0, v0 = 0.002, -2.0
near(worst("springDamper.phi_rel", lambda x: math.exp(-z*w0*x)*(x0*math.cos(wd*x) + (v0 + z*w0*x0)/wd*math.sin(wd*x))), 0, 1e-8, "springDamper.phi_rel")
near(worst("inertia2.w", lambda x: 2.5 + (2 - 2.5)*math.exp(-2*x)), 0, 1e-8, "damper: w = T/d + (w0 - T/d) e^{-d t/J}")
near(at("damper.a_rel", 0), 1, 1e-9, "damper.a_rel(0)")
PY

# ---- a gear on a fixed support (ratio n = 3) feeding the sun of a planetary
# gear (ratio r = 3) whose carrier is an inertia and whose ring is held by a
# damper (d = 10): the shaft between gear and sun is moved by two
# constraints. A torque step at t = 0.5 on the input inertia J_s (an event,
# after which the state is re-initialised). With w_in (the drive), w_c the speeds and
# w_r = ((1 + r) w_c - w_in/n)/r the ring's, Lagrange gives
#   J_s w_in' = T + d w_r/(n r),   J_c w_c' = -d w_r (1 + r)/r,
# linear: x(t) = int_0^(t - 0.5) e^(A s) ds b, from rest.
model sungear <<EOF
model SunGear
  Modelica.Blocks.Sources.Step step(startTime = 0.5);
  Modelica.Mechanics.Rotational.Sources.Torque torque;
  $MRC.Inertia drive(J = 3, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  $MRC.IdealGear gear(ratio = 3, useSupport = true);
  $MRC.IdealPlanetary planetary(ratio = 3);
  $MRC.Fixed fixed;
  $MRC.Inertia carrier(J = 2, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  $MRC.Damper damper(d = 10);
equation
  connect(step.y, torque.tau);
  connect(torque.flange, drive.flange_a);
  connect(drive.flange_b, gear.flange_a);
  connect(gear.support, fixed.flange);
  connect(gear.flange_b, planetary.sun);
  connect(planetary.carrier, carrier.flange_a);
  connect(planetary.ring, damper.flange_a);
  connect(damper.flange_b, fixed.flange);
  annotation(experiment(StopTime = 1.5, Interval = 0.01));
end SunGear;
EOF
sim sungear --tolerance 1e-10 && values "gear on a fixed support into a planetary with a damped ring: through the event" sungear <<'PY'
import numpy as np
from scipy.linalg import expm
Js, Jc, n, r, d = 3.0, 2.0, 3.0, 3.0, 10.0
gr = np.array([-1/(n*r), (1 + r)/r])  # w_r = gr . [w_in, w_c]
A = np.array([[d*gr[0]*gr[0]/Js*-1, -d*gr[1]*gr[0]/Js], [-d*gr[0]*gr[1]/Jc, -d*gr[1]*gr[1]/Jc]])
b = np.array([1/Js, 0.0])
def x(s):
    if s <= 0.5:
        return np.zeros(2)
    M = np.zeros((3, 3)); M[:2, :2] = A; M[:2, 2] = b
    return expm(M*(s - 0.5))[:2, 2]
near(worst("drive.w", lambda s: x(s)[0]), 0, 1e-8, "drive.w")
near(worst("carrier.w", lambda s: x(s)[1]), 0, 1e-8, "carrier.w")
near(worst("damper.w_rel", lambda s: -gr.dot(x(s))), 0, 1e-8, "ring speed (damper.w_rel = -w_r)")
PY

# ---- --model with the full name of a model in a package file: the name
# with the file's within package in front, as in the MSL's ModelicaTest
model pkg <<'EOF'
within ModelicaTest;
package Rotational2 "test models"
  extends Modelica.Icons.ExamplesPackage;
  package Group
    extends Modelica.Icons.ExamplesPackage;
    model Drop
      Modelica.Mechanics.Rotational.Components.Inertia inertia(J = 2, phi(fixed = true, start = 0), w(fixed = true, start = 1));
      annotation (Diagram(coordinateSystem(preserveAspectRatio = false, extent = {{-100, -100}, {100, 100}}), graphics),
        experiment(StopTime = 1.1), experimentSetupOutput);
    end Drop;
  end Group;
end Rotational2;
EOF
(cd "$T" && "$FLANGE" simulate pkg.mo --model ModelicaTest.Rotational2.Group.Drop --quiet 2> pkg.err) \
  && [ -s "$T/Drop.csv" ] && ok "--model ModelicaTest.Rotational2.Group.Drop (the within package in front): Drop.csv" \
  || { bad "--model with the within package"; cat "$T/pkg.err"; }
values "the package's model ran to its StopTime" Drop <<'PY'
near(t[-1], 1.1, 0, "stop time")
near(worst("inertia.phi", lambda x: x), 0, 1e-9, "inertia.phi = t")
PY
expect pkg 1 --model Modelica.Rotational2.Group.Drop -- "pkg.mo: error: no model 'Modelica.Rotational2.Group.Drop' in the file; models in the file: Rotational2.Group.Drop"

# ---- names MSL 4 renamed: a text written for MSL 3 is told the new name
model renamed <<'EOF'
model Renamed
  Modelica.Blocks.Sources.Sine sine(freqHz = 2);
  Modelica.Mechanics.Rotational.Components.Clutch clutch(mue_pos = [0, 1]);
end Renamed;
EOF
expect renamed 1 -- "renamed.mo:2:37: error: sine (Modelica.Blocks.Sources.Sine) has no parameter 'freqHz': MSL 4 renamed it 'f'
renamed.mo:3:58: error: clutch (Modelica.Mechanics.Rotational.Components.Clutch) has no parameter 'mue_pos': MSL 4 renamed it 'mu_pos'"

[ "$fails" = 0 ]
