#!/usr/bin/env bash
# The kinematic couplings of Modelica.Mechanics.Rotational (issue 13):
# IdealGear, IdealGearR2T, IdealRollingWheel and IdealPlanetary, bundled as
# Modelica text, against closed forms of a constant torque accelerating
# inertias and masses from rest; the reflected inertia of a gear or wheel
# without support folded into one body (flange check); a gear whose support
# is fixed, or an inertia of its own, as a constraint among three flanges;
# InitializeFlange; the General adaptors; the message of a rotational
# flange connected to a translational one; and the energy audit of geared
# models.
#
# MSL conventions: IdealGear phi_a - phi_support = ratio (phi_b -
# phi_support), 0 = ratio flange_a.tau + flange_b.tau; IdealGearR2T
# flangeR.phi = ratio flangeT.s (ratio in rad/m), 0 = ratio flangeR.tau +
# flangeT.f; IdealRollingWheel flangeR.phi radius = flangeT.s, 0 = radius
# flangeT.f + flangeR.tau; IdealPlanetary (1 + ratio) carrier.phi = sun.phi +
# ratio ring.phi, ring.tau = ratio sun.tau, carrier.tau = -(1 + ratio)
# sun.tau. A flange's tau is the torque flowing into the component there, so
# the component acts on the inertia behind it with -tau; Sources.Torque
# accelerates its flange with +tau.
#
# Gear from rest, torque T on J1 at flange_a, J2 at flange_b: with w2 = w1/r
# the work T phi1 is the kinetic energy (J1 + J2/r^2) w1^2 / 2, so
#   a1 = T / (J1 + J2/r^2), phi1 = a1 t^2 / 2, phi2 = phi1 / r,
# and J1 a1 = T - flange_a.tau gives flange_a.tau = T - J1 a1,
# flange_b.tau = -r flange_a.tau, support.tau = -flange_a.tau - flange_b.tau.
# Rack: phi = ratio s, J_eff = J + m/ratio^2; wheel: s = R phi, J_eff = J + m R^2.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

MRC=Modelica.Mechanics.Rotational.Components

# ---- IdealGear without support: one body of J1 + J2/r^2 (r = 4: 0.5 + 8/16)
model gear <<EOF
model Gear
  parameter Real r = 4;
  Modelica.Blocks.Sources.Constant T(k = 2);
  Modelica.Mechanics.Rotational.Sources.Torque torque;
  $MRC.Inertia inertia1(J = 0.5, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  $MRC.IdealGear gear(ratio = r);
  $MRC.Inertia inertia2(J = 8);
equation
  connect(T.y, torque.tau);
  connect(torque.flange, inertia1.flange_a);
  connect(inertia1.flange_b, gear.flange_a);
  connect(gear.flange_b, inertia2.flange_a);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end Gear;
EOF
GEARPY='J1, J2, T = 0.5, 8.0, 2.0
Jeff = J1 + J2/r**2
a1 = T/Jeff
near(worst("inertia1.phi", lambda x: a1*x*x/2), 0, 1e-9, "inertia1.phi = a1 t^2/2")
near(worst("inertia2.phi", lambda x: a1*x*x/2/r), 0, 1e-9, "inertia2.phi = phi1/r")
near(worst("inertia2.w", lambda x: a1*x/r), 0, 1e-9, "inertia2.w = w1/r")
near(worst("gear.flange_a.tau", lambda x: T - J1*a1), 0, 1e-9, "gear.flange_a.tau = T - J1 a1")
near(worst("gear.flange_b.tau", lambda x: -r*(T - J1*a1)), 0, 1e-9, "gear.flange_b.tau = -r flange_a.tau")
near(worst("gear.phi_a", lambda x: a1*x*x/2), 0, 1e-9, "gear.phi_a")
near(worst("gear.phi_b", lambda x: a1*x*x/2/r), 0, 1e-9, "gear.phi_b")'
sim gear --tolerance 1e-10 && values "IdealGear: phi1 = T t^2 / (2 (J1 + J2/r^2)), phi2 = phi1/r, torques" gear <<PY
r = 4.0
$GEARPY
PY
"$FLANGE" check "$T/gear.mo" > "$T/gear.check" 2>&1
grep -q "^  1: free, J = 1 kg.m2: " "$T/gear.check" && [ "$(grep -c "^  [0-9]*: " "$T/gear.check")" = 1 ] \
  && ok "IdealGear: one body, J2 reflected as J2/r^2 (J = 1 kg.m2)" || { bad "IdealGear: reflected inertia"; cat "$T/gear.check"; }

# ---- the same gear, ratio -4 and its support on the fixed housing: a
# constraint among three flanges (its torque an unknown), the same motion
# with the direction reversed; the housing takes -flange_a.tau - flange_b.tau
model gearsupport <<EOF
model GearSupport
  parameter Real r = -4;
  Modelica.Blocks.Sources.Constant T(k = 2);
  Modelica.Mechanics.Rotational.Sources.Torque torque(useSupport = true);
  $MRC.Fixed fixed;
  $MRC.Inertia inertia1(J = 0.5, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  $MRC.IdealGear gear(ratio = r, useSupport = true);
  $MRC.Inertia inertia2(J = 8);
equation
  connect(T.y, torque.tau);
  connect(torque.flange, inertia1.flange_a);
  connect(torque.support, fixed.flange);
  connect(gear.support, fixed.flange);
  connect(inertia1.flange_b, gear.flange_a);
  connect(gear.flange_b, inertia2.flange_a);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end GearSupport;
EOF
sim gearsupport --tolerance 1e-10 && values "IdealGear with its support fixed (ratio -4): the same closed form, reversed" gearsupport <<PY
r = -4.0
$GEARPY
near(worst("gear.support.tau", lambda x: -(T - J1*a1) + r*(T - J1*a1)), 0, 1e-9, "gear.support.tau = -flange_a.tau - flange_b.tau")
PY
"$FLANGE" check "$T/gearsupport.mo" > "$T/gearsupport.check" 2>&1
grep -q "^  gear.flange_[ab].tau  *algebraic$" "$T/gearsupport.check" \
  && ok "IdealGear with support: a torque of the gear is the unknown of the constraint" || { bad "IdealGear with support: unknowns"; cat "$T/gearsupport.check"; }

# ---- a gear whose housing is an inertia Jh of its own, free to turn: three
# moving flanges. With x = flange_a.tau: J1 a_a = T - x, J2 a_b = -flange_b.tau
# = r x, Jh a_s = -support.tau = -(r - 1) x, and the constraint twice
# differentiated, a_a - a_s = r (a_b - a_s), gives
#   x = (T/J1) / (1/J1 + r^2/J2 + (r - 1)^2/Jh).
# Only inertia1 and inertia2 start fixed: the housing's angle and speed
# follow from the constraint on angles and speeds at the start.
model housing <<EOF
model Housing
  Modelica.Blocks.Sources.Constant T(k = 2);
  Modelica.Mechanics.Rotational.Sources.Torque torque;
  $MRC.Inertia inertia1(J = 0.5, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  $MRC.IdealGear gear(ratio = 4, useSupport = true);
  $MRC.Inertia inertia2(J = 8, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  $MRC.Inertia housing(J = 2);
equation
  connect(T.y, torque.tau);
  connect(torque.flange, inertia1.flange_a);
  connect(inertia1.flange_b, gear.flange_a);
  connect(gear.flange_b, inertia2.flange_a);
  connect(gear.support, housing.flange_a);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end Housing;
EOF
sim housing --tolerance 1e-10 && values "IdealGear on a free housing: accelerations of the three inertias" housing <<'PY'
J1, J2, Jh, T, r = 0.5, 8.0, 2.0, 2.0, 4.0
x = (T/J1)/(1/J1 + r**2/J2 + (r - 1)**2/Jh)
aa, ab, as_ = (T - x)/J1, r*x/J2, -(r - 1)*x/Jh
near(worst("inertia1.phi", lambda s: aa*s*s/2), 0, 1e-9, "inertia1.phi")
near(worst("inertia2.phi", lambda s: ab*s*s/2), 0, 1e-9, "inertia2.phi")
near(worst("housing.phi", lambda s: as_*s*s/2), 0, 1e-9, "housing.phi")
near(worst("gear.flange_a.tau", lambda s: x), 0, 1e-9, "gear.flange_a.tau")
near(worst("gear.support.tau", lambda s: (r - 1)*x), 0, 1e-9, "gear.support.tau")
PY
"$FLANGE" check "$T/housing.mo" > "$T/housing.check" 2>&1
grep -q "^  gear: constraint on positions .* = 0$" "$T/housing.check" && grep -q "^  gear: constraint on velocities .* = 0$" "$T/housing.check" \
  && ok "IdealGear on a free housing: the constraint on angles and speeds are initial conditions" \
  || { bad "IdealGear on a free housing: initial conditions"; cat "$T/housing.check"; }
# fixing the housing as well says twice what the constraint says
sed 's/housing(J = 2)/housing(J = 2, phi(fixed = true, start = 0), w(fixed = true, start = 0))/' "$T/housing.mo" > "$T/housingfixed.mo"
if "$FLANGE" simulate "$T/housingfixed.mo" -o "$T/housingfixed.csv" --quiet 2> "$T/housingfixed.err"; then
  bad "IdealGear on a free housing: the angles of all three inertias fixed at the start should be refused"
else
  grep -q "redundant\|over-determined" "$T/housingfixed.err" && ok "IdealGear on a free housing: three fixed angles are redundant conditions" \
    || { bad "IdealGear on a free housing: message"; cat "$T/housingfixed.err"; }
fi

# ---- rack and pinion (ratio 20 rad/m) and a rolling wheel (radius 0.25 m):
# J_eff = J + m/ratio^2 = 0.01 + 2/400, J_eff = J + m R^2 = 0.1 + 4/16
model rack <<EOF
model Rack
  Modelica.Blocks.Sources.Constant T1(k = 1), T2(k = 0.7);
  Modelica.Mechanics.Rotational.Sources.Torque torque1, torque2;
  $MRC.Inertia pinion(J = 0.01, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  $MRC.IdealGearR2T rack(ratio = 20);
  Modelica.Mechanics.Translational.Components.Mass slider(m = 2);
  $MRC.Inertia wheelInertia(J = 0.1, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  $MRC.IdealRollingWheel wheel(radius = 0.25);
  Modelica.Mechanics.Translational.Components.Mass vehicle(m = 4);
equation
  connect(T1.y, torque1.tau);
  connect(torque1.flange, pinion.flange_a);
  connect(pinion.flange_b, rack.flangeR);
  connect(rack.flangeT, slider.flange_a);
  connect(T2.y, torque2.tau);
  connect(torque2.flange, wheelInertia.flange_a);
  connect(wheelInertia.flange_b, wheel.flangeR);
  connect(wheel.flangeT, vehicle.flange_a);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end Rack;
EOF
sim rack --tolerance 1e-10 --energy && values "IdealGearR2T and IdealRollingWheel: reflected mass m/ratio^2 and m R^2" rack <<'PY'
ar = 1/(0.01 + 2/20.0**2)
near(worst("pinion.phi", lambda x: ar*x*x/2), 0, 1e-9, "pinion.phi = T t^2 / (2 (J + m/ratio^2))")
near(worst("slider.s", lambda x: ar*x*x/2/20), 0, 1e-9, "slider.s = phi/ratio")
near(worst("rack.flangeT.f", lambda x: -2*ar/20), 0, 1e-9, "rack.flangeT.f = -m a_slider")
near(worst("rack.flangeR.tau", lambda x: 2*ar/20/20), 0, 1e-9, "rack.flangeR.tau = -flangeT.f/ratio")
aw = 0.7/(0.1 + 4*0.25**2)
near(worst("wheelInertia.phi", lambda x: aw*x*x/2), 0, 1e-9, "wheelInertia.phi = T t^2 / (2 (J + m R^2))")
near(worst("vehicle.v", lambda x: 0.25*aw*x), 0, 1e-9, "vehicle.v = R w")
near(worst("wheel.flangeR.tau", lambda x: 0.25*4*0.25*aw), 0, 1e-9, "wheel.flangeR.tau = -R flangeT.f")
# no losses: the work of the torques is the kinetic energy, T^2 t^2 / (2 J_eff) each
near(worst("energy.work", lambda x: (1/(0.01 + 0.005) + 0.49/0.35)*x*x/2), 0, 1e-7, "energy.work")
near(worst("energy.kinetic", lambda x: (1/(0.01 + 0.005) + 0.49/0.35)*x*x/2), 0, 1e-7, "energy.kinetic")
near(worst("energy.drift", lambda x: 0), 0, 1e-7, "energy.drift")
PY
"$FLANGE" check "$T/rack.mo" > "$T/rack.check" 2>&1
grep -q "^  [0-9]: free, J = 0.015[0-9]* kg.m2: .*slider.flange_a" "$T/rack.check" && grep -q "^  [0-9]: free, J = 0.35 kg.m2: .*vehicle.flange_a" "$T/rack.check" \
  && ok "IdealGearR2T, IdealRollingWheel: the mass folded into the pinion's body" || { bad "rack: bodies"; cat "$T/rack.check"; }

# ---- the rack on a carriage (useSupportT, the carriage a mass M) with the
# pinion's housing fixed (useSupportR): four flanges of two domains in one
# constraint, phi - phi_R = ratio (s - s_carriage). With x = flangeR.tau:
# J a = T - x, m a_s = -flangeT.f = ratio x, M a_c = -supportT.f = -ratio x,
# so x = (T/J) / (1/J + ratio^2/m + ratio^2/M)
model carriage <<EOF
model Carriage
  Modelica.Blocks.Sources.Constant T(k = 1);
  Modelica.Mechanics.Rotational.Sources.Torque torque;
  $MRC.Inertia pinion(J = 0.01, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  $MRC.IdealGearR2T rack(ratio = 20, useSupportR = true, useSupportT = true);
  $MRC.Fixed fixed;
  Modelica.Mechanics.Translational.Components.Mass slider(m = 2, s(fixed = true, start = 0), v(fixed = true, start = 0));
  Modelica.Mechanics.Translational.Components.Mass carriage(m = 3);
equation
  connect(T.y, torque.tau);
  connect(torque.flange, pinion.flange_a);
  connect(pinion.flange_b, rack.flangeR);
  connect(rack.supportR, fixed.flange);
  connect(rack.flangeT, slider.flange_a);
  connect(rack.supportT, carriage.flange_a);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end Carriage;
EOF
sim carriage --tolerance 1e-10 && values "IdealGearR2T on a moving carriage, housing fixed: four flanges, two domains" carriage <<'PY'
J, m, M, r, T = 0.01, 2.0, 3.0, 20.0, 1.0
x = (T/J)/(1/J + r*r/m + r*r/M)
near(worst("pinion.phi", lambda s: (T - x)/J*s*s/2), 0, 1e-8, "pinion.phi")
near(worst("slider.s", lambda s: r*x/m*s*s/2), 0, 1e-9, "slider.s")
near(worst("carriage.s", lambda s: -r*x/M*s*s/2), 0, 1e-9, "carriage.s")
near(worst("rack.supportR.tau", lambda s: -x), 0, 1e-9, "rack.supportR.tau = -flangeR.tau")
near(worst("rack.supportT.f", lambda s: r*x), 0, 1e-9, "rack.supportT.f = -flangeT.f")
PY

# ---- IdealPlanetary between three inertias, the torque on the sun: with
# x = sun.tau, Js a_s = T - x, Jr a_r = -ring.tau = -ratio x, Jc a_c =
# -carrier.tau = (1 + ratio) x and (1 + ratio) a_c = a_s + ratio a_r give
#   x = (T/Js) / (1/Js + ratio^2/Jr + (1 + ratio)^2/Jc);
# the speeds keep (1 + ratio) w_c = w_s + ratio w_r at every point. With
# the carrier fixed it is a reversing gear: w_r = -w_s/ratio.
model planetary <<EOF
model Planetary
  Modelica.Blocks.Sources.Constant T(k = 3);
  Modelica.Mechanics.Rotational.Sources.Torque torque, torque2;
  $MRC.IdealPlanetary planetary(ratio = 2.5);
  $MRC.Inertia sun(J = 0.2, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  $MRC.Inertia ring(J = 3, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  $MRC.Inertia carrier(J = 1.5);
  $MRC.IdealPlanetary planetary2(ratio = 2.5);
  $MRC.Fixed fixed;
  $MRC.Inertia sun2(J = 0.2, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  $MRC.Inertia ring2(J = 3);
equation
  connect(T.y, torque.tau);
  connect(torque.flange, sun.flange_a);
  connect(sun.flange_b, planetary.sun);
  connect(planetary.ring, ring.flange_a);
  connect(planetary.carrier, carrier.flange_a);
  connect(T.y, torque2.tau);
  connect(torque2.flange, sun2.flange_a);
  connect(sun2.flange_b, planetary2.sun);
  connect(planetary2.ring, ring2.flange_a);
  connect(planetary2.carrier, fixed.flange);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end Planetary;
EOF
sim planetary --tolerance 1e-10 && values "IdealPlanetary: speed relation and closed-form accelerations" planetary <<'PY'
Js, Jr, Jc, T, k = 0.2, 3.0, 1.5, 3.0, 2.5
x = (T/Js)/(1/Js + k**2/Jr + (1 + k)**2/Jc)
near(worst("sun.w", lambda s: (T - x)/Js*s), 0, 1e-9, "sun.w")
near(worst("ring.w", lambda s: -k*x/Jr*s), 0, 1e-9, "ring.w")
near(worst("carrier.w", lambda s: (1 + k)*x/Jc*s), 0, 1e-9, "carrier.w")
ws, wr, wc = col("sun.w"), col("ring.w"), col("carrier.w")
near(max(abs((1 + k)*wc[i] - ws[i] - k*wr[i]) for i in range(len(t))), 0, 1e-9, "(1 + ratio) w_carrier = w_sun + ratio w_ring")
near(worst("planetary.ring.tau", lambda s: k*x), 0, 1e-9, "planetary.ring.tau = ratio sun.tau")
near(worst("planetary.carrier.tau", lambda s: -(1 + k)*x), 0, 1e-9, "planetary.carrier.tau = -(1 + ratio) sun.tau")
x2 = (T/Js)/(1/Js + k**2/Jr)
near(worst("sun2.w", lambda s: (T - x2)/Js*s), 0, 1e-9, "carrier fixed: sun2.w")
w2s, w2r = col("sun2.w"), col("ring2.w")
near(max(abs(w2r[i] + w2s[i]/k) for i in range(len(t))), 0, 1e-9, "carrier fixed: w_ring = -w_sun/ratio")
PY

# ---- InitializeFlange: an inertia between springs starts where its inputs say
model init <<EOF
model Init
  Modelica.Blocks.Sources.Constant phi0(k = 0.3), w0(k = -2);
  $MRC.InitializeFlange initializeFlange(use_a_start = false);
  $MRC.Inertia inertia(J = 2);
  $MRC.Spring spring(c = 8);
  $MRC.Fixed fixed;
equation
  connect(phi0.y, initializeFlange.phi_start);
  connect(w0.y, initializeFlange.w_start);
  connect(initializeFlange.flange, inertia.flange_a);
  connect(inertia.flange_b, spring.flange_a);
  connect(spring.flange_b, fixed.flange);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end Init;
EOF
# J phi'' = -c phi: phi = 0.3 cos(2 t) - sin(2 t) (omega = sqrt(8/2) = 2)
sim init --tolerance 1e-10 && values "InitializeFlange: angle and speed from its inputs" init <<'PY'
near(worst("inertia.phi", lambda x: 0.3*math.cos(2*x) - math.sin(2*x)), 0, 1e-7, "inertia.phi")
near(worst("initializeFlange.w_flange", lambda x: -0.6*math.sin(2*x) - 2*math.cos(2*x)), 0, 1e-7, "w_flange")
PY

# ---- the General adaptors: an inertia passed on through signals (angle,
# speed, acceleration one way, torque the other) moves with the one behind
# them as one body: a = T/(J1 + J2), and the torque signal is J2 a
model general <<EOF
model General
  Modelica.Blocks.Sources.Constant T(k = 3);
  Modelica.Mechanics.Rotational.Sources.Torque torque;
  $MRC.Inertia direct(J = 0.5, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  $MRC.GeneralTorqueToAngleAdaptor torqueToAngle;
  $MRC.GeneralAngleToTorqueAdaptor angleToTorque;
  $MRC.Inertia inverse(J = 1);
equation
  connect(T.y, torque.tau);
  connect(torque.flange, direct.flange_a);
  connect(direct.flange_b, torqueToAngle.flange);
  connect(torqueToAngle.p, angleToTorque.p);
  connect(torqueToAngle.pder, angleToTorque.pder);
  connect(torqueToAngle.pder2, angleToTorque.pder2);
  connect(angleToTorque.f, torqueToAngle.f);
  connect(angleToTorque.flange, inverse.flange_a);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end General;
EOF
sim general --tolerance 1e-10 && values "GeneralTorqueToAngleAdaptor, GeneralAngleToTorqueAdaptor: one body through signals" general <<'PY'
near(worst("inverse.phi", lambda x: x*x), 0, 1e-9, "inverse.phi = T t^2 / (2 (J1 + J2))")
near(worst("direct.phi", lambda x: x*x), 0, 1e-9, "direct.phi")
near(worst("angleToTorque.f", lambda x: 2), 0, 1e-9, "the torque signal J2 a")
PY

# ---- the domains meet only through a gear or a wheel
model mixed <<EOF
model Mixed
  $MRC.Inertia inertia(J = 1);
  Modelica.Mechanics.Translational.Components.Mass mass(m = 1);
equation
  connect(inertia.flange_b, mass.flange_a);
end Mixed;
EOF
expect mixed 1 -- "mixed.mo:5:3: error: cannot connect rotational flange inertia.flange_b to translational flange mass.flange_a (a gear or a wheel joins the domains)"

# ---- the energy audit closes for the First example (a gear on the fixed
# housing, a spring, a damper)
if "$FLANGE" simulate "${FLANGE_SRC:-$(dirname "$0")/../..}/examples/msl/rotational/First.mo" -o "$T/first.csv" --energy > "$T/first.out" 2> "$T/first.err"; then
  grep -q "the energy balance closes to " "$T/first.err" && ! grep -q warning "$T/first.err" \
    && ok "First: the energy balance closes" || { bad "First: energy balance"; cat "$T/first.err"; }
  values "First: dissipation positive, drift small against the work" first <<'PY'
d, w, dr = col("energy.dissipated"), col("energy.work"), col("energy.drift")
if min(d) < 0:
    near(min(d), 0, 0, "energy.dissipated never negative")
near(max(abs(x) for x in dr)/max(abs(x) for x in w), 0, 1e-5, "worst drift / work")
PY
else
  bad "First with --energy: $(cat "$T/first.err")"
fi

[ "$fails" = 0 ]
