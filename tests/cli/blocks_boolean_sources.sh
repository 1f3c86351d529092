#!/usr/bin/env bash
# The Boolean and Integer sources of Modelica.Blocks.Sources against their
# closed forms: BooleanConstant, BooleanStep (both start values),
# BooleanPulse's edges at exact times, SampleTrigger's instants,
# BooleanTable (start value, extrapolation, shifted), BooleanExpression,
# IntegerConstant, IntegerStep, IntegerTable, IntegerExpression,
# RadioButtonSource with the Interaction.Show blocks, and a table that is
# not increasing.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# ---- 1. constants, steps, pulses, triggers
model sources <<'EOF'
model Sources
  Modelica.Blocks.Sources.BooleanConstant t;
  Modelica.Blocks.Sources.BooleanConstant f(k = false);
  Modelica.Blocks.Sources.BooleanStep up(startTime = 0.3);
  Modelica.Blocks.Sources.BooleanStep down(startTime = 0.3, startValue = true);
  Modelica.Blocks.Sources.BooleanStep now "startTime = 0: true from the start";
  Modelica.Blocks.Sources.BooleanPulse pulse(width = 20, period = 0.25, startTime = 0.05);
  Modelica.Blocks.Sources.BooleanPulse half(period = 1) "width 50 %, from 0";
  Modelica.Blocks.Sources.SampleTrigger trigger(period = 0.3, startTime = 0.1);
  Modelica.Blocks.Sources.IntegerConstant k(k = -4);
  Modelica.Blocks.Sources.IntegerStep istep(height = 5, offset = 2, startTime = 0.45);
  Modelica.Blocks.Sources.BooleanExpression both(y = up.y and pulse.y);
  Modelica.Blocks.Sources.IntegerExpression count(y = if up.y then k.y else istep.y);
  annotation(experiment(StopTime = 0.95, Interval = 0.01));
end Sources;
EOF
sim sources && values "BooleanConstant, BooleanStep, BooleanPulse, SampleTrigger, Integer sources, expressions" sources <<'PY'
def times(name, want, tol=1e-12):
    J = jumps(name)
    check(len(J) == len(want) and all(abs(a - b) <= tol for a, b in zip(J, want)), "%s jumps at %s, expected %s" % (name, J, want))
check(set(col("t.y")) == {1} and set(col("f.y")) == {0}, "the constants")
times("up.y", [0.3]); times("down.y", [0.3])
near(col("up.y")[0], 0, 0, "up.y at the start"); near(col("down.y")[0], 1, 0, "down.y at the start")
check(set(col("now.y")) == {1}, "a step at the start time is true from the start")
# width 20 % of 0.25 = 0.05: true on [0.05 + 0.25 k, 0.1 + 0.25 k)
times("pulse.y", sorted([0.05 + 0.25*k for k in range(4)] + [0.1 + 0.25*k for k in range(4)]))
near(col("pulse.y")[0], 0, 0, "pulse.y before its start time")
times("half.y", [0.5])
near(col("half.y")[0], 1, 0, "half.y at the start")
# the trigger: true in the values at 0.1, 0.4, 0.7 (before: false, after: false)
for ti in (0.1, 0.4, 0.7):
    ys = [r["trigger.y"] for r in rows if abs(r["time"] - ti) < 1e-12]
    check(ys == [0, 1, 0], "trigger.y at %g: %s" % (ti, ys))
check(sum(col("trigger.y")) == 3, "trigger.y is true at three rows")
check(set(col("k.y")) == {-4}, "k.y")
times("istep.y", [0.45]); near(col("istep.y")[0], 2, 0, "istep.y before"); near(col("istep.y")[-1], 7, 0, "istep.y after")
E = [0.3] + [0.05 + 0.25*k for k in range(4)] + [0.1 + 0.25*k for k in range(4)]
away = [r for r in rows if min(abs(r["time"] - e) for e in E) > 1e-9]
check(all(r["both.y"] == (1 if r["up.y"] and r["pulse.y"] else 0) for r in away), "both.y = up.y and pulse.y")
check(all(r["count.y"] == (r["k.y"] if r["up.y"] else r["istep.y"]) for r in away), "count.y")
PY

# ---- 2. BooleanTable: toggles at the table's times from startValue, holds
# the last value after them; shifted by shiftTime; false before startTime.
# IntegerTable: the value of the last time point passed.
model tables <<'EOF'
model Tables
  Modelica.Blocks.Sources.BooleanTable a(table = {0.2, 0.5, 0.6});
  Modelica.Blocks.Sources.BooleanTable b(table = {0.2, 0.5}, startValue = true);
  Modelica.Blocks.Sources.BooleanTable shifted(table = {0.2, 0.5}, shiftTime = 0.25);
  Modelica.Blocks.Sources.BooleanTable periodic(table = {0.1, 0.3},
    extrapolation = Modelica.Blocks.Types.Extrapolation.Periodic);
  Modelica.Blocks.Sources.IntegerTable n(table = [0, 3; 0.4, -2; 0.7, 5]);
  annotation(experiment(StopTime = 1, Interval = 0.05));
end Tables;
EOF
sim tables && values "BooleanTable and IntegerTable" tables <<'PY'
def times(name, want):
    J = jumps(name)
    check(len(J) == len(want) and all(abs(a - b) <= 1e-12 for a, b in zip(J, want)), "%s jumps at %s, expected %s" % (name, J, want))
times("a.y", [0.2, 0.5, 0.6]); near(col("a.y")[0], 0, 0, "a.y before"); near(col("a.y")[-1], 1, 0, "a.y after")
times("b.y", [0.2, 0.5]); near(col("b.y")[0], 1, 0, "b.y before"); near(col("b.y")[-1], 1, 0, "b.y after")
times("shifted.y", [0.45, 0.75])
times("n.y", [0.4, 0.7])
check(col("n.y")[0] == 3 and col("n.y")[-1] == 5, "n.y: %s ... %s" % (col("n.y")[0], col("n.y")[-1]))
near(at("n.y", 0.5), -2, 0, "n.y between")
# the table {0.1, 0.3} repeated over its span [0.1, 0.3]: true on [0.1, 0.3)
# in each copy, so true throughout except at the switching instants
check(all(r["periodic.y"] == 1 for r in rows if 0.1 < r["time"] and r["time"] % 0.2 > 1e-9 and r["time"] % 0.2 < 0.2 - 1e-9),
      "periodic.y")
PY

# ---- 3. two radio buttons that release each other (start pressed at 1 and
# 3, stop at 2 and 4), and the Interaction.Show blocks, from a port or from
# an expression
model radio <<'EOF'
model Radio
  Modelica.Blocks.Sources.RadioButtonSource start(buttonTimeTable = {1, 3}, reset = {stop.on});
  Modelica.Blocks.Sources.RadioButtonSource stop(buttonTimeTable = {2, 4}, reset = {start.on});
  Modelica.Blocks.Interaction.Show.BooleanValue shown;
  Modelica.Blocks.Interaction.Show.BooleanValue both(use_activePort = false, active = start.on or stop.on);
  Modelica.Blocks.Interaction.Show.IntegerValue n(use_numberPort = false, number = if start.on then 1 else 2);
  Modelica.Blocks.Interaction.Show.RealValue x(use_numberPort = false, number = 2*time);
equation
  connect(start.on, shown.activePort);
  annotation(experiment(StopTime = 5, Interval = 0.1));
end Radio;
EOF
sim radio && values "RadioButtonSource and the Show blocks" radio <<'PY'
check(jumps("start.on") == [1, 2, 3, 4], "start.on jumps at %s" % jumps("start.on"))
check(jumps("stop.on") == [2, 3, 4], "stop.on jumps at %s" % jumps("stop.on"))
E = [1, 2, 3, 4]
away = [r for r in rows if min(abs(r["time"] - e) for e in E) > 1e-9]
check(all(r["start.on"] == (1 if 1 < r["time"] < 2 or 3 < r["time"] < 4 else 0) for r in away), "start.on")
check(all(r["stop.on"] == (1 if 2 < r["time"] < 3 or r["time"] > 4 else 0) for r in away), "stop.on")
check(col("shown.showActive") == col("start.on"), "shown.showActive = start.on")
check(all(r["both.showActive"] == (1 if r["time"] > 1 else 0) for r in away), "both.showActive")
check(all(r["n.showNumber"] == (1 if r["start.on"] else 2) for r in rows), "n.showNumber")
near(worst("x.showNumber", lambda t: 2*t), 0, 1e-12, "x.showNumber = 2 time")
PY

# ---- 4. a table that does not increase
model badtable <<'EOF'
model BadTable
  Modelica.Blocks.Sources.BooleanTable table(table = {0.2, 0.2, 0.5});
  annotation(experiment(StopTime = 1));
end BadTable;
EOF
# (the table's CombiTimeTable sees it first: a time point given twice is
# three rows of one time)
expect badtable 1 -- "badtable.mo:2:40: error: table.combiTimeTable.table: rows 1 to 3 all have time 0.2; at most two rows may share a time (a jump)"

exit $((fails > 0))
