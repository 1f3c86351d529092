#!/usr/bin/env bash
# Simulate examples/msl/[<suite>/]<Name>.mo with its experiment settings and
# compare the signals listed in ../shared/validation/<suite>/<Name>/signals.txt
# against the MSL 4.1.0 reference result (tube of relative width 2e-3).
# <suite> is msl (the Translational examples, examples/msl/*.mo), blocks or
# rotational (examples/msl/blocks/*.mo, ...).
# Skips (exit 77) when the reference material is not present.
#   msl_compare.sh NAME [SUITE]
set -u
name=$1
suite=${2:-msl}
ref="${FLANGE_SHARED}/validation/${suite}/${name}"
if [ ! -f "${ref}/reference.csv" ]; then
  echo "SKIP: ${ref}/reference.csv not found (../shared is absent)"
  exit 77
fi
out="${FLANGE_BUILD}/test-out/${suite}"
src="${FLANGE_SRC}/examples/msl"
[ "$suite" = msl ] || src="${src}/${suite}"
mkdir -p "${out}"
"${FLANGE}" simulate "${src}/${name}.mo" -o "${out}/${name}.csv" --quiet || exit 1
"${FLANGE}" compare "${out}/${name}.csv" "${ref}/reference.csv" --signals "${ref}/signals.txt" --tol 2e-3
