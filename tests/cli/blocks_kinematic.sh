#!/usr/bin/env bash
# Modelica.Blocks.Sources.KinematicPTP and KinematicPTP2 (issue 12): the
# point-to-point profiles against their closed forms, the instants where
# the acceleration switches (time events), the end position, the
# synchronised axes, the outputs driving Accelerate and an exact Position
# (whose speed and acceleration are the block's derivatives), and the
# parameter errors.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# ---- with a cruising phase. Axes deltaq = {2, -1}, qd_max = 1, qdd_max = 2,
# from startTime = 0.5. The path s runs 0 -> 1 with sd_max = 1/max|dq/qd_max|
# = 1/2 and sdd_max = 1/max|dq/qdd_max| = 1: it accelerates for
# Ta2 = sd_max/sdd_max = 0.5 (< Ta1 = sqrt(1/sdd_max) = 1, so it cruises),
# cruises until Tv = 1/sd_max = 2 and brakes until Te = Tv + Ta2 = 2.5, all
# from startTime: the acceleration of axis 1 is 2 on [0.5, 1), 0 on
# [1, 2.5), -2 on [2.5, 3), 0 after; axis 2 gets -1/2 of it. Integrated by
# Accelerate on a mass:
#   s1 = (t - 0.5)^2                       on [0.5, 1]
#      = 0.25 + (t - 1)                    on [1, 2.5]   (cruising at qd_max = 1)
#      = 1.75 + (t - 2.5) - (t - 2.5)^2    on [2.5, 3]
#      = 2 = deltaq[1]                     after 3
model ptp <<'EOF'
model PTP
  Modelica.Blocks.Sources.KinematicPTP ptp(deltaq = {2, -1}, qd_max = {1}, qdd_max = {2}, startTime = 0.5);
  Modelica.Mechanics.Translational.Sources.Accelerate acc1;
  Modelica.Mechanics.Translational.Sources.Accelerate acc2;
  Modelica.Mechanics.Translational.Components.Mass m1(m = 1);
  Modelica.Mechanics.Translational.Components.Mass m2(m = 1);
equation
  connect(ptp.y[1], acc1.a_ref);
  connect(ptp.y[2], acc2.a_ref);
  connect(acc1.flange, m1.flange_a);
  connect(acc2.flange, m2.flange_a);
  annotation(experiment(StopTime = 4, Interval = 0.05));
end PTP;
EOF
if sim ptp; then
values "KinematicPTP: acceleration phases, switching instants, cruise speed, end position" ptp <<'PY'
def a1(x):
    return 0 if x < 0.5 else 2 if x < 1 else 0 if x < 2.5 else -2 if x < 3 else 0
def s1(x):
    if x < 0.5: return 0
    if x < 1: return (x - 0.5)**2
    if x < 2.5: return 0.25 + (x - 1)
    if x < 3: return 1.75 + (x - 2.5) - (x - 2.5)**2
    return 2
check(jumps("ptp.y[1]") == [0.5, 1, 2.5, 3], "switching instants %s" % jumps("ptp.y[1]"))
for x, want in ((0.25, 0), (0.75, 2), (2, 0), (2.75, -2), (3.5, 0)):
    near(at("ptp.y[1]", x), want, 0, "y[1](%g)" % x)
    near(at("ptp.y[2]", x), -want / 2, 0, "y[2](%g)" % x)
near(at("ptp.y[1]", 1, 0), 2, 0, "y[1] just before 1")
near(at("ptp.y[1]", 1, -1), 0, 0, "y[1] just after 1")
near(worst("m1.s", s1), 0, 1e-6, "s1 against the closed form")
near(worst("m2.s", lambda x: -s1(x) / 2), 0, 1e-6, "s2 = -s1/2: the axes arrive together")
near(max(col("m1.v")), 1, 1e-6, "the cruise speed is qd_max")
near(at("m1.s", 4), 2, 1e-6, "end position deltaq[1]")
near(at("m2.s", 4), -1, 1e-6, "end position deltaq[2]")
PY
fi

# ---- without a cruising phase: deltaq = 1, qd_max = 2, qdd_max = 1:
# sd_max = 2, sdd_max = 1, Ta1 = 1 <= Ta2 = 2 ("noWphase"): accelerate for
# Ta1 = 1, brake until Te = 2 Ta1 = 2, and the top speed 1 stays below
# qd_max:   s = t^2/2 on [0, 1], 1/2 + (t - 1) - (t - 1)^2/2 on [1, 2], 1 after.
model ptpnow <<'EOF'
model PTPNoW
  Modelica.Blocks.Sources.KinematicPTP ptp(deltaq = {1}, qd_max = {2}, qdd_max = {1});
  Modelica.Mechanics.Translational.Sources.Accelerate acc;
  Modelica.Mechanics.Translational.Components.Mass m(m = 1);
equation
  connect(ptp.y[1], acc.a_ref);
  connect(acc.flange, m.flange_a);
  annotation(experiment(StopTime = 3, Interval = 0.05));
end PTPNoW;
EOF
if sim ptpnow; then
values "KinematicPTP without a cruising phase: accelerate 1 s, brake 1 s" ptpnow <<'PY'
def s(x):
    if x < 1: return x * x / 2
    if x < 2: return 0.5 + (x - 1) - (x - 1)**2 / 2
    return 1
check(jumps("ptp.y[1]") == [1, 2], "switching instants %s" % jumps("ptp.y[1]"))
near(at("ptp.y[1]", 0.5), 1, 0, "y(0.5)")
near(at("ptp.y[1]", 1.5), -1, 0, "y(1.5)")
near(worst("m.s", s), 0, 1e-6, "s against the closed form")
near(max(col("m.v")), 1, 1e-6, "top speed 1 < qd_max")
PY
fi

# ---- KinematicPTP2: the same path for q_begin = {0, 1}, q_end = {2, 0}
# (distances {2, -1}):  q1 = 2 s, q2 = 1 - s with s as above divided by 2,
#   s = (t - 0.5)^2/2 on [0.5, 1], 1/8 + (t - 1)/2 on [1, 2.5],
#       7/8 + (t - 2.5)/2 - (t - 2.5)^2/2 on [2.5, 3], 1 after;
# qd = der(q), qdd = der(qd); moving is 1 until endTime = 3, then 0. q[1]
# drives an exact Position: the mass moves with the block's qd and qdd.
model ptp2 <<'EOF'
model PTP2
  Modelica.Blocks.Sources.KinematicPTP2 ptp(q_begin = {0, 1}, q_end = {2, 0}, qd_max = {1}, qdd_max = {2}, startTime = 0.5);
  Modelica.Mechanics.Translational.Sources.Position pos(exact = true);
  Modelica.Mechanics.Translational.Components.Mass m(m = 1);
equation
  connect(ptp.q[1], pos.s_ref);
  connect(pos.flange, m.flange_a);
  annotation(experiment(StopTime = 4, Interval = 0.05));
end PTP2;
EOF
if sim ptp2; then
values "KinematicPTP2: q, qd, qdd, moving and endTime; an exact Position follows qd and qdd" ptp2 <<'PY'
def s(x):
    if x < 0.5: return 0
    if x < 1: return (x - 0.5)**2 / 2
    if x < 2.5: return 0.125 + (x - 1) / 2
    if x < 3: return 0.875 + (x - 2.5) / 2 - (x - 2.5)**2 / 2
    return 1
def sd(x):
    if x < 0.5: return 0
    if x < 1: return x - 0.5
    if x < 2.5: return 0.5
    if x < 3: return 0.5 - (x - 2.5)
    return 0
near(worst("ptp.q[1]", lambda x: 2 * s(x)), 0, 1e-14, "q[1] = 2 s")
near(worst("ptp.q[2]", lambda x: 1 - s(x)), 0, 1e-14, "q[2] = 1 - s")
near(worst("ptp.qd[1]", lambda x: 2 * sd(x)), 0, 1e-14, "qd[1]")
near(worst("ptp.qd[2]", lambda x: -sd(x)), 0, 1e-14, "qd[2]")
for x, want in ((0.25, 0), (0.75, 2), (2, 0), (2.75, -2), (3.5, 0)):
    near(at("ptp.qdd[1]", x), want, 0, "qdd[1](%g)" % x)
check(jumps("ptp.qdd[1]") == [0.5, 1, 2.5, 3], "qdd switches at %s" % jumps("ptp.qdd[1]"))
check(jumps("ptp.moving[1]") == [3], "moving switches at %s" % jumps("ptp.moving[1]"))
near(at("ptp.moving[2]", 2), 1, 0, "moving[2] while moving")
near(at("ptp.moving[2]", 3.5), 0, 0, "moving[2] at the end")
near(at("ptp.endTime", 0), 3, 0, "endTime")
near(worst("m.v", lambda x: 2 * sd(x)), 0, 1e-12, "the mass moves with qd[1]")
near(at("m.a", 0.75), 2, 1e-12, "the mass accelerates with qdd[1]")
near(at("m.s", 4), 2, 1e-14, "end position q_end[1]")
PY
fi

# ---- parameter errors
model badlimit <<'EOF'
model BadLimit
  Modelica.Blocks.Sources.KinematicPTP ptp(qd_max = {0});
  annotation(experiment(StopTime = 1));
end BadLimit;
EOF
expect badlimit 1 -- "badlimit.mo:2:40: error: ptp.qd_max[1] = 0 is invalid: it must be > 0"

model badsize <<'EOF'
model BadSize
  Modelica.Blocks.Sources.KinematicPTP2 ptp(q_end = {1, 2}, qd_max = {1, 2, 3});
  annotation(experiment(StopTime = 1));
end BadSize;
EOF
expect badsize 1 -- "badsize.mo:2:41: error: ptp.q_end: has 2 elements; it needs 1 (for every axis) or 3 (one per axis)"

exit $((fails > 0))
