#!/usr/bin/env bash
# Located contact events against stepping through contacts
# (--no-contact-events): wall time, steps, events, the energy balance and
# the final position against a tight reference run, for a few contact
# models at three tolerances. Prints every command it times.
#   bench/contact_events.sh [REPEATS]      (from the source tree, after make)
set -u
cd "$(dirname "$0")/.."
FLANGE=${FLANGE:-build/flange}
REPEATS=${1:-20}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# model file : signal whose final value is compared
cases="examples/hardstop_hysteresis.mo:body2.s
bench/models/soft_stop.mo:mass.s
bench/models/stiff_stop.mo:mass.s
examples/msl/ElastoGap.mo:mass1.s"

final() { tail -n 1 "$1" | cut -d, -f2; }

printf '%-20s %-9s %-6s %10s %7s %6s %10s %10s\n' model mode rtol "ms/run" steps events drift "|ds(end)|"
while IFS=: read -r model sig; do
  name=$(basename "$model" .mo)
  "$FLANGE" simulate "$model" --tolerance 1e-10 --vars "$sig" -o "$T/ref.csv" --quiet || continue
  ref=$(final "$T/ref.csv")
  for tol in 1e-4 1e-6 1e-8; do
    for mode in events no-events; do
      flag=""; [ $mode = no-events ] && flag=--no-contact-events
      cmd="$FLANGE simulate $model --tolerance $tol $flag --energy --vars $sig -o $T/r.csv"
      if ! $cmd > "$T/energy.txt" 2> "$T/err.txt"; then
        printf '%-20s %-9s %-6s %s\n' "$name" "$mode" "$tol" "fails: $(head -c 90 "$T/err.txt")"
        continue
      fi
      steps=$(grep -o '[0-9]* steps' "$T/err.txt" | cut -d' ' -f1)
      events=$(grep -o '[0-9]* state events' "$T/err.txt" | cut -d' ' -f1)
      drift=$(grep -o '= [0-9.e+-]* of the throughput' "$T/energy.txt" | cut -d' ' -f2)
      start=$(date +%s%N)
      for ((i = 0; i < REPEATS; i++)); do $cmd --quiet > /dev/null 2>&1; done
      ms=$(( ($(date +%s%N) - start) / 1000 / REPEATS ))
      err=$(awk -v a="$(final "$T/r.csv")" -v b="$ref" 'BEGIN { d = a - b; if (d < 0) d = -d; printf "%.2e", d }')
      printf '%-20s %-9s %-6s %7d.%03d %7s %6s %10s %10s\n' "$name" "$mode" "$tol" $((ms / 1000)) $((ms % 1000)) \
        "$steps" "$events" "$drift" "$err"
    done
  done
done <<< "$cases"
echo
echo "each run: $FLANGE simulate MODEL --tolerance RTOL [--no-contact-events] --energy --vars SIGNAL -o OUT.csv"
echo "reference: the same model with events at --tolerance 1e-10; |ds(end)| = |SIGNAL(stop) - reference|"
