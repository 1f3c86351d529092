#!/usr/bin/env bash
# The model's own parameters in an exported FMU (tests/fmu/Params.mo: the
# top-level Real k, Integer n and Boolean push set a constant force on a
# damped mass), set by an importer before initialisation through the FMI
# 2.0 functions (tests/fmu/fmu_params.c, FMU_PARAMS: the built program):
# each value is got back before and after initialisation, a fixed parameter
# set during the run is refused, and the Co-Simulation run to the stop time
# ends where `flange simulate --param` of the same model ends (1e-9
# relative). Also through the wrapper of a model with a RealInput and a
# RealOutput (ParamsIn: the override is fmu_model.k, the FMU's name k), and
# for an FMU exported with --param values (a Boolean among them) that the
# importer changes back.
. "$FLANGE_SRC/tests/lib/cli.sh"
command -v unzip >/dev/null || { echo "skip: unzip missing"; exit 77; }
[ -x "${FMU_PARAMS:-}" ] || { echo "FAIL: FMU_PARAMS not built"; exit 1; }
PY=/usr/bin/python3
M="$FLANGE_SRC/tests/fmu/Params.mo"
cd "$T" || exit 1

unpack() { # NAME FMU
  rm -rf "$T/$1" && mkdir -p "$T/$1" && unzip -q "$2" -d "$T/$1"
}
"$FLANGE" fmu "$M" --model Params -o p.fmu 2>/dev/null && unpack p p.fmu || { echo "FAIL: export Params"; exit 1; }
"$FLANGE" fmu "$M" --model ParamsIn -o pin.fmu 2>/dev/null && unpack pin pin.fmu || { echo "FAIL: export ParamsIn"; exit 1; }
"$FLANGE" fmu "$M" --model Params --param push=false --param 'k=2*3' -o pp.fmu 2>/dev/null && unpack pp pp.fmu \
  || { echo "FAIL: export Params with --param"; exit 1; }
unzip -p pin.fmu resources/model.mo > wrapped.mo

# same NAME FMU-RESULT CSV [FMU-VAR=CSV-COLUMN|NUMBER ...]: the FMU's values
# against the last row of the CSV (flange simulate) or a number, 1e-9 relative
same() {
  local what=$1 res=$2 csv=$3; shift 3
  if "$PY" - "$res" "$csv" "$@" <<'PY'; then ok "$what"; else bad "$what"; fi
import csv, sys
res, csvf = sys.argv[1:3]
got = {}
for line in open(res):
    p = line.split()
    if len(p) == 2 and not line.startswith(("ok", "FAIL", " ")):
        got[p[0]] = float(p[1])
row = list(csv.DictReader(open(csvf)))[-1]
fails = 0
for m in sys.argv[3:]:
    fv, col = m.split("=")
    a, b = got.get(fv), float(row[col] if col in row else col)  # a column, or a number
    good = a is not None and abs(a - b) <= 1e-9 * max(abs(a), abs(b)) + 1e-12
    print("  %s = %r (FMU), %s = %r (flange simulate)%s" % (fv, a, col, b, "" if good else "  <- differ"))
    fails += not good
raise SystemExit(1 if fails else 0)
PY
}

# run LABEL DIR STOP VARS SETTINGS -- SIMULATE-ARGS -- COMPARISONS
# (the reference at a tolerance of 1e-8: at the default 1e-6 flange simulate
# ends 3e-10 relative from the rest position, the FMU's run 1e-15)
run() {
  local label=$1 dir=$2 stop=$3 vars=$4; shift 4
  local set=() sim=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do set+=("$1"); shift; done; shift
  while [ $# -gt 0 ] && [ "$1" != -- ]; do sim+=("$1"); shift; done; shift
  if "$FMU_PARAMS" "$T/$dir" "$stop" "$vars" "${set[@]}" > res 2>&1; then
    ok "$label: the FMU set ${set[*]}:"; grep -E '^(ok|FAIL) ' res | sed 's/^/  /'
  else
    bad "$label: fmu_params:"; sed 's/^/  /' res
  fi
  "$FLANGE" simulate "${sim[@]}" --stop "$stop" --tolerance 1e-8 -o ref.csv --quiet 2> err || { bad "$label: flange simulate: $(cat err)"; return; }
  same "$label: the run ends where flange simulate ${sim[*]} ends (1e-9)" res ref.csv "$@"
}

# the Real k (mass.s ends at n*k/c = 0.2175; force.f_constant, tunable and bound to n*k, follows)
run "Params k=7.25" p 4 mass.s,force.f_constant k=7.25 -- "$M" --model Params --param k=7.25 -- \
  mass.s=mass.s force.f_constant=21.75
# the Integer n, the Boolean push and the enumeration sel (StateSelect.prefer is the fourth literal)
run "Params n=4, push=false, sel=4" p 4 mass.s n=4 push=false sel=4 -- "$M" --model Params --param n=4 --param push=false \
  --param sel=StateSelect.prefer -- mass.s=mass.s
run "Params n=1, k=-12.5, push=true" p 4 mass.s n=1 k=-12.5 push=true -- "$M" --model Params --param n=1 \
  --param k=-12.5 -- mass.s=mass.s
# through the wrapper: the FMU's k is fmu_model.k of the loaded model; the input u too
run "ParamsIn k=7.25, n=2, u=-3" pin 4 y,mass.s k=7.25 n=2 u=-3 -- wrapped.mo --model FlangeFMU_ParamsIn \
  --param fmu_model.k=7.25 --param fmu_model.n=2 --param in_u.k=-3 -- y=out_y.y mass.s=fmu_model.mass.s
# exported with push=false and k=6: as exported, then push set back to true by the importer
run "exported with --param push=false --param k=2*3" pp 4 mass.s k=6 push=false -- "$M" --model Params \
  --param push=false --param k=6 -- mass.s=mass.s
run "exported with push=false, set to true" pp 4 mass.s push=true -- "$M" --model Params --param k=6 -- mass.s=mass.s

# an enumeration's Integer outside its literals: refused with the reason
"$FMU_PARAMS" "$T/p" 4 mass.s sel=6 > res 2>&1
grep -q '^  \[params 3 logStatusError\] error: fmi2SetInteger: sel = 6 is not the index of a literal of StateSelect (1 to 5)$' res \
  && grep -q '^FAIL Integer sel = 6 set before initialisation (status 3)' res \
  && ok "sel = 6 (StateSelect has 5 literals): fmi2SetInteger refuses it" || { bad "sel = 6:"; cat res; }

[ $fails = 0 ] || { echo "$fails failures"; exit 1; }
echo "all passed"
