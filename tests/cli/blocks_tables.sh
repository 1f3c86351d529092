#!/usr/bin/env bash
# Tables (issue 12): Modelica.Blocks.Sources.CombiTimeTable and TimeTable
# (C blocks) and Modelica.Blocks.Tables.CombiTable1Ds, CombiTable1Dv,
# CombiTable2Ds (bundled Modelica over the same C interpolation): every
# smoothness against values worked out by hand, every extrapolation,
# periodic tables, timeScale/shiftTime/offset/startTime, tables read from
# files (two tables in one file, comments, a CSV file, a path relative to
# the model file), a table inside the equations of a motion, and the exact
# messages for a missing file, a missing table and a malformed row.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# The data set of the smoothness checks: x = 0..4, y = {0, 1, 1, 2, 4},
# differences s = {1, 0, 1, 2}. A cubic Hermite interval of length 1 with
# end slopes m0, m1 has y = (y0 + y1)/2 + (m0 - m1)/8 and
# y' = 1.5 s - (m0 + m1)/4 at its middle. The slopes m at the rows:
#   Akima: weights |s[k+1] - s[k]| and |s[k-1] - s[k-2]| of s[k-1], s[k],
#     the differences continued linearly beyond the ends (s[-1] = 2, s[-2] = 3,
#     s[4] = 3, s[5] = 4): here every pair of weights is equal, so
#     m = {1.5, 0.5, 0.5, 1.5, 2.5} (the averages of the neighbours);
#   modified Akima: the weights plus |s[k+1] + s[k]|/2 and |s[k-1] + s[k-2]|/2:
#     m0 = 0.3*2 + 0.7*1 = 1.3, m1 = 0.375*1 = 0.375, m2 = 0.375*1 = 0.375,
#     m3 = 0.7*1 + 0.3*2 = 1.3, m4 = (4.5*2 + 2.5*3)/7 = 16.5/7;
#   Fritsch-Butland: 0 next to a flat interval, 3(h0 + h1)/((h0 + 2h1)/s0 +
#     (h1 + 2h0)/s1) = 6/(3 + 1.5) = 4/3 at row 3, the end differences at the
#     ends: m = {1, 0, 0, 4/3, 2};
#   Steffen: 0 next to a flat interval, (s0 + s1)/2 = 1.5 at row 3 (not
#     limited: 0.75 < 1), the end differences: m = {1, 0, 0, 1.5, 2}.
# Midpoints 0.5, 1.5, 2.5, 3.5:
#   linear   0.5    1  1.5       3           constant 0  1  1  2
#   Akima    0.625  1  1.375     2.875       (y'(1.5) = -0.25: it dips)
#   makima   0.615625 1 1.384375 3 + (1.3 - 16.5/7)/8
#   FB       0.625  1  4/3       35/12       (y'(1.5) = 0)
#   Steffen  0.625  1  1.3125    2.9375
# LastTwoPoints continues with the end slope: y(-1) = -m0, y(5) = 4 + m4
# (linear and constant: the lines through the end rows, -1 and 6).
cat > "$T/expect.py" <<'PY'
import math
X = [0, 1, 2, 3, 4]; Y = [0, 1, 1, 2, 4]
MID = {"linear": [0.5, 1, 1.5, 3], "constseg": [0, 1, 1, 2],
       "akima": [0.625, 1, 1.375, 2.875],
       "makima": [0.615625, 1, 1.384375, 3 + (1.3 - 16.5 / 7) / 8],
       "fb": [0.625, 1, 4 / 3, 35 / 12], "steffen": [0.625, 1, 1.3125, 2.9375]}
ENDS = {"linear": (-1, 6), "constseg": (-1, 6), "akima": (-1.5, 6.5), "makima": (-1.3, 4 + 16.5 / 7),
        "fb": (-1, 6), "steffen": (-1, 6)}
def expected(m, x):
    """the value at x = -1, the rows, the midpoints and x = 5"""
    if x == -1: return ENDS[m][0]
    if x == 5: return ENDS[m][1]
    if x == int(x): return Y[int(x)]
    return MID[m][int(x)]
POINTS = [-1, 0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 5]
PY

# The result files hold 12 significant digits: values are compared to 1e-11.

# ---- CombiTimeTable, one block per smoothness; shiftTime = 1 moves the
# table so that the output points t = 0 .. 6 see x = t - 1 = -1 .. 5.
# D differentiates its input: der(y) of the table is the block's exact
# derivative.
model smooth <<'EOF'
model Smooth
  block D "y = der(u)"
    extends Modelica.Blocks.Interfaces.SISO;
  equation
    y = der(u);
  end D;
  parameter Real data[:, :] = [0, 0; 1, 1; 2, 1; 3, 2; 4, 4];
  Modelica.Blocks.Sources.CombiTimeTable linear(table = data, shiftTime = 1);
  Modelica.Blocks.Sources.CombiTimeTable constseg(table = data, shiftTime = 1, smoothness = Modelica.Blocks.Types.Smoothness.ConstantSegments);
  Modelica.Blocks.Sources.CombiTimeTable akima(table = data, shiftTime = 1, smoothness = Modelica.Blocks.Types.Smoothness.ContinuousDerivative);
  Modelica.Blocks.Sources.CombiTimeTable makima(table = data, shiftTime = 1, smoothness = Modelica.Blocks.Types.Smoothness.ModifiedContinuousDerivative);
  Modelica.Blocks.Sources.CombiTimeTable fb(table = data, shiftTime = 1, smoothness = Modelica.Blocks.Types.Smoothness.MonotoneContinuousDerivative1);
  Modelica.Blocks.Sources.CombiTimeTable steffen(table = data, shiftTime = 1, smoothness = Modelica.Blocks.Types.Smoothness.MonotoneContinuousDerivative2);
  D dakima;
  D dfb;
equation
  connect(akima.y[1], dakima.u);
  connect(fb.y[1], dfb.u);
  annotation(experiment(StopTime = 6, Interval = 0.5));
end Smooth;
EOF
if sim smooth; then
values "CombiTimeTable: every smoothness at the rows, the midpoints and LastTwoPoints beyond the ends" smooth <<'PY'
exec(open(sys.argv[1].rsplit("/", 1)[0] + "/expect.py").read())
for m in ("linear", "constseg", "akima", "makima", "fb", "steffen"):
    for x in POINTS:
        near(at(m + ".y[1]", x + 1, -1), expected(m, x), 1e-11, "%s(%g)" % (m, x))
for x, want in ((0.5, 1), (1.5, -0.25), (2.5, 1), (3.5, 2), (-1, 1.5), (5, 2.5)):
    near(at("dakima.y", x + 1, -1), want, 1e-11, "Akima y'(%g)" % x)
for x, want in ((0.5, 1.25), (1.5, 0), (2.5, 7 / 6), (3.5, 13 / 6), (-1, 1), (5, 2)):
    near(at("dfb.y", x + 1, -1), want, 1e-11, "Fritsch-Butland y'(%g)" % x)
check(jumps("constseg.y[1]") == [2, 4, 5], "ConstantSegments jumps at %s" % jumps("constseg.y[1]"))
check(jumps("akima.y[1]") == [], "splines have no events")
PY
fi

# ---- the same with Modelica.Blocks.Tables.CombiTable1Ds, u = t - 1 from a
# ramp: the same values from the same code. And Akima where its weights
# differ: y = {0, 1, 1, 1, 3}, s = {1, 0, 0, 2}, continued 2, 3 to the left
# and 4, 6 to the right: at row 1 the weights of s0 = 1 and s1 = 0 are
# |s2 - s1| = 0 and |s0 - s[-1]| = 1, so m1 = s1 = 0; likewise m2 = 0
# (weights 2 and 1 of 0 and 0) and m3 = s2 = 0 (weights 2 and 0): the flat
# stretch stays flat; m0 = (2 + 1)/2 = 1.5, m4 = (2 + 4)/2 = 3. Midpoints
# 0.5 + 1.5/8 = 0.6875 and 2 - 3/8 = 1.625; y(5) = 3 + 3, y(-1) = -1.5.
model smooth1d <<'EOF'
model Smooth1D
  parameter Real data[:, :] = [0, 0; 1, 1; 2, 1; 3, 2; 4, 4];
  Modelica.Blocks.Sources.Ramp u(offset = -1, height = 6, duration = 6);
  Modelica.Blocks.Tables.CombiTable1Ds linear(table = data);
  Modelica.Blocks.Tables.CombiTable1Ds constseg(table = data, smoothness = Modelica.Blocks.Types.Smoothness.ConstantSegments);
  Modelica.Blocks.Tables.CombiTable1Ds akima(table = data, smoothness = Modelica.Blocks.Types.Smoothness.ContinuousDerivative);
  Modelica.Blocks.Tables.CombiTable1Ds makima(table = data, smoothness = Modelica.Blocks.Types.Smoothness.ModifiedContinuousDerivative);
  Modelica.Blocks.Tables.CombiTable1Ds fb(table = data, smoothness = Modelica.Blocks.Types.Smoothness.MonotoneContinuousDerivative1);
  Modelica.Blocks.Tables.CombiTable1Ds steffen(table = data, smoothness = Modelica.Blocks.Types.Smoothness.MonotoneContinuousDerivative2);
  Modelica.Blocks.Tables.CombiTable1Ds flat(table = [0, 0; 1, 1; 2, 1; 3, 1; 4, 3], smoothness = Modelica.Blocks.Types.Smoothness.ContinuousDerivative);
equation
  connect(u.y, flat.u);
  connect(u.y, linear.u);
  connect(u.y, constseg.u);
  connect(u.y, akima.u);
  connect(u.y, makima.u);
  connect(u.y, fb.u);
  connect(u.y, steffen.u);
  annotation(experiment(StopTime = 6, Interval = 0.5));
end Smooth1D;
EOF
if sim smooth1d; then
values "CombiTable1Ds: every smoothness, the same values as the time table" smooth1d <<'PY'
exec(open(sys.argv[1].rsplit("/", 1)[0] + "/expect.py").read())
for m in ("linear", "constseg", "akima", "makima", "fb", "steffen"):
    for x in POINTS:
        near(at(m + ".y[1]", x + 1), expected(m, x), 1e-11, "%s(%g)" % (m, x))
for x, want in ((-1, -1.5), (0.5, 0.6875), (1.5, 1), (2.5, 1), (3.5, 1.625), (5, 6)):
    near(at("flat.y[1]", x + 1), want, 1e-11, "Akima on a flat stretch (%g)" % x)
PY
fi

# ---- monotone data: Akima dips between the equal rows 1 and 2, the
# monotone methods never decrease and stay within [0, 4]
model monotone <<'EOF'
model Monotone
  parameter Real data[:, :] = [0, 0; 1, 1; 2, 1; 3, 2; 4, 4];
  Modelica.Blocks.Sources.CombiTimeTable akima(table = data, smoothness = Modelica.Blocks.Types.Smoothness.ContinuousDerivative);
  Modelica.Blocks.Sources.CombiTimeTable fb(table = data, smoothness = Modelica.Blocks.Types.Smoothness.MonotoneContinuousDerivative1);
  Modelica.Blocks.Sources.CombiTimeTable steffen(table = data, smoothness = Modelica.Blocks.Types.Smoothness.MonotoneContinuousDerivative2);
  annotation(experiment(StopTime = 4, Interval = 0.01));
end Monotone;
EOF
if sim monotone; then
values "Fritsch-Butland and Steffen preserve monotonicity where Akima does not" monotone <<'PY'
for m in ("fb", "steffen", "akima"):
    c = col(m + ".y[1]")
    drop = min(c[i + 1] - c[i] for i in range(len(c) - 1))
    if m == "akima":
        check(drop < -1e-4, "Akima should dip on [1, 2] (smallest step %g)" % drop)
    else:
        check(drop >= 0, "%s decreases somewhere (smallest step %g)" % (m, drop))
        check(min(c) >= 0 and max(c) <= 4, "%s leaves [0, 4]: [%g, %g]" % (m, min(c), max(c)))
PY
fi

# ---- extrapolation: HoldLastPoint holds the end rows; Periodic repeats the
# table with period 4 (x = -1 is x = 3, x = 5 is x = 1, x = 4.5 is x = 0.5);
# a periodic sawtooth jumps back at every period.
model extrap <<'EOF'
model Extrap
  parameter Real data[:, :] = [0, 0; 1, 1; 2, 1; 3, 2; 4, 4];
  Modelica.Blocks.Sources.CombiTimeTable hold(table = data, shiftTime = 1, extrapolation = Modelica.Blocks.Types.Extrapolation.HoldLastPoint);
  Modelica.Blocks.Sources.CombiTimeTable holdAkima(table = data, shiftTime = 1, extrapolation = Modelica.Blocks.Types.Extrapolation.HoldLastPoint, smoothness = Modelica.Blocks.Types.Smoothness.ContinuousDerivative);
  Modelica.Blocks.Sources.CombiTimeTable periodic(table = data, shiftTime = 1, extrapolation = Modelica.Blocks.Types.Extrapolation.Periodic);
  Modelica.Blocks.Sources.CombiTimeTable periodicAkima(table = data, shiftTime = 1, extrapolation = Modelica.Blocks.Types.Extrapolation.Periodic, smoothness = Modelica.Blocks.Types.Smoothness.ContinuousDerivative);
  Modelica.Blocks.Sources.CombiTimeTable saw(table = [0, 0; 1, 1], extrapolation = Modelica.Blocks.Types.Extrapolation.Periodic);
  Modelica.Blocks.Sources.Ramp u(offset = -1, height = 6, duration = 6);
  Modelica.Blocks.Tables.CombiTable1Ds hold1d(table = data, extrapolation = Modelica.Blocks.Types.Extrapolation.HoldLastPoint);
  Modelica.Blocks.Tables.CombiTable1Ds periodic1d(table = data, extrapolation = Modelica.Blocks.Types.Extrapolation.Periodic, smoothness = Modelica.Blocks.Types.Smoothness.ContinuousDerivative);
equation
  connect(u.y, hold1d.u);
  connect(u.y, periodic1d.u);
  annotation(experiment(StopTime = 6, Interval = 0.5));
end Extrap;
EOF
if sim extrap; then
values "HoldLastPoint and Periodic, time tables and 1D tables" extrap <<'PY'
for m in ("hold", "holdAkima", "hold1d"):
    near(at(m + ".y[1]", 0, -1), 0, 0, m + "(-1)")
    near(at(m + ".y[1]", 6, -1), 4, 0, m + "(5)")
near(at("holdAkima.y[1]", 1.5), 0.625, 1e-11, "holdAkima(0.5) inside the table")
for x, same in ((-1, 3), (-0.5, 3.5), (4.5, 0.5), (5, 1)):
    near(at("periodic.y[1]", x + 1, -1), at("periodic.y[1]", same + 1, -1), 1e-11, "periodic(%g) = periodic(%g)" % (x, same))
near(at("periodicAkima.y[1]", 5.5), 0.625, 1e-11, "periodic Akima at 4.5 = Akima at 0.5")
near(at("periodicAkima.y[1]", 0.5), 2.875, 1e-11, "periodic Akima at -0.5 = Akima at 3.5")
near(at("periodic1d.y[1]", 5.5), 0.625, 1e-11, "periodic 1D Akima at 4.5")
near(at("periodic1d.y[1]", 0.5), 2.875, 1e-11, "periodic 1D Akima at -0.5")
check(jumps("saw.y[1]") == [1, 2, 3, 4, 5], "the sawtooth jumps at %s" % jumps("saw.y[1]"))
near(at("saw.y[1]", 3, 0), 1, 1e-11, "sawtooth left of 3")
near(at("saw.y[1]", 3, -1), 0, 1e-11, "sawtooth right of 3")
near(at("saw.y[1]", 2.5), 0.5, 1e-11, "sawtooth at 2.5")
PY
fi

# ---- timeScale, shiftTime, startTime, offset. CombiTimeTable with table
# [0, 0; 1, 2; 2, 2], timeScale 2, shiftTime 1, startTime 0.5, offset 10:
# y = 10 before 0.5, then 10 + f((t - 1)/2), f(x) = 2x up to x = 1 (also
# extended to the left), 2 after: 9.5 at 0.5, 11 at 2, 12 from 3 on; slope
# 1 per second on (0.5, 3). TimeTable [0, 0; 1, 1; 2, 4], timeScale 2,
# offset 1, startTime 1 (shiftTime = startTime): 1 before 1, then
# 1 + f((t - 1)/2): 1.5 at 2, 2 at 3, 3.5 at 4, 8 at 7 (extended with slope 3).
model scales <<'EOF'
model Scales
  Modelica.Blocks.Sources.CombiTimeTable ct(table = [0, 0; 1, 2; 2, 2], timeScale = 2, shiftTime = 1, startTime = 0.5, offset = {10});
  Modelica.Blocks.Sources.TimeTable tt(table = [0, 0; 1, 1; 2, 4], timeScale = 2, offset = 1, startTime = 1);
  annotation(experiment(StopTime = 7, Interval = 0.25));
end Scales;
EOF
if sim scales; then
values "timeScale, shiftTime, startTime and offset of CombiTimeTable and TimeTable" scales <<'PY'
near(at("ct.y[1]", 0.25), 10, 0, "ct before startTime")
near(at("ct.y[1]", 0.5, 0), 10, 0, "ct left of startTime")
near(at("ct.y[1]", 0.5, -1), 9.5, 1e-11, "ct at startTime")
for x, want in ((2, 11), (2.5, 11.5), (3, 12), (5, 12), (7, 12)):
    near(at("ct.y[1]", x, -1), want, 1e-11, "ct(%g)" % x)
check(jumps("ct.y[1]") == [0.5], "ct jumps at %s" % jumps("ct.y[1]"))
for x, want in ((0.5, 1), (2, 1.5), (3, 2), (4, 3.5), (5, 5), (7, 8)):
    near(at("tt.y", x, -1), want, 1e-11, "tt(%g)" % x)
PY
fi

# ---- CombiTable1Dv (each input reads its own column) and CombiTable2Ds:
# the bilinear f(u1, u2) = 1 + 2 u1 + 3 u2 + u1 u2 on the grid u1 = 0, 1, 2,
# u2 = 0, 1 is reproduced exactly, also extended beyond the grid
# (LastTwoPoints); HoldLastPoint clamps the inputs to the grid;
# ConstantSegments takes the grid point at or below the inputs.
# u1 = t/2 - 0.5, u2 = t/4 over t = 0 .. 6.
model tables2 <<'EOF'
model Tables2
  parameter Real grid[:, :] = [0, 0, 1; 0, 1, 4; 1, 3, 7; 2, 5, 10];
  Modelica.Blocks.Sources.Ramp u1(offset = -0.5, height = 3, duration = 6);
  Modelica.Blocks.Sources.Ramp u2(height = 1.5, duration = 6);
  Modelica.Blocks.Tables.CombiTable2Ds bilinear(table = grid);
  Modelica.Blocks.Tables.CombiTable2Ds hold(table = grid, extrapolation = Modelica.Blocks.Types.Extrapolation.HoldLastPoint);
  Modelica.Blocks.Tables.CombiTable2Ds constseg(table = grid, smoothness = Modelica.Blocks.Types.Smoothness.ConstantSegments);
  Modelica.Blocks.Tables.CombiTable1Dv v(table = [0, 0, 10; 1, 1, 20; 2, 4, 20], columns = {2, 3});
equation
  connect(u1.y, bilinear.u1);
  connect(u2.y, bilinear.u2);
  connect(u1.y, hold.u1);
  connect(u2.y, hold.u2);
  connect(u1.y, constseg.u1);
  connect(u2.y, constseg.u2);
  connect(u1.y, v.u[1]);
  connect(u2.y, v.u[2]);
  annotation(experiment(StopTime = 6, Interval = 0.5));
end Tables2;
EOF
if sim tables2; then
values "CombiTable2Ds bilinear, held and constant; CombiTable1Dv" tables2 <<'PY'
f = lambda a, b: 1 + 2 * a + 3 * b + a * b
u1 = lambda x: x / 2 - 0.5
u2 = lambda x: x / 4
clamp = lambda a, lo, hi: min(max(a, lo), hi)
near(worst("bilinear.y", lambda x: f(u1(x), u2(x))), 0, 1e-13, "bilinear, inside and beyond the grid")
near(worst("hold.y", lambda x: f(clamp(u1(x), 0, 2), clamp(u2(x), 0, 1))), 0, 1e-13, "HoldLastPoint clamps")
near(worst("constseg.y", lambda x: f(math.floor(u1(x)), math.floor(u2(x))), 1, 4), 0, 0, "ConstantSegments")
near(worst("v.y[1]", lambda x: u1(x) if u1(x) < 1 else 1 + 3 * (u1(x) - 1)), 0, 1e-13, "1Dv output 1 reads u[1]")
near(worst("v.y[2]", lambda x: 10 + 10 * u2(x) if u2(x) < 1 else 20), 0, 1e-13, "1Dv output 2 reads u[2]")
PY
fi

# ---- a table in the equations of a motion: the force f = -s of a linear
# table (rows -2, 0, 2) on a unit mass from s = 1: s = cos t. And a table
# inverted by the equations (the solver needs its derivative): Steffen's
# spline through y = x^2 at x = 0..3 has slopes 2 and 4 at x = 1 and 2, so
# it is x^2 exactly on [1, 2], and y(x) = 1 + t gives x = sqrt(1 + t).
model dynamic <<'EOF'
model Dynamic
  Modelica.Mechanics.Translational.Components.Mass m(m = 1, s(start = 1, fixed = true), v(start = 0, fixed = true));
  Modelica.Mechanics.Translational.Sensors.PositionSensor ps;
  Modelica.Blocks.Tables.CombiTable1Ds spring(table = [-2, 2; 0, 0; 2, -2]);
  Modelica.Mechanics.Translational.Sources.Force force;
  Modelica.Blocks.Tables.CombiTable1Ds sq(table = [0, 0; 1, 1; 2, 4; 3, 9], smoothness = Modelica.Blocks.Types.Smoothness.MonotoneContinuousDerivative2);
  Real x(start = 0.5);
equation
  connect(m.flange_a, ps.flange);
  connect(ps.s, spring.u);
  connect(spring.y[1], force.f);
  connect(force.flange, m.flange_b);
  sq.u = x;
  sq.y[1] = 1 + time;
  annotation(experiment(StopTime = 3, Interval = 0.05));
end Dynamic;
EOF
if sim dynamic; then
values "a table as a spring (s = cos t) and a table inverted by the equations (x = sqrt(1 + t))" dynamic <<'PY'
near(worst("m.s", math.cos), 0, 1e-4, "s = cos t")
near(worst("x", lambda t: math.sqrt(1 + t)), 0, 1e-8, "x = sqrt(1 + t)")
PY
fi

# ---- tables from files: two tables in one text file with comments (a row
# over two lines, two rows on one line), a CSV file with a header line, all
# named relative to the model file, which is in another directory than the
# working one.
mkdir -p "$T/sub"
cat > "$T/sub/tables.txt" <<'EOF'
#1
# the data set of the smoothness checks, and a table of two columns
double tab1(5,2)   # x, y
  0  0
  1  1
  2  1   3  2
  4
  4
double tab2(3,3)   # t, y1, y2
0, 0, 10
1; 1; 20
2  4  20
EOF
printf 'u,y\n0,0\n1,2\n2,3\n' > "$T/sub/data.csv"
model sub/files <<'EOF'
model Files
  Modelica.Blocks.Sources.CombiTimeTable akima(tableOnFile = true, tableName = "tab1", fileName = "tables.txt", shiftTime = 1, smoothness = Modelica.Blocks.Types.Smoothness.ContinuousDerivative);
  Modelica.Blocks.Sources.CombiTimeTable two(tableOnFile = true, tableName = "tab2", fileName = "tables.txt", columns = {2, 3});
  Modelica.Blocks.Sources.Ramp u(offset = -1, height = 6, duration = 6);
  Modelica.Blocks.Tables.CombiTable1Ds fb(tableOnFile = true, tableName = "tab1", fileName = "tables.txt", smoothness = Modelica.Blocks.Types.Smoothness.MonotoneContinuousDerivative1);
  Modelica.Blocks.Tables.CombiTable1Dv csv(tableOnFile = true, fileName = "data.csv", nHeaderLines = 1);
equation
  connect(u.y, fb.u);
  connect(u.y, csv.u[1]);
  annotation(experiment(StopTime = 6, Interval = 0.5));
end Files;
EOF
if sim sub/files; then
values "tables from a text file (two tables, comments) and a CSV file, relative to the model file" sub/files <<'PY'
exec(open(sys.argv[1].rsplit("/", 2)[0] + "/expect.py").read())
for x in POINTS:
    near(at("akima.y[1]", x + 1, -1), expected("akima", x), 1e-11, "akima(%g) from the file" % x)
    near(at("fb.y[1]", x + 1), expected("fb", x), 1e-11, "fb(%g) from the file" % x)
near(at("two.y[1]", 1.5), 2.5, 1e-11, "tab2 column 2 at 1.5")
near(at("two.y[2]", 0.5), 15, 1e-11, "tab2 column 3 at 0.5")
for x, want in ((0, -2), (1, 0), (1.5, 1), (2, 2), (3, 3), (4, 4)):
    near(at("csv.y[1]", x), want, 1e-11, "csv(%g)" % (x - 1))
PY
fi

# ---- errors: a missing file, a table the file does not have, a row with
# something that is not a number (located in the table file)
model sub/nofile <<'EOF'
model NoFile
  Modelica.Blocks.Sources.CombiTimeTable t(tableOnFile = true, tableName = "tab1", fileName = "missing.txt");
end NoFile;
EOF
expect sub/nofile 1 -- "sub/nofile.mo:2:84: error: t: cannot open sub/missing.txt: No such file or directory"

model sub/notable <<'EOF'
model NoTable
  Modelica.Blocks.Sources.Ramp u;
  Modelica.Blocks.Tables.CombiTable1Ds t(tableOnFile = true, tableName = "tab3", fileName = "tables.txt");
equation
  connect(u.y, t.u);
end NoTable;
EOF
expect sub/notable 1 -- "sub/notable.mo:3:82: error: t: sub/tables.txt has no table 'tab3' (it has tab1, tab2)"

printf '#1\ndouble tab1(3,2)\n0 0\n1 1.5e\n2 4\n' > "$T/sub/bad.txt"
model sub/badrow <<'EOF'
model BadRow
  Modelica.Blocks.Sources.CombiTimeTable t(tableOnFile = true, tableName = "tab1", fileName = "bad.txt");
end BadRow;
EOF
expect sub/badrow 1 -- "sub/bad.txt:4:3: error: '1.5e' is not a number (table 'tab1', row 2, column 2)"

printf '#1\ndouble tab1(3,2)\n0 0\n1 1\n' > "$T/sub/short.txt"
model sub/short <<'EOF'
model Short
  Modelica.Blocks.Sources.CombiTimeTable t(tableOnFile = true, tableName = "tab1", fileName = "short.txt");
end Short;
EOF
expect sub/short 1 -- "sub/short.txt:5:1: error: table 'tab1' ends after 4 of its 3 x 2 values"

model noname <<'EOF'
model NoName
  Modelica.Blocks.Sources.CombiTimeTable t(tableOnFile = true, fileName = "tables.txt");
end NoName;
EOF
expect noname 1 -- "noname.mo:2:64: error: t: tableOnFile = true and no table name given (set tableName)"

# a 1D table's abscissa must increase strictly
model notincreasing <<'EOF'
model NotIncreasing
  Modelica.Blocks.Sources.Ramp u;
  Modelica.Blocks.Tables.CombiTable1Ds t(table = [0, 0; 1, 1; 1, 2]);
equation
  connect(u.y, t.u);
end NotIncreasing;
EOF
expect notincreasing 1 -- "notincreasing.mo:3:42: error: t.table: the values of column 1 must be strictly increasing: element 3 (1) is not greater than element 2 (1)"

# NoExtrapolation stops the run when the input leaves the table
model noextrap <<'EOF'
model NoExtrap
  Modelica.Blocks.Sources.Ramp u(height = 2, duration = 2);
  Modelica.Blocks.Tables.CombiTable1Ds t(table = [0, 0; 1, 1], extrapolation = Modelica.Blocks.Types.Extrapolation.NoExtrapolation);
equation
  connect(u.y, t.u);
  annotation(experiment(StopTime = 2, Interval = 0.25));
end NoExtrap;
EOF
expect noextrap 1 -- "error: the solution is not finite at t = 1.25: t.y[1] = nan
note: a function the equations call failed: <flange: Modelica.Blocks.Tables>:89:12: Extrapolation error: the value u (= 1.25) must be less or equal than the maximum abscissa value u_max (= 1) defined in the table (extrapolation = NoExtrapolation)"

exit $((fails > 0))
