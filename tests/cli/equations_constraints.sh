#!/usr/bin/env bash
# A linear relation among the positions of three or more flanges of a
# component written as equations (a differential, a gear on a moving
# support, a planetary gear) cannot be folded into flange's rigid bodies (a
# node would depend on two bodies): it stays a constraint, the force of one
# of its flanges its unknown, and the compiler writes its row differentiated
# as the bodies need for an index-1 DAE: on positions when one of them is
# massless between springs, on velocities when one is massless and damped,
# on accelerations when all have mass (then the constraint on positions and
# velocities holds at the start). Checked here on a differential (the
# centre c of a bar between a and b: 2 c.s = a.s + b.s) against closed forms
# at each of the three levels.
#
# The bar is ideal: its forces do no work, so they are proportional to the
# coefficients (-1, -1, 2) of the constraint: a.f = b.f = x, c.f = -2 x. A
# component acts on what is attached with minus its flange force.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

BAR='  model Bar "c in the middle of a and b"
    Modelica.Mechanics.Translational.Interfaces.Flange_a a;
    Modelica.Mechanics.Translational.Interfaces.Flange_a b;
    Modelica.Mechanics.Translational.Interfaces.Flange_b c;
  equation
    2*c.s = a.s + b.s;
    a.f = b.f;
    c.f = -2*a.f;
  end Bar;'
MTC=Modelica.Mechanics.Translational.Components

# ---- all three with mass (accelerations): a force F = 3 on m3 at c;
# m1 a1 = -x, m2 a2 = -x, m3 a3 = F + 2 x and 2 a3 = a1 + a2 give
#   x = -(2 F/m3) / (4/m3 + 1/m1 + 1/m2).
# m1 and m2 start at rest at 0 and 0.4; m3's position (0.2) and speed follow
# from the constraint at the start.
model accel <<EOF
model Accel
$BAR
  Bar bar;
  $MTC.Mass m1(m = 1, s(fixed = true, start = 0), v(fixed = true, start = 0));
  $MTC.Mass m2(m = 2, s(fixed = true, start = 0.4), v(fixed = true, start = 0));
  $MTC.Mass m3(m = 0.5);
  Modelica.Mechanics.Translational.Sources.Force force;
  Modelica.Blocks.Sources.Constant F(k = 3);
equation
  connect(bar.a, m1.flange_a);
  connect(bar.b, m2.flange_a);
  connect(bar.c, m3.flange_a);
  connect(F.y, force.f);
  connect(force.flange, m3.flange_b);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end Accel;
EOF
sim accel --tolerance 1e-10 --energy && values "three masses (constraint on accelerations): closed form" accel <<'PY'
m1, m2, m3, F = 1.0, 2.0, 0.5, 3.0
x = -(2*F/m3)/(4/m3 + 1/m1 + 1/m2)
near(worst("m1.s", lambda s: -x/m1*s*s/2), 0, 1e-9, "m1.s")
near(worst("m2.s", lambda s: 0.4 - x/m2*s*s/2), 0, 1e-9, "m2.s")
near(worst("m3.s", lambda s: 0.2 + (F + 2*x)/m3*s*s/2), 0, 1e-9, "m3.s")
near(worst("bar.a.f", lambda s: x), 0, 1e-9, "bar.a.f")
near(worst("bar.c.f", lambda s: -2*x), 0, 1e-9, "bar.c.f")
# an ideal bar does no work: the force's work is the kinetic energy
near(worst("energy.drift", lambda s: 0), 0, 1e-8, "energy.drift")
PY
"$FLANGE" check "$T/accel.mo" > "$T/accel.check" 2>&1
grep -qx "  bar, on accelerations (differentiated twice): 2 {m3.flange_a, bar.c} - 1 {m1.flange_a, bar.a} - 1 {m2.flange_a, bar.b} = 0" "$T/accel.check" \
  && grep -q "^  bar: constraint on positions " "$T/accel.check" && grep -q "^  bar: constraint on velocities " "$T/accel.check" \
  && ok "three masses: flange check shows the constraint, its level and its initial conditions" \
  || { bad "three masses: flange check"; cat "$T/accel.check"; }

# ---- c massless, held by a spring k to the ground (positions): 0 = 2 x -
# k c.s with c.s = (a.s + b.s)/2; equal masses m starting together at s0
# at rest move as m a'' = -k a/2: a.s = s0 cos(sqrt(k/(2 m)) t)
model pos <<EOF
model Pos
$BAR
  Bar bar;
  $MTC.Mass m1(m = 2, s(fixed = true, start = 0.1), v(fixed = true, start = 0));
  $MTC.Mass m2(m = 2, s(fixed = true, start = 0.1), v(fixed = true, start = 0));
  $MTC.Spring spring(c = 16);
  $MTC.Fixed fixed;
equation
  connect(bar.a, m1.flange_a);
  connect(bar.b, m2.flange_a);
  connect(bar.c, spring.flange_a);
  connect(spring.flange_b, fixed.flange);
  annotation(experiment(StopTime = 2, Interval = 0.1));
end Pos;
EOF
sim pos --tolerance 1e-10 && values "massless centre on a spring (constraint on positions): a cosine" pos <<'PY'
w = math.sqrt(16/(2*2.0))
near(worst("m1.s", lambda s: 0.1*math.cos(w*s)), 0, 1e-8, "m1.s")
near(worst("spring.s_rel", lambda s: -0.1*math.cos(w*s)), 0, 1e-8, "spring.s_rel = -c.s")
PY
"$FLANGE" check "$T/pos.mo" 2>&1 | grep -q "^  bar, on positions: " && ok "massless centre on a spring: on positions" \
  || bad "massless centre on a spring: level"

# ---- c massless, held by a damper d to the ground (velocities): 0 = 2 x -
# d v_c with v_c = (v_a + v_b)/2; equal masses starting at v0 slow down as
# m v' = -d v/2: v = v0 exp(-d t/(2 m))
sed 's/Spring spring(c = 16)/Damper spring(d = 6)/; s/v(fixed = true, start = 0)/v(fixed = true, start = 1.5)/g; s/model Pos/model Vel/; s/end Pos/end Vel/' "$T/pos.mo" > "$T/vel.mo"
sim vel --tolerance 1e-10 && values "massless centre on a damper (constraint on velocities): an exponential" vel <<'PY'
k = 6/(2*2.0)
near(worst("m1.v", lambda s: 1.5*math.exp(-k*s)), 0, 1e-8, "m1.v")
near(worst("m2.s", lambda s: 0.1 + 1.5/k*(1 - math.exp(-k*s))), 0, 1e-8, "m2.s")
near(worst("spring.v_rel", lambda s: -1.5*math.exp(-k*s)), 0, 1e-8, "damper.v_rel = -v_c")
PY
"$FLANGE" check "$T/vel.mo" 2>&1 | grep -q "^  bar, on velocities (differentiated once): " && ok "massless centre on a damper: on velocities" \
  || bad "massless centre on a damper: level"

# ---- a modifier of a flange connector is not bound (it was dropped silently):
# an error says how to write it
model flangemod <<'EOF'
model FlangeMod
  model Stop
    Modelica.Mechanics.Translational.Interfaces.Flange_b flange(s = 0);
  end Stop;
  Stop stop;
  Modelica.Mechanics.Translational.Components.Mass mass(m = 1);
equation
  connect(stop.flange, mass.flange_a);
end FlangeMod;
EOF
expect flangemod 1 -- "flangemod.mo:3:65: error: a modifier of flange connector 'flange' is not supported: write it as an equation (flange.s = ...)"

[ "$fails" = 0 ]
