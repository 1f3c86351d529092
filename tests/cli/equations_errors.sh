#!/usr/bin/env bash
# Models written as equations that flange refuses (issue 11), each with its
# whole message (file:line:column: error: ...), exit status 1 and no result
# file: constructs outside the supported language, structural problems
# (under- and over-determined systems naming the variable or equation,
# discrete variables without or with too many equations, reinit of a
# non-state, flange positions related nonlinearly, with a ratio, or three at
# once among velocities, with time, or all fixed), function calls with wrong arguments, unknown functions, functions
# with statements outside the subset, and modifications that are not allowed.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# ---- structure: too few and too many equations
model under <<'EOF'
model Under
  Real x;
  Real y;
equation
  der(x) = -x + y;
end Under;
EOF
expect under 1 -- "under.mo:3:8: error: the model: the equations are under-determined, 1 equation too few: nothing determines y"

model over <<'EOF'
model Over
  Real x(start = 1, fixed = true);
  Real y;
equation
  der(x) = -x;
  y = 2*x;
  y = 3*x;
end Over;
EOF
expect over 1 -- "over.mo:7:3: error: the model: the equations are over-determined, 1 equation too many: this one (as y - 3*x = 0) determines nothing the others leave open"

model holds <<'EOF'
model Holds
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  0 = 0;
end Holds;
EOF
expect holds 1 -- "holds.mo:5:3: error: the model: this equation determines no variable (it holds anyway: remove it) (as 0 = 0)"

# in a user component: its name leads the message
model undercomp <<'EOF'
model UnderComp
  model Free
    extends Modelica.Mechanics.Translational.Interfaces.PartialTwoFlanges;
    Real y;
  equation
    flange_a.f = 0;
    flange_b.f = 0;
  end Free;
  Free free;
end UnderComp;
EOF
expect undercomp 1 -- "undercomp.mo:4:10: error: free: the equations are under-determined, 1 equation too few: nothing determines y"

# ---- discrete variables
model nodisc <<'EOF'
model NoDisc
  Real x(start = 1, fixed = true);
  discrete Real z;
equation
  der(x) = -x;
end NoDisc;
EOF
expect nodisc 1 -- "nodisc.mo:3:17: error: the model: discrete variable 'z' has no equation (define it by an equation 'z = ...' or assign it in a when-equation)"

model disctwo <<'EOF'
model DiscTwo
  Real x(start = 0, fixed = true);
  Integer k;
equation
  der(x) = 1;
  k = 1;
  k = 2;
end DiscTwo;
EOF
expect disctwo 1 -- "disctwo.mo:7:3: error: the model: a discrete variable has two equations (as k - 2 = 0)"

model whenother <<'EOF'
model WhenOther
  Real x(start = 0, fixed = true);
  discrete Real z(start = 0);
equation
  der(x) = 1;
  z = 3;
  when x > 0.5 then
    z = 1;
  end when;
end WhenOther;
EOF
expect whenother 1 -- "whenother.mo:6:3: error: the model: a discrete variable assigned in a when-equation has another equation (as z - 3 = 0)"

model discloop <<'EOF'
model DiscLoop
  Real x(start = 0, fixed = true);
  Integer a;
  Integer b;
equation
  der(x) = 1;
  a = b + 1;
  b = a - 1;
end DiscLoop;
EOF
expect discloop 1 -- "discloop.mo:8:3: error: the model: the discrete variables b and a are defined through each other"

# ---- reinit of what is not a state: an algebraic variable, a discrete one
model reinitalg <<'EOF'
model ReinitAlg
  Real x(start = 0, fixed = true);
  Real y;
equation
  der(x) = 1;
  y = 2*x;
  when x > 0.5 then
    reinit(y, 0);
  end when;
end ReinitAlg;
EOF
expect reinitalg 1 -- "reinitalg.mo:8:5: error: the model: reinit(y, ...): y is not a state"

model reinitdisc <<'EOF'
model ReinitDisc
  Real x(start = 0, fixed = true);
  discrete Real z(start = 0);
equation
  der(x) = 1;
  when x > 0.5 then
    z = 1;
  end when;
  when x > 0.7 then
    reinit(z, 2);
  end when;
end ReinitDisc;
EOF
expect reinitdisc 1 -- "reinitdisc.mo:10:5: error: the model: reinit(z, ...): z is not a state"

model reinitout <<'EOF'
model ReinitOut
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  reinit(x, 0);
end ReinitOut;
EOF
expect reinitout 1 -- "reinitout.mo:5:3: error: reinit() is only allowed inside a when-equation"

# ---- flange positions: related nonlinearly, with a ratio to a prescribed
# motion, three at once
model nonlinear <<'EOF'
model NonLinear
  model Square
    extends Modelica.Mechanics.Translational.Interfaces.PartialTwoFlanges;
  equation
    flange_b.s = flange_a.s^2;
    flange_a.f + flange_b.f = 0;
  end Square;
  Modelica.Mechanics.Translational.Components.Mass m1(m = 1, s(start = 1, fixed = true), v(fixed = true));
  Square sq;
  Modelica.Mechanics.Translational.Components.Mass m2(m = 1);
equation
  connect(m1.flange_b, sq.flange_a);
  connect(sq.flange_b, m2.flange_a);
end NonLinear;
EOF
expect nonlinear 1 -- "nonlinear.mo:5:5: error: sq: this equation relates flange positions nonlinearly, or with coefficients that are not parameters; flange folds only linear relations with constant ratios into rigid bodies (as flange_b.s - flange_a.s^2 = 0)"

model ratio <<'EOF'
model Ratio
  model Drive
    extends Modelica.Mechanics.Translational.Interfaces.PartialTwoFlanges;
  equation
    flange_b.s = 2*flange_a.s + time;
    flange_a.f = 0;
  end Drive;
  Drive d;
  Modelica.Mechanics.Translational.Components.Mass m1(m = 1), m2(m = 1);
equation
  connect(d.flange_a, m1.flange_b);
  connect(d.flange_b, m2.flange_a);
end Ratio;
EOF
expect ratio 1 -- "ratio.mo:5:5: error: d: this equation prescribes a motion of one flange relative to another with a ratio; only equal and opposite coefficients (s_a - s_b = f(t)) are supported (as flange_b.s - (2*flange_a.s + time) = 0)"

# three flanges at once: a linear relation among their positions is a
# constraint (equations_constraints.sh); among their velocities, or with
# time in it, it is not supported, and one among flanges that are all fixed
# leaves nothing to move
model threev <<'EOF'
model ThreeV
  model Tie
    Modelica.Mechanics.Translational.Interfaces.Flange_a a;
    Modelica.Mechanics.Translational.Interfaces.Flange_b b;
    Modelica.Mechanics.Translational.Interfaces.Flange_b c;
  equation
    der(c.s) = der(a.s) + der(b.s);
    b.f = a.f;
    c.f = -a.f;
  end Tie;
  Tie tie;
  Modelica.Mechanics.Translational.Components.Mass m1(m = 1), m2(m = 1), m3(m = 1);
equation
  connect(tie.a, m1.flange_a);
  connect(tie.b, m2.flange_a);
  connect(tie.c, m3.flange_a);
end ThreeV;
EOF
expect threev 1 -- "threev.mo:7:5: error: tie: this equation ties the velocities or accelerations of more than two flanges together; flange supports constraints among three or more flanges on their positions only (as c.s.der - (a.s.der + b.s.der) = 0)"

sed 's/der(c.s) = der(a.s) + der(b.s);/c.s = a.s + b.s + time;/; s/ThreeV/ThreeT/' "$T/threev.mo" > "$T/threet.mo"
expect threet 1 -- "threet.mo:7:5: error: tie: this equation relates more than two flange positions with time or other variables; flange supports constraints among three or more flanges with constant offsets only (as c.s - (a.s + b.s + time) = 0)"

model threefixed <<'EOF'
model ThreeFixed
  model Tie
    Modelica.Mechanics.Translational.Interfaces.Flange_a a;
    Modelica.Mechanics.Translational.Interfaces.Flange_b b;
    Modelica.Mechanics.Translational.Interfaces.Flange_b c;
  equation
    2*c.s = a.s + b.s;
    b.f = a.f;
    c.f = -2*a.f;
  end Tie;
  Tie tie;
  Modelica.Mechanics.Translational.Components.Fixed f1, f2, f3(s0 = 1);
equation
  connect(tie.a, f1.flange);
  connect(tie.b, f2.flange);
  connect(tie.c, f3.flange);
end ThreeFixed;
EOF
expect threefixed 1 -- "threefixed.mo:11:7: error: tie: its equations tie flanges together whose motion is all given (fixed or prescribed): nothing is left to satisfy the constraint among them"

# ---- reading a force of a library component in an equation that determines
# the motion (forces are known at output points only)
model readforce <<'EOF'
model ReadForce
  Modelica.Mechanics.Translational.Components.Fixed fixed;
  Modelica.Mechanics.Translational.Components.Spring spring(c = 10);
  Modelica.Mechanics.Translational.Components.Mass mass(m = 1, s(start = 0.1, fixed = true), v(start = 0, fixed = true));
  Real x(start = 0, fixed = true);
equation
  connect(fixed.flange, spring.flange_a);
  connect(spring.flange_b, mass.flange_a);
  der(x) = spring.f;
end ReadForce;
EOF
expect readforce 1 -- "readforce.mo:9:12: error: the model: equations read spring.f, which flange knows only at output points: it can define output variables, not enter equations that determine the motion (those can read positions, velocities and accelerations of library components)"

# ---- function calls: wrong arguments, unknown functions
FN='  function f
    input Real a;
    input Real b = 1;
    output Real y;
    output Real z;
  algorithm
    y := a + b;
    z := a - b;
  end f;
  function g
    input Real v[:];
    output Real s;
  algorithm
    s := sum(v);
  end g;'
call() { printf 'model Call\n%s\n  Real x(start = 0, fixed = true);\n  Real p, q, r;\nequation\n  p = 0;\n  q = 0;\n  r = 0;\n  %s\nend Call;\n' "$FN" "$1" > "$T/$2.mo"; }
call 'der(x) = f(x, 2, 3);' args_many
expect args_many 1 -- "args_many.mo:23:12: error: function 'f' takes 2 inputs, not 3"
call 'der(x) = f();' args_none
expect args_none 1 -- "args_none.mo:23:12: error: missing input 'a' in the call of 'Call.f'"
call 'der(x) = f(x, c = 2);' args_name
expect args_name 1 -- "args_name.mo:23:21: error: function 'f' has no input 'c'"
call 'der(x) = f(x, a = 2);' args_twice
expect args_twice 1 -- "args_twice.mo:23:21: error: input 'a' of 'f' is given twice"
call 'der(x) = g(x);' args_rank
expect args_rank 1 -- "args_rank.mo:23:14: error: input 'v' of 'g' is a vector, the argument a scalar"
call 'der(x) = f("a");' args_string
expect args_string 1 -- "args_string.mo:23:14: error: a string cannot be passed to a function here"
call 'der(x) = 1; (p, q, r) = f(x);' args_outputs
expect args_outputs 1 -- "args_outputs.mo:23:27: error: function 'f' has 2 outputs, not 3"
call 'der(x) = h(x);' unknown_function
expect unknown_function 1 -- "unknown_function.mo:23:12: error: unknown function 'h'"
call 'der(x) = Modelica.Math.foo(x);' unknown_math
expect unknown_math 1 -- "unknown_math.mo:23:12: error: unknown function 'Modelica.Math.foo'"
call 'der(x) = sample(0.1);' sample_args
expect sample_args 1 -- "sample_args.mo:23:12: error: sample() takes 2 arguments, not 1"

model paramcall <<EOF
model ParamCall
$FN
  parameter Real p = f(1, 2, 3);
  parameter Real u = h(1);
  Real x(start = 0, fixed = true);
equation
  der(x) = p + u;
end ParamCall;
EOF
expect paramcall 1 -- "paramcall.mo:17:30: error: too many arguments in the call of 'ParamCall.f' (it has 2 inputs)
paramcall.mo:18:22: error: unknown function 'h'"

# ---- functions with statements outside the subset
model fwhen <<'EOF'
model FWhen
  function f
    input Real a;
    output Real y;
  algorithm
    when a > 1 then
      y := 1;
    end when;
  end f;
  Real x(start = 0, fixed = true);
equation
  der(x) = f(x);
end FWhen;
EOF
expect fwhen 1 -- "fwhen.mo:6:5: error: when statements are not allowed in functions"

model fder <<'EOF'
model FDer
  function f
    input Real a;
    output Real y;
  algorithm
    y := der(a);
  end f;
  Real x(start = 0, fixed = true);
equation
  der(x) = f(x);
end FDer;
EOF
expect fder 1 -- "fder.mo:6:10: error: 'der' is not allowed in functions"

model fexternal <<'EOF'
model FExternal
  function f
    input Real a;
    output Real y;
  external "C" y = sin(a);
  end f;
  Real x(start = 0, fixed = true);
equation
  der(x) = f(x);
end FExternal;
EOF
expect fexternal 1 -- "fexternal.mo:5:3: error: external functions are not supported (function 'FExternal.f')"

# ---- equations outside the supported language
model forwhen <<'EOF'
model ForWhen
  Real x(start = 0, fixed = true);
  discrete Real z[2];
equation
  der(x) = 1;
  when x > 0.5 then
    for i in 1:2 loop
      z[i] = i;
    end for;
  end when;
end ForWhen;
EOF
expect forwhen 1 -- "forwhen.mo:7:5: error: for-loops inside when-equations are not supported"

model whenwhen <<'EOF'
model WhenWhen
  Real x(start = 0, fixed = true);
  discrete Real z(start = 0);
equation
  der(x) = 1;
  when x > 0.5 then
    when x > 0.7 then
      z = 1;
    end when;
  end when;
end WhenWhen;
EOF
expect whenwhen 1 -- "whenwhen.mo:7:5: error: this equation is not allowed inside a when-equation"

model connectwhen <<'EOF'
model ConnectWhen
  Real x(start = 0, fixed = true);
  Modelica.Mechanics.Translational.Components.Mass m1(m = 1), m2(m = 1);
equation
  der(x) = 1;
  when x > 0.5 then
    connect(m1.flange_b, m2.flange_a);
  end when;
end ConnectWhen;
EOF
expect connectwhen 1 -- "connectwhen.mo:7:5: error: this equation is not allowed inside a when-equation"

model whenif <<'EOF'
model WhenIf
  Real x(start = 0, fixed = true);
  discrete Real z(start = 0);
equation
  der(x) = 1;
  if x > 0.5 then
    when x > 0.7 then
      z = 1;
    end when;
  end if;
end WhenIf;
EOF
expect whenif 1 -- "whenif.mo:7:5: error: a when-equation is not allowed here"

model initwhen <<'EOF'
model InitWhen
  Real x(start = 0, fixed = true);
initial equation
  when x > 0.5 then
    x = 1;
  end when;
equation
  der(x) = 1;
end InitWhen;
EOF
expect initwhen 1 -- "initwhen.mo:4:3: error: a when-equation is not allowed here"

model initalg <<'EOF'
model InitAlg
  Real x(start = 0, fixed = true);
initial algorithm
  x := 1;
equation
  der(x) = 1;
end InitAlg;
EOF
expect initalg 1 -- "initalg.mo:3:1: error: algorithm sections in models are not supported (write equations, or call a function from an equation)"

model prex <<'EOF'
model PreX
  Real x(start = 0, fixed = true);
  discrete Real z(start = 0);
equation
  der(x) = 1;
  when x > 0.5 then
    z = pre(x + 1);
  end when;
end PreX;
EOF
expect prex 1 -- "prex.mo:7:9: error: pre() needs a variable"

model comp2 <<'EOF'
model Comp2
  Real y;
equation
  y = sum(i*j for i in 1:2, j in 1:2);
end Comp2;
EOF
expect comp2 1 -- "comp2.mo:4:12: error: comprehensions over several iterators are not supported"

model relarr <<'EOF'
model RelArr
  parameter Real a[2] = {1, 2};
  Real y;
equation
  y = if a > {0, 0} then 1 else 0;
end RelArr;
EOF
expect relarr 1 -- "relarr.mo:5:12: error: relations of arrays are not supported"

model tuple <<'EOF'
model Tuple
  Real y;
equation
  y = (time, time);
end Tuple;
EOF
expect tuple 1 -- "tuple.mo:4:7: error: a tuple is only allowed on the left of an equation"

model arr3 <<'EOF'
model Arr3
  Real a[2, 2, 2];
end Arr3;
EOF
expect arr3 1 -- "arr3.mo:2:3: error: arrays of more than two dimensions are not supported ('a')"

model inner <<'EOF'
model Inner
  inner Real g = 9.81;
end Inner;
EOF
expect inner 1 -- "inner.mo:2:9: error: inner/outer components are not supported"

# ---- declarations and names
model sizes <<'EOF'
model Sizes
  Real a[2];
equation
  a = {1, 2, 3};
end Sizes;
EOF
expect sizes 1 -- "sizes.mo:4:3: error: the two sides of the equation have different sizes"

model range <<'EOF'
model Range
  Real a[2];
equation
  for i in 1:3 loop
    a[i] = i;
  end for;
end Range;
EOF
expect range 1 -- "range.mo:5:7: error: array index 3 out of range 1..2"

model unknown_name <<'EOF'
model UnknownName
  Real x(start = 0, fixed = true);
equation
  der(x) = y;
end UnknownName;
EOF
expect unknown_name 1 -- "unknown_name.mo:4:12: error: unknown name 'y'"

model badattr <<'EOF'
model BadAttr
  Real x(strat = 0, fixed = true);
equation
  der(x) = 1;
end BadAttr;
EOF
expect badattr 1 -- "badattr.mo:2:10: error: 'strat' is not an attribute of a variable; did you mean 'start'?"

# an attribute name without a value is checked too (a known one without a value sets nothing)
model valueless_attr <<'EOF'
model ValuelessAttr
  Real x(start = 0, fixue);
equation
  der(x) = 1;
end ValuelessAttr;
EOF
expect valueless_attr 1 -- "valueless_attr.mo:2:21: error: 'fixue' is not an attribute of a variable; did you mean 'fixed'?"

model dup <<'EOF'
model Dup
  Real x(start = 0, fixed = true);
  Real x;
equation
  der(x) = 1;
end Dup;
EOF
expect dup 1 -- "dup.mo:3:8: error: duplicate declaration of 'x'"

model final <<'EOF'
model Final
  model Osc
    parameter Real w = 2;
    final parameter Real w2 = w*w;
    Real x(start = 1, fixed = true);
  equation
    der(x) = -w2*x;
  end Osc;
  Osc osc(w2 = 4);
end Final;
EOF
expect final 1 -- "final.mo:9:11: error: parameter 'w2' is final and cannot be modified"

model partial <<'EOF'
model Partial
  partial model P
    Real x;
  equation
    x = 1;
  end P;
  P p;
  Modelica.Mechanics.Translational.Interfaces.PartialCompliant pc;
end Partial;
EOF
expect partial 1 -- "partial.mo:7:3: error: 'P' is partial and cannot be instantiated
partial.mo:8:3: error: 'Modelica.Mechanics.Translational.Interfaces.PartialCompliant' is partial and cannot be instantiated"

# ---- initial conditions left open: --strict-init makes them an error
model underinit <<'EOF'
model UnderInit
  Real x(start = 3);
  Real v;
equation
  der(x) = v;
  der(v) = -x;
end UnderInit;
EOF
expect underinit 1 --strict-init -- "underinit.mo:2:8: error: initial conditions are under-determined: 2 more needed; nothing fixes x, v; set fixed = true (and a start value) on some of: x, v"

# ---- flange check reports the same errors
expect_check over 1 -- "over.mo:7:3: error: the model: the equations are over-determined, 1 equation too many: this one (as y - 3*x = 0) determines nothing the others leave open"

# ---- short type definitions that lead back to themselves (the fuzzer's
# `type A = A;` overflowed the stack)
model typecycle <<'EOF'
model TypeCycle
  type A = B;
  type B = A;
  A x = 1;
end TypeCycle;
EOF
expect typecycle 1 -- "typecycle.mo:2:8: error: type 'A' is defined in terms of itself"

# ---- an exact Position fed by a block of equations: the derivatives of its
# input were taken as zero (the mass moved with v = 0); now an error
model exactpos <<'EOF'
model ExactPos
  block S
    extends Modelica.Blocks.Interfaces.SO;
  equation
    y = 0.5*time^2;
  end S;
  S src;
  Modelica.Mechanics.Translational.Sources.Position pos(exact = true);
  Modelica.Mechanics.Translational.Components.Mass m(m = 1);
equation
  connect(src.y, pos.s_ref);
  connect(pos.flange, m.flange_a);
end ExactPos;
EOF
expect exactpos 1 -- "exactpos.mo:8:53: error: pos: an exact position source needs the derivatives of its input, which a block of equations does not give: feed it from a signal source block, or set exact = false (a filter)"

# ---- a Real bound to a String (an if-expression of strings): an error at
# the binding (it read an expression node that does not exist: a heap
# overflow the fuzzer found)
model strbind <<'EOF'
model StrBind
  Real x(start = 0) = if x > 1 then "a" else "b";
end StrBind;
EOF
expect strbind 1 -- "strbind.mo:2:23: error: the binding is a String, not a number"

exit $((fails > 0))
