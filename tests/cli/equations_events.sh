#!/usr/bin/env bash
# Events of models written as equations (issue 11): a bouncing ball by
# when/reinit (impact times, rebound speeds, heights), sample() counting,
# time events of `time >= t` and of if-expressions on time, state events of
# relations in if-equations, noEvent and smooth (no events), when/elsewhen,
# initial() and vector conditions, edge() and change(), terminate() and
# assert(). Each model keeps at most one discrete variable per group of
# coupled equations (see equations_discrete.sh for more).
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# stats NAME: the key=value line of --stats of the last run of NAME
stats() { "$FLANGE" simulate "$T/$1.mo" -o "$T/$1.csv" --quiet --stats "${@:2}" 2> "$T/$1.err"; }

# ---- a bouncing ball: h0 = 1, g = 9.81, e = 0.8, from rest.
#   v1 = sqrt(2 g h0) (impact speed), t1 = sqrt(2 h0/g)
#   after impact k (k = 1, 2, ...) the ball leaves at e^k v1 and lands again
#   2 e^k v1/g later; it rises to e^(2k) h0. Between impacts
#   h = u (t - tk) - g (t - tk)^2/2 with u the speed it left with.
# Impacts in 2 s: 0.45152, 1.17396, 1.75191.
model ball <<'EOF'
model Ball
  parameter Real g = 9.81;
  parameter Real e = 0.8;
  Real h(start = 1, fixed = true);
  Real v(start = 0, fixed = true);
equation
  der(h) = v;
  der(v) = -g;
  when h < 0 then
    reinit(v, -e*pre(v));
  end when;
  annotation(experiment(StopTime = 2));
end Ball;
EOF
sim ball --tolerance 1e-10 && values "bouncing ball: impact times, rebound speeds, heights" ball <<'PY'
g, e, h0 = 9.81, 0.8, 1.0
v1 = math.sqrt(2*g*h0)
tk = [math.sqrt(2*h0/g)]
for k in range(1, 3):
    tk.append(tk[-1] + 2*e**k*v1/g)
near(tk[0], 0.451523640986, 1e-12, "t1")
J = jumps("v")
check(len(J) == 3, "impacts at %s, expected 3" % J)
for k, tj in enumerate(J[:3]):
    near(tj, tk[k], 1e-9, "time of impact %d" % (k + 1))
    near(at("v", tj, 0), -e**k*v1, 1e-8, "speed before impact %d" % (k + 1))
    near(at("v", tj, -1), e**(k + 1)*v1, 1e-8, "speed after impact %d" % (k + 1))
    near(at("h", tj, -1), 0, 1e-9, "height at impact %d" % (k + 1))
    apex = at("v", tj, -1)**2/(2*g)
    near(apex, e**(2*(k + 1))*h0, 1e-8, "height reached after impact %d" % (k + 1))
def h(t):
    if t <= tk[0]:
        return h0 - g*t*t/2
    k = max(i for i in range(3) if tk[i] <= t)
    u = e**(k + 1)*v1
    return u*(t - tk[k]) - g*(t - tk[k])**2/2
near(worst("h", h), 0, 1e-7, "worst error of h")
near(max(col("h")), 1, 0, "highest point")
check(min(col("h")) > -1e-9, "the ball sinks into the floor: %g" % min(col("h")))
PY

# three balls as arrays, a when-equation in a for-loop: ball i falls from
# h0 = i, first impact at sqrt(2 i/g); ball 1 lands again 2 e v1/g later
model balls <<'EOF'
model Balls
  parameter Integer N = 3;
  parameter Real g = 9.81;
  parameter Real e = 0.8;
  Real h[N](start = {1, 2, 3}, each fixed = true);
  Real v[N](each start = 0, each fixed = true);
equation
  der(h) = v;
  der(v) = fill(-g, N);
  for i in 1:N loop
    when h[i] < 0 then
      reinit(v[i], -e*pre(v[i]));
    end when;
  end for;
  annotation(experiment(StopTime = 1.5));
end Balls;
EOF
sim balls --tolerance 1e-10 && values "when-equations in a for-loop: three balls" balls <<'PY'
g, e = 9.81, 0.8
J = [jumps("v[%d]" % i) for i in (1, 2, 3)]
check([len(j) for j in J] == [2, 1, 1], "impacts at %s" % J)
for i in (1, 2, 3):
    near(J[i-1][0], math.sqrt(2*i/g), 1e-9, "first impact of ball %d" % i)
    near(at("v[%d]" % i, J[i-1][0], -1), e*math.sqrt(2*g*i), 1e-8, "rebound speed of ball %d" % i)
near(J[0][1], math.sqrt(2/g) + 2*e*math.sqrt(2*g)/g, 1e-9, "second impact of ball 1")
PY

# the same ball as a rigid body of your own (PartialRigid) that reinits its
# velocity, pulled down by a built-in ConstantForce of m g: the same impacts
model ballmass <<'EOF'
model BallMass
  model BouncingMass
    extends Modelica.Mechanics.Translational.Interfaces.PartialRigid(L = 0);
    parameter Real m = 1;
    parameter Real e = 0.8;
    Real v(start = 0);
    Real a;
  equation
    v = der(s);
    a = der(v);
    m*a = flange_a.f + flange_b.f;
    when s < 0 then
      reinit(v, -e*pre(v));
    end when;
  end BouncingMass;
  BouncingMass ball(m = 2, s(start = 1, fixed = true), v(fixed = true));
  Modelica.Mechanics.Translational.Sources.ConstantForce gravity(f_constant = -2*9.81);
equation
  connect(gravity.flange, ball.flange_a);
  annotation(experiment(StopTime = 2));
end BallMass;
EOF
sim ballmass --tolerance 1e-10 && values "bouncing rigid body of your own under a built-in force" ballmass <<'PY'
g, e = 9.81, 0.8
v1 = math.sqrt(2*g)
tk = [math.sqrt(2/g)]
for k in range(1, 3):
    tk.append(tk[-1] + 2*e**k*v1/g)
J = jumps("ball.v")
check(len(J) == 3, "impacts at %s, expected 3" % J)
for k, tj in enumerate(J[:3]):
    near(tj, tk[k], 1e-9, "time of impact %d" % (k + 1))
    near(at("ball.v", tj, -1), e**(k + 1)*v1, 1e-8, "speed after impact %d" % (k + 1))
near(worst("ball.a", lambda t: -g), 0, 1e-9, "acceleration between impacts")
near(max(abs(r["ball.flange_a.s"] - r["ball.s"]) for r in rows), 0, 0, "flange_a.s = s with L = 0")
PY

# ---- sample(start, interval) counts with an Integer and pre():
# n jumps by one at 0.1, 0.3, 0.5, 0.7, 0.9: five time events
model sample <<'EOF'
model Sample
  Integer n(start = 0);
equation
  when sample(0.1, 0.2) then
    n = pre(n) + 1;
  end when;
  annotation(experiment(StopTime = 1, Interval = 0.05));
end Sample;
EOF
if stats sample > "$T/sample.stats"; then
  grep -q " state_events=0 time_events=5 " "$T/sample.stats" && ok "sample(): five time events, no state events" ||
    bad "sample() events: $(cat "$T/sample.stats")"
  values "sample(0.1, 0.2) counts 1..5 at 0.1, 0.3, ..., 0.9" sample <<'PY'
J = jumps("n")
check(len(J) == 5, "jumps at %s" % J)
for k, tj in enumerate(J):
    near(tj, 0.1 + 0.2*k, 1e-12, "time of sample %d" % (k + 1))
    near(at("n", tj, 0), k, 0, "n before sample %d" % (k + 1))
    near(at("n", tj, -1), k + 1, 0, "n after sample %d" % (k + 1))
near(col("n")[0], 0, 0, "n at the start")
near(col("n")[-1], 5, 0, "n at the end")
PY
else bad "sample: the simulation failed"; cat "$T/sample.err"; fi

# ---- flange check counts the components that may have time events: the
# sampler, not a decay written as equations (no relation, no sample())
model decay <<'EOF'
model Decay
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
end Decay;
EOF
"$FLANGE" check "$T/sample.mo" > "$T/sample.check" 2>&1
"$FLANGE" check "$T/decay.mo" > "$T/decay.check" 2>&1
grep -qx "  time events from 1 component" "$T/sample.check" && grep -qx "  time events from 0 components" "$T/decay.check" \
  && ok "flange check: time events from the sampler, none from an equation without relations" \
  || { bad "flange check's count of components with time events"; grep "time events" "$T/sample.check" "$T/decay.check"; }

# ---- a time event from `when time >= 0.5`, with reinit: x = t, then t - 0.5
model timeevent <<'EOF'
model TimeEvent
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  when time >= 0.5 then
    reinit(x, 0);
  end when;
  annotation(experiment(StopTime = 1, Interval = 0.25));
end TimeEvent;
EOF
if stats timeevent > "$T/timeevent.stats"; then
  grep -q " state_events=0 time_events=1 " "$T/timeevent.stats" && ok "when time >= 0.5 is one time event" ||
    bad "when time >= 0.5 events: $(cat "$T/timeevent.stats")"
  [ "$(cat "$T/timeevent.csv")" = "time,x
0,0
0.25,0.25
0.5,0.5
0.5,0
0.75,0.25
1,0.5" ] && ok "when time >= 0.5 then reinit(x, 0): both sides of the event" || { bad "time event result"; cat "$T/timeevent.csv"; }
else bad "timeevent: the simulation failed"; cat "$T/timeevent.err"; fi

# ---- if-expressions and if-equations: on time (a time event at 0.3),
# on a state (state events at 0.25 and 0.5), and under noEvent (no event:
# w switches between two output points)
#   y = 0 for x <= 0.25, 2x for 0.25 < x <= 0.5, 1 above; z = 1 before 0.3, then 2
model ifs <<'EOF'
model Ifs
  Real x(start = 0, fixed = true);
  Real y;
  Real z;
  Real w;
equation
  der(x) = 1;
  if x > 0.5 then
    y = 1;
  elseif x > 0.25 then
    y = 2*x;
  else
    y = 0;
  end if;
  z = if time < 0.3 then 1 else 2;
  w = noEvent(if x > 0.7 then 1 else 0);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end Ifs;
EOF
if stats ifs --tolerance 1e-9 > "$T/ifs.stats"; then
  grep -q " state_events=2 time_events=1 " "$T/ifs.stats" && ok "if on time: a time event; on x: state events; noEvent: none" ||
    bad "if events: $(cat "$T/ifs.stats")"
  values "if-equation and if-expressions: values on both sides of the events" ifs <<'PY'
check(jumps("z") == [0.3], "z jumps at %s" % jumps("z"))
near(at("z", 0.3, 0), 1, 0, "z before 0.3")
near(at("z", 0.3, -1), 2, 0, "z after 0.3")
J = jumps("y")
check(len(J) == 1, "y jumps at %s (only at x = 0.25; continuous at 0.5)" % J)
near(J[0], 0.25, 1e-12, "time of the switch to y = 2x")
near(at("y", J[0], 0), 0, 0, "y before x = 0.25")
near(at("y", J[0], -1), 0.5, 1e-12, "y after x = 0.25")
for r in rows:
    x = r["x"]
    want = 1 if x > 0.5 + 1e-12 else 2*x if x > 0.25 + 1e-12 else None
    if want is not None:
        near(r["y"], want, 1e-12, "y at x = %g" % x)
    if abs(x - 0.7) > 1e-9:
        near(r["w"], 1 if x > 0.7 else 0, 0, "w at x = %g" % x)
check(jumps("w") == [], "noEvent made an event: %s" % jumps("w"))
check(len(t) == 11 + 2 + 2*1, "rows: %d (11 output points, both sides of 3 events)" % len(t))
PY
else bad "ifs: the simulation failed"; cat "$T/ifs.err"; fi

# smooth(0, ...) suppresses the event of its relation as noEvent does:
# w = max(x - 0.7, 0) written with an if, no events at all
model smooth <<'EOF'
model Smooth
  Real x(start = 0, fixed = true);
  Real w;
equation
  der(x) = 1;
  w = smooth(0, if x > 0.7 then x - 0.7 else 0);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end Smooth;
EOF
if stats smooth --tolerance 1e-9 > "$T/smooth.stats"; then
  grep -q " state_events=0 time_events=0 " "$T/smooth.stats" && ok "smooth(0, ...) makes no event" ||
    bad "smooth events: $(cat "$T/smooth.stats")"
  values "smooth(0, if ...) values" smooth <<'PY'
near(worst("w", lambda t: max(t - 0.7, 0)), 0, 1e-9, "worst error of w")
PY
else bad "smooth: the simulation failed"; cat "$T/smooth.err"; fi

# ---- when/elsewhen: a = 1 when x passes 0.25, then a = 2 when x passes 0.75
# (the first condition stays true, so only the elsewhen branch fires then)
model elsewhen <<'EOF'
model ElseWhen
  Real x(start = 0, fixed = true);
  discrete Real a(start = 0);
equation
  der(x) = 1;
  when x > 0.25 then
    a = 1;
  elsewhen x > 0.75 then
    a = 2;
  end when;
  annotation(experiment(StopTime = 1, Interval = 0.1));
end ElseWhen;
EOF
sim elsewhen --tolerance 1e-9 && values "when/elsewhen: a = 1 from t = 0.25, a = 2 from t = 0.75" elsewhen <<'PY'
J = jumps("a")
check(len(J) == 2, "a jumps at %s" % J)
near(J[0], 0.25, 1e-9, "first event")
near(J[1], 0.75, 1e-9, "second event")
near(at("a", J[0], -1), 1, 0, "a after the first event")
near(at("a", J[1], 0), 1, 0, "a before the second event")
near(at("a", J[1], -1), 2, 0, "a after the second event")
near(col("a")[0], 0, 0, "a at the start")
PY

# ---- initial() in a when: the body runs at the start
#   x = 2 e^-t, x0 = x(0) + 1 = 3 from the start on
# and in a vector condition {initial(), x < 1}: again when x passes 1,
# at t = ln 2, where x0 becomes 2
model initial <<'EOF'
model Initial
  Real x(start = 2, fixed = true);
  discrete Real x0;
equation
  der(x) = -x;
  when initial() then
    x0 = x + 1;
  end when;
  annotation(experiment(StopTime = 1, Interval = 0.5));
end Initial;
EOF
sim initial --tolerance 1e-9 && values "when initial(): x0 = x(0) + 1 = 3 throughout" initial <<'PY'
near(worst("x0", lambda t: 3), 0, 0, "worst error of x0")
PY
model initial2 <<'EOF'
model Initial2
  Real x(start = 2, fixed = true);
  discrete Real x0;
equation
  der(x) = -x;
  when {initial(), x < 1} then
    x0 = x + 1;
  end when;
  annotation(experiment(StopTime = 1, Interval = 0.5));
end Initial2;
EOF
sim initial2 --tolerance 1e-10 && values "when {initial(), x < 1}: x0 = 3, then 2 from t = ln 2" initial2 <<'PY'
near(col("x0")[0], 3, 1e-12, "x0 at the start")
J = jumps("x0")
check(len(J) == 1, "x0 jumps at %s" % J)
near(J[0], math.log(2), 1e-8, "time x passes 1")
near(at("x0", J[0], -1), 2, 1e-8, "x0 after the event")
near(worst("x", lambda t: 2*math.exp(-t)), 0, 1e-8, "worst error of x")
PY

# ---- edge() and change() of a Boolean defined by a relation, each
# reinitialising a state: x rises at 1 until t = 0.8, then falls at 1;
# b = x > 0.55 turns true at 0.55 and false again at t = 1.05.
# edge(b) fires once (y = 5 from 0.55 on); change(b) fires twice
# (y = y + 1 at 0.55 and at 1.05)
model edge <<'EOF'
model Edge
  Real x(start = 0, fixed = true);
  Real y(start = 0, fixed = true);
  Boolean b;
equation
  der(x) = if time < 0.8 then 1 else -1;
  der(y) = 0;
  b = x > 0.55;
  when edge(b) then
    reinit(y, 5);
  end when;
  annotation(experiment(StopTime = 1.5, Interval = 0.25));
end Edge;
EOF
sim edge --tolerance 1e-10 && values "edge(b) fires once, when b turns true" edge <<'PY'
check(len(jumps("y")) == 1, "y jumps at %s" % jumps("y"))
near(jumps("y")[0], 0.55, 1e-9, "time of edge(b)")
near(col("y")[-1], 5, 0, "y at the end")
check(len(jumps("b")) == 2, "b changes at %s" % jumps("b"))
PY
sed 's/edge(b)/change(b)/; s/reinit(y, 5)/reinit(y, y + 1)/; s/model Edge/model Change/; s/end Edge/end Change/' "$T/edge.mo" > "$T/change.mo"
sim change --tolerance 1e-10 && values "change(b) fires when b turns true and when it turns false" change <<'PY'
J = jumps("y")
check(len(J) == 2, "y jumps at %s" % J)
near(J[0], 0.55, 1e-9, "b turns true")
near(J[1], 1.05, 1e-9, "b turns false")
near(at("y", J[0], -1), 1, 0, "y after the first change")
near(at("y", J[1], -1), 2, 0, "y after the second change")
PY

# ---- terminate(): the run ends successfully at the event, with a note
model stop <<'EOF'
model Stop
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  when x >= 0.9 then
    terminate("x reached 0.9");
  end when;
  annotation(experiment(StopTime = 2, Interval = 0.25));
end Stop;
EOF
if "$FLANGE" simulate "$T/stop.mo" -o "$T/stop.csv" --quiet 2> "$T/stop.err"; then
  [ "$(tail -n 1 "$T/stop.csv")" = "0.9,0.9" ] && ok "terminate(): the result ends at the event" ||
    bad "terminate(): last row $(tail -n 1 "$T/stop.csv")"
  grep -q "the run ended at t = 0.9 by terminate(): .*stop.mo:6:5: x reached 0.9" "$T/stop.err" &&
    ok "terminate(): the note names the time, the place and the message" || { bad "terminate() note"; cat "$T/stop.err"; }
else bad "terminate(): exit status $?"; cat "$T/stop.err"; fi

# ---- assert(): a failed assertion stops the run at the located event,
# with exit status 1, its message and place, and no result file
model assertion <<'EOF'
model Assertion
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  assert(x < 0.5, "x went beyond 0.5");
  annotation(experiment(StopTime = 1));
end Assertion;
EOF
"$FLANGE" simulate "$T/assertion.mo" -o "$T/assertion.csv" --quiet 2> "$T/assertion.err"; rc=$?
if [ $rc = 1 ] && grep -q "assertion.mo:5:3: error: at t = 0.5: assertion failed: x went beyond 0.5" "$T/assertion.err" &&
   ! ls "$T"/assertion.csv* > /dev/null 2>&1; then ok "assert(): the run stops at t = 0.5 with the message"
else bad "assert(): exit status $rc"; cat "$T/assertion.err"; fi

exit $((fails > 0))
