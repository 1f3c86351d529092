#!/usr/bin/env bash
# Simulate examples/msl/<Name>.mo with its experiment settings and compare the
# signals listed in ../shared/validation/msl/<Name>/signals.txt against the
# MSL 4.1.0 reference result (tube of relative width 2e-3).
# Skips (exit 77) when the reference material is not present.
set -u
name=$1
ref="${FLANGE_SHARED}/validation/msl/${name}"
if [ ! -f "${ref}/reference.csv" ]; then
  echo "SKIP: ${ref}/reference.csv not found (../shared is absent)"
  exit 77
fi
out="${FLANGE_BUILD}/test-out/msl"
mkdir -p "${out}"
"${FLANGE}" simulate "${FLANGE_SRC}/examples/msl/${name}.mo" -o "${out}/${name}.csv" --quiet || exit 1
"${FLANGE}" compare "${out}/${name}.csv" "${ref}/reference.csv" --signals "${ref}/signals.txt" --tol 2e-3
