#!/usr/bin/env bash
# Stops, backlash and the limiter on a shaft (issue 13): Flange.Components
# RotationalHardStop (its four contact models), SymmetricRotationalHardStop
# and TorqueLimiter, which run the laws of HardStop, SymmetricHardStop and
# ForceLimiter with angle, torque and moment of inertia, checked against the
# closed forms of the translational worked checks (spec sections 3.7, 4.8,
# 5) rewritten for rotation; the MSL ElastoBacklash and ElastoBacklash2
# against the closed forms of their contact phases and their torque law row
# by row; the energy audit with impacts; `flange components`; the messages
# of bad parameters.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# drift NAME: the energy drift of the run's report ($T/NAME.out) is at most 1e-6
energy_ok() {
  local d
  d=$(grep -o '= [0-9.e+-]* of the throughput' "$T/$1.out" | cut -d' ' -f2)
  if [ -n "$d" ] && awk -v d="$d" 'BEGIN { exit !(d <= 1e-6) }'; then ok "$1: energy drift $d of the throughput"
  else bad "$1: energy drift '$d': $(cat "$T/$1.out" "$T/$1.err")"; fi
}
# esim NAME: simulate with the energy audit at rtol 1e-8
esim() {
  local name=$1; shift
  if ! "$FLANGE" simulate "$T/$name.mo" -o "$T/$name.csv" --quiet --energy --tolerance 1e-8 "$@" \
      2> "$T/$name.err" > "$T/$name.out"; then
    bad "$name: the simulation failed"; sed "s|$T/||g" "$T/$name.err"; return 1
  fi
  energy_ok "$name"
}

PRE='def event_times():
    return sorted(set(t[i] for i in range(1, len(t)) if t[i] == t[i - 1]))
def first_change(name, after=-1.0):
    c = col(name)
    for i in range(1, len(t)):
        if t[i] > after and c[i] != c[i - 1]:
            return i
    raise KeyError("%s never changes after %g" % (name, after))
'
checks() { { printf '%s\n' "$PRE"; cat; } ; }

# ---- RotationalHardStop, stiffness models (HX-1, HX-2, HX-4 on a shaft).
# Case C fixed, a rotor of J = 4 kg.m2 at R from phi = 0 at w0 = 1 rad/s
# towards the upper stop at upper_bnd = 0.1 rad: contact at t = 0.1 s.
# K = 4e6 N.m/rad and D = 600 N.m.s/rad give the translational check's
# wn = sqrt(K/J) = 1000 rad/s and zeta = D/(2 sqrt(K J)) = 0.075, so the
# numbers are HX's (and J must count as the mass to get them):
#   FULL_DAMPED: the penetration p solves J p'' + D p' + K p = 0, p(0) = 0,
#     p'(0) = w0: p = w0/wd exp(-zeta wn t) sin(wd t), wd = wn sqrt(1 - zeta^2);
#     the contact ends at p = 0, t = pi/wd = 3.150466e-3 s, with
#     w = -w0 exp(-pi zeta/sqrt(1 - zeta^2)) = -0.7895557 rad/s; the peak
#     p = (w0/wn) exp(-zeta/sqrt(1-zeta^2) atan2(sqrt(1-zeta^2), zeta))
#     = 8.936007e-4 rad at t = atan2(sqrt(1 - zeta^2), zeta)/wd = 1.499950e-3 s.
#   FULL_UNDAMPED: the same compression, then an undamped release from
#     the peak: w = -peak wn = -0.8936007 rad/s after 1.499950e-3 + pi/(2 wn) s.
#   SMOOTH: no closed form; the torque is 0 at the touch, and the exit
#     speed is the spec's RK4 value for HX-4 (-0.8022867).
for m in FULL_DAMPED FULL_UNDAMPED SMOOTH; do
model "rhx_$m" <<EOF
model RHX
  Modelica.Mechanics.Rotational.Components.Fixed fixed;
  Flange.Components.RotationalHardStop hs(stiff_up = 4e6, D_up = 600,
    hs_model = Flange.Types.HardStopModel.$m);
  Modelica.Mechanics.Rotational.Components.Inertia rotor(J = 4, phi(fixed = true, start = 0), w(start = 1, fixed = true));
equation
  connect(fixed.flange, hs.C);
  connect(hs.R, rotor.flange_a);
  annotation(experiment(StopTime = 0.12, Interval = 1e-6));
end RHX;
EOF
done
for m in FULL_DAMPED FULL_UNDAMPED SMOOTH; do
  case $m in
    FULL_DAMPED) vexit=-0.7895557 dur=3.150466e-3 pk=8.936007e-4 ;;
    FULL_UNDAMPED) vexit=-0.8936007 dur=3.070747e-3 pk=8.936007e-4 ;;
    SMOOTH) vexit=-0.8022867 dur=3.150535e-3 pk=9.016396e-4 ;;
  esac
  esim "rhx_$m" && values "RotationalHardStop $m: touch at 0.1 s, exit speed, contact time, peak penetration" "rhx_$m" \
    < <(checks <<PY
on = first_change("hs.contact"); off = first_change("hs.contact", t[on] + 1e-9)
near(t[on], 0.1, 1e-9, "contact start")
near(col("rotor.w")[off], $vexit, 1e-4 * 0.8, "exit speed")
near(t[off] - t[on], $dur, 1e-4 * 3.15e-3, "contact duration")
near(max(col("hs.phi")) - 0.1, $pk, 1e-4 * 9e-4, "peak penetration")
near(col("hs.w")[on], 1, 1e-9, "relative speed at the touch")
if "$m" == "SMOOTH": near(col("hs.tau")[on], 0, 1e-9, "torque at the touch")
if "$m" == "FULL_DAMPED": near(col("hs.tau")[on], 600 * 1, 1e-6, "torque at the touch (D w)")
PY
)
done

# ---- RESTITUTION (HX-3 on a shaft): the same rotor at w0 = 2 rad/s, cor =
# 0.8: at t = 0.1/2 = 0.05 s the speed becomes -cor w0 = -1.6 rad/s in one
# instant, and the impact loses 0.5 (1 - cor^2) J w0^2 = 0.5*0.36*4*4 =
# 2.88 J (J is the reduced inertia: the case is fixed); the rest, 0.5 J
# (cor w0)^2 = 5.12 J, stays kinetic, and the audit closes with the impact.
model rhx_restitution <<'EOF'
model RHX3
  Modelica.Mechanics.Rotational.Components.Fixed fixed;
  Flange.Components.RotationalHardStop hs(hs_model = Flange.Types.HardStopModel.RESTITUTION, cor = 0.8);
  Modelica.Mechanics.Rotational.Components.Inertia rotor(J = 4, phi(fixed = true, start = 0), w(start = 2, fixed = true));
equation
  connect(fixed.flange, hs.C);
  connect(hs.R, rotor.flange_a);
  annotation(experiment(StopTime = 0.1, Interval = 1e-3));
end RHX3;
EOF
esim rhx_restitution && values "RotationalHardStop RESTITUTION: rebound -cor w, impactEnergy 0.5(1-cor^2) J w^2" rhx_restitution \
  < <(checks <<'PY'
near(at("rotor.w", 0.05, 0), 2, 1e-12, "speed before the impact")
near(at("rotor.w", 0.05, -1), -1.6, 1e-12, "speed after the impact")
near(at("hs.impactEnergy", 0.05, -1), 2.88, 1e-12, "impactEnergy")
near(at("energy.dissipated", 0.1), 2.88, 1e-9, "dissipated energy (the impact)")
near(at("energy.kinetic", 0.1), 5.12, 1e-9, "kinetic energy after")
near(at("hs.phi", 0.1), 0.1 - 1.6 * 0.05, 1e-9, "angle 0.05 s after the rebound")
check(event_times() == [0.05] or abs(event_times()[0] - 0.05) < 1e-12, "one impact instant: %s" % event_times())
PY
)
grep -q "dissipated 2\.880* J (of which impacts 2\.880* J)" "$T/rhx_restitution.out" \
  && ok "energy report: the impact's 2.88 J" || bad "energy report: $(cat "$T/rhx_restitution.out")"

# Two free inertias (case J_C = 2 at -0.5 rad/s, rotor J_R = 1 at +1 rad/s,
# gap 0.1 rad closed at 1.5 rad/s: t = 0.1/1.5), cor = 0.5: the impulse
# keeps the angular momentum J_C w_C + J_R w_R = 0, turns the relative
# speed into -0.5*1.5 and loses 0.5 (1 - cor^2) mu 1.5^2 with the reduced
# inertia mu = 1/(1/J_C + 1/J_R) = 2/3: 0.5625 J.
model rhx_two <<'EOF'
model RHXTwo
  Flange.Components.RotationalHardStop hs(hs_model = Flange.Types.HardStopModel.RESTITUTION, cor = 0.5);
  Modelica.Mechanics.Rotational.Components.Inertia caseInertia(J = 2, phi(fixed = true, start = 0), w(start = -0.5, fixed = true));
  Modelica.Mechanics.Rotational.Components.Inertia rotor(J = 1, phi(fixed = true, start = 0), w(start = 1, fixed = true));
equation
  connect(caseInertia.flange_b, hs.C);
  connect(hs.R, rotor.flange_a);
  annotation(experiment(StopTime = 0.2, Interval = 1e-3));
end RHXTwo;
EOF
esim rhx_two && values "RotationalHardStop RESTITUTION between two inertias: angular momentum, reduced inertia" rhx_two \
  < <(checks <<'PY'
ti = event_times()[0]
near(ti, 0.1 / 1.5, 1e-9, "impact time")
near(2 * at("caseInertia.w", ti, -1) + at("rotor.w", ti, -1), 0, 1e-12, "angular momentum after the impact")
near(at("rotor.w", ti, -1) - at("caseInertia.w", ti, -1), -0.75, 1e-12, "relative speed after the impact")
near(at("hs.impactEnergy", ti, -1), 0.5625, 1e-12, "impactEnergy")
PY
)

# A stop too soft for its load is reported in the unit of its angle.
model soft <<'EOF'
model Soft
  Modelica.Mechanics.Rotational.Components.Fixed fixed;
  Flange.Components.RotationalHardStop hs(stiff_up = 10, D_up = 1);
  Modelica.Mechanics.Rotational.Components.Inertia rotor(J = 4, phi(fixed = true, start = 0), w(start = 1, fixed = true));
equation
  connect(fixed.flange, hs.C);
  connect(hs.R, rotor.flange_a);
  annotation(experiment(StopTime = 1));
end Soft;
EOF
expect_re soft 0 -- '^soft\.mo:3:40: warning: hs: the contact went 0\.[0-9]+ rad into its stop at t = 1, [0-9]+% of its gap of 0\.2 rad: the stop is too soft for the load \(raise its stiffness\)$'

# A slow touch below w_static sticks; the stop then holds a torque pushing
# into it (tau = +2 N.m from t = 1 s) and lets go at once when the load
# pulls (net -2 N.m from t = 2 s): w = -2/J (t - 2) = -0.125 rad/s and
# phi = 0.1 - (2/J)/2 (t - 2)^2 = 0.1 - 0.015625 rad at 2.25 s.
model rhx_static <<'EOF'
model RHXStatic
  Modelica.Mechanics.Rotational.Components.Fixed fixed;
  Flange.Components.RotationalHardStop hs(hs_model = Flange.Types.HardStopModel.RESTITUTION, phi_start = 0.0999);
  Modelica.Mechanics.Rotational.Components.Inertia rotor(J = 4, phi(fixed = true, start = 0), w(start = 5e-4, fixed = true));
  Modelica.Mechanics.Rotational.Sources.Torque load;
  Modelica.Blocks.Sources.Step push(height = 2, startTime = 1);
  Modelica.Blocks.Sources.Step pull(height = -4, startTime = 2);
  Modelica.Blocks.Math.Add sum;
equation
  connect(fixed.flange, hs.C);
  connect(hs.R, rotor.flange_a);
  connect(load.flange, rotor.flange_b);
  connect(push.y, sum.u1);
  connect(pull.y, sum.u2);
  connect(sum.y, load.tau);
  annotation(experiment(StopTime = 3, Interval = 0.01));
end RHXStatic;
EOF
esim rhx_static && values "RotationalHardStop RESTITUTION: static contact holds the torque, releases when it pulls" rhx_static \
  < <(checks <<'PY'
st = first_change("hs.mode")
near(t[st], 0.2, 1e-6, "static contact from")
near(col("hs.mode")[st], 1, 0, "mode")
near(col("rotor.w")[st], 0, 1e-15, "speed in static contact")
near(at("hs.phi", 1.5), 0.1, 1e-12, "angle in static contact")
near(at("hs.tau", 1.5), 2, 1e-9, "the stop holds the 2 N.m load")
rel = first_change("hs.mode", 0.5)
near(t[rel], 2, 1e-12, "released at once by the pulling load")
near(at("rotor.a", 2.25), -0.5, 1e-9, "angular acceleration after the release")
near(at("rotor.w", 2.25), -0.125, 1e-6, "speed at 2.25 s")
near(at("hs.phi", 2.25), 0.1 - 0.015625, 1e-6, "angle at 2.25 s")
PY
)

# ---- Penalty stops: static deflection tau/c under a constant torque.
# RotationalHardStop (K = 1e6 N.m/rad) pressed by 50 N.m: it bounces, then
# rests at phi = upper_bnd + 50/1e6 with tau = 50 N.m. SymmetricRotational-
# HardStop (b = 0.2, c = 1e4, d = 100) pressed by 20 N.m: phi_rel = b/2 +
# 20/1e4 = 0.102 rad; with b = 0 (no clearance, c = 1e10) and 1 N.m:
# phi_rel = 1e-10 rad (HS-4).
model penalty <<'EOF'
model Penalty
  Modelica.Mechanics.Rotational.Components.Fixed fixed;
  Flange.Components.RotationalHardStop hs;
  Modelica.Mechanics.Rotational.Components.Inertia rotor(J = 1, phi(fixed = true, start = 0), w(start = 0, fixed = true));
  Modelica.Mechanics.Rotational.Sources.Torque t1;
  Modelica.Blocks.Sources.Constant k1(k = 50);
  Flange.Components.SymmetricRotationalHardStop shs(b = 0.2, c = 1e4, d = 100);
  Modelica.Mechanics.Rotational.Components.Inertia rotor2(J = 1, phi(fixed = true, start = 0), w(start = 0, fixed = true));
  Modelica.Mechanics.Rotational.Sources.Torque t2;
  Modelica.Blocks.Sources.Constant k2(k = 20);
equation
  connect(fixed.flange, hs.C);
  connect(hs.R, rotor.flange_a);
  connect(t1.flange, rotor.flange_b);
  connect(k1.y, t1.tau);
  connect(fixed.flange, shs.flange_a);
  connect(shs.flange_b, rotor2.flange_a);
  connect(t2.flange, rotor2.flange_b);
  connect(k2.y, t2.tau);
  annotation(experiment(StopTime = 5, Interval = 0.01));
end Penalty;
EOF
esim penalty && values "penalty stops: static deflection tau/c" penalty < <(checks <<'PY'
near(at("hs.phi", 5), 0.1 + 50 / 1e6, 1e-10, "RotationalHardStop angle at rest")
near(at("hs.tau", 5), 50, 1e-5, "RotationalHardStop torque at rest")
near(at("hs.contact", 5), 1, 0, "RotationalHardStop contact")
near(at("shs.phi_rel", 5), 0.1 + 20 / 1e4, 1e-10, "SymmetricRotationalHardStop angle at rest")
near(at("shs.tau", 5), 20, 1e-6, "SymmetricRotationalHardStop torque at rest")
PY
)
# (no clearance: the massless flange creeps to 1e-10 rad with the time
# constant d/c = 1 s; 40 s as in HS-4)
model tight <<'EOF'
model Tight
  Modelica.Mechanics.Rotational.Components.Fixed fixed;
  Flange.Components.SymmetricRotationalHardStop tight(b = 0, phi_rel(fixed = true));
  Modelica.Mechanics.Rotational.Sources.Torque t3;
  Modelica.Blocks.Sources.Constant k3(k = 1);
equation
  connect(fixed.flange, tight.flange_a);
  connect(tight.flange_b, t3.flange);
  connect(k3.y, t3.tau);
  annotation(experiment(StopTime = 40, Interval = 1));
end Tight;
EOF
sim tight && values "no clearance: phi_rel = tau/c" tight < <(checks <<'PY'
near(at("tight.phi_rel", 40), 1e-10, 1e-14, "no clearance: phi_rel = tau/c")
near(at("tight.tau", 40), 1, 1e-6, "no clearance: tau")
PY
)

# ---- SymmetricRotationalHardStop elastic (HS-1 on a shaft): b = 1 rad,
# c = 1e4, d = 0, J = 1 from the middle at 1 rad/s: contact at 0.5 s for
# pi sqrt(J/c) = pi/100 s, leaving at exactly -1 rad/s; the lower stop at
# 0.5 + pi/100 + 1 s; the period 2 (1 + pi/100) = 2.06283185 s.
model shs_elastic <<'EOF'
model SHSElastic
  Modelica.Mechanics.Rotational.Components.Fixed fixed;
  Flange.Components.SymmetricRotationalHardStop hs(b = 1, c = 1e4, d = 0);
  Modelica.Mechanics.Rotational.Components.Inertia rotor(J = 1, phi(fixed = true, start = 0), w(start = 1, fixed = true));
equation
  connect(fixed.flange, hs.flange_a);
  connect(hs.flange_b, rotor.flange_a);
  annotation(experiment(StopTime = 2.6, Interval = 1e-4));
end SHSElastic;
EOF
esim shs_elastic && values "SymmetricRotationalHardStop elastic: contact time pi/100 s, exit -1 rad/s, period" shs_elastic \
  < <(checks <<'PY'
on = first_change("hs.contact"); off = first_change("hs.contact", t[on] + 1e-9)
low = first_change("hs.contact", t[off] + 1e-9); again = first_change("hs.contact", t[low] + 0.1)
near(t[on], 0.5, 1e-9, "first contact")
near(t[off] - t[on], math.pi / 100, 1e-7, "contact duration")
near(col("rotor.w")[off], -1, 1e-6, "exit speed")
near(max(col("hs.phi_rel")), 0.51, 1e-6, "peak angle")
near(t[low], 1.5 + math.pi / 100, 1e-7, "lower stop")
near(col("hs.contact")[low], -1, 0, "lower contact")
near(t[again] - t[on], 2 + 2 * math.pi / 100, 1e-6, "period")
PY
)

# ---- TorqueLimiter (ForceLimiter's ideal slip coupling on a shaft).
# A driving inertia (J = 1) at flange_a, a free load (J = 1) at flange_b,
# limits -2..2 N.m on tau = flange_b.tau. The drive torque is 3 N.m until
# t = 1 s, then 10 N.m. Stuck, both turn at a = 3/2: the coupling carries
# J_load a = 1.5 N.m, inside the band, so tau = -1.5 N.m (the load pulls
# back on flange_b). From t = 1 s holding them together needs 5 N.m > 2: the
# coupling slips backward (w_rel < 0) at tau = tau_min = -2 N.m, the load
# accelerates at 2 rad/s2 and the driver at 10 - 2 = 8: w_load = 1.5 + 2 (t - 1),
# w_drv = 1.5 + 8 (t - 1), lossPower = tau w_rel = 12 (t - 1). The same
# with the lower limit from the input taumin.
model limiter <<'EOF'
model Limiter
  Modelica.Mechanics.Rotational.Components.Inertia drv(J = 1, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  Flange.Components.TorqueLimiter lim(tau_max = 2, tau_min = -2);
  Modelica.Mechanics.Rotational.Components.Inertia load(J = 1, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  Modelica.Mechanics.Rotational.Sources.Torque drive;
  Modelica.Blocks.Sources.Step step(offset = 3, height = 7, startTime = 1);
  Modelica.Mechanics.Rotational.Components.Inertia drv2(J = 1, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  Flange.Components.TorqueLimiter lim2(tau_max = 2, useTauminInput = true);
  Modelica.Blocks.Sources.Constant lower(k = -2);
  Modelica.Mechanics.Rotational.Components.Inertia load2(J = 1, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  Modelica.Mechanics.Rotational.Sources.Torque drive2;
equation
  connect(drive.flange, drv.flange_a);
  connect(drv.flange_b, lim.flange_a);
  connect(lim.flange_b, load.flange_a);
  connect(step.y, drive.tau);
  connect(drive2.flange, drv2.flange_a);
  connect(drv2.flange_b, lim2.flange_a);
  connect(lim2.flange_b, load2.flange_a);
  connect(step.y, drive2.tau);
  connect(lower.y, lim2.taumin);
  annotation(experiment(StopTime = 2, Interval = 0.01));
end Limiter;
EOF
esim limiter && values "TorqueLimiter: stuck below the limit, slipping at tau_min above it" limiter < <(checks <<'PY'
for s in ("", "2"):
    L, ld, dv = "lim" + s, "load" + s, "drv" + s
    near(worst(L + ".tau", lambda x: -1.5 if x < 1 else -2, tmax=0.999), 0, 1e-9, "stuck torque of " + L)
    near(worst(L + ".tau", lambda x: -2, tmin=1.001), 0, 1e-9, "slipping torque of " + L)
    near(worst(ld + ".w", lambda x: 1.5 * x if x <= 1 else 1.5 + 2 * (x - 1)), 0, 1e-7, "speed of " + ld)
    near(worst(dv + ".w", lambda x: 1.5 * x if x <= 1 else 1.5 + 8 * (x - 1)), 0, 1e-7, "speed of " + dv)
    near(worst(L + ".lossPower", lambda x: 0 if x <= 1 else 12 * (x - 1), tmin=0, tmax=2), 0, 1e-6, "lossPower of " + L)
    near(at(L + ".mode", 1.5), -1, 0, "slipping backward")
    near(at(L + ".limit", 1.5), -1, 0, "at the lower limit")
    near(at(L + ".limit", 0.5), 0, 0, "not limited while stuck")
PY
)

# ---- ElastoBacklash, ElastoBacklash2 (MSL). phi_rel0 = 0.3, b = 0.4
# (bMax = 0.2), c = 1e4, d = 20, J = 1, flange_a fixed; each rotor starts
# at phi_diff = 0 with w = +1 (up) or -1 (down): no torque in the play, so
# w stays exactly +-1 and the contact starts at t = 0.2 s.
#  ElastoBacklash2 in contact: tau = tau_c + tau_d = c p + d p' (p the
#   depth beyond b/2) while it pushes, i.e. J p'' + d p' + c p = 0 from p = 0,
#   p' = 1: p = exp(-s t) sin(wd t)/wd, s = d/(2J), wd = sqrt(c/J - s^2);
#   when c p + d p' reaches 0 (release, tau = 0 from then on) it coasts out
#   at constant w = p'(t_r) and leaves the contact after p(t_r)/|p'(t_r)|.
#  ElastoBacklash: tau = tau_c + min(tau_c, tau_d): first d p' > c p, so
#   tau = 2 c p: p = sin(w1 t)/w1, w1 = sqrt(2c/J), until c p = d p' at
#   tan(w1 tA) = d w1/c; then tau = c p + d p' (the linear oscillator from
#   that state) until c p + d p' = 0; then it coasts out as above.
# The lower side mirrors everything. The torque and lossPower are the MSL
# law of the written phi_rel and w_rel at every row.
model backlash <<'EOF'
model EB
  parameter Real c = 1e4, d = 20, b = 0.4, phi0 = 0.3;
  Modelica.Mechanics.Rotational.Components.Fixed fixed;
  Modelica.Mechanics.Rotational.Components.ElastoBacklash up(c = c, d = d, b = b, phi_rel0 = phi0);
  Modelica.Mechanics.Rotational.Components.ElastoBacklash down(c = c, d = d, b = b, phi_rel0 = phi0);
  Modelica.Mechanics.Rotational.Components.ElastoBacklash2 up2(c = c, d = d, b = b, phi_rel0 = phi0);
  Modelica.Mechanics.Rotational.Components.ElastoBacklash2 down2(c = c, d = d, b = b, phi_rel0 = phi0);
  Modelica.Mechanics.Rotational.Components.Inertia j1(J = 1, phi(fixed = true, start = 0.3), w(fixed = true, start = 1));
  Modelica.Mechanics.Rotational.Components.Inertia j2(J = 1, phi(fixed = true, start = 0.3), w(fixed = true, start = -1));
  Modelica.Mechanics.Rotational.Components.Inertia j3(J = 1, phi(fixed = true, start = 0.3), w(fixed = true, start = 1));
  Modelica.Mechanics.Rotational.Components.Inertia j4(J = 1, phi(fixed = true, start = 0.3), w(fixed = true, start = -1));
equation
  connect(fixed.flange, up.flange_a);
  connect(fixed.flange, down.flange_a);
  connect(fixed.flange, up2.flange_a);
  connect(fixed.flange, down2.flange_a);
  connect(up.flange_b, j1.flange_a);
  connect(down.flange_b, j2.flange_a);
  connect(up2.flange_b, j3.flange_a);
  connect(down2.flange_b, j4.flange_a);
  annotation(experiment(StopTime = 0.6, Interval = 1e-4));
end EB;
EOF
esim backlash && values "ElastoBacklash, ElastoBacklash2: free play, contact phases, exit speeds, the law at every row" backlash \
  < <(checks <<'PY'
from scipy.optimize import brentq
c, d, J, h = 1e4, 20.0, 1.0, 0.2
s = d / (2 * J); wd = math.sqrt(c / J - s * s)
def osc(p0, v0):  # J p'' + d p' + c p = 0 from (p0, v0)
    A, B = p0, (v0 + s * p0) / wd
    p = lambda x: math.exp(-s * x) * (A * math.cos(wd * x) + B * math.sin(wd * x))
    v = lambda x: math.exp(-s * x) * ((wd * B - s * A) * math.cos(wd * x) - (s * B + wd * A) * math.sin(wd * x))
    return p, v
def release(p, v):  # after the peak, c p + d p' = 0
    tpk = brentq(v, 0, math.pi / wd)
    return brentq(lambda x: c * p(x) + d * v(x), tpk, tpk + math.pi / wd)
# ElastoBacklash2
p, v = osc(0, 1); tr = release(p, v)
eb2 = (0.2 + tr + p(tr) / -v(tr), v(tr))
# ElastoBacklash
w1 = math.sqrt(2 * c / J); tA = math.atan(d * w1 / c) / w1
p, v = osc(math.sin(w1 * tA) / w1, math.cos(w1 * tA)); tB = release(p, v)
eb1 = (0.2 + tA + tB + p(tB) / -v(tB), v(tB))
def law(two, pd, w):
    if abs(pd) <= h: return 0.0, 0.0
    sg = 1 if pd > 0 else -1
    tc, td = c * (pd - sg * h), d * w
    if sg * (tc + td) <= 0: return 0.0, 0.0
    if two: return tc + td, td * w
    lim = min(tc, td) if sg > 0 else max(tc, td)
    return tc + lim, lim * w
for name, jn, sg, two, (tex, wex) in (("up", "j1", 1, 0, eb1), ("down", "j2", -1, 0, eb1),
                                      ("up2", "j3", 1, 1, eb2), ("down2", "j4", -1, 1, eb2)):
    near(worst(jn + ".w", lambda x: sg, tmax=0.2), 0, 0, name + ": speed in the play")
    near(worst(name + ".tau", lambda x: 0, tmax=0.2 - 1e-9), 0, 0, name + ": torque in the play")
    near(at(name + ".tau", 0.2, 0), 0, 0, name + ": torque as the play closes")
    pd = col(name + ".phi_diff")
    near(crossings(name + ".phi_diff", sg * h)[0], 0.2, 1e-9, name + ": contact starts")
    ex = [t[i] for i in range(1, len(t)) if t[i] > 0.21 and abs(pd[i - 1]) > h and abs(pd[i]) <= h][0]
    near(ex, tex, 1e-8, name + ": contact ends")
    near(at(jn + ".w", ex, -1), sg * wex, 1e-6, name + ": exit speed")
    tau, lp, w = col(name + ".tau"), col(name + ".lossPower"), col(name + ".w_rel")
    ev = event_times()
    bad_rows = [t[i] for i in range(len(t)) if t[i] not in ev and
                (abs(tau[i] - law(two, pd[i], w[i])[0]) > 1e-6 or abs(lp[i] - law(two, pd[i], w[i])[1]) > 1e-6)]
    check(not bad_rows, name + ": torque or lossPower off the MSL law at %d rows, first at t = %s" % (len(bad_rows), bad_rows[:1]))
    near(at(name + ".phi_rel", 0), 0.3, 1e-15, name + ": phi_rel at the start")
# ElastoBacklash2's torque jumps by d w = 20 N.m at the touch, ElastoBacklash's does not
near(at("up2.tau", 0.2, -1) - at("up2.tau", 0.2, 0), 20, 1e-6, "ElastoBacklash2: torque jump at the touch")
near(at("up.tau", 0.2, -1), 0, 1e-9, "ElastoBacklash: no torque jump at the touch")
PY
)

# ---- flange components: the classes with their rotational parameters
"$FLANGE" components > "$T/components.txt"
for want in "Flange.Components.RotationalHardStop" "Flange.Components.SymmetricRotationalHardStop" \
    "Flange.Components.TorqueLimiter" "Modelica.Mechanics.Rotational.Components.ElastoBacklash" \
    "Modelica.Mechanics.Rotational.Components.ElastoBacklash2" \
    "    ports: R (flange), C (flange)" \
    "    parameter Real upper_bnd = 0.1 [rad]  gap between rotor and upper stop (from the initial rotor angle)" \
    "    parameter Real stiff_up = 1e6 [N.m/rad]  contact stiffness at upper bound" \
    "    parameter Real w_static = 1e-3 [rad/s]  impact speed below which the rotor stays in static contact (RESTITUTION; HardStop's v_static)" \
    "    parameter Real tau_max = 1 [N.m]  maximum torque tau = flange_b.tau (if not from input)" \
    "    parameter Real b = 0 [rad]  total backlash" \
    "    variable tau [N.m]  interaction torque between rotor and case (positive from R to C)"; do
  grep -qxF -- "$want" "$T/components.txt" && ok "components: $want" || bad "components: no line '$want'"
done

# ---- messages
model badbounds <<'EOF'
model BadBounds
  Flange.Components.RotationalHardStop hs(upper_bnd = -0.1, lower_bnd = 0.1);
  Modelica.Mechanics.Rotational.Components.Inertia rotor(J = 1);
equation
  connect(hs.R, rotor.flange_a);
end BadBounds;
EOF
expect badbounds 1 -- "badbounds.mo:2:40: error: hs: upper_bnd (-0.1 rad) must be greater than lower_bnd (0.1 rad)"
model badstart <<'EOF'
model BadStart
  Flange.Components.RotationalHardStop hs(hs_model = Flange.Types.HardStopModel.RESTITUTION, phi_start = 0.5);
  Modelica.Mechanics.Rotational.Components.Inertia rotor(J = 1);
equation
  connect(hs.R, rotor.flange_a);
end BadStart;
EOF
expect badstart 1 -- "badstart.mo:2:40: error: hs: with hs_model = RESTITUTION the rotor must start between the stops (lower_bnd <= phi_start <= upper_bnd), phi_start = 0.5 rad"
model badlimits <<'EOF'
model BadLimits
  Flange.Components.TorqueLimiter lim(tau_max = -1, tau_min = 1);
  Modelica.Mechanics.Rotational.Components.Inertia rotor(J = 1);
equation
  connect(lim.flange_b, rotor.flange_a);
end BadLimits;
EOF
expect badlimits 1 -- "badlimits.mo:2:35: error: lim: tau_max (-1 N.m) must not be less than tau_min (1 N.m)"
model badc <<'EOF'
model BadC
  Modelica.Mechanics.Rotational.Components.ElastoBacklash eb(c = 0, d = 1, b = 0.1);
  Modelica.Mechanics.Rotational.Components.Inertia rotor(J = 1);
equation
  connect(eb.flange_b, rotor.flange_a);
end BadC;
EOF
expect badc 1 -- "badc.mo:2:62: error: eb.c = 0 is invalid: it must be > 0"

if [ $fails -ne 0 ]; then echo "$fails checks failed"; exit 1; fi
echo "all rotational stop checks passed"
