#!/usr/bin/env bash
# Boolean and Integer signal connectors (Modelica.Blocks.Interfaces.BooleanInput,
# BooleanOutput, IntegerInput, IntegerOutput and the partial blocks that use
# them) between user blocks: values in the result as 0/1 and integers,
# vectors connected element by element, initial equations pre(y) = parameter,
# the event iteration letting pre() catch up within an instant (a latch of an
# Or and a Pre block), sample() true at its instants only, relations of time
# alone located in a model with nothing to integrate, matrices built of
# column vectors, the equations of a when-equation reading each other's new
# values, relations the event program rewrites, and a Boolean output
# connected to Real inputs.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# ---- 1. Boolean sources into a vector block with Integer outputs, summed
# a.y = time > 0.25, b.y = time > 0.5; v.y = {not u1, u1 and u2},
# v.k = {if u1 then 1 else 2, if u2 then -3 else 4}, s.y = k1 + k2
model vectors <<'EOF'
model Vectors
  block Src
    extends Modelica.Blocks.Interfaces.BooleanSignalSource;
    parameter Real t0 = 0.5;
  equation
    y = time > t0;
  end Src;
  block Vec
    extends Modelica.Blocks.Interfaces.BooleanMIMOs(n = 2);
    Modelica.Blocks.Interfaces.IntegerOutput k[2];
  equation
    y = {not u[1], u[1] and u[2]};
    k = {if u[1] then 1 else 2, if u[2] then -3 else 4};
  end Vec;
  block Sum
    Modelica.Blocks.Interfaces.IntegerInput u[2];
    Modelica.Blocks.Interfaces.IntegerOutput y;
  equation
    y = u[1] + u[2];
  end Sum;
  Src a(t0 = 0.25);
  Src b(t0 = 0.5);
  Vec v;
  Sum s;
equation
  connect(a.y, v.u[1]);
  connect(b.y, v.u[2]);
  connect(v.k[1], s.u[1]);
  connect(v.k[2], s.u[2]);
  annotation(experiment(StopTime = 1, Interval = 0.25));
end Vectors;
EOF
sim vectors && values "Boolean and Integer vectors between user blocks" vectors <<'PY'
check(jumps("v.y[1]") == [0.25] and jumps("v.y[2]") == [0.5], "v.y jumps at %s, %s" % (jumps("v.y[1]"), jumps("v.y[2]")))
for name, before, after in [("s.y", 6, 5), ("v.k[1]", 2, 1)]:
    near(at(name, 0.25, 0), before, 0, name + " before 0.25")
    near(at(name, 0.25, -1), after, 0, name + " after 0.25")
near(at("s.y", 0.5, -1), -2, 0, "s.y after 0.5")
near(at("v.y[2]", 1), 1, 0, "v.y[2] at the end")
PY
if [ -s "$T/vectors.csv" ]; then
  # Booleans are written as 0 and 1, Integers as integers
  last=$(tail -n 1 "$T/vectors.csv")
  if [ "$last" = "1,1,1,1,1,0,1,1,-3,1,-3,-2" ]; then ok "the values as written"
  else bad "the values as written: '$last'"; fi
fi

# ---- 2. initial equation pre(y) = parameter: the value before the start;
# the counter counts rising edges of u from 10 + 1 = 11, the Pre block
# starts from pre(u) = true and follows u (false) at once
model prestart <<'EOF'
model PreStart
  block Cnt
    extends Modelica.Blocks.Interfaces.IntegerSO;
    Modelica.Blocks.Interfaces.BooleanInput u;
    parameter Integer k0 = 3;
  initial equation
    pre(y) = k0 + 1;
  equation
    when u then
      y = pre(y) + 1;
    end when;
  end Cnt;
  block Src
    extends Modelica.Blocks.Interfaces.partialBooleanSource;
  equation
    y = sin(2*Modelica.Constants.pi*time) > 0.5;
  end Src;
  Src s;
  Cnt c(k0 = 10);
equation
  connect(s.y, c.u);
  annotation(experiment(StopTime = 2.5, Interval = 0.5));
end PreStart;
EOF
sim prestart --tolerance 1e-10 && values "initial equation pre(y) = k0 + 1" prestart <<'PY'
near(col("c.y")[0], 11, 0, "c.y at the start")
J = jumps("c.y")
check(len(J) == 3, "c.y jumps at %s" % J)
for i, tj in enumerate(J):
    near(tj, i + 1/12, 1e-8, "rising edge %d of sin(2 pi t) > 0.5" % (i + 1))
near(col("c.y")[-1], 14, 0, "c.y at the end")
PY

# ---- 3. a latch: or1.y = s.y or pre1.y, pre1.y = pre(or1.y): s.y is true
# from 0.3 to 0.6; the event iteration carries or1.y through the Pre block
# at 0.3 itself, and the latch holds after 0.6
model latch <<'EOF'
model Latch
  block Src
    extends Modelica.Blocks.Interfaces.partialBooleanSource;
  equation
    y = time > 0.3 and time < 0.6;
  end Src;
  block Or2
    extends Modelica.Blocks.Interfaces.partialBooleanSI2SO;
  equation
    y = u1 or u2;
  end Or2;
  block Pre1
    extends Modelica.Blocks.Interfaces.partialBooleanSISO;
  initial equation
    pre(u) = false;
  equation
    y = pre(u);
  end Pre1;
  Src s;
  Or2 or1;
  Pre1 pre1;
equation
  connect(s.y, or1.u1);
  connect(or1.y, pre1.u);
  connect(pre1.y, or1.u2);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end Latch;
EOF
sim latch && values "a latch through a Pre block settles within the instant" latch <<'PY'
check(jumps("pre1.y") == [0.3], "pre1.y jumps at %s" % jumps("pre1.y"))
check(jumps("or1.y") == [0.3], "or1.y jumps at %s" % jumps("or1.y"))
check(jumps("s.y") == [0.3, 0.6], "s.y jumps at %s" % jumps("s.y"))
near(col("or1.y")[-1], 1, 0, "the latch at the end")
PY

# ---- 4. y = sample(0.25, 0.5): true at the instants only (the rows at an
# instant: before, at the event, after it), a counter of its rising edges
model trigger <<'EOF'
model Trigger
  block Trig
    extends Modelica.Blocks.Interfaces.partialBooleanSource;
  equation
    y = sample(0.25, 0.5);
  end Trig;
  block Count
    extends Modelica.Blocks.Interfaces.IntegerSO;
    Modelica.Blocks.Interfaces.BooleanInput u;
  equation
    when u then
      y = pre(y) + 1;
    end when;
  end Count;
  Trig trig;
  Count count;
equation
  connect(trig.y, count.u);
  annotation(experiment(StopTime = 1.25, Interval = 0.125));
end Trigger;
EOF
sim trigger && values "sample(): true at its instants, false after them" trigger <<'PY'
for ti in (0.25, 0.75):
    ys = [r["trig.y"] for r in rows if abs(r["time"] - ti) < 1e-12]
    check(ys == [0, 1, 0], "trig.y at %g: %s" % (ti, ys))
check(all(r["trig.y"] == 0 for r in rows if min(abs(r["time"] - 0.25), abs(r["time"] - 0.75)) > 1e-12),
      "trig.y is false away from the instants")
check(jumps("count.y") == [0.25, 0.75], "count.y jumps at %s" % jumps("count.y"))
near(col("count.y")[-1], 2, 0, "count.y at the stop time (an instant: not processed)")
PY

# ---- 5. relations of a Ramp's signal (0 to 1 over 1 s) in a model with
# nothing to integrate: u > 0 from the start on, u >= 0.5 from 0.5 s
model thresholds <<'EOF'
model Thresholds
  block Above
    extends Modelica.Blocks.Interfaces.partialBooleanThresholdComparison;
  equation
    y = u >= threshold;
  end Above;
  block Positive
    extends Modelica.Blocks.Interfaces.partialBooleanThresholdComparison;
  equation
    y = u > threshold;
  end Positive;
  Modelica.Blocks.Sources.Ramp ramp(height = 1, duration = 1);
  Above half(threshold = 0.5);
  Positive pos;
equation
  connect(ramp.y, half.u);
  connect(ramp.y, pos.u);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end Thresholds;
EOF
sim thresholds && values "relations of time alone are events without an integrator" thresholds <<'PY'
J = jumps("half.y")
check(len(J) == 1, "half.y jumps at %s" % J)
near(J[0], 0.5, 1e-12, "u reaches 0.5")
check(all(r["pos.y"] == 1 for r in rows if r["time"] > 0), "u > 0 after the start")
PY

# ---- 6. a table of two columns built from column vectors: [t[1], 0; t, v]
model columns <<'EOF'
model Columns
  parameter Real t[:] = {0.2, 0.4, 0.6};
  Modelica.Blocks.Sources.CombiTimeTable table(table = [t[1], 0; t, {1, 0, 1}],
    smoothness = Modelica.Blocks.Types.Smoothness.ConstantSegments,
    extrapolation = Modelica.Blocks.Types.Extrapolation.HoldLastPoint);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end Columns;
EOF
sim columns && values "matrix rows of column vectors" columns <<'PY'
check(jumps("table.y[1]") == [0.2, 0.4, 0.6], "table.y[1] jumps at %s" % jumps("table.y[1]"))
near(col("table.y[1]")[-1], 1, 0, "table.y[1] at the end")
PY

# ---- 7. the equations of a when-equation hold together: T reads the
# endValue assigned beside it (T = 0.1 + (3 - 1)/20 = 0.2), y ramps 1 -> 3
model together <<'EOF'
model Together
  Boolean u = time > 0.1;
  Real y;
  discrete Real endValue(start = 1);
  discrete Real rate;
  discrete Real T;
equation
  y = if time < T then endValue - (T - time)*rate else endValue;
  when u then
    endValue = 3;
    rate = 20;
    T = time + (endValue - pre(y))/rate;
  end when;
  annotation(experiment(StopTime = 0.3, Interval = 0.05));
end Together;
EOF
sim together && values "when-equations: the values read each other's new values" together <<'PY'
near(at("T", 0.1, -1), 0.2, 1e-12, "T after the edge of u")
near(worst("y", lambda t: 1 if t <= 0.1 else min(3, 1 + 20*(t - 0.1)), 0.1001), 0, 1e-9, "y: the ramp from 1 to 3")
PY

# ---- 8. a relation inside an if-expression with a discrete variable (the
# event program puts in its definition): decided by its own value, not by
# another relation's crossing (u > 0 leaves zero at the start)
model inner <<'EOF'
model Inner
  Real u = 2*sin(6.283185307179586*time);
  Integer k = 0;
  Boolean b = if u > 0 then u >= k + 0.5 else false;
  annotation(experiment(StopTime = 0.1, Interval = 0.01));
end Inner;
EOF
sim inner && values "a relation read through a discrete definition" inner <<'PY'
J = jumps("b")
check(len(J) == 1, "b jumps at %s" % J)
near(J[0], math.asin(0.25)/(2*math.pi), 1e-12, "2 sin(2 pi t) reaches 0.5")
PY

# ---- 9. a variable array sized by the array it is given (reset[:] =
# {...}), size() of it in a parameter, a value from outside reading a
# component declared after, fixed = true on discrete variables, and a block
# passing its own input to its output (connect(u, y) inside)
model sized <<'EOF'
model Sized
  block Any "y: one of the inputs is true"
    input Boolean r[:] = {false};
    parameter Integer n = size(r, 1);
    Integer count(start = 0, fixed = true);
    Modelica.Blocks.Interfaces.BooleanOutput y(start = false, fixed = true);
  equation
    y = count > 0;
    count = sum({if r[i] then 1 else 0 for i in 1:n});
  end Any;
  block Through "shows its input at its output"
    Modelica.Blocks.Interfaces.BooleanInput u;
    Modelica.Blocks.Interfaces.BooleanOutput y;
    Boolean seen = u "(an equation: u and y are its variables)";
  equation
    connect(u, y);
  end Through;
  Any any(r = {a.y, b.y, false});
  Modelica.Blocks.Sources.BooleanStep a(startTime = 0.3);
  Modelica.Blocks.Sources.BooleanStep b(startTime = 0.6);
  Through through;
equation
  connect(any.y, through.u);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end Sized;
EOF
sim sized && values "r[:] sized by its value, size(r, 1), a value from outside, a block passing its input on" sized <<'PY'
check(jumps("any.count") == [0.3, 0.6], "any.count jumps at %s" % jumps("any.count"))
near(col("any.count")[-1], 2, 0, "any.count at the end")
check(jumps("through.y") == [0.3], "through.y jumps at %s" % jumps("through.y"))
check(col("any.r[3]") == [0]*len(t), "any.r[3]")
PY

# ---- 10. a Boolean output on Real inputs (a user block's, a Force's)
model mixed <<'EOF'
model Mixed
  block Src
    extends Modelica.Blocks.Interfaces.partialBooleanSource;
  equation
    y = time > 0.5;
  end Src;
  block Gain
    extends Modelica.Blocks.Interfaces.SISO;
  equation
    y = 2*u;
  end Gain;
  Src s;
  Gain g;
  Modelica.Mechanics.Translational.Sources.Force force;
  Modelica.Blocks.Interfaces.IntegerOutput k;
equation
  connect(s.y, g.u);
  connect(s.y, force.f);
  connect(k, s.y);
end Mixed;
EOF
expect mixed 1 -- "mixed.mo:17:3: error: cannot connect Boolean signal s.y to Real signal g.u
mixed.mo:18:3: error: cannot connect Boolean signal s.y to Real signal force.f
mixed.mo:19:3: error: cannot connect Integer signal k to Boolean signal s.y"

exit $((fails > 0))
