#!/usr/bin/env bash
# Modelica.Mechanics.Rotational.Components.LossyGear against closed forms:
# the four quadrants of a constant mesh efficiency (eta_mf1 when flange_a
# drives, eta_mf2 when flange_b drives), the self-locking band of a loaded
# gear and of bearing friction, a break-away under a torque starting from
# zero, a table of constant segments, the ideal table (a plain gear, mode Free), a gear on a moving
# housing (angular momentum conserved), the energy audit against the loss
# power, and the messages of bad parameters and of a massless side.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"
EX="$FLANGE_SRC/examples/msl/rotational"
MRC=Modelica.Mechanics.Rotational.Components
MRS=Modelica.Mechanics.Rotational.Sources

# ---- The four quadrants. Gear ratio r = 3 (phi_a = 3 phi_b), lossTable =
# [0, 0.8, 0.5, 0, 0]: eta_mf1 = 0.8 when flange_a drives, eta_mf2 = 0.5
# when flange_b drives, no bearing friction. J1 = 0.5 on flange_a, J2 = 4
# on flange_b, both at rest; a constant torque T = +-2 N.m on one of them.
# The torque balance is 0 = tau_b + r (tau_a - tauLoss) with tau_a =
# gear.flange_a.tau, tau_b = gear.flange_b.tau, a the acceleration of
# flange_a (flange_b turns with a/r):
#  flange_a drives (T on J1; tau_eta = tau_a has the sign of w_a, quadrants
#  1 and 3): tauLoss = (1 - eta_mf1) tau_a, so tau_b = -r eta_mf1 tau_a
#  (the output torque is eta r times the input); tau_a = T - J1 a and
#  J2 a/r = -tau_b give
#     a = r^2 eta_mf1 T / (J2 + r^2 eta_mf1 J1) = 7.2 T/7.6,
#     T = 2: a = 1.894736842, tau_a = 1.052631579, tau_b = -2.526315789;
#  flange_b drives (T on J2; tau_a = -J1 a opposes w_a, quadrants 2 and 4):
#  tauLoss = (1 - 1/eta_mf2) tau_a, so tau_b = -r tau_a/eta_mf2 (the input
#  at flange_b is the output at flange_a divided by r eta_mf2), and
#  J2 a/r = T - tau_b gives
#     a = T / (J2/r + r J1/eta_mf2) = 6 T/26,
#     T = 2: a = 6/13, tau_a = -3/13, tau_b = 18/13.
# From rest w_a = a t; the loss power tauLoss w_a grows linearly, so the
# energy dissipated by t = 1 is tauLoss a/2, and the power flowing into the
# gear through its flanges (PowerLoss) is the gear's lossPower.
quad() { # name table
  model "$1" <<EOF
model Quad
  parameter Real TA = 0 "torque on J1";
  parameter Real TB = 0 "torque on J2";
  Modelica.Units.SI.Power PowerLoss = gear.flange_a.tau*der(gear.flange_a.phi) + gear.flange_b.tau*der(gear.flange_b.phi);
  $MRC.LossyGear gear(ratio=3, lossTable=$2, useSupport=true);
  $MRC.Fixed fixed;
  $MRC.Inertia J1(J=0.5, phi(fixed=true, start=0), w(fixed=true, start=0));
  $MRC.Inertia J2(J=4);
  $MRS.Torque tA;
  $MRS.Torque tB;
  Modelica.Blocks.Sources.Constant cA(k=TA);
  Modelica.Blocks.Sources.Constant cB(k=TB);
equation
  connect(gear.support, fixed.flange);
  connect(cA.y, tA.tau);
  connect(cB.y, tB.tau);
  connect(tA.flange, J1.flange_a);
  connect(J1.flange_b, gear.flange_a);
  connect(gear.flange_b, J2.flange_a);
  connect(J2.flange_b, tB.flange);
  annotation(experiment(StopTime=1, Interval=0.01));
end Quad;
EOF
}
quad quad "[0, 0.8, 0.5, 0, 0]"
for c in "1 2 0" "3 -2 0" "2 0 2" "4 0 -2"; do
  set -- $c
  q=$1 TA=$2 TB=$3
  cp "$T/quad.mo" "$T/quad$q.mo"
  sim "quad$q" --tolerance 1e-8 --energy --param TA=$TA --param TB=$TB || continue
  values "quadrant $q (TA = $TA, TB = $TB): the closed-form motion and torques" "quad$q" <<PY
TA, TB = $TA, $TB
if TA != 0:   # flange_a drives: eta_mf1
    a = 7.2*TA/7.6; ta = TA - 0.5*a; tb = -3*0.8*ta; loss = 0.2*ta
    near(at("gear.flange_b.tau", 1)/at("gear.flange_a.tau", 1), -3*0.8, 1e-9, "tau_b/tau_a = -ratio*eta_mf1")
else:         # flange_b drives: eta_mf2
    a = 6*TB/26; ta = -0.5*a; tb = -3*ta/0.5; loss = -ta
    near(at("gear.flange_a.tau", 1)/at("gear.flange_b.tau", 1), -0.5/3, 1e-9, "tau_a/tau_b = -eta_mf2/ratio")
near(worst("J1.w", lambda x: a*x), 0, 1e-7, "worst error of J1.w = a t")
near(worst("gear.w_a", lambda x: a*x), 0, 1e-7, "worst error of gear.w_a")
near(worst("J2.w", lambda x: a*x/3), 0, 1e-7, "worst error of J2.w = a t/3")
near(worst("J1.phi", lambda x: a*x*x/2), 0, 1e-7, "worst error of J1.phi = a t^2/2")
near(at("gear.flange_a.tau", 1), ta, 1e-7, "gear.flange_a.tau")
near(at("gear.flange_b.tau", 1), tb, 1e-7, "gear.flange_b.tau")
near(at("gear.tauLoss", 1), loss, 1e-7, "gear.tauLoss")
near(at("gear.mode", 1), 1 if a > 0 else -1, 0, "gear.mode (rolling)")
near(at("gear.tau_etaPos", 1), 1 if ta >= 0 else 0, 0, "gear.tau_etaPos (which side drives)")
near(worst("gear.lossPower", lambda x: loss*a*x), 0, 1e-7, "worst error of lossPower = tauLoss w_a")
near(max(abs(p - q) for p, q in zip(col("PowerLoss"), col("gear.lossPower"))), 0, 1e-9, "power into the flanges - lossPower")
near(at("energy.dissipated", 1), loss*a/2, 1e-7, "the energy audit's dissipation = tauLoss a/2")
near(at("energy.drift", 1), 0, 1e-9, "the energy balance")
near(max(abs(p - 3*q) for p, q in zip(col("gear.phi_a"), col("gear.phi_b"))), 0, 1e-10, "phi_a - ratio*phi_b")
PY
done

# ---- The ideal table [0, 1, 1, 0, 0]: a plain gear (mode Free, no loss),
# J1 and J2 move as one body of inertia J1 + J2/r^2: a = T/(0.5 + 4/9).
quad ideal "[0, 1, 1, 0, 0]"
sim ideal --tolerance 1e-8 --param TA=2 && values "ideal table: mode Free, a = T/(J1 + J2/r^2), no loss" ideal <<'PY'
a = 2/(0.5 + 4/9)
near(worst("J1.w", lambda x: a*x), 0, 1e-7, "worst error of J1.w")
near(at("gear.mode", 1), 2, 0, "gear.mode (Free)")
near(at("gear.ideal", 1), 1, 0, "gear.ideal")
near(at("gear.flange_b.tau", 1), -3*at("gear.flange_a.tau", 1), 1e-9, "tau_b = -ratio*tau_a")
near(max(abs(p) for p in col("gear.lossPower")), 0, 0, "lossPower")
PY

# ---- Self-locking under a load: r = 2, eta_mf1 = eta_mf2 = 0.5, J1 = 1
# driven by u (N.m), J2 = 1.5 pulled by -10 N.m. Locked, tau_a = u and
# tau_b = -10, so the torque held is sa = tauLoss = tau_a + tau_b/r = u - 5;
# the thresholds at w = 0 are tauLossMax_p = (1 - eta_mf1) u = u/2 and
# tauLossMin_m = (1 - 1/eta_mf2) u = -u: the gear holds for
#     eta_mf2 |L|/r = 2.5 <= u <= |L|/(r eta_mf1) = 10.
# Outside it rolls: forward (u = 10.1, flange_a drives)
#     a = (r eta_mf1 u - 10)/(J2/r + r eta_mf1 J1) = 0.1/1.75,
# backward (u = 2.4, flange_b drives: tau_b = -r tau_a/eta_mf2)
#     a = (r u/eta_mf2 - 10)/(J2/r + r J1/eta_mf2) = -0.4/4.75.
model band <<EOF
model Band
  parameter Real u = 6;
  $MRC.LossyGear gear(ratio=2, lossTable=[0, 0.5, 0.5, 0, 0]);
  $MRC.Inertia J1(J=1, phi(fixed=true, start=0), w(fixed=true, start=0));
  $MRC.Inertia J2(J=1.5);
  $MRS.Torque drive;
  $MRS.Torque load;
  Modelica.Blocks.Sources.Constant cu(k=u);
  Modelica.Blocks.Sources.Constant cl(k=-10);
equation
  connect(cu.y, drive.tau);
  connect(cl.y, load.tau);
  connect(drive.flange, J1.flange_a);
  connect(J1.flange_b, gear.flange_a);
  connect(gear.flange_b, J2.flange_a);
  connect(J2.flange_b, load.flange);
  annotation(experiment(StopTime=1, Interval=0.01));
end Band;
EOF
for u in 2.6 6 9.9; do
  cp "$T/band.mo" "$T/hold$u.mo"
  sim "hold$u" --tolerance 1e-8 --param u=$u && values "self-locking: u = $u in [2.5, 10] is held (sa = u - 5)" "hold$u" <<PY
near(max(abs(w) for w in col("J1.w")), 0, 0, "J1.w (exactly zero)")
near(max(abs(w) for w in col("J2.w")), 0, 0, "J2.w (exactly zero)")
near(at("gear.mode", 1), 0, 0, "gear.mode (stuck)")
near(at("gear.locked", 1), 1, 0, "gear.locked")
near(at("gear.sa", 1), $u - 5, 1e-9, "gear.sa, the torque held")
near(at("gear.tauLoss", 1), $u - 5, 1e-9, "gear.tauLoss")
near(at("gear.tauLossMax_p", 1), $u/2, 1e-9, "gear.tauLossMax_p")
near(at("gear.tauLossMin_m", 1), -$u, 1e-9, "gear.tauLossMin_m")
PY
done
for c in "2.4 -0.4/4.75 -1" "10.1 0.1/1.75 1"; do
  set -- $c
  cp "$T/band.mo" "$T/roll$1.mo"
  sim "roll$1" --tolerance 1e-8 --param u=$1 && values "self-locking: u = $1 outside [2.5, 10] rolls with a = $2" "roll$1" <<PY
near(worst("J1.w", lambda x: $2*x), 0, 1e-7, "worst error of J1.w")
near(at("gear.mode", 1), $3, 0, "gear.mode")
PY
done

# ---- Bearing friction holds a load on its own: lossTable [0, 1, 1, 1, 1]
# (no mesh loss, |tau_bf1| = |tau_bf2| = 1 N.m, so tau_bf_a = 1/2), r = 2,
# J1 = 1 free, J2 = 1.5 pulled by TL. Locked, tau_a = 0 and sa = TL/r; the
# thresholds at tau_a = 0 are +-1 (quadrant2_p = tau_bf2, quadrant4_m =
# -tau_bf2): |TL| <= 2 is held. TL = -2.2 rolls backward, flange_b
# driving with tauLoss = quadrant4 = -tau_bf2 = -1:
#     a = (r tau_bf2 + TL)/(J2/r + r J1) = -0.2/2.75.
model bearing <<EOF
model Bearing
  parameter Real TL = -1.8;
  $MRC.LossyGear gear(ratio=2, lossTable=[0, 1, 1, 1, 1]);
  $MRC.Inertia J1(J=1, phi(fixed=true, start=0), w(fixed=true, start=0));
  $MRC.Inertia J2(J=1.5);
  $MRS.Torque load;
  Modelica.Blocks.Sources.Constant cl(k=TL);
equation
  connect(cl.y, load.tau);
  connect(J1.flange_b, gear.flange_a);
  connect(gear.flange_b, J2.flange_a);
  connect(J2.flange_b, load.flange);
  annotation(experiment(StopTime=1, Interval=0.01));
end Bearing;
EOF
cp "$T/bearing.mo" "$T/bhold.mo"
sim bhold --tolerance 1e-8 && values "bearing friction: a load of 1.8 N.m (< r tau_bf2 = 2) is held" bhold <<'PY'
near(max(abs(w) for w in col("J2.w")), 0, 0, "J2.w (exactly zero)")
near(at("gear.mode", 1), 0, 0, "gear.mode")
near(at("gear.sa", 1), -0.9, 1e-9, "gear.sa = TL/r")
near(at("gear.tau_bf_a", 1), 0.5, 1e-12, "gear.tau_bf_a")
PY
cp "$T/bearing.mo" "$T/broll.mo"
sim broll --tolerance 1e-8 --param TL=-2.2 && values "bearing friction: a load of 2.2 N.m rolls back with a = -0.2/2.75" broll <<'PY'
near(worst("J1.w", lambda x: -0.2/2.75*x), 0, 1e-7, "worst error of J1.w")
near(at("gear.mode", 1), -1, 0, "gear.mode")
near(at("gear.tauLoss", 1), -1, 1e-9, "gear.tauLoss = quadrant4 = -tau_bf2")
PY

# ---- A break-away whose torque and thresholds start at zero: the gear of
# the quadrants with a ramp torque T = t on J1. Locked the torque held is
# sa = T and the forward threshold (1 - eta_mf1) T: both are 0 at t = 0, so
# the crossing is only seen in the motion that follows (the rates of the
# torques at the start). It rolls at once: a = 7.2 t/7.6, w = 7.2 t^2/15.2.
model ramp <<EOF
model Ramp
  $MRC.LossyGear gear(ratio=3, lossTable=[0, 0.8, 0.5, 0, 0]);
  $MRC.Inertia J1(J=0.5, phi(fixed=true, start=0), w(fixed=true, start=0));
  $MRC.Inertia J2(J=4);
  $MRS.Torque tA;
  Modelica.Blocks.Sources.Ramp r(height=2, duration=2);
equation
  connect(r.y, tA.tau);
  connect(tA.flange, J1.flange_a);
  connect(J1.flange_b, gear.flange_a);
  connect(gear.flange_b, J2.flange_a);
  annotation(experiment(StopTime=1, Interval=0.01));
end Ramp;
EOF
sim ramp --tolerance 1e-8 && values "a torque ramp from zero: the gear rolls at once, w = 7.2 t^2/15.2" ramp <<'PY'
near(worst("J1.w", lambda x: 7.2*x*x/15.2), 0, 1e-7, "worst error of J1.w")
near(at("gear.mode", 0.5), 1, 0, "gear.mode")
PY

# ---- ConstantSegments: lossTable [0, 0.5, 0.5, 0, 0; 1, 1, 1, 0, 0], the
# efficiency 0.5 below |w_a| = 1 rad/s and 1 from there on, r = 1, J1 = J2
# = 1, T = 3 N.m on J1: a = r^2 eta T/(J2 + r^2 eta J1) = 1 until w = 1 at
# t = 1 (an event: the torques jump there), then 1.5 (no loss):
#     w = t (t <= 1),  1 + 1.5 (t - 1) (t >= 1).
model steps <<EOF
model Steps
  $MRC.LossyGear gear(ratio=1, lossTable=[0, 0.5, 0.5, 0, 0; 1, 1, 1, 0, 0],
    smoothness=Modelica.Blocks.Types.Smoothness.ConstantSegments);
  $MRC.Inertia J1(J=1, phi(fixed=true, start=0), w(fixed=true, start=0));
  $MRC.Inertia J2(J=1);
  $MRS.Torque tA;
  Modelica.Blocks.Sources.Constant c(k=3);
equation
  connect(c.y, tA.tau);
  connect(tA.flange, J1.flange_a);
  connect(J1.flange_b, gear.flange_a);
  connect(gear.flange_b, J2.flange_a);
  annotation(experiment(StopTime=2, Interval=0.01));
end Steps;
EOF
sim steps --tolerance 1e-8 && values "ConstantSegments: the efficiency steps from 0.5 to 1 at w = 1 (an event at t = 1)" steps <<'PY'
near(worst("J1.w", lambda x: x if x <= 1 else 1 + 1.5*(x - 1)), 0, 1e-6, "worst error of J1.w")
check(len(jumps("gear.eta_mf1")) == 1 and abs(jumps("gear.eta_mf1")[0] - 1) < 1e-6, "eta_mf1 steps once, at t = 1: %s" % jumps("gear.eta_mf1"))
near(at("gear.tauLoss", 0.5), 0.5*(3 - 1), 1e-7, "tauLoss = (1 - eta) tau_a = (1 - eta) (T - J1 a) below w = 1")
near(at("gear.tauLoss", 1.5), 0, 1e-9, "no loss above w = 1")
PY

# ---- On a moving housing: the gear's support and the motor's support on a
# free inertia Js = 2; a sine torque between housing and J1. No external
# torque acts, so J1 w1 + J2 w2 + Js ws = 0 throughout, and the gear keeps
# w1 - ws = r (w2 - ws) through all its modes.
model housing <<EOF
model Housing
  $MRC.Inertia housing(J=2, phi(fixed=true, start=0), w(fixed=true, start=0));
  $MRC.LossyGear gear(ratio=3, lossTable=[0, 0.8, 0.5, 0, 0], useSupport=true);
  $MRC.Inertia J1(J=0.5, phi(fixed=true, start=0), w(fixed=true, start=0));
  $MRC.Inertia J2(J=4);
  $MRS.Torque motor(useSupport=true);
  Modelica.Blocks.Sources.Sine s(amplitude=2, f=0.5);
equation
  connect(s.y, motor.tau);
  connect(motor.flange, J1.flange_a);
  connect(motor.support, housing.flange_a);
  connect(gear.support, housing.flange_b);
  connect(J1.flange_b, gear.flange_a);
  connect(gear.flange_b, J2.flange_a);
  annotation(experiment(StopTime=3, Interval=0.01));
end Housing;
EOF
sim housing --tolerance 1e-8 --energy && values "moving housing: angular momentum conserved, the gear relation kept, the audit closes" housing <<'PY'
w1, w2, ws = col("J1.w"), col("J2.w"), col("housing.w")
near(max(abs(0.5*a + 4*b + 2*c) for a, b, c in zip(w1, w2, ws)), 0, 1e-9, "J1 w1 + J2 w2 + Js ws")
near(max(abs((a - c) - 3*(b - c)) for a, b, c in zip(w1, w2, ws)), 0, 1e-9, "w1 - ws - r (w2 - ws)")
check(max(w1) > 0.1 and min(w1) < -0.1, "the motor turns J1 both ways")
check(set(col("gear.mode")) >= {1, -1}, "the gear rolls both ways: modes %s" % sorted(set(col("gear.mode"))))
near(max(abs(x) for x in col("energy.drift")), 0, 1e-6, "the energy balance")
near(at("gear.support.tau", 1), -(at("gear.flange_a.tau", 1) + at("gear.flange_b.tau", 1)), 1e-9, "support.tau")
PY

# ---- LossyGearDemo1 (every mode): the energy audit's dissipation is the
# integral of the gear's lossPower, and the power flowing in through the
# flanges (the example's PowerLoss) is that lossPower.
"$FLANGE" simulate "$EX/LossyGearDemo1.mo" --tolerance 1e-8 --energy -o "$T/demo1.csv" --quiet 2> "$T/demo1.err" > /dev/null \
  || bad "LossyGearDemo1: simulate failed: $(cat "$T/demo1.err")"
values "LossyGearDemo1: audit dissipation = integral of lossPower = integral of the flange power" demo1 <<'PY'
p = col("gear.lossPower")
I = sum(0.5*(p[i] + p[i-1])*(t[i] - t[i-1]) for i in range(1, len(t)))
near(at("energy.dissipated", 0.5), I, 2e-5*I, "energy.dissipated against the trapezoid of lossPower")
near(max(abs(a - b) for a, b in zip(col("PowerLoss"), p)), 0, 1e-9, "PowerLoss - gear.lossPower")
check(min(p) >= -1e-12, "lossPower >= 0 (min %g)" % min(p))
check(set(col("gear.mode")) == {-1, 0, 1}, "all modes: %s" % sorted(set(col("gear.mode"))))
near(max(abs(a - 2*b) for a, b in zip(col("gear.phi_a"), col("gear.phi_b"))), 0, 1e-10, "phi_a - ratio*phi_b")
near(max(abs(x) for x in col("energy.drift")), 0, 1e-6*at("energy.work", 0.5), "the energy balance")
PY

# ---- Messages.
bad_gear() { # name modifier
  model "$1" <<EOF
model M
  $MRC.LossyGear gear($2);
  $MRC.Inertia J1(J=1, phi(fixed=true), w(fixed=true));
  $MRC.Inertia J2(J=1);
equation
  connect(J1.flange_b, gear.flange_a);
  connect(gear.flange_b, J2.flange_a);
end M;
EOF
}
bad_gear ratio0 "ratio=0"
expect ratio0 1 -- "ratio0.mo:2:54: error: gear.ratio = 0: the transmission ratio must be finite and non-zero"
bad_gear cols "ratio=2, lossTable=[0, 1, 1, 0]"
expect cols 1 -- "cols.mo:2:54: error: gear.lossTable: must be a matrix of five columns (|w_a|, eta_mf1, eta_mf2, |tau_bf1|, |tau_bf2|)"
bad_gear eta "ratio=2, lossTable=[0, 1, 1, 0, 0; 1, 1, 1.2, 0, 0]"
expect eta 1 -- "eta.mo:2:54: error: gear.lossTable[2, 3] = 1.2: the mesh efficiency eta_mf2 must be in (0, 1]"
bad_gear smooth "ratio=2, smoothness=Modelica.Blocks.Types.Smoothness.ContinuousDerivative"
expect smooth 1 -- "smooth.mo:2:54: error: gear.smoothness = ContinuousDerivative is not supported (only LinearSegments and ConstantSegments are)"
bad_gear overdet "ratio=2"
sed -i 's/J2(J=1)/J2(J=1, phi(fixed=true, start=1))/' "$T/overdet.mo"
expect overdet 1 -- "overdet.mo:4:76: error: initial conditions are over-determined: J2.phi is redundant (it is already determined by the other conditions and the model); remove fixed = true from it"
# flange_b on nothing but a torque source: the gear's acceleration relation needs inertia there
model massless <<EOF
model M
  $MRC.LossyGear gear(ratio=2, lossTable=[0, 0.5, 0.5, 0, 0]);
  $MRC.Inertia J1(J=1, phi(fixed=true), w(fixed=true));
  $MRS.Torque load;
  Modelica.Blocks.Sources.Constant c(k=1);
equation
  connect(c.y, load.tau);
  connect(J1.flange_b, gear.flange_a);
  connect(gear.flange_b, load.flange);
end M;
EOF
expect massless 1 -- "massless.mo:2:54: error: gear needs the acceleration of the massless node {gear.flange_b, load.flange}; add a mass there"

if [ $fails -ne 0 ]; then echo "$fails checks failed"; exit 1; fi
echo "all LossyGear checks passed"
