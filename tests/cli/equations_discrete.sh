#!/usr/bin/env bash
# Discrete variables and when-equations beyond the basics of
# equations_events.sh: several discrete variables in one group of coupled
# equations, a variable assigned twice (an error), change() and edge() of
# variables another when-equation assigns (pre() is the value before the
# event instant), when terminal(), an if-equation inside a when-equation.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# ---- 1. four Integers set by four when-equations: k_i = i from t = 0.i
model four <<'EOF'
model Four
  Real x(start = 0, fixed = true);
  Integer k1(start = 0);
  Integer k2(start = 0);
  Integer k3(start = 0);
  Integer k4(start = 0);
equation
  der(x) = 1;
  when x > 0.1 then
    k1 = 1;
  end when;
  when x > 0.2 then
    k2 = 2;
  end when;
  when x > 0.3 then
    k3 = 3;
  end when;
  when x > 0.4 then
    k4 = 4;
  end when;
  annotation(experiment(StopTime = 0.5, Interval = 0.05));
end Four;
EOF
sim four --tolerance 1e-10 && values "four discrete variables: k_i = i from t = 0.i" four <<'PY'
for i in range(1, 5):
    J = jumps("k%d" % i)
    check(len(J) == 1, "k%d jumps at %s" % (i, J))
    near(J[0], 0.1*i, 1e-9, "time k%d is set" % i)
    near(col("k%d" % i)[-1], i, 0, "k%d at the end" % i)
PY

# the issue's sample and time events with several discrete variables:
# n counts samples at 0.1, 0.3, ..., z doubles when up turns true at 0.55,
# w = if time > 0.3 then 1 else -1, terminate() at 0.9
model counters <<'EOF'
model Counters
  Integer n(start = 0);
  discrete Real z(start = 5);
  Boolean up;
  Real x;
  Real w;
initial equation
  x = 2;
equation
  der(x) = -x;
  up = time > 0.55;
  when sample(0.1, 0.2) then
    n = pre(n) + 1;
  end when;
  when edge(up) then
    z = pre(z)*2;
  end when;
  w = if time > 0.3 then 1 else -1;
  when time >= 0.9 then
    terminate("done");
  end when;
  annotation(experiment(StopTime = 2));
end Counters;
EOF
sim counters --tolerance 1e-10 && values "sample, edge, time events and terminate together" counters <<'PY'
check(jumps("n") == [0.1, 0.3, 0.5, 0.1 + 3*0.2, 0.9], "n jumps at %s" % jumps("n"))
check(jumps("z") == [0.55], "z jumps at %s" % jumps("z"))
near(col("z")[-1], 10, 0, "z at the end")
check(jumps("w") == [0.3], "w jumps at %s" % jumps("w"))
near(t[-1], 0.9, 0, "end of the run")
near(worst("x", lambda t: 2*math.exp(-t)), 0, 1e-8, "worst error of x")
PY

# ---- 2. two assignments to one variable in when-equations
model twice <<'EOF'
model Twice
  Real x(start = 0, fixed = true);
  discrete Real z(start = 0);
equation
  der(x) = 1;
  when x > 0.5 then
    z = 1;
    z = 2;
  end when;
end Twice;
EOF
expect_re twice 1 -- "^twice\.mo:8:5: error: .*'?z'? .*(twice|two|more than once)"

model twowhens <<'EOF'
model TwoWhens
  Real x(start = 0, fixed = true);
  discrete Real z(start = 0);
equation
  der(x) = 1;
  when x > 0.5 then
    z = 1;
  end when;
  when x > 0.7 then
    z = 2;
  end when;
end TwoWhens;
EOF
expect_re twowhens 1 -- "^twowhens\.mo:10:5: error: .*'?z'? .*(twice|two|more than one|elsewhen)"

# ---- 3. change() and edge() of variables assigned in another when-equation:
# k = 1 from t = 0.5, so change(k) fires at 0.5 and c = 1 from then on;
# b = true from 0.5, so edge(b) fires at 0.5 and e = 1
model change <<'EOF'
model Change
  Real x(start = 0, fixed = true);
  Integer k(start = 0);
  Integer c(start = 0);
  Boolean b(start = false);
  Integer e(start = 0);
equation
  der(x) = 1;
  when x > 0.5 then
    k = 1;
    b = true;
  end when;
  when change(k) then
    c = 1;
  end when;
  when edge(b) then
    e = 1;
  end when;
  annotation(experiment(StopTime = 1, Interval = 0.25));
end Change;
EOF
sim change --tolerance 1e-10 && values "change(k) and edge(b) of variables set by another when" change <<'PY'
near(col("k")[-1], 1, 0, "k at the end")
near(col("c")[-1], 1, 0, "c at the end (change(k) fired)")
near(col("e")[-1], 1, 0, "e at the end (edge(b) fired)")
check(jumps("c") == jumps("k"), "c jumps at %s, k at %s" % (jumps("c"), jumps("k")))
PY

# ---- 4. terminal(): xe = x(end) = 1 in the last row
model terminal <<'EOF'
model Terminal
  Real x(start = 0, fixed = true);
  discrete Real xe(start = -1);
equation
  der(x) = 1;
  when terminal() then
    xe = x;
  end when;
  annotation(experiment(StopTime = 1));
end Terminal;
EOF
sim terminal --tolerance 1e-10 && values "when terminal() fires at the end" terminal <<'PY'
near(t[-1], 1, 0, "end of the run")
near(col("xe")[-1], 1, 1e-9, "xe in the last row")
PY

# ---- 5. an if-equation inside a when-equation: z = 1 from t = 0.5
model whenif <<'EOF'
model WhenIf
  Real x(start = 0, fixed = true);
  discrete Real z(start = 0);
equation
  der(x) = 1;
  when x > 0.5 then
    if time > 0.2 then
      z = 1;
    else
      z = 2;
    end if;
  end when;
  annotation(experiment(StopTime = 1, Interval = 0.25));
end WhenIf;
EOF
sim whenif --tolerance 1e-10 && values "an if-equation inside a when-equation" whenif <<'PY'
check(len(jumps("z")) == 1, "z jumps at %s" % jumps("z"))
near(jumps("z")[0], 0.5, 1e-9, "time z is set")
near(col("z")[-1], 1, 0, "z at the end")
PY

exit $((fails > 0))
