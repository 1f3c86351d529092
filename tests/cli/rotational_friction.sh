#!/usr/bin/env bash
# The stick-slip elements of Modelica.Mechanics.Rotational (BearingFriction,
# Brake, Clutch, OneWayClutch) against closed forms: a brake stopping an
# inertia, the break-away of a bearing friction under a ramp torque, a
# clutch locking two inertias (angular momentum conserved, the lost kinetic
# energy dissipated in the clutch), a freewheel that carries its output
# along and lets it overrun; the energy audit closing with the friction
# losses on the MSL examples; the messages of a bad friction table and of a
# one-way clutch turning backward; a light mass stopping on the shared
# machine.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"
EX="$FLANGE_SRC/examples/msl/rotational"
MRC=Modelica.Mechanics.Rotational.Components

# ---- Brake: an inertia J = 2 kg.m2 at w0 = 10 rad/s, the brake applied
# from the start with fn = fn_max = 8 N and mu = 0.5 (cgeo = 1): a constant
# friction torque tau_f = mu cgeo fn = 4 N.m, so J w' = -tau_f:
#   w = w0 - (tau_f/J) t = 10 - 2 t,  phi = w0 t - t^2,
# stopping at t_s = w0 J / tau_f = 5 s at phi = 25 rad, then locked (the
# torque needed to hold it is zero). The kinetic energy J w0^2 / 2 = 100 J
# is dissipated: lossPower = tau w = 4 (10 - 2 t). The same with the brake's
# support on a Fixed (useSupport = true).
model brake <<EOF
model BrakeStop
  $MRC.Inertia inertia(J=2, phi(fixed=true, start=0), w(fixed=true, start=10));
  $MRC.Brake brake(mu_pos=[0, 0.5], fn_max=8);
  $MRC.Inertia inertiaS(J=2, phi(fixed=true, start=0), w(fixed=true, start=10));
  $MRC.Brake brakeS(mu_pos=[0, 0.5], fn_max=8, useSupport=true);
  $MRC.Fixed fixed;
  Modelica.Blocks.Sources.Constant on(k=1);
equation
  connect(inertia.flange_b, brake.flange_a);
  connect(inertiaS.flange_b, brakeS.flange_a);
  connect(brakeS.support, fixed.flange);
  connect(on.y, brake.f_normalized);
  connect(on.y, brakeS.f_normalized);
  annotation(experiment(StopTime=8, Interval=0.01));
end BrakeStop;
EOF
sim brake --tolerance 1e-8 --energy && values "Brake: w = 10 - 2 t, stops at t = w0 J / tau_f = 5 s, phi = 25 rad, locked" brake <<'PY'
for b, j in (("brake", "inertia"), ("brakeS", "inertiaS")):
    stop = jumps(b + ".mode")
    check(len(stop) == 1 and abs(stop[0] - 5) < 1e-6, "%s stops once at t = 5: %s" % (b, stop))
    near(worst(j + ".w", lambda x: 10 - 2*x if x < 5 else 0), 0, 1e-6, "worst error of %s.w" % j)
    near(worst(j + ".phi", lambda x: 10*x - x*x if x < 5 else 25), 0, 1e-6, "worst error of %s.phi" % j)
    near(worst(b + ".lossPower", lambda x: 4*(10 - 2*x) if x < 4.999 else 0, tmax=4.99), 0, 1e-6, "worst error of %s.lossPower" % b)
    near(at(b + ".tau", 4), 4, 1e-9, "%s.tau while sliding" % b)
    near(at(b + ".mode", 4), 1, 0, "%s.mode while sliding" % b)
    near(at(b + ".mode", 8), 0, 0, "%s.mode after the stop" % b)
    near(at(b + ".locked", 8), 1, 0, "%s.locked after the stop" % b)
    near(at(b + ".tau", 8), 0, 1e-12, "%s.tau holding at rest" % b)
    near(at(j + ".w", 8), 0, 0, "%s.w after the stop (exactly zero)" % j)
# the support takes -tau (support.tau = -flange_a.tau - flange_b.tau), the fixed flange balances it
near(at("brakeS.support.tau", 4), -4, 1e-9, "brakeS.support.tau while braking")
near(at("fixed.flange.tau", 4), 4, 1e-9, "the reaction of the fixed flange while braking")
near(at("energy.dissipated", 8), 200, 1e-6, "dissipated energy (2 x 100 J)")
near(at("energy.kinetic", 8), 0, 1e-12, "kinetic energy at the end")
PY

# ---- BearingFriction: an inertia J = 1 at rest, tau_pos = [0, 2] (sliding
# friction tau0 = 2 N.m), peak = 1.5 (break-away at tau0_max = peak tau0 =
# 3 N.m), driven by a ramp torque T = t (N.m, t in s). Stuck while T <
# tau0_max, i.e. until t_b = 3 s, holding tau = sa = T; then J w' = t - 2:
#   w = (t^2 - 9)/2 - 2 (t - 3) = (t - 3)(t - 1)/2,
#   phi = [t^3/6 - t^2 + 3t/2] from 3 to t   (phi(5) = 10/3).
model bearing <<EOF
model BreakAway
  $MRC.Inertia inertia(J=1, phi(fixed=true, start=0), w(fixed=true, start=0));
  $MRC.BearingFriction bearing(tau_pos=[0, 2], peak=1.5);
  Modelica.Mechanics.Rotational.Sources.Torque torque;
  Modelica.Blocks.Sources.Ramp ramp(height=10, duration=10);
equation
  connect(ramp.y, torque.tau);
  connect(torque.flange, inertia.flange_a);
  connect(inertia.flange_b, bearing.flange_a);
  annotation(experiment(StopTime=5, Interval=0.01));
end BreakAway;
EOF
sim bearing --tolerance 1e-8 && values "BearingFriction: sticks until tau = peak tau0 (t = 3 s), then w = (t - 3)(t - 1)/2" bearing <<'PY'
P = lambda x: x**3/6 - x*x + 1.5*x
start = jumps("bearing.startForward")
check(len(start) >= 1 and abs(start[0] - 3) < 1e-6, "the start at t = 3: %s" % start)
near(worst("inertia.w", lambda x: 0 if x < 3 else (x - 3)*(x - 1)/2), 0, 1e-6, "worst error of inertia.w")
near(worst("inertia.phi", lambda x: 0 if x < 3 else P(x) - P(3)), 0, 1e-6, "worst error of inertia.phi")
near(worst("bearing.tau", lambda x: x, tmax=2.99), 0, 1e-9, "the holding torque tau = T while stuck")
near(worst("bearing.sa", lambda x: x, tmax=2.99), 0, 1e-9, "sa = tau while stuck")
near(at("bearing.mode", 2), 0, 0, "mode while stuck")
near(at("bearing.locked", 2), 1, 0, "locked while stuck")
near(at("bearing.tau", 4), 2, 1e-9, "the sliding torque tau0")
near(at("bearing.mode", 4), 1, 0, "mode while sliding forward")
near(at("inertia.phi", 5), 10/3, 1e-6, "phi(5) = 10/3")
PY

# ---- Clutch: J1 = 1 at w1 = 10 rad/s on flange_a, J2 = 3 at w2 = 2 rad/s
# on flange_b, the clutch engaged from the start (fn = 10 N, mu = 0.5: a
# sliding torque of 5 N.m). w_rel = w2 - w1 = -8 (sliding backward): J1 w1'
# = -5, J2 w2' = 5/3, w_rel' = 20/3, so the clutch locks at t = 8/(20/3) =
# 1.2 s at the common speed of angular momentum conservation
#   w = (J1 w1 + J2 w2)/(J1 + J2) = 16/4 = 4 rad/s,
# and keeps it (no torque acts); the kinetic energy falls from 56 J to
# (J1 + J2) w^2/2 = 32 J: 24 J dissipated in the clutch.
model clutch <<EOF
model ClutchLock
  $MRC.Inertia J1(J=1, phi(fixed=true, start=0), w(fixed=true, start=10));
  $MRC.Clutch clutch(mu_pos=[0, 0.5], fn_max=10);
  $MRC.Inertia J2(J=3, phi(fixed=true, start=0), w(fixed=true, start=2));
  Modelica.Blocks.Sources.Constant on(k=1);
equation
  connect(J1.flange_b, clutch.flange_a);
  connect(clutch.flange_b, J2.flange_a);
  connect(on.y, clutch.f_normalized);
  annotation(experiment(StopTime=2, Interval=0.01));
end ClutchLock;
EOF
sim clutch --tolerance 1e-8 --energy && values "Clutch: locks at t = 1.2 s at the common speed (J1 w1 + J2 w2)/(J1 + J2) = 4 rad/s, 24 J dissipated" clutch <<'PY'
lock = jumps("clutch.locked")
check(len(lock) == 1 and abs(lock[0] - 1.2) < 1e-6, "the clutch locks once at t = 1.2: %s" % lock)
near(worst("J1.w", lambda x: 10 - 5*x if x < 1.2 else 4), 0, 1e-6, "worst error of J1.w")
near(worst("J2.w", lambda x: 2 + 5*x/3 if x < 1.2 else 4), 0, 1e-6, "worst error of J2.w")
near(worst("clutch.w_rel", lambda x: -8 + 20*x/3 if x < 1.2 else 0), 0, 1e-6, "worst error of clutch.w_rel")
near(at("clutch.mode", 0.5), -1, 0, "mode while sliding backward")
near(at("clutch.tau", 0.5), -5, 1e-9, "tau while sliding backward")
near(at("clutch.mode", 2), 0, 0, "mode after locking")
near(at("clutch.tau", 2), 0, 1e-9, "no torque once locked")
L = [1*a + 3*b for a, b in zip(col("J1.w"), col("J2.w"))]
near(max(abs(x - 16) for x in L), 0, 1e-9, "angular momentum J1 w1 + J2 w2 = 16 throughout")
near(at("energy.kinetic", 2), 32, 1e-6, "kinetic energy after locking")
near(at("energy.dissipated", 2), 24, 1e-6, "energy dissipated in the clutch")
PY

# ---- OneWayClutch as a freewheel (never engaged: f_normalized = 0):
# inertiaIn (J = 1, flange_a) driven by T = 2 N.m until t = 1 s, then
# T = -2; inertiaOut (J = 1, flange_b), both at rest. Driving makes w_rel =
# wOut - wIn tend below zero, which the freewheel blocks: locked, both
# accelerate at T/2 = 1 and the clutch transmits tau = -JOut * 1 = -1 N.m
# (a negative torque, which a freewheel holds whatever its size). From
# t = 1 it would have to pull inertiaOut back (tau = +1 > tau0_max, a tiny
# 1e-4 mu0 cgeo fn_max): it starts sliding forward and transmits nothing,
# inertiaOut coasts at 1 rad/s and inertiaIn slows at 2 rad/s2:
#   wIn = 1 - 2 (t - 1),  w_rel = 2 (t - 1).
model freewheel <<EOF
model Freewheel
  $MRC.Inertia inertiaIn(J=1, phi(fixed=true, start=0), w(fixed=true, start=0));
  $MRC.OneWayClutch oneWayClutch(fn_max=3, startForward(fixed=true), stuck(fixed=true));
  $MRC.Inertia inertiaOut(J=1, phi(fixed=true, start=0), w(fixed=true, start=0));
  Modelica.Mechanics.Rotational.Sources.Torque torque;
  Modelica.Blocks.Sources.Step drive(height=-4, offset=2, startTime=1);
  Modelica.Blocks.Sources.Constant off(k=0);
equation
  connect(drive.y, torque.tau);
  connect(torque.flange, inertiaIn.flange_a);
  connect(inertiaIn.flange_b, oneWayClutch.flange_a);
  connect(oneWayClutch.flange_b, inertiaOut.flange_a);
  connect(off.y, oneWayClutch.f_normalized);
  annotation(experiment(StopTime=2, Interval=0.01));
end Freewheel;
EOF
sim freewheel --tolerance 1e-8 --energy && values "OneWayClutch: the freewheel carries its output along (tau = -1 N.m), then lets it overrun" freewheel <<'PY'
near(worst("inertiaIn.w", lambda x: x if x <= 1 else 1 - 2*(x - 1)), 0, 1e-6, "worst error of inertiaIn.w")
near(worst("inertiaOut.w", lambda x: x if x <= 1 else 1), 0, 1e-6, "worst error of inertiaOut.w")
near(worst("oneWayClutch.w_rel", lambda x: 0 if x <= 1 else 2*(x - 1)), 0, 1e-6, "worst error of oneWayClutch.w_rel")
near(at("oneWayClutch.tau", 0.5), -1, 1e-9, "the torque a locked freewheel transmits")
near(at("oneWayClutch.locked", 0.5), 1, 0, "locked while driving")
near(at("oneWayClutch.stuck", 0.5), 1, 0, "stuck while driving")
near(at("oneWayClutch.free", 0.5), 1, 0, "the clutch is free (f_normalized = 0)")
near(at("oneWayClutch.locked", 1.5), 0, 0, "overrunning: not locked")
near(at("oneWayClutch.stuck", 1.5), 0, 0, "overrunning: not stuck")
near(at("oneWayClutch.tau", 1.5), 0, 0, "overrunning: no torque")
near(at("oneWayClutch.lossPower", 1.5), 0, 0, "overrunning: no loss")
near(at("oneWayClutch.tau0_max", 0.5), 1e-4*0.5*3, 1e-15, "tau0_max of a free one-way clutch: eps0 mu0 cgeo fn_max")
near(at("energy.dissipated", 2), 0, 1e-9, "nothing dissipated")
PY

# ---- the energy audit closes with the friction losses (kinetic + stored +
# dissipated - work of sources) on the MSL examples, at rtol 1e-8 (the
# disengaged one-way clutch only freewheels: nothing to dissipate)
for name in Friction CoupledClutches OneWayClutch OneWayClutchDisengaged; do
  least=0; [ $name = OneWayClutchDisengaged ] && least=-1
  if ! "$FLANGE" simulate "$EX/$name.mo" --tolerance 1e-8 --energy -o "$T/$name.csv" --quiet > "$T/$name.txt" 2> "$T/$name.err"; then
    bad "$name: simulate failed: $(cat "$T/$name.err")"
    continue
  fi
  drift=$(grep -o '= [0-9.e+-]* of the throughput' "$T/$name.txt" | cut -d' ' -f2)
  diss=$(grep -o 'dissipated [0-9.e+-]* J' "$T/$name.txt" | cut -d' ' -f2)
  if [ -n "$drift" ] && awk -v d="$drift" -v l="$diss" -v m=$least 'BEGIN { exit !(d <= 1e-6 && l > m) }'; then
    ok "$name: energy drift $drift of the throughput, $diss J dissipated"
  else
    bad "$name: energy drift '$drift': $(cat "$T/$name.txt" "$T/$name.err")"
  fi
done

# ---- a friction table whose value at w = 0 is negative
model badtable <<EOF
model BadTable
  $MRC.Inertia J1(J=1);
  $MRC.Clutch clutch(mu_pos=[0, -0.5; 1, 0.5], fn_max=10);
  $MRC.Inertia J2(J=1);
  Modelica.Blocks.Sources.Constant on(k=1);
equation
  connect(J1.flange_b, clutch.flange_a);
  connect(clutch.flange_b, J2.flange_a);
  connect(on.y, clutch.f_normalized);
end BadTable;
EOF
expect badtable 1 -- "badtable.mo:3:51: error: clutch.mu_pos: the friction coefficient at w = 0 is -0.5; it must be >= 0"

# ---- a one-way clutch started turning backward (w_rel < 0) is refused
model backward <<EOF
model Backward
  $MRC.Inertia inertiaIn(J=1, phi(fixed=true, start=0), w(fixed=true, start=0.5));
  $MRC.OneWayClutch oneWayClutch(fn_max=3);
  $MRC.Inertia inertiaOut(J=1, phi(fixed=true, start=0), w(fixed=true, start=0));
  Modelica.Blocks.Sources.Constant off(k=0);
equation
  connect(inertiaIn.flange_b, oneWayClutch.flange_a);
  connect(oneWayClutch.flange_b, inertiaOut.flange_a);
  connect(off.y, oneWayClutch.f_normalized);
end Backward;
EOF
expect backward 1 -- "error: at t = 0: oneWayClutch: w_rel = -0.5 rad/s < 0: a one-way clutch cannot turn backward (flange_b slower than flange_a); start it with w_rel >= 0"

# ---- the shared stick-slip machine (friction_core.c), translational: a
# mass of m = 0.05 kg sliding backward at v0 = -1 m/s on a SupportFriction
# of f0 = 1 N stops at t = m |v0| / f0 = 0.05 s and stays stuck. (The
# machine once decided the break-away at arrival from the sliding value of
# sa, a + f0 = 19 here, and chattered: right only for a unit mass.)
model tstop <<'EOF'
model TStop
  Modelica.Mechanics.Translational.Components.Mass mass(m=0.05, s(fixed=true), v(start=-1, fixed=true));
  Modelica.Mechanics.Translational.Components.SupportFriction fric(f_pos=[0, 1]);
equation
  connect(mass.flange_b, fric.flange_a);
  annotation(experiment(StopTime=0.2, Interval=0.01));
end TStop;
EOF
sim tstop --tolerance 1e-8 && values "SupportFriction: a light mass stops at t = m |v0| / f0 = 0.05 s and stays stuck" tstop <<'PY'
near(worst("mass.v", lambda x: -1 + 20*x if x < 0.05 else 0), 0, 1e-6, "worst error of mass.v")
near(at("fric.mode", 0.2), 0, 0, "fric.mode at the end")
near(at("fric.f", 0.2), 0, 1e-12, "no friction force at rest")
check(len(jumps("fric.mode")) == 1, "one mode change: %s" % jumps("fric.mode"))
PY

if [ $fails -ne 0 ]; then echo "$fails checks failed"; exit 1; fi
echo "all rotational friction checks passed"
