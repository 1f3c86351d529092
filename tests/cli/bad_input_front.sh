#!/usr/bin/env bash
# Inputs that crashed, hung or silently changed values in the front end
# (reading, lexing, parsing, instantiation, structure), each generated
# here: every one must give its exact located message and exit status 1,
# or be read correctly. The stack is cut to 1 MB, where the sanitizer
# build (make asan) overflowed on the deep ones.
. "$(dirname "$0")/../lib/cli.sh"
ulimit -s 1024
PY=/usr/bin/python3
MTC=Modelica.Mechanics.Translational.Components
cd "$T" || exit 1

# check_err NAME "exact stderr" FILE [flange check options]: status 1, that message
check_err() {
  local name=$1 want=$2 file=$3; shift 3
  timeout 60 "$FLANGE" check "$file" "$@" > "$name.out" 2> "$name.err"
  local rc=$?
  if [ $rc = 1 ] && [ "$(cat "$name.err")" = "$want" ]; then ok "$name"
  else bad "$name: exit status $rc, stderr:"; head -c 600 "$name.err"; echo; echo "expected: $want"; fi
}

# check_line NAME "exact line of the check output" FILE [options]: status 0 and the line
check_line() {
  local name=$1 want=$2 file=$3; shift 3
  timeout 60 "$FLANGE" check "$file" "$@" > "$name.out" 2> "$name.err"
  local rc=$?
  if [ $rc = 0 ] && grep -qxF -- "$want" "$name.out"; then ok "$name"
  else bad "$name: exit status $rc"; head -c 600 "$name.err"; grep -F "$MTC" "$name.out" | head -3; fi
}

fixed_line() { printf '  %-20s %s.Fixed  (s0=%s)' f "$MTC" "$1"; }

# ---- recursion: limits with a located error, loops where natural ---------
$PY -c "print('model M parameter Real x = ' + '('*8000 + '1' + ')'*8000 + '; end M;')" > parens.mo
check_err parens_8000 "parens.mo:1:228: error: expression nested more than 200 levels deep" parens.mo
$PY -c "print('model M parameter Real x = ' + 'abs('*20000 + '1' + ')'*20000 + '; end M;')" > calls.mo
check_err calls_20000 "calls.mo:1:828: error: expression nested more than 200 levels deep" calls.mo
$PY -c "n=30000; print(''.join(f'package P{i} ' for i in range(n)) + 'model M end M; ' + ''.join(f'end P{i}; ' for i in reversed(range(n))))" > pk30000.mo
check_err packages_30000 "pk30000.mo:1:1191: error: class nested more than 100 levels deep" pk30000.mo
$PY -c "n=10000; print(''.join(f'package P{i} ' for i in range(n)) + 'model M end M; ' + ''.join(f'end P{i}; ' for i in reversed(range(n))))" > pk10000.mo
check_err packages_10000 "pk10000.mo:1:1191: error: class nested more than 100 levels deep" pk10000.mo
$PY -c "print('model M $MTC.Fixed f(a(' + 'b('*200 + 'c = 1' + ')'*202 + '; end M;')" > mods.mo
check_err modifications_202 "mods.mo:1:460: error: modification nested more than 200 levels deep" mods.mo
# the deepest nesting allowed, inside the deepest package nesting allowed:
# read and evaluated within the 1 MB stack
$PY -c "n=99; print(''.join(f'package P{i} ' for i in range(n)) + 'model M $MTC.Fixed f(s0 = ' + 'abs('*198 + '-3' + ')'*198 + '); end M; ' + ''.join(f'end P{i}; ' for i in reversed(range(n))))" > deepest.mo
check_line deepest_allowed "$(fixed_line 3)" deepest.mo
# a 25000-term sum is a chain, not nesting: exactly 25000
$PY -c "print('model M $MTC.Fixed f(s0 = ' + '+'.join(['1']*25000) + '); end M;')" > sum.mo
check_line sum_25000 "$(fixed_line 25000)" sum.mo
# 10000 parameters, each defined by the next: evaluated in dependency order
$PY -c "n=10000; print('model M'); [print(f'parameter Real p{i} = p{i+1} + 1;') for i in range(n)]; print(f'parameter Real p{n} = 0.25;'); print('$MTC.Fixed f(s0 = p0);'); print('end M;')" > chain.mo
check_line param_chain_10000 "$(fixed_line 10000.25)" chain.mo
# a circle of short type definitions
printf 'model M\n  type A = B;\n  type B = A;\n  parameter A x = 1;\nend M;\n' > types.mo
check_err type_cycle "types.mo:4:13: error: type 'A' of parameter 'x' is defined in terms of itself" types.mo
# three extends of the base at every level, 19 levels (3^19 paths): each class once
$PY -c "
print('package P'); print('model A0 parameter Real q = 4; end A0;')
for i in range(1, 20): print(f'model A{i} extends A{i-1}; extends A{i-1}; extends A{i-1}; end A{i};')
print('model M extends A19; $MTC.Fixed f(s0 = q); end M;'); print('end P;')" > lattice.mo
check_line extends_lattice "$(fixed_line 4)" lattice.mo --model M
# a component with 20000 modifiers of a model with 20000 parameters (was quadratic)
$PY -c "
n=20000; print('model Sub'); [print(f'parameter Real p{i} = 1;') for i in range(n)]; print('$MTC.Fixed f(s0 = p0 + p19999);'); print('end Sub;')
print('model M'); print('Sub s(' + ', '.join(f'p{i} = {i}' for i in range(n)) + ');'); print('end M;')" > manymods.mo
check_line many_modifiers "$(printf '  %-20s %s.Fixed  (s0=%s)' s.f "$MTC" 19999)" manymods.mo --model M

# ---- structure ------------------------------------------------------------
printf 'model M\n  %s.Fixed f1, f2;\n  %s.Mass m(m = 1);\nequation\n  connect(f1.flange, m.flange_a);\n  connect(f2.flange, m.flange_b);\nend M;\n' "$MTC" "$MTC" > fixed2.mo
check_err two_fixed "fixed2.mo:2:57: error: f1 and f2 both impose the position of the same rigid body {f2.flange, m.flange_b}: they agree (f2.flange at 0), one of them is redundant; the system is over-determined" fixed2.mo
printf 'model M\n  %s.Fixed f1, f2, f3;\n  %s.Mass m(m = 1);\nequation\n  connect(f1.flange, m.flange_a);\n  connect(f2.flange, m.flange_b);\n  connect(f3.flange, m.flange_b);\nend M;\n' "$MTC" "$MTC" > fixed3.mo
check_err three_fixed "fixed3.mo:2:57: error: f1 and f2 both impose the position of the same rigid body {f2.flange, f3.flange, m.flange_b}: they agree (f2.flange at 0), one of them is redundant; the system is over-determined
fixed3.mo:2:61: error: f1 and f3 both impose the position of the same rigid body {f2.flange, f3.flange, m.flange_b}: they agree (f3.flange at 0), one of them is redundant; the system is over-determined" fixed3.mo

# ---- the empty model: a time-only result on the output grid ----------------
printf 'model M end M;\n' > empty.mo
"$FLANGE" simulate empty.mo -o empty.csv --quiet > empty.sout 2> empty.serr; rc=$?
# header "time", then t = k/500 for k = 0..500 (to rounding), nothing else
grid=$($PY -c "
rows = open('empty.csv').read().split('\\n')
ok = rows[0] == 'time' and rows[-1] == '' and len(rows) == 503
ok = ok and all(abs(float(r) - k / 500) <= 1e-15 for k, r in enumerate(rows[1:-1]))
print('grid' if ok else 'bad')" 2>&1)
if [ $rc = 0 ] && [ ! -s empty.serr ] && [ "$grid" = grid ]; then ok empty_simulate
else bad "empty_simulate: exit status $rc"; head -5 empty.serr; head -3 empty.csv; fi
# nothing to integrate, but outputs: a signal source alone, prescribed motion alone
printf 'model S\n  Modelica.Blocks.Sources.Sine sine(amplitude = 2, f = 1);\nend S;\n' > sig.mo
printf 'model P\n  Modelica.Blocks.Sources.Sine sine(amplitude = 0.5, f = 1);\n  Modelica.Mechanics.Translational.Sources.Position pos(exact = true);\n  %s.Mass m(m = 2);\n  %s.Fixed f;\nequation\n  connect(sine.y, pos.s_ref);\n  connect(pos.flange, m.flange_a);\n  connect(pos.support, f.flange);\nend P;\n' "$MTC" "$MTC" > pos.mo
"$FLANGE" simulate sig.mo -o sig.csv --quiet > sig.sout 2> sig.serr; rc1=$?
"$FLANGE" simulate pos.mo -o pos.csv --quiet > pos.sout 2> pos.serr; rc2=$?
# sine.y = 2 sin(2 pi t); m.s = 0.5 sin(2 pi t), m.v = pi cos(2 pi t), m.a = -2 pi^2 sin(2 pi t),
# the force on the mass m.flange_a.f = m a, all on the grid of 501 points
vals=$($PY -c "
import csv, math
def rows(f): return list(csv.DictReader(open(f)))
def near(x, y): return abs(float(x) - y) <= 1e-11 * max(1, abs(y))  # 12 digits are written
s, p = rows('sig.csv'), rows('pos.csv')
w = 2 * math.pi
ok = len(s) == 501 and len(p) == 501
ok = ok and all(near(r['sine.y'], 2 * math.sin(w * float(r['time']))) for r in s)
for r in p:
    t = float(r['time'])
    a = -0.5 * w * w * math.sin(w * t)
    ok = ok and near(r['m.s'], 0.5 * math.sin(w * t)) and near(r['m.v'], 0.5 * w * math.cos(w * t))
    ok = ok and near(r['m.a'], a) and near(r['m.flange_a.f'], 2 * a)
print('exact' if ok else 'bad')" 2>&1)
if [ $rc1 = 0 ] && [ $rc2 = 0 ] && [ ! -s sig.serr ] && [ ! -s pos.serr ] && [ "$vals" = exact ]; then ok no_unknowns_outputs
else bad "no_unknowns_outputs: exit status $rc1 $rc2, $vals"; head -3 sig.serr pos.serr; fi
check_line no_unknowns_check "  none: the outputs are functions of time, computed at the output points without an integrator" pos.mo
check_line empty_check "  none: the model is empty; a simulation writes only the time column at the output points" empty.mo

# ---- model files -------------------------------------------------------------
check_err dev_zero "error: /dev/zero is a character device, not a model file (a model file must be a regular file)" /dev/zero
mkfifo fifo.mo
check_err fifo "error: fifo.mo is a FIFO, not a model file (a model file must be a regular file)" fifo.mo
check_err directory "error: $T is a directory, not a model file" "$T"
printf 'model M\n  %s.Fixed f(s0 = 1.5);\nend M;\n' "$MTC" > real.mo
ln -s real.mo link.mo
check_line symlink "$(fixed_line 1.5)" link.mo
printf '\xef\xbb\xbfmodel M\n  %s.Fixed f(s0 = 2);\nend M;\n' "$MTC" > bom.mo
check_line bom "$(fixed_line 2)" bom.mo
printf '\xef\xbb\xbfmodel M parameter Real x = ; end M;\n' > bom_col.mo
check_err bom_column "bom_col.mo:1:28: error: syntax error: expected an expression, found ';'" bom_col.mo
printf 'model M\n  Real x\0;\nend M;\n' > nul.mo
check_err nul_byte "nul.mo:2:9: error: NUL byte in the model text (is nul.mo a text file?)" nul.mo
printf 'model M\n  Real \xe9x;\nend M;\n' > latin1.mo
check_err non_utf8 "latin1.mo:2:8: error: unexpected non-ASCII character outside a string or comment" latin1.mo

# ---- numeric literals ---------------------------------------------------------
$PY -c "print('model M $MTC.Mass m(m = ' + '1'*400 + '); end M;')" > mass400.mo
check_err mass_400_digits "mass400.mo:1:64: error: number out of range: 1111111111111111111111111111111111111111... (400 characters) is larger than the largest Real (about 1.8e308)" mass400.mo
$PY -c "print('model M $MTC.Fixed f(s0 = 1.' + '1'*399 + '); end M;')" > long.mo
check_line long_fraction "$(fixed_line 1.1111111111111112)" long.mo
$PY -c "print('model M $MTC.Fixed f(s0 = 0.' + '0'*300 + '1); end M;')" > tiny.mo
check_line tiny_300_zeros "$(fixed_line 1e-301)" tiny.mo
printf 'model M %s.Fixed f(s0 = 1e999); end M;\n' "$MTC" > huge.mo
check_err out_of_range "huge.mo:1:66: error: number out of range: 1e999 is larger than the largest Real (about 1.8e308)" huge.mo
printf 'model M %s.Fixed f(s0 = 1e-999); end M;\n' "$MTC" > under.mo
check_err rounds_to_zero "under.mo:1:66: error: number out of range: 1e-999 is too small: it would round to zero" under.mo

if [ $fails -ne 0 ]; then echo "$fails front-end checks failed"; exit 1; fi
echo "all front-end checks passed"
