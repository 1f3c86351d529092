#!/usr/bin/env bash
# Component arrays: a chain of Mass m[N] and Spring k[N - 1] connected in
# a for-loop equals the chain written out; array connectors of user blocks
# (MISO, MIMO) connected element by element; sum() over a variable of every
# element of a component array.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# ---- 1. the chain of tests/cli/equations.sh (five 1 kg masses, 100 N/m
# springs from the ground, 2 N on the last) written with component arrays
# and for-loops around connect(): the same trajectories as the chain of
# built-in classes written out, to 1e-9 relative
model chainarr <<'EOF'
model ChainArr
  import Modelica.Mechanics.Translational.Components;
  parameter Integer N = 5;
  Components.Fixed fixed;
  Components.Mass m[N](each m = 1, s(start = {0.01*i for i in 1:N}, each fixed = true), each v(fixed = true));
  Components.Spring s[N](each c = 100);
  Modelica.Mechanics.Translational.Sources.ConstantForce force(f_constant = 2);
equation
  connect(fixed.flange, s[1].flange_a);
  for i in 1:N loop
    connect(s[i].flange_b, m[i].flange_a);
  end for;
  for i in 1:N - 1 loop
    connect(m[i].flange_b, s[i + 1].flange_a);
  end for;
  connect(m[N].flange_b, force.flange);
  annotation(experiment(StopTime = 1, Interval = 0.01));
end ChainArr;
EOF
model chainlib <<'EOF'
model ChainLib
  import Modelica.Mechanics.Translational.Components;
  Components.Fixed fixed;
  Components.Spring s1(c = 100), s2(c = 100), s3(c = 100), s4(c = 100), s5(c = 100);
  Components.Mass m1(m = 1, s(start = 0.01, fixed = true), v(fixed = true));
  Components.Mass m2(m = 1, s(start = 0.02, fixed = true), v(fixed = true));
  Components.Mass m3(m = 1, s(start = 0.03, fixed = true), v(fixed = true));
  Components.Mass m4(m = 1, s(start = 0.04, fixed = true), v(fixed = true));
  Components.Mass m5(m = 1, s(start = 0.05, fixed = true), v(fixed = true));
  Modelica.Mechanics.Translational.Sources.ConstantForce force(f_constant = 2);
equation
  connect(fixed.flange, s1.flange_a);
  connect(s1.flange_b, m1.flange_a);
  connect(m1.flange_b, s2.flange_a);
  connect(s2.flange_b, m2.flange_a);
  connect(m2.flange_b, s3.flange_a);
  connect(s3.flange_b, m3.flange_a);
  connect(m3.flange_b, s4.flange_a);
  connect(s4.flange_b, m4.flange_a);
  connect(m4.flange_b, s5.flange_a);
  connect(s5.flange_b, m5.flange_a);
  connect(m5.flange_b, force.flange);
  annotation(experiment(StopTime = 1, Interval = 0.01));
end ChainLib;
EOF
if sim chainarr && sim chainlib; then
  values "chain of component arrays and for-connects equals the chain written out" chainarr <<PY
lib = load("$T/chainlib.csv")
li = {n: i for i, n in enumerate(lib[0])}
check(len(lib[1]) == len(data), "rows %d and %d" % (len(lib[1]), len(data)))
for k in range(1, 6):
    for q in ("s", "v", "a", "flange_a.f"):
        a = col("m[%d].%s" % (k, q))
        b = [r[li["m%d.%s" % (k, q)]] for r in lib[1]]
        scale = max(abs(x) for x in b) or 1
        near(max(abs(x - y) for x, y in zip(a, b))/scale, 0, 1e-9, "m[%d].%s against m%d.%s, relative" % (k, q, k, q))
    near(max(abs(x - y) for x, y in zip(col("s[%d].f" % k), [r[li["s%d.f" % k]] for r in lib[1]])), 0, 1e-9, "s[%d].f" % k)
PY
fi

# ---- 2. MISO and MIMO blocks of your own connected element by element:
# sum3 = 2 sin 3t + 1 + 2 sin 3t, fed to a MIMO y = [1, 2; 3, 4] {1, sum3}
model arrayports <<'EOF'
model ArrayPorts
  import Modelica.Blocks.Interfaces;
  block Sum3
    extends Interfaces.MISO(nin = 3);
  equation
    y = sum(u);
  end Sum3;
  block Mat
    extends Interfaces.MIMO(nin = 2, nout = 2);
    parameter Real A[2, 2] = [1, 2; 3, 4];
  equation
    y = A*u;
  end Mat;
  Modelica.Blocks.Sources.Sine sine(amplitude = 2, f = 3/(2*Modelica.Constants.pi));
  Modelica.Blocks.Sources.Constant one(k = 1);
  Sum3 sum3;
  Mat mat;
  Modelica.Mechanics.Translational.Sources.Force force;
  Modelica.Mechanics.Translational.Components.Fixed fixed;
equation
  connect(sine.y, sum3.u[1]);
  connect(one.y, sum3.u[2]);
  connect(sine.y, sum3.u[3]);
  connect(one.y, mat.u[1]);
  connect(sum3.y, mat.u[2]);
  connect(mat.y[2], force.f);
  connect(force.flange, fixed.flange);
  annotation(experiment(StopTime = 1));
end ArrayPorts;
EOF
sim arrayports --tolerance 1e-10 && values "MISO and MIMO connected element by element" arrayports <<'PY'
s = lambda t: 1 + 4*math.sin(3*t)
near(worst("sum3.y", s), 0, 1e-10, "sum3.y")
near(worst("mat.y[1]", lambda t: 1 + 2*s(t)), 0, 1e-10, "mat.y[1]")
near(worst("force.f", lambda t: 3 + 4*s(t)), 0, 1e-10, "force.f")
PY

# ---- 3. sum() over a variable of a component array: 3 oscillators
# x_i = cos(i t), total = cos t + cos 2t + cos 3t
model comparray <<'EOF'
model CompArray
  model Osc
    parameter Real w = 1;
    Real x(start = 1, fixed = true);
    Real v(start = 0, fixed = true);
  equation
    der(x) = v;
    der(v) = -w^2*x;
  end Osc;
  Osc osc[3](w = {1, 2, 3});
  Real total;
equation
  total = sum(osc.x);
  annotation(experiment(StopTime = 1));
end CompArray;
EOF
sim comparray --tolerance 1e-10 && values "sum(osc.x) over a component array" comparray <<'PY'
near(worst("total", lambda t: math.cos(t) + math.cos(2*t) + math.cos(3*t)), 0, 1e-8, "worst error of total")
PY

# ---- an array of variables larger than the limit in its product (each
# size alone is within it; their product overflowed an int before)
model bigarray <<'EOF'
model BigArray
  Real a[10000000, 10000000];
end BigArray;
EOF
expect bigarray 1 -- "bigarray.mo:2:20: error: array 'a' of 10000000 x 10000000 elements is larger than 10000000 elements"

exit $((fails > 0))
