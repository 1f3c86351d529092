#!/usr/bin/env bash
# Modelica.Blocks.Logical and the Boolean conversions of Modelica.Blocks.Math
# as a user meets them, against closed forms: truth tables over time of the
# gates fed by a BooleanStep and a BooleanPulse, the edge blocks counted,
# thresholds and comparisons on a Ramp at their exact crossing times,
# Hysteresis and OnOffController switching on a trapezoid, TriggeredTrapezoid's
# shape, Timer, Switch and LogicalSwitch, RSFlipFlop, ZeroCrossing, the
# conversions, and the messages of a bad use.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# ---- 1. gates: a = time >= 0.5 (BooleanStep), b = the pulse of period 0.4,
# 50 %, from 0.1 (true on [0.1, 0.3), [0.5, 0.7), [0.9, 1.1))
model gates <<'EOF'
model Gates
  Modelica.Blocks.Sources.BooleanStep a(startTime = 0.5);
  Modelica.Blocks.Sources.BooleanPulse b(period = 0.4, startTime = 0.1);
  Modelica.Blocks.Logical.And and1;
  Modelica.Blocks.Logical.Or or1;
  Modelica.Blocks.Logical.Xor xor1;
  Modelica.Blocks.Logical.Nand nand1;
  Modelica.Blocks.Logical.Nor nor1;
  Modelica.Blocks.Logical.Not not1;
equation
  connect(a.y, and1.u1);
  connect(b.y, and1.u2);
  connect(a.y, or1.u1);
  connect(b.y, or1.u2);
  connect(a.y, xor1.u1);
  connect(b.y, xor1.u2);
  connect(a.y, nand1.u1);
  connect(b.y, nand1.u2);
  connect(a.y, nor1.u1);
  connect(b.y, nor1.u2);
  connect(b.y, not1.u);
  annotation(experiment(StopTime = 1.2, Interval = 0.01));
end Gates;
EOF
sim gates && values "And, Or, Xor, Nand, Nor, Not over time" gates <<'PY'
A = lambda t: t >= 0.5
B = lambda t: t >= 0.1 and ((t - 0.1) % 0.4) < 0.2
laws = {"and1.y": lambda a, b: a and b, "or1.y": lambda a, b: a or b, "xor1.y": lambda a, b: a != b,
        "nand1.y": lambda a, b: not (a and b), "nor1.y": lambda a, b: not (a or b), "not1.y": lambda a, b: not b}
edges = [0.1, 0.3, 0.5, 0.7, 0.9, 1.1]
away = [r for r in rows if min(abs(r["time"] - e) for e in edges) > 1e-9]
for name, f in laws.items():
    bad = [r["time"] for r in away if r[name] != (1 if f(A(r["time"]), B(r["time"])) else 0)]
    check(not bad, "%s wrong at %s" % (name, bad[:5]))
J = jumps("b.y")
check(len(J) == len(edges) and all(abs(a - b) < 1e-12 for a, b in zip(J, edges)), "the pulse's edges at %s" % J)
check(jumps("a.y") == [0.5], "the step at %s" % jumps("a.y"))
PY

# ---- 2. Pre, Edge, FallingEdge, Change of the pulse; edges are true only
# during the event iteration, so counters (when-equations) count them
model edges <<'EOF'
model Edges
  block Count "the number of instants its input was true at"
    extends Modelica.Blocks.Interfaces.IntegerSO;
    Modelica.Blocks.Interfaces.BooleanInput u;
  initial equation
    pre(y) = 0;
  equation
    when u then
      y = pre(y) + 1;
    end when;
  end Count;
  Modelica.Blocks.Sources.BooleanPulse b(period = 0.4, startTime = 0.1);
  Modelica.Blocks.Logical.Pre pre1(pre_u_start = true);
  Modelica.Blocks.Logical.Edge edge1;
  Modelica.Blocks.Logical.FallingEdge falling;
  Modelica.Blocks.Logical.Change change1;
  Count rises;
  Count falls;
  Count changes;
equation
  connect(b.y, pre1.u);
  connect(b.y, edge1.u);
  connect(b.y, falling.u);
  connect(b.y, change1.u);
  connect(edge1.y, rises.u);
  connect(falling.y, falls.u);
  connect(change1.y, changes.u);
  annotation(experiment(StopTime = 1, Interval = 0.05));
end Edges;
EOF
sim edges && values "Pre, Edge, FallingEdge, Change" edges <<'PY'
def at_times(name, want):
    J = jumps(name)
    check(len(J) == len(want) and all(abs(a - b) < 1e-12 for a, b in zip(J, want)), "%s counts at %s" % (name, J))
at_times("rises.y", [0.1, 0.5, 0.9])
at_times("falls.y", [0.3, 0.7])
at_times("changes.y", [0.1, 0.3, 0.5, 0.7, 0.9])
check(col("pre1.y") == col("b.y"), "pre1.y is b.y once the event iteration has settled")
for name in ("edge1.y", "falling.y", "change1.y"):
    check(max(col(name)) == 0, "%s is false in the results (true only inside the event iteration)" % name)
PY

# ---- 3. thresholds and comparisons on u = ramp 0 -> 1 over 1 s, against
# 0.3 (threshold) and u2 = 0.6 (a Constant)
model compare <<'EOF'
model Compare
  Modelica.Blocks.Sources.Ramp ramp(duration = 1);
  Modelica.Blocks.Sources.Constant c(k = 0.6);
  Modelica.Blocks.Logical.GreaterThreshold gt(threshold = 0.3);
  Modelica.Blocks.Logical.GreaterEqualThreshold ge(threshold = 0.3);
  Modelica.Blocks.Logical.LessThreshold lt(threshold = 0.3);
  Modelica.Blocks.Logical.LessEqualThreshold le(threshold = 0.3);
  Modelica.Blocks.Logical.Greater g;
  Modelica.Blocks.Logical.GreaterEqual geq;
  Modelica.Blocks.Logical.Less l;
  Modelica.Blocks.Logical.LessEqual leq;
  Modelica.Blocks.Logical.GreaterThreshold positive "the threshold's default, 0";
equation
  connect(ramp.y, gt.u);
  connect(ramp.y, ge.u);
  connect(ramp.y, lt.u);
  connect(ramp.y, le.u);
  connect(ramp.y, g.u1);
  connect(c.y, g.u2);
  connect(ramp.y, geq.u1);
  connect(c.y, geq.u2);
  connect(ramp.y, l.u1);
  connect(c.y, l.u2);
  connect(ramp.y, leq.u1);
  connect(c.y, leq.u2);
  connect(ramp.y, positive.u);
  annotation(experiment(StopTime = 1, Interval = 0.05));
end Compare;
EOF
sim compare && values "thresholds and comparisons switch where the ramp crosses" compare <<'PY'
for name, at_, before in [("gt.y", 0.3, 0), ("ge.y", 0.3, 0), ("lt.y", 0.3, 1), ("le.y", 0.3, 1),
                          ("g.y", 0.6, 0), ("geq.y", 0.6, 0), ("l.y", 0.6, 1), ("leq.y", 0.6, 1)]:
    J = jumps(name)
    check(len(J) == 1, "%s jumps at %s" % (name, J))
    if J:
        near(J[0], at_, 1e-12, "where %s switches" % name)
    near(col(name)[0], before, 0, name + " at the start")
    near(col(name)[-1], 1 - before, 0, name + " at the end")
check(all(r["positive.y"] == 1 for r in rows if r["time"] > 0), "u > 0 once the ramp has started")
PY

# ---- 4. Hysteresis (on above 0.8, off below 0.2) and OnOffController
# (reference 0.5, bandwidth 0.2: on below 0.4, off above 0.6) on a
# trapezoid: u = t on [0, 1], 1 on [1, 2], 3 - t on [2, 3], 0 on [3, 4],
# period 4
model hyst <<'EOF'
model Hyst
  Modelica.Blocks.Sources.Trapezoid trap(rising = 1, width = 1, falling = 1, period = 4);
  Modelica.Blocks.Logical.Hysteresis hys(uLow = 0.2, uHigh = 0.8);
  Modelica.Blocks.Logical.Hysteresis hysOn(uLow = 0.2, uHigh = 0.8, pre_y_start = true);
  Modelica.Blocks.Sources.Constant reference(k = 0.5);
  Modelica.Blocks.Logical.OnOffController onOff(bandwidth = 0.2);
equation
  connect(trap.y, hys.u);
  connect(trap.y, hysOn.u);
  connect(trap.y, onOff.u);
  connect(reference.y, onOff.reference);
  annotation(experiment(StopTime = 8, Interval = 0.1));
end Hyst;
EOF
sim hyst && values "Hysteresis and OnOffController switching points" hyst <<'PY'
def close(a, b):
    check(len(a) == len(b) and all(abs(x - y) <= 1e-9 for x, y in zip(a, b)), "%s, expected %s" % (a, b))
close(jumps("hys.y"), [0.8, 2.8, 4.8, 6.8])
near(col("hys.y")[0], 0, 0, "hys.y at the start")
# pre_y_start = true: u(0) = 0 is below uLow, so y is false from the start
near(col("hysOn.y")[0], 0, 0, "hysOn.y at the start")
close(jumps("hysOn.y"), [0.8, 2.8, 4.8, 6.8])
near(col("onOff.y")[0], 1, 0, "onOff.y at the start (u below 0.4)")
close(jumps("onOff.y"), [0.6, 2.6, 4.6, 6.6])
PY

# a Hysteresis that starts inside its band keeps pre_y_start
model hystband <<'EOF'
model HystBand
  Modelica.Blocks.Sources.Constant c(k = 0.5);
  Modelica.Blocks.Logical.Hysteresis off(uLow = 0.2, uHigh = 0.8);
  Modelica.Blocks.Logical.Hysteresis on(uLow = 0.2, uHigh = 0.8, pre_y_start = true);
equation
  connect(c.y, off.u);
  connect(c.y, on.u);
  annotation(experiment(StopTime = 1, Interval = 0.5));
end HystBand;
EOF
sim hystband && values "Hysteresis inside its band keeps pre_y_start" hystband <<'PY'
check(col("off.y") == [0, 0, 0] and col("on.y") == [1, 1, 1], "off.y %s, on.y %s" % (col("off.y"), col("on.y")))
PY

# ---- 5. TriggeredTrapezoid (amplitude 2, rising 0.5, falling 0.25, offset 1)
# on a pulse true on [0.1, 0.4), [1.1, 1.4) ...: y rises at 4/s from 0.1,
# reaches 2.2 at 0.4 and falls from there at 8/s to 1 at 0.55; a second one
# with rising = falling = 0 follows u at once
model trapezoid <<'EOF'
model Trapezoid
  Modelica.Blocks.Sources.BooleanPulse u(width = 30, period = 1, startTime = 0.1);
  Modelica.Blocks.Logical.TriggeredTrapezoid trap(amplitude = 2, rising = 0.5, falling = 0.25, offset = 1);
  Modelica.Blocks.Logical.TriggeredTrapezoid step;
equation
  connect(u.y, trap.u);
  connect(u.y, step.u);
  annotation(experiment(StopTime = 2, Interval = 0.01));
end Trapezoid;
EOF
sim trapezoid && values "TriggeredTrapezoid's shape" trapezoid <<'PY'
def shape(t):
    s = (t - 0.1) % 1.0 if t >= 0.1 else -1
    if s < 0: return 1.0
    if s <= 0.3: return 1 + 4*s
    return max(1.0, 2.2 - 8*(s - 0.3))
near(worst("trap.y", shape), 0, 1e-9, "worst deviation of trap.y from the trapezoid")
E = [0.1, 0.4, 1.1, 1.4]
check(all(r["step.y"] == (1 if r["time"] >= 0.1 and (r["time"] - 0.1) % 1.0 < 0.3 else 0) for r in rows
          if min(abs(r["time"] - e) for e in E) > 1e-9), "step.y follows u")
PY

# ---- 6. Timer, Switch (u2 chooses the ramp or -1), LogicalSwitch
model choose <<'EOF'
model Choose
  Modelica.Blocks.Sources.BooleanPulse u(width = 50, period = 1, startTime = 0.25);
  Modelica.Blocks.Sources.BooleanStep s(startTime = 0.6);
  Modelica.Blocks.Sources.BooleanConstant f(k = false);
  Modelica.Blocks.Sources.Ramp ramp(height = 2, duration = 2);
  Modelica.Blocks.Sources.Constant minus(k = -1);
  Modelica.Blocks.Logical.Timer timer;
  Modelica.Blocks.Logical.Switch switch1;
  Modelica.Blocks.Logical.LogicalSwitch lsw;
equation
  connect(u.y, timer.u);
  connect(ramp.y, switch1.u1);
  connect(u.y, switch1.u2);
  connect(minus.y, switch1.u3);
  connect(s.y, lsw.u1);
  connect(u.y, lsw.u2);
  connect(f.y, lsw.u3);
  annotation(experiment(StopTime = 2, Interval = 0.01));
end Choose;
EOF
sim choose && values "Timer, Switch, LogicalSwitch" choose <<'PY'
U = lambda t: t >= 0.25 and (t - 0.25) % 1.0 < 0.5
E = [0.25, 0.75, 1.25, 1.75, 0.6]
away = [r for r in rows if min(abs(r["time"] - e) for e in E) > 1e-9]
check(all(abs(r["timer.y"] - (((r["time"] - 0.25) % 1.0) if U(r["time"]) else 0)) < 1e-9 for r in away),
      "timer.y: the time since u turned true")
check(all(abs(r["switch1.y"] - (r["time"] if U(r["time"]) else -1)) < 1e-12 for r in away), "switch1.y")
check(all(r["lsw.y"] == (1 if U(r["time"]) and r["time"] >= 0.6 else 0) for r in away), "lsw.y")
PY

# ---- 7. RSFlipFlop: set by a trigger every 0.5 s from 0, reset every 0.5 s
# from 0.3; Q (nor1.y) is true on [0, 0.3), [0.5, 0.8) ..., QI its negation
model flipflop <<'EOF'
model FlipFlop
  Modelica.Blocks.Sources.SampleTrigger set(period = 0.5);
  Modelica.Blocks.Sources.SampleTrigger reset(period = 0.5, startTime = 0.3);
  Modelica.Blocks.Logical.RSFlipFlop rs;
equation
  connect(set.y, rs.S);
  connect(reset.y, rs.R);
  annotation(experiment(StopTime = 2, Interval = 0.05));
end FlipFlop;
EOF
sim flipflop && values "RSFlipFlop set and reset by sample triggers" flipflop <<'PY'
E = [0.5*k for k in range(5)] + [0.3 + 0.5*k for k in range(4)]
away = [r for r in rows if min(abs(r["time"] - e) for e in E) > 1e-9]
check(all(r["rs.nor1.y"] == (1 if r["time"] % 0.5 < 0.3 else 0) for r in away), "Q")
check(all(r["rs.pre.y"] == 1 - r["rs.nor1.y"] for r in away), "QI = not Q")
PY

# ---- 8. ZeroCrossing of a sine while enabled from 0.6: the crossings at
# 1, 1.5 (and not those at 0, 0.5), counted
model zero <<'EOF'
model Zero
  block Count
    extends Modelica.Blocks.Interfaces.IntegerSO;
    Modelica.Blocks.Interfaces.BooleanInput u;
  initial equation
    pre(y) = 0;
  equation
    when u then
      y = pre(y) + 1;
    end when;
  end Count;
  Modelica.Blocks.Sources.Sine sine(f = 1, phase = 0.1);
  Modelica.Blocks.Sources.BooleanStep enable(startTime = 0.6);
  Modelica.Blocks.Logical.ZeroCrossing zc;
  Count n;
equation
  connect(sine.y, zc.u);
  connect(enable.y, zc.enable);
  connect(zc.y, n.u);
  annotation(experiment(StopTime = 1.8, Interval = 0.05));
end Zero;
EOF
sim zero && values "ZeroCrossing counts the crossings while enabled" zero <<'PY'
J = jumps("n.y")
want = [1 - 0.1/(2*math.pi), 1.5 - 0.1/(2*math.pi)]
check(len(J) == 2 and all(abs(a - b) < 1e-9 for a, b in zip(J, want)), "crossings counted at %s, expected %s" % (J, want))
PY

# ---- 9. the conversions: BooleanToReal (3, -1), BooleanToInteger,
# RealToInteger of 2.2 sin(2 pi t) (rounding halves away from zero),
# IntegerToReal, RealToBoolean (threshold 0.5), IntegerToBoolean (threshold 2)
model convert <<'EOF'
model Convert
  Modelica.Blocks.Sources.BooleanPulse p(period = 0.5);
  Modelica.Blocks.Sources.Sine sine(amplitude = 2.2, f = 1);
  Modelica.Blocks.Sources.Ramp ramp(duration = 1);
  Modelica.Blocks.Sources.IntegerStep istep(height = 3, offset = -1, startTime = 0.4);
  Modelica.Blocks.Math.BooleanToReal b2r(realTrue = 3, realFalse = -1);
  Modelica.Blocks.Math.BooleanToInteger b2i;
  Modelica.Blocks.Math.RealToInteger r2i;
  Modelica.Blocks.Math.IntegerToReal i2r;
  Modelica.Blocks.Math.RealToBoolean r2b;
  Modelica.Blocks.Math.IntegerToBoolean i2b(threshold = 2);
equation
  connect(p.y, b2r.u);
  connect(p.y, b2i.u);
  connect(sine.y, r2i.u);
  connect(istep.y, i2r.u);
  connect(ramp.y, r2b.u);
  connect(istep.y, i2b.u);
  annotation(experiment(StopTime = 1, Interval = 0.01));
end Convert;
EOF
sim convert && values "Boolean, Integer and Real conversions" convert <<'PY'
P = lambda t: (t % 0.5) < 0.25
E = [0.25, 0.5, 0.75, 1.0]
away = [r for r in rows if min(abs(r["time"] - e) for e in E) > 1e-9]
check(all(r["b2r.y"] == (3 if P(r["time"]) else -1) for r in away), "b2r.y")
check(all(r["b2i.y"] == (1 if P(r["time"]) else 0) for r in away), "b2i.y")
def rnd(u):
    return math.floor(u + 0.5) if u > 0 else math.ceil(u - 0.5)
s = [math.asin(x/2.2)/(2*math.pi) for x in (0.5, 1.5)]
R = sorted(s + [0.5 - x for x in s] + [0.5 + x for x in s] + [1 - x for x in s])
J = jumps("r2i.y")
check(len(J) == 8 and all(abs(a - b) < 1e-9 for a, b in zip(J, R)), "r2i.y changes at %s, expected %s" % (J, R))
off = [r for r in rows if min(abs(r["time"] - x) for x in R) > 1e-6]
check(all(r["r2i.y"] == rnd(r["r2i.u"]) for r in off), "r2i.y rounds u")
check(jumps("i2r.y") == [0.4] and col("i2r.y")[0] == -1 and col("i2r.y")[-1] == 2, "i2r.y")
check(jumps("i2b.y") == [0.4] and col("i2b.y")[0] == 0 and col("i2b.y")[-1] == 1, "i2b.y")
J = jumps("r2b.y")
check(len(J) == 1 and abs(J[0] - 0.5) < 1e-12, "r2b.y switches at %s" % J)
PY

# ---- 10. messages: limits the Hysteresis asserts on, a parameter given only
# by its start value, a Boolean output on Real inputs
model badhyst <<'EOF'
model BadHyst
  Modelica.Blocks.Sources.Ramp ramp(duration = 1);
  Modelica.Blocks.Logical.Hysteresis hys(uLow = 0.5, uHigh = 0.5);
equation
  connect(ramp.y, hys.u);
end BadHyst;
EOF
expect badhyst 1 -- "badhyst.mo:3:38: error: at t = 0: assertion failed: Hysteresis limits wrong (uHigh <= uLow)"

model startonly <<'EOF'
model StartOnly
  Modelica.Blocks.Sources.Ramp ramp(duration = 1);
  Modelica.Blocks.Sources.Constant reference(k = 0.5);
  Modelica.Blocks.Logical.OnOffController onOff;
equation
  connect(ramp.y, onOff.u);
  connect(reference.y, onOff.reference);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end StartOnly;
EOF
expect startonly 0 -- "startonly.mo:4:43: warning: parameter 'onOff.bandwidth' has no value; using its start value"

model boolreal <<'EOF'
model BoolReal
  Modelica.Blocks.Sources.BooleanStep step(startTime = 0.5);
  Modelica.Blocks.Logical.Switch switch1;
  Modelica.Mechanics.Translational.Sources.Force force;
equation
  connect(step.y, switch1.u1);
  connect(step.y, switch1.u2);
  connect(switch1.u2, force.f);
end BoolReal;
EOF
expect boolreal 1 -- "boolreal.mo:6:3: error: cannot connect Boolean signal step.y to Real signal switch1.u1
boolreal.mo:8:3: error: cannot connect Boolean signal switch1.u2 to Real signal force.f"

exit $((fails > 0))
