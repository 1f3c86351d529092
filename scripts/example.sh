#!/usr/bin/env bash
# Simulate one example and draw its pictures:
#   scripts/example.sh MODEL.mo OUTDIR [PICTUREDIR]
# writes OUTDIR/NAME.csv and the pictures that MODEL's .plots file lists
# (beside the model: one picture per line, "SUFFIX flange-plot-arguments";
# without one, NAME.png with the motion of its bodies; rotational_NAME for
# the examples in a rotational/ directory) into PICTUREDIR
# (default OUTDIR), and prints where they are.
set -eu
model=$1 outdir=$2 picdir=${3:-$2}
FLANGE=${FLANGE:-build/flange}
name=$(basename "$model" .mo)
# the MSL's Rotational examples share names with the Translational ones
# (Friction, First, GenerationOfFMUs): their results and pictures say so
case "$model" in */rotational/*) name="rotational_$name" ;; esac
plots="${model%.mo}.plots"
mkdir -p "$outdir" "$picdir"
csv="$outdir/$name.csv"
written=("$csv")
if [ -f "$plots" ]; then
  "$FLANGE" simulate "$model" -o "$csv" --quiet
  while IFS= read -r line; do
    case "$line" in ''|'#'*) continue ;; esac
    suffix=${line%% *}
    eval "set -- ${line#* }"
    "$FLANGE" plot "$csv" -o "$picdir/$name$suffix" --quiet "$@"
    written+=("$picdir/$name$suffix")
  done < "$plots"
else
  "$FLANGE" simulate "$model" -o "$csv" --plot "$picdir/$name.png" --quiet
  written+=("$picdir/$name.png")
fi
echo "wrote ${written[*]}"
