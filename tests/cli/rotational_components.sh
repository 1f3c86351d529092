#!/usr/bin/env bash
# Modelica.Mechanics.Rotational.Components that are bodies or compliant
# elements (issue 13): Inertia, Disc, Spring, Damper, SpringDamper, Fixed,
# RelativeStates against closed forms; what `flange check` shows of a
# rotational body; connecting a rotational flange to a translational one.
#
# Tolerances (runs at --tolerance 1e-10): the oscillators follow the
# integrator, measured below 1e-8: 1e-7.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# ---- an inertia J = 2 on a spring c = 8 to ground, with a damper d = 1.6
# in parallel (SpringDamper) and a second, undamped one through a Disc:
#   J phi'' = -c (phi - phi_rel0') - d phi',  phi(0) = 0.5, w(0) = 0
# with phi_rel0 of the spring: the spring's flange_b is the inertia, so
# tau = c (phi_rel - phi_rel0) with phi_rel = phi_inertia - 0, the torque on
# the inertia is -tau: equilibrium phi_e = phi_rel0 = 0.1.
#   omega0 = sqrt(c/J) = 2, zeta = d / (2 sqrt(c J)) = 0.2,
#   wd = omega0 sqrt(1 - zeta^2), x = phi - phi_e = e^{-zeta omega0 t}
#   (x0 cos wd t + (zeta omega0 x0 / wd) sin wd t).
# The Disc (deltaPhi = 0.3) carries the motion unchanged to its flange_b:
# disc.phi = phi + 0.15, disc.flange_b.phi = phi + 0.3.
model osc <<'EOF'
model Osc
  import Modelica.Mechanics.Rotational.Components;
  Components.Fixed fixed(phi0 = 0);
  Components.SpringDamper sd(c = 8, d = 1.6, phi_rel0 = 0.1);
  Components.Inertia j(J = 2, phi(fixed = true, start = 0.5), w(fixed = true, start = 0));
  Components.Disc disc(deltaPhi = 0.3);
  Components.RelativeStates rel;
equation
  connect(fixed.flange, sd.flange_a);
  connect(sd.flange_b, j.flange_a);
  connect(j.flange_b, disc.flange_a);
  connect(fixed.flange, rel.flange_a);
  connect(disc.flange_b, rel.flange_b);
  annotation(experiment(StopTime = 3, Interval = 0.01));
end Osc;
EOF
sim osc --tolerance 1e-10 && values "Inertia on a SpringDamper: damped oscillation; Disc; RelativeStates" osc <<'PY'
w0, z, x0 = 2.0, 0.2, 0.4
wd = w0 * math.sqrt(1 - z * z)
def x(t): return math.exp(-z * w0 * t) * (x0 * math.cos(wd * t) + z * w0 * x0 / wd * math.sin(wd * t))
def v(t): return -math.exp(-z * w0 * t) * x0 * (w0 * w0 / wd) * math.sin(wd * t)
near(worst("j.phi", lambda t: 0.1 + x(t)), 0, 1e-7, "j.phi")
near(worst("j.w", v), 0, 1e-7, "j.w")
near(worst("sd.phi_rel", lambda t: 0.1 + x(t)), 0, 1e-7, "sd.phi_rel")
near(worst("sd.tau", lambda t: 8 * x(t) + 1.6 * v(t)), 0, 1e-6, "sd.tau")
near(worst("sd.lossPower", lambda t: 1.6 * v(t) ** 2), 0, 1e-6, "sd.lossPower")
near(worst("disc.phi", lambda t: 0.25 + x(t)), 0, 1e-7, "disc.phi")
near(worst("disc.flange_b.phi", lambda t: 0.4 + x(t)), 0, 1e-7, "disc.flange_b.phi")
near(worst("rel.phi_rel", lambda t: 0.4 + x(t)), 0, 1e-7, "rel.phi_rel")
near(worst("rel.w_rel", v), 0, 1e-7, "rel.w_rel")
near(worst("j.flange_a.tau", lambda t: -(8 * x(t) + 1.6 * v(t))), 0, 1e-6, "j.flange_a.tau (= -sd.flange_b.tau = -tau)")
PY

# ---- two inertias J1 = 1, J2 = 3 joined by a Spring c = 12 and a Damper
# d = 0 (no loss), J1 given w = 4: the centre of rotation moves at
# (J1 w1 + J2 w2)/(J1 + J2) = 1 rad/s (angular momentum), the relative
# angle oscillates at sqrt(c (1/J1 + 1/J2)) = 4 rad/s with amplitude
# w_rel0 / 4 = 1: phi_rel = -sin(4 t).
model pair <<'EOF'
model Pair
  Modelica.Mechanics.Rotational.Components.Inertia j1(J = 1, phi(fixed = true, start = 0), w(fixed = true, start = 4));
  Modelica.Mechanics.Rotational.Components.Spring spring(c = 12);
  Modelica.Mechanics.Rotational.Components.Damper damper(d = 0);
  Modelica.Mechanics.Rotational.Components.Inertia j2(J = 3, phi(fixed = true, start = 0), w(fixed = true, start = 0));
equation
  connect(j1.flange_b, spring.flange_a);
  connect(spring.flange_b, j2.flange_a);
  connect(j1.flange_b, damper.flange_a);
  connect(damper.flange_b, j2.flange_a);
  annotation(experiment(StopTime = 2, Interval = 0.01));
end Pair;
EOF
sim pair --tolerance 1e-10 && values "two inertias on a spring: momentum and the relative oscillation" pair <<'PY'
near(worst("spring.phi_rel", lambda t: -math.sin(4 * t)), 0, 1e-7, "spring.phi_rel")
near(worst("damper.w_rel", lambda t: -4 * math.cos(4 * t)), 0, 1e-6, "damper.w_rel")
near(worst("damper.a_rel", lambda t: 16 * math.sin(4 * t)), 0, 1e-5, "damper.a_rel")
mom = [1 * a + 3 * b for a, b in zip(col("j1.w"), col("j2.w"))]
near(max(abs(m - 4) for m in mom), 0, 1e-7, "angular momentum")
near(worst("spring.tau", lambda t: -12 * math.sin(4 * t)), 0, 1e-6, "spring.tau")
PY

# ---- what check shows of a rotational body: its inertia and angle
model geared <<'EOF'
model Geared
  Modelica.Mechanics.Rotational.Components.Fixed fixed(phi0 = 0.25);
  Modelica.Mechanics.Rotational.Components.Spring spring(c = 100);
  Modelica.Mechanics.Rotational.Components.Inertia j(J = 0.5);
equation
  connect(fixed.flange, spring.flange_a);
  connect(spring.flange_b, j.flange_a);
end Geared;
EOF
if "$FLANGE" check "$T/geared.mo" > "$T/geared.out" 2>&1 &&
   grep -qx "  1: fixed at phi = 0.25: {fixed.flange, spring.flange_a}" "$T/geared.out" &&
   grep -qx "  2: free, J = 0.5 kg.m2: {spring.flange_b, j.flange_a} {j.flange_b}" "$T/geared.out" &&
   grep -q "^  j.phi  *state" "$T/geared.out"; then
  ok "check: a rotational body shows J and phi"
else
  bad "check: a rotational body shows J and phi"; cat "$T/geared.out"
fi

# ---- domains do not connect: an inertia on a translational mass
model mixed <<'EOF'
model Mixed
  Modelica.Mechanics.Rotational.Components.Inertia j(J = 1);
  Modelica.Mechanics.Translational.Components.Mass m(m = 1);
equation
  connect(j.flange_b, m.flange_a);
end Mixed;
EOF
expect mixed 1 -- "mixed.mo:5:3: error: cannot connect rotational flange j.flange_b to translational flange m.flange_a (a gear or a wheel joins the domains)"

# ... also through a connector of a user model
model mixed_user <<'EOF'
model MixedUser
  model Shaft
    Modelica.Mechanics.Rotational.Interfaces.Flange_a flange;
    Modelica.Mechanics.Rotational.Components.Inertia j(J = 1);
  equation
    connect(flange, j.flange_a);
  end Shaft;
  Shaft shaft;
  Modelica.Mechanics.Translational.Components.Mass m(m = 1);
equation
  connect(m.flange_b, shaft.flange);
end MixedUser;
EOF
expect mixed_user 1 -- "mixed_user.mo:11:3: error: cannot connect translational flange m.flange_b to rotational flange shaft.flange (a gear or a wheel joins the domains)"

# ---- an initial equation on the derivative of a library variable (the
# MSL's PID_Controller: der(spring.w_rel) = 0): inertia1 at rest, the
# spring-damper not moving and not accelerating, a load torque of 10 N.m on
# inertia2: both accelerate alike, a = 10/(J1 + J2) = 10/3, carried by the
# spring: tau = J1 a = 10/3 = c phi_rel, phi_rel = 1/3000. The same on the
# translational side (der(spring.v_rel) = 0). Before, the initial equation
# was taken for one about known quantities ("over-determined").
for dom in rot trans; do
  if [ $dom = rot ]; then
    J="Modelica.Mechanics.Rotational.Components.Inertia"; P=phi; V=w; M=J; REL=w_rel
    SD="Modelica.Mechanics.Rotational.Components.SpringDamper"
    LOAD="Modelica.Mechanics.Rotational.Sources.ConstantTorque loadTorque(tau_constant = 10"
  else
    J="Modelica.Mechanics.Translational.Components.Mass"; P=s; V=v; M=m; REL=v_rel
    SD="Modelica.Mechanics.Translational.Components.SpringDamper"
    LOAD="Modelica.Mechanics.Translational.Sources.ConstantForce loadTorque(f_constant = 10"
  fi
  model "der_init_$dom" <<EOF
model DerInit
  $J inertia1($P(fixed = true, start = 0), $M = 1, $V(fixed = true, start = 0));
  $SD spring(c = 1e4, d = 100, $REL(fixed = true));
  $J inertia2($M = 2);
  $LOAD, useSupport = false);
initial equation
  der(spring.$REL) = 0;
equation
  connect(inertia1.flange_b, spring.flange_a);
  connect(spring.flange_b, inertia2.flange_a);
  connect(loadTorque.flange, inertia2.flange_b);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end DerInit;
EOF
  sim "der_init_$dom" --tolerance 1e-10 && values "initial equation der(spring.$REL) = 0 ($dom)" "der_init_$dom" <<PY
rel = "spring.phi_rel" if "$dom" == "rot" else "spring.s_rel"
near(worst("inertia1.a", lambda t: 10 / 3), 0, 1e-7, "inertia1.a")
near(worst("inertia2.a", lambda t: 10 / 3), 0, 1e-7, "inertia2.a")
near(worst(rel, lambda t: 1 / 3000), 0, 1e-9, rel)
PY
done

# ---- the gallery's drivetrain (examples/drivetrain.mo): while the motor
# pushes (0.02 N.m from t = 0.07 s to 0.83 s) the spool rests on its stop;
# the torque reaches the rack as 0.02 * 20 / 0.01 = 40 N, the return spring
# takes 2000 N/m * x, the stop (2e6 N/m) the rest: F = 40 - 2000 x with
# x = 8e-3 + F/2e6, so F = (40 - 16) / (1 + 1e-3) = 23.976 N, x = 8.012 mm.
# The folded body about the motor shaft has J = 1.1e-6 kg.m2.
if "$FLANGE" simulate "$FLANGE_SRC/examples/drivetrain.mo" -o "$T/drivetrain.csv" --quiet 2> "$T/drivetrain.err"; then
  values "gallery drivetrain: the spool held on its stop" drivetrain <<'PY'
near(at("fStop", 0.8, -1), 24 / 1.001, 1e-6, "stop force at t = 0.8 s")
near(at("x", 0.8, -1), 8e-3 + (24 / 1.001) / 2e6, 1e-10, "spool travel at t = 0.8 s")
near(at("motor.w", 0.8, -1), 0, 1e-6, "motor at rest on the stop")
PY
else
  bad "gallery drivetrain: the simulation failed"; cat "$T/drivetrain.err"
fi
# J = 1e-6 + 1e-5/20^2 + 0.3 (0.01/20)^2 = 1.1e-6 kg.m2 (printed to 17 digits:
# compared as a number)
J=$("$FLANGE" check "$FLANGE_SRC/examples/drivetrain.mo" 2>&1 |
    sed -n 's/^  1: free, J = \([0-9.e+-]*\) kg.m2: {motorTorque.flange, motor.flange_a}.*/\1/p')
if [ -n "$J" ] && "$PY" -c "import sys; sys.exit(abs($J - 1.1e-6) > 1e-18)"; then
  ok "gallery drivetrain: one folded body about the motor shaft"
else
  bad "gallery drivetrain: one folded body about the motor shaft (J = '$J')"
fi

[ "$fails" -eq 0 ]
