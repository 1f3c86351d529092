#!/usr/bin/env bash
# Libraries stored as directories (--lib, MODELICAPATH): a small library
# Lib built here is used from a model file, by the name of one of its
# models, through MODELICAPATH, as a single-file package and a versioned
# directory; results against the oscillator's closed form s0 cos(sqrt(c/m) t);
# flange's built-in Modelica wins over a library of that name; lazy
# loading (a broken file that is not used stops nothing); and every error
# of the storage conventions with its exact message and exit status.
. "$(dirname "$0")/../lib/cli.sh"
unset MODELICAPATH
cd "$T" || exit 1

# ---- the library ------------------------------------------------------------
mkdir -p lib/Lib/Components lib/Lib/Examples
cat > lib/Lib/package.mo <<'EOF'
within;
package Lib "a small library"
  import TC = Modelica.Mechanics.Translational.Components;
  partial model Defaults "parameters of the examples"
    parameter Real m = 2;
    parameter Real c = 8;
    parameter Real s0 = 0.3;
  end Defaults;
end Lib;
EOF
printf 'Examples\nComponents\n' > lib/Lib/package.order
printf 'within Lib;\nmodel Extra\nend Extra;\n' > lib/Lib/Extra.mo
printf 'within Lib;\npackage Components\nend Components;\n' > lib/Lib/Components/package.mo
cat > lib/Lib/Components/Oscillator.mo <<'EOF'
within Lib.Components;
model Oscillator "a mass on a spring (TC is imported by Lib)"
  parameter Real m = 1;
  parameter Real c = 1;
  parameter Real s0 = 0.1;
  TC.Fixed fixed;
  TC.Spring spring(c = c);
  TC.Mass mass(m = m, s(start = s0, fixed = true), v(start = 0, fixed = true));
equation
  connect(fixed.flange, spring.flange_a);
  connect(spring.flange_b, mass.flange_a);
end Oscillator;
EOF
printf 'within Lib;\npackage Examples\nend Examples;\n' > lib/Lib/Examples/package.mo
cat > lib/Lib/Examples/Demo.mo <<'EOF'
within Lib.Examples;
model Demo "relative names: Defaults from Lib, Components.Oscillator from Lib.Components"
  extends Defaults;
  Components.Oscillator osc(m = m, c = c, s0 = s0);
  annotation(experiment(StopTime = 2, Interval = 0.01));
end Demo;
EOF
cat > use.mo <<'EOF'
model UseLib
  Lib.Components.Oscillator osc(m = 1, c = 9, s0 = 0.2);
  annotation(experiment(StopTime = 2, Interval = 0.01));
end UseLib;
EOF

# closed NAME CSV S0 OMEGA: column 2 is S0 cos(OMEGA t) at t = 0.5, 1, 1.5, 2
# (to 1e-4 of the amplitude) and the rows are the 0.01 grid
closed() {
  if awk -F, -v a="$3" -v w="$4" 'NR > 1 { n++; t = $1 + 0
        if (t == 0.5 || t == 1 || t == 1.5 || t == 2) { k++; e = $2 - a * cos(w * t); if (e < 0) e = -e; if (e > 1e-4 * a) bad = 1 } }
        END { exit !(n == 201 && k == 4 && !bad) }' "$2"; then ok "$1"
  else bad "$1: $(sed -n '1p;52p;102p;152p;202p' "$2" | tr '\n' ' ')"; fi
}
# sim ARGS...: flange simulate ARGS --quiet; a failure is a failed check
sim() {
  "$FLANGE" simulate "$@" --quiet 2> sim.err && return 0
  bad "flange simulate $*: $(cat sim.err)"; return 1
}
# same NAME A B: two results are identical
same() { if cmp -s "$2" "$3"; then ok "$1"; else bad "$1: $2 and $3 differ"; fi; }

# a model file using Lib.Components.Oscillator: 0.2 cos(3 t)
sim use.mo --lib lib/Lib -o u1.csv --vars osc.mass.s && closed "--lib package directory" u1.csv 0.2 3
# --lib naming a directory of packages, and MODELICAPATH: the same result
sim use.mo --lib lib -o u2.csv --vars osc.mass.s && same "--lib directory of packages" u1.csv u2.csv
MODELICAPATH="$T/nowhere::$T/lib" sim use.mo -o u3.csv --vars osc.mass.s && same "MODELICAPATH" u1.csv u3.csv

# a model of the library by its name (omc-like), its parameters from
# Lib.Defaults through extends and relative names: 0.3 cos(2 t)
sim Lib.Examples.Demo --lib lib/Lib --vars osc.mass.s && closed "class name as the model argument (Demo.csv)" Demo.csv 0.3 2
sim --model Lib.Examples.Demo --lib lib/Lib -o d2.csv --vars osc.mass.s && same "--model without a file" Demo.csv d2.csv
MODELICAPATH="$T/lib" sim Lib.Examples.Demo -o d3.csv --vars osc.mass.s && same "class name through MODELICAPATH" Demo.csv d3.csv
sim Lib.Examples.Demo --lib lib/Lib --param osc.c=18 -o d4.csv --vars osc.mass.s && closed "--param on a library model" d4.csv 0.3 3

# a model file stored in the library's package (within Lib.Examples), and imports of library classes
cat > win.mo <<'EOF'
within Lib.Examples;
model Win
  import Lib.Components.*;
  import O = Lib.Components.Oscillator;
  extends Defaults(c = 32);
  Oscillator osc(m = m, c = c, s0 = s0);
  O other(c = c);
  annotation(experiment(StopTime = 2, Interval = 0.01));
end Win;
EOF
sim win.mo --lib lib -o w.csv --vars osc.mass.s && closed "within a library package, wildcard import" w.csv 0.3 4
sim win.mo --lib lib -o w2.csv --vars other.mass.s && closed "import alias of a library class" w2.csv 0.1 "$(awk 'BEGIN { printf "%.17g", sqrt(32) }')"

# a package in a single file, using the directory library: 1 cos(2 t)
cat > Single.mo <<'EOF'
within;
package Single
  model Osc
    extends Lib.Components.Oscillator(c = 4, m = 1, s0 = 1);
    annotation(experiment(StopTime = 2, Interval = 0.01));
  end Osc;
end Single;
EOF
sim Single.Osc --lib Single.mo --lib lib -o s.csv --vars mass.s && closed "single-file package" s.csv 1 2

# versioned directories on the MODELICAPATH: the highest version of Vlib
for v in 1.0 2.0 10.0; do
  mkdir -p "vers/Vlib $v"
  printf 'within;\npackage Vlib\n  model M\n    extends Lib.Components.Oscillator(s0 = %s);\n    annotation(experiment(StopTime = 2, Interval = 0.01));\n  end M;\nend Vlib;\n' \
    "${v%.0}" > "vers/Vlib $v/package.mo"
done
MODELICAPATH="$T/vers:$T/lib" sim Vlib.M -o v.csv --vars mass.s && closed "versioned directories: 'Vlib 10.0'" v.csv 10 1

# flange's Modelica wins: a directory Modelica on the path is never read
mkdir -p fake/Modelica
printf 'within;\npackage Modelica\n  model Broken\nend Modelica;\n' > fake/Modelica/package.mo
MODELICAPATH="$T/fake" "$FLANGE" simulate use.mo --lib lib -o f1.csv --vars osc.mass.s --quiet 2> f1.err \
  && [ ! -s f1.err ] && same "built-in Modelica before MODELICAPATH's" u1.csv f1.csv || bad "MODELICAPATH Modelica: $(cat f1.err)"
"$FLANGE" simulate use.mo --lib fake/Modelica --lib lib -o f2.csv --vars osc.mass.s --quiet 2> f2.err \
  && [ "$(cat f2.err)" = "--lib: warning: fake/Modelica is ignored: Modelica is flange's built-in library, which a library cannot replace" ] \
  && same "--lib Modelica is ignored, with a warning" u1.csv f2.csv || bad "--lib Modelica: $(cat f2.err)"

# ---- lazy loading -------------------------------------------------------------
cp -r lib lazy
printf 'within Lib.Examples;\nmodel Broken\n  syntax error here\nend Broken;\n' > lazy/Lib/Examples/Broken.mo
printf 'this is not Modelica\n' > lazy/Lib/Unused.mo
mkdir lazy/Lib/Bad && printf 'package Nope\n' > lazy/Lib/Bad/package.mo
sim use.mo --lib lazy/Lib -o l.csv --vars osc.mass.s && same "broken files that are not used are not read" u1.csv l.csv
sim Lib.Examples.Demo --lib lazy/Lib -o l2.csv --vars osc.mass.s && same "nor beside a used one" Demo.csv l2.csv

# ---- errors: exact messages and exit status ------------------------------------
# err NAME STATUS "exact stderr" flange-arguments...
err() {
  local name=$1 status=$2 want=$3; shift 3
  timeout 60 "$FLANGE" "$@" > "$name.out" 2> "$name.err"
  local rc=$?
  if [ "$rc" = "$status" ] && [ "$(cat "$name.err")" = "$want" ]; then ok "$name"
  else bad "$name: exit status $rc, stderr:"; cat "$name.err"; echo "expected: $want"; fi
}
# broken NAME: a copy of the library to break
broken() { rm -rf "$1"; cp -r lib "$1"; }

err missing_lib 1 "--lib: error: cannot open nolib: No such file or directory" check use.mo --lib nolib
printf 'x\n' > notes.txt
err lib_not_mo 1 "--lib: error: notes.txt is neither a directory nor a .mo file" check use.mo --lib notes.txt
err lib_and_model 2 "flange check: 'Lib.Examples.Demo' is no file: name the model as the argument or with --model, not both
usage: flange check MODEL.mo|CLASS [--lib DIR ...] [--model NAME] [--param NAME=VALUE ...] [--strict-init]" \
  check Lib.Examples.Demo --model Demo --lib lib

sed 's/Lib\.Components/Lb.Components/' use.mo > nf.mo
MODELICAPATH="$T/nowhere:$T/lib" err not_found 1 "nf.mo:2:3: error: unknown component type 'Lb.Components.Oscillator' ('Lb' not found in the model file, flange's library, --lib lazy, MODELICAPATH $T/nowhere (not a directory), $T/lib)" \
  check nf.mo --lib lazy
sed 's/Oscillator/Oscilator/' use.mo > typo.mo
err misspelt 1 "typo.mo:2:3: error: unknown component type 'Lib.Components.Oscilator'; did you mean 'Lib.Components.Oscillator'?" check typo.mo --lib lib
err class_not_found 1 "error: class 'Lib.Examples.Nope' not found in --lib lib" check Lib.Examples.Nope --lib lib
err no_library 1 "error: class 'Lib.Examples.Demo' not found in any library: none given (--lib DIR, MODELICAPATH)" check --model Lib.Examples.Demo
# without libraries, the argument is a file name as ever
err no_library_no_file 1 "error: cannot open Lib.Examples.Demo: No such file or directory" check Lib.Examples.Demo
err model_not_in_file 1 "use.mo: error: no model 'Lib.Nope' in the file or in --lib lib; models in the file: UseLib" check use.mo --model Lib.Nope --lib lib
# a package is listed in the order of package.order, the others after it by name
err package_not_model 1 "error: 'Lib' is a package, not a model; its classes: Examples, Components, Defaults, Extra" check Lib --lib lib
err partial_model 1 "lib/Lib/package.mo:4:17: error: 'Lib.Defaults' is a partial model: it cannot be simulated" check Lib.Defaults --lib lib
err syntax_when_used 1 "lazy/Lib/Examples/Broken.mo:3:16: error: syntax error: expected ';' after a declaration, found 'here'" check Lib.Examples.Broken --lib lazy/Lib

USED="use.mo:2:3: error: component type 'Lib.Components.Oscillator' cannot be used: library files defining it have errors"
broken e1; sed -i 's/model Oscillator/model Osc/; s/end Oscillator/end Osc/' e1/Lib/Components/Oscillator.mo
err other_class 1 "e1/Lib/Components/Oscillator.mo:2:7: error: the file declares 'Osc', but its name says 'Oscillator'
$USED" check use.mo --lib e1/Lib
broken e2; mv e2/Lib/Components e2/Lib/Comps
sed 's/Components/Comps/' use.mo > comps.mo
err package_other_name 1 "e2/Lib/package.order:2:1: warning: package.order lists 'Components', which Lib does not have (no class Components in package.mo, no Components.mo, no directory Components)
e2/Lib/Comps/package.mo:2:9: error: the file declares 'Components', but its directory's name says 'Comps'
comps.mo:2:3: error: component type 'Lib.Comps.Oscillator' cannot be used: library files defining it have errors" check comps.mo --lib e2/Lib
broken e3; sed -i 's/^within Lib.Components;/within Lib;/' e3/Lib/Components/Oscillator.mo
err wrong_within 1 "e3/Lib/Components/Oscillator.mo:1:1: error: 'within Lib;' does not match where the file is stored: expected 'within Lib.Components;'
$USED" check use.mo --lib e3/Lib
broken e4; sed -i '1d' e4/Lib/Components/Oscillator.mo
err no_within 1 "e4/Lib/Components/Oscillator.mo:1:1: error: the file has no within clause: expected 'within Lib.Components;' (it is stored in package Lib.Components)
$USED" check use.mo --lib e4/Lib
err top_with_within 1 "lib/Lib/Components/package.mo:1:1: error: 'within Lib;' does not match where the file is stored: Components is a top-level class here (expected 'within;' or none)" \
  check Components.Oscillator --lib lib/Lib/Components
broken e5; printf 'within Lib.Components;\nmodel Oscillator\nend Oscillator;\nmodel Second\nend Second;\n' > e5/Lib/Components/Oscillator.mo
err two_classes 1 "e5/Lib/Components/Oscillator.mo:4:7: error: a library file holds one class: 'Second' is a second one
$USED" check use.mo --lib e5/Lib
broken e6; printf 'within Lib;\nmodel Components\nend Components;\n' > e6/Lib/Components/package.mo
err package_mo_not_package 1 "e6/Lib/Components/package.mo:2:7: error: package.mo holds model 'Components': a directory holds a package
$USED" check use.mo --lib e6/Lib

# duplicates: a class of package.mo with a file of its own, a file beside a directory
broken e7; printf 'within Lib;\nmodel Defaults\nend Defaults;\n' > e7/Lib/Defaults.mo
err duplicate_in_package_mo 1 "e7/Lib/package.mo:4:17: error: class Lib.Defaults is defined twice: here and in e7/Lib/Defaults.mo" \
  check use.mo --lib e7/Lib
broken e8; printf 'within Lib;\npackage Components\nend Components;\n' > e8/Lib/Components.mo
err duplicate_file_and_directory 1 "e8/Lib/Components.mo: error: class Lib.Components is stored twice: here and in e8/Lib/Components/package.mo
$USED" check use.mo --lib e8/Lib

# a file that cannot be read
broken e9; rm e9/Lib/Components/Oscillator.mo; mkfifo e9/Lib/Components/Oscillator.mo
err fifo 1 "error: e9/Lib/Components/Oscillator.mo is a FIFO, not a model file (a model file must be a regular file)
$USED" check use.mo --lib e9/Lib
if [ "$(id -u)" != 0 ]; then
  broken e10; chmod 000 e10/Lib/Components/Oscillator.mo
  err unreadable 1 "error: cannot open e10/Lib/Components/Oscillator.mo: Permission denied
$USED" check use.mo --lib e10/Lib
  chmod 644 e10/Lib/Components/Oscillator.mo
fi

# cycles of symbolic links end with an error instead of going round
broken e11; ln -s .. e11/Lib/Components/Up; ln -s . e11/Lib/Self
sed 's/Lib\.Components\.Oscillator/Lib.Components.Up.Components.Oscillator/' use.mo > up.mo
err symlink_cycle_up 1 "e11/Lib/Components/Up: error: this directory is package Lib again (a cycle of symbolic links)
up.mo:2:3: error: component type 'Lib.Components.Up.Components.Oscillator' cannot be used: library files defining it have errors" \
  check up.mo --lib e11/Lib
sed 's/Lib\.Components\.Oscillator/Lib.Self.Self.Self.Components.Oscillator/' use.mo > self.mo
err symlink_cycle_self 1 "e11/Lib/Self: error: this directory is package Lib again (a cycle of symbolic links)
self.mo:2:3: error: component type 'Lib.Self.Self.Self.Components.Oscillator' cannot be used: library files defining it have errors" \
  check self.mo --lib e11/Lib

# package.order: names it lists that do not exist are warnings, the run goes on
broken e12; printf 'Components\nNothing\nExamples\nComponents\nbad name\n' > e12/Lib/package.order
"$FLANGE" simulate use.mo --lib e12/Lib -o o.csv --vars osc.mass.s --quiet 2> order.err; rc=$?
want="e12/Lib/package.order:2:1: warning: package.order lists 'Nothing', which Lib does not have (no class Nothing in package.mo, no Nothing.mo, no directory Nothing)
e12/Lib/package.order:4:1: warning: 'Components' is listed twice (first on line 1)
e12/Lib/package.order:5:1: warning: 'bad name' is not a class name"
[ $rc = 0 ] && [ "$(cat order.err)" = "$want" ] && same "package.order: warnings, same result" u1.csv o.csv \
  || { bad "package.order warnings ($rc):"; cat order.err; }

if [ $fails -ne 0 ]; then echo "$fails checks failed"; exit 1; fi
echo "all library checks passed"
