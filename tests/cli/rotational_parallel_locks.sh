#!/usr/bin/env bash
# Parallel locks (friction_core.c, fl_fric_rigid): stuck friction elements
# that hold one rigid body together share the holding torque by a rule,
# instead of leaving it undetermined. The element declared first holds the
# whole torque up to its break-away limit, the next takes the rest; the
# body moves only when the torque needed exceeds the sum of the limits.
# Closed forms: two brakes on a shaft under a torque ramp up and down, the
# same with translational brakes, torques that rise and fall back inside
# the limits, and a self-locking LossyGear with a BearingFriction on its
# input shaft (LossyGearDemo2's pair).
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"
MRC=Modelica.Mechanics.Rotational.Components
MRS=Modelica.Mechanics.Rotational.Sources
MTC=Modelica.Mechanics.Translational.Components
MTS=Modelica.Mechanics.Translational.Sources

# ---- Two brakes on a shaft (J = 2), limits mu*cgeo*fn_max*f_normalized =
# 0.5*2*1 = 1 (b1, declared first) and 0.5*4*1 = 2 (b2), a torque T = k t.
# Held while |T| <= 3: b1.tau = clamp(T, -1, 1), b2.tau = T - b1.tau.
# From t0 = 3/|k| the shaft slides against the sliding torques (mu constant:
# 1 and 2): J a = T - 3 sign(k), so with k = 3 (t0 = 1)
#     w = 3 (t - 1)^2/(2 J),  phi = (t - 1)^3/(2 J):  w(2) = 0.75, phi(2) = 0.25,
# and with k = -3 the same negated.
model brakes <<EOF
model Brakes
  parameter Real k = 3 "torque rate";
  $MRC.Inertia shaft(J=2, phi(fixed=true, start=0), w(fixed=true, start=0));
  $MRC.Brake b1(fn_max=2);
  $MRC.Brake b2(fn_max=4);
  $MRS.Torque drive;
  Modelica.Blocks.Sources.Ramp ramp(height=2*k, duration=2);
  Modelica.Blocks.Sources.Constant on(k=1);
equation
  connect(ramp.y, drive.tau);
  connect(on.y, b1.f_normalized);
  connect(on.y, b2.f_normalized);
  connect(drive.flange, shaft.flange_a);
  connect(shaft.flange_b, b1.flange_a);
  connect(b1.flange_b, b2.flange_a);
  annotation(experiment(StopTime=2, Interval=0.01));
end Brakes;
EOF
for k in 3 -3; do
  cp "$T/brakes.mo" "$T/brakes$k.mo"
  sim "brakes$k" --tolerance 1e-8 --energy --param k=$k && values "two brakes, T = $k t: held until |T| = 1 + 2, then a = (T - 3 sign T)/J" "brakes$k" <<PY
k = $k
s = 1 if k > 0 else -1
held = [i for i, x in enumerate(t) if x < 1 - 1e-9]
near(max(abs(col("shaft.w")[i]) for i in held), 0, 0, "shaft.w while held (exactly zero)")
near(max(abs(col("b1.tau")[i] - max(-1, min(1, k*t[i]))) for i in held), 0, 1e-9, "b1 holds clamp(T, -1, 1)")
near(max(abs(col("b2.tau")[i] - (k*t[i] - max(-1, min(1, k*t[i])))) for i in held), 0, 1e-9, "b2 holds the rest")
near(max(abs(col("b2.tau")[i]) for i in held if abs(k*t[i]) <= 1), 0, 1e-9, "b2 idle while b1 can hold")
near(crossings("shaft.w", s*1e-6)[0], 1, 1e-3, "break-away at |T| = 3 (t = 1)")
near(at("shaft.w", 2), s*0.75, 1e-6, "w(2) = 3 (t - 1)^2/(2 J)")
near(at("shaft.phi", 2), s*0.25, 1e-6, "phi(2) = (t - 1)^3/(2 J)")
near(worst("shaft.w", lambda x: s*3*max(0, x - 1)**2/4), 0, 1e-6, "worst error of w")
near(at("b1.mode", 2), s, 0, "b1 slides")
near(at("b2.mode", 2), s, 0, "b2 slides")
near(at("energy.drift", 2), 0, 1e-6, "the energy balance")
PY
done

# ---- Rising and falling back inside the limits: T = 2.5 sin(2 pi t/4) never
# exceeds 1 + 2, so the shaft never moves; the two torques always add up
# to T and stay within their limits (which of them holds how much follows
# the history: a member at its limit stays there while the others hold).
model sine <<EOF
model Sine
  $MRC.Inertia shaft(J=2, phi(fixed=true, start=0), w(fixed=true, start=0));
  $MRC.Brake b1(fn_max=2);
  $MRC.Brake b2(fn_max=4);
  $MRS.Torque drive;
  Modelica.Blocks.Sources.Sine s(amplitude=2.5, f=0.25);
  Modelica.Blocks.Sources.Constant on(k=1);
equation
  connect(s.y, drive.tau);
  connect(on.y, b1.f_normalized);
  connect(on.y, b2.f_normalized);
  connect(drive.flange, shaft.flange_a);
  connect(shaft.flange_b, b1.flange_a);
  connect(b1.flange_b, b2.flange_a);
  annotation(experiment(StopTime=8, Interval=0.01));
end Sine;
EOF
sim sine --tolerance 1e-8 && values "T = 2.5 sin(pi t/2) < 1 + 2: held for two periods, torques within limits" sine <<'PY'
T = [2.5*math.sin(math.pi*x/2) for x in t]
near(max(abs(w) for w in col("shaft.w")), 0, 0, "shaft.w (exactly zero)")
near(max(abs(a + b - x) for a, b, x in zip(col("b1.tau"), col("b2.tau"), T)), 0, 1e-9, "b1.tau + b2.tau = T")
near(max(max(0, abs(a) - 1) for a in col("b1.tau")), 0, 1e-8, "|b1.tau| <= 1 (up to the location of the events)")
near(max(max(0, abs(b) - 2) for b in col("b2.tau")), 0, 1e-8, "|b2.tau| <= 2")
near(max(abs(m) for m in col("b1.mode") + col("b2.mode")), 0, 0, "both stuck (mode 0) throughout")
PY

# ---- Translational: a mass (m = 1) held by two Brakes (limits 0.5*10 = 5 N
# and 0.5*14 = 7 N) under F = 4 t: held until F = 12 at t = 3, then
# a = F - 12: v(4) = 2, s(4) = 2/3.
model tbrakes <<EOF
model TBrakes
  $MTC.Mass mass(m=1, s(fixed=true, start=0), v(fixed=true, start=0));
  $MTC.Brake b1(fn_max=10);
  $MTC.Brake b2(fn_max=14);
  $MTS.Force force;
  Modelica.Blocks.Sources.Ramp ramp(height=16, duration=4);
  Modelica.Blocks.Sources.Constant on(k=1);
equation
  connect(ramp.y, force.f);
  connect(on.y, b1.f_normalized);
  connect(on.y, b2.f_normalized);
  connect(force.flange, mass.flange_a);
  connect(mass.flange_b, b1.flange_a);
  connect(b1.flange_b, b2.flange_a);
  annotation(experiment(StopTime=4, Interval=0.01));
end TBrakes;
EOF
sim tbrakes --tolerance 1e-8 && values "translational brakes: held until F = 5 + 7, then a = F - 12" tbrakes <<'PY'
held = [i for i, x in enumerate(t) if x < 3 - 1e-9]
near(max(abs(col("mass.v")[i]) for i in held), 0, 0, "mass.v while held")
near(max(abs(col("b1.f")[i] - min(5, 4*t[i])) for i in held), 0, 1e-9, "b1 holds min(F, 5)")
near(max(abs(col("b2.f")[i] - max(0, 4*t[i] - 5)) for i in held), 0, 1e-9, "b2 holds the rest")
near(crossings("mass.v", 1e-6)[0], 3, 1e-3, "break-away at F = 12 (t = 3)")
near(at("mass.v", 4), 2, 1e-6, "v(4) = 2 (t - 3)^2")
near(at("mass.s", 4), 2/3, 1e-6, "s(4) = 2 (t - 3)^3/3")
PY

# ---- A self-locking LossyGear (r = 2, eta_mf1 = eta_mf2 = 0.5) with a
# BearingFriction (0.5 N.m) on its input shaft J1 = 1, a torque u on J1,
# -10 N.m on J2 = 1.5 at flange_b. Stuck, the gear needs tau_a =
# gear.flange_a.tau in [eta_mf2 10/r, 10/(r eta_mf1)] = [2.5, 10]
# (rotational_lossygear.sh) and the bearing gives tau_a = u - tau_bearing
# with |tau_bearing| <= 0.5: the pair holds for u in [2, 10.5], the gear
# alone only for [2.5, 10].
#  u = 2.2: held. The gear (declared first) would hold tau_a = u = 2.2 < 2.5:
#    it sits at its limit tau_a = 2.5 and the bearing holds u - 2.5 = -0.3.
#  u = 1.9: rolls backward; flange_b drives (tau_a > 0 against w_a < 0), so
#    tauLoss = (1 - 1/eta_mf2) tau_a = -tau_a, and the bearing's 0.5 N.m
#    acts forward on J1:  J1 a = u + 0.5 - tau_a,  J2 a/r = -10 + r (tau_a - tauLoss):
#    tau_a = 23.6/9.5, a = 2.4 - tau_a = -0.8/9.5.
model gearpair <<EOF
model GearPair
  parameter Real u = 2.2;
  $MRC.LossyGear gear(ratio=2, lossTable=[0, 0.5, 0.5, 0, 0]);
  $MRC.Inertia J1(J=1, phi(fixed=true, start=0), w(fixed=true, start=0));
  $MRC.Inertia J2(J=1.5);
  $MRC.BearingFriction bearing(tau_pos=[0, 0.5]);
  $MRS.Torque drive;
  $MRS.Torque load;
  Modelica.Blocks.Sources.Constant cu(k=u);
  Modelica.Blocks.Sources.Constant cl(k=-10);
equation
  connect(cu.y, drive.tau);
  connect(cl.y, load.tau);
  connect(drive.flange, bearing.flange_a);
  connect(bearing.flange_b, J1.flange_a);
  connect(J1.flange_b, gear.flange_a);
  connect(gear.flange_b, J2.flange_a);
  connect(J2.flange_b, load.flange);
  annotation(experiment(StopTime=1, Interval=0.01));
end GearPair;
EOF
cp "$T/gearpair.mo" "$T/pair22.mo"
sim pair22 --tolerance 1e-8 --param u=2.2 && values "LossyGear + BearingFriction, u = 2.2: held by the pair (gear at tau_a = 2.5, bearing -0.3)" pair22 <<'PY'
near(max(abs(w) for w in col("J1.w") + col("J2.w")), 0, 0, "J1.w, J2.w (exactly zero)")
near(at("gear.flange_a.tau", 1), 2.5, 1e-9, "gear.flange_a.tau at the gear's limit")
near(at("bearing.tau", 1), -0.3, 1e-9, "the bearing holds the rest")
near(at("gear.mode", 1), 0, 0, "gear.mode")
near(at("bearing.mode", 1), 0, 0, "bearing.mode")
PY
cp "$T/gearpair.mo" "$T/pair19.mo"
sim pair19 --tolerance 1e-8 --param u=1.9 && values "LossyGear + BearingFriction, u = 1.9 < 2: rolls backward, a = -0.8/9.5" pair19 <<'PY'
a = -0.8/9.5
near(worst("J1.w", lambda x: a*x), 0, 1e-7, "worst error of J1.w = a t")
near(at("gear.flange_a.tau", 1), 23.6/9.5, 1e-7, "gear.flange_a.tau")
near(at("gear.mode", 1), -1, 0, "gear.mode")
near(at("bearing.mode", 1), -1, 0, "bearing.mode")
PY

if [ $fails -ne 0 ]; then echo "$fails checks failed"; exit 1; fi
echo "all parallel-lock checks passed"
