#!/usr/bin/env bash
# bench/run.sh - the benchmark suite behind `make bench`. Runs every case of
# bench/README.md (the examples through the CLI, the wagon chain as text and
# through the C API next to a hand-written IDA model and scipy, the
# ScalableTestSuite oscillators, the event-heavy friction chain and bouncing
# bodies, the hard-stop parameter study) and prints a
# Markdown table, also written to bench/results.md: median wall time of 5
# runs (1 run for cases that take over 20 s), min-max, solver counters,
# peak memory and the exact command.
#
#   bench/run.sh               everything (about half an hour on 2 cores)
#   BENCH_QUICK=1 bench/run.sh sizes up to 1e4 only (a few minutes)
#
# Environment: BUILD (Release build directory, default build-release),
# BENCH_OUT (default bench/results.md; bench/results-ONLY.md with BENCH_ONLY), BENCH_REPS (default 5),
# BENCH_ONLY=events (only the event-heavy cases) or scipy (only the scipy peer, integration and whole process), BENCH_RUNS (parameter sets of the ensemble, default 10000), BENCH_LONG
# (seconds above which a case runs once, default 20), BENCH_EV_CAP (an
# event-heavy size is skipped when the one before took longer, default 60).
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-release}
REPS=${BENCH_REPS:-5}
RUNS=${BENCH_RUNS:-10000}
LONG=${BENCH_LONG:-20}
QUICK=${BENCH_QUICK:-0}
ONLY=${BENCH_ONLY:-} # "events": only the event-heavy cases; "scipy": only the scipy peer (issue 16 target 5)
case "$ONLY" in ""|events|scipy) ;; *) echo "bench: BENCH_ONLY must be empty, 'events' or 'scipy'" >&2; exit 2 ;; esac
# a partial run does not overwrite the full table
if [ -n "$ONLY" ]; then OUT=${BENCH_OUT:-bench/results-$ONLY.md}; else OUT=${BENCH_OUT:-bench/results.md}; fi
FLANGE=$BUILD/flange
B=$BUILD/bench
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
for p in "$FLANGE" "$B/measure" "$B/bench_gen" "$B/chain_api" "$B/chain_eval" "$B/chain_ida" "$B/ensemble"; do
  [ -x "$p" ] || { echo "bench: $p is missing: run make bench" >&2; exit 1; }
done
if [ "$QUICK" = 1 ]; then CHAIN_N="10 100 1000 10000"; HOSC_N="100 1000 10000"; TEXT_N="10 100 1000 10000"
else CHAIN_N="10 100 1000 10000 100000 1000000"; HOSC_N="100 1000 10000 100000"; TEXT_N="10 100 1000 10000 100000"; fi
SCIPY_N="10 100 1000"
# the Python with scipy (Debian's python3-scipy serves /usr/bin/python3)
have_scipy=0 PY=${PYTHON:-}
for p in ${PY:-python3 /usr/bin/python3}; do
  "$p" -c 'import scipy' 2>/dev/null && { PY=$p; have_scipy=1; break; }
done

: >"$OUT.tmp"
say() { printf '%s\n' "$*" | tee -a "$OUT.tmp"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "n/a"; else printf "%.2f", a / b }'; }

# key=value from the last line of a program's output that has it
kv() { grep -o "\b$1=[^ ]*" "$2" | tail -n 1 | cut -d= -f2; }

# case NAME -- COMMAND...: runs COMMAND REPS times (once if the first run
# takes over LONG s), prints a table row; leaves the last run's output in
# $W/out and sets MEDIAN for the caller.
# With INNER_KEY set (e.g. seconds, run_s), also collects that key of each
# run's output and sets MEDIAN_IN to its median (the integration time a
# program reports itself, without start, imports, load and compile).
MEDIAN= MEDIAN_IN= INNER_KEY=
median() { sort -g | awk '{ a[NR] = $1 } END { if (NR) print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
bench_case() {
  local name=$1; shift; shift
  local times=() inner=() rss=0 n=0 ok=1
  : >"$W/meas"
  while [ $n -lt "$REPS" ]; do
    if ! "$B/measure" "$W/meas" "$@" >"$W/out" 2>"$W/err"; then ok=0; break; fi
    n=$((n + 1))
    local t; t=$(kv wall_s "$W/meas")
    times+=("$t")
    [ -n "$INNER_KEY" ] && inner+=("$(kv "$INNER_KEY" "$W/out")")
    local r; r=$(kv rss_kb "$W/meas"); [ "$r" -gt "$rss" ] && rss=$r
    awk -v t="$t" -v l="$LONG" 'BEGIN { exit !(t > l) }' && break
  done
  local cmd="$*"; cmd=${cmd//$W/\$TMP}
  if [ $ok = 0 ]; then
    say "| $name | failed: $(tail -n 1 "$W/err" | cut -c1-80) | | | | | | | | | \`$cmd\` |"
    MEDIAN=; return 1
  fi
  local sorted; sorted=$(printf '%s\n' "${times[@]}" | sort -g)
  MEDIAN=$(printf '%s\n' "$sorted" | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')
  MEDIAN_IN=; [ -n "$INNER_KEY" ] && MEDIAN_IN=$(printf '%s\n' "${inner[@]}" | median)
  local lo hi; lo=$(printf '%s\n' "$sorted" | head -n 1); hi=$(printf '%s\n' "$sorted" | tail -n 1)
  local steps res jac ls ev
  steps=$(kv steps "$W/out"); res=$(kv res "$W/out"); [ -z "$res" ] && res=$(kv rhs "$W/out")
  jac=$(kv jac "$W/out"); ls=$(kv lsetups "$W/out"); [ -z "$ls" ] && ls=$(kv lu "$W/out")
  ev=$(kv events "$W/out")
  if [ -z "$ev" ]; then
    local se te; se=$(kv state_events "$W/out"); te=$(kv time_events "$W/out")
    [ -n "$se" ] && ev=$((se + te))
  fi
  say "| $name | $MEDIAN | $lo–$hi | $n | ${steps:-} | ${res:-} | ${jac:-} | ${ls:-} | ${ev:-} | $((rss / 1024)) | \`$cmd\` |"
}

header() {
  say ""
  say "### $1"
  say ""
  say "| case | median s | min–max s | runs | steps | res | jac | lsetups | events | peak RSS MB | command |"
  say "|---|---|---|---|---|---|---|---|---|---|---|"
}

say "# flange benchmark results"
say ""
say "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), \
$(awk '/MemTotal/ { printf "%.1f GB", $2 / 1048576 }' /proc/meminfo). \
Build: $BUILD (CMake Release). Date: $(date -u +%Y-%m-%d). Produced by \`make bench\` (bench/run.sh)."
say ""
say "Counters: steps, residual evaluations (res), Jacobian evaluations (jac), linear-solver setups (lsetups)"
say "and events (state + time) of the last run; peak RSS is the largest of the runs; cases over $LONG s run once."
say "\$TMP is a scratch directory."

if [ -z "$ONLY" ]; then
# ---- the examples, end to end through the CLI -----------------------------
header "Examples (flange simulate, all variables to CSV, energy audit on)"
for f in examples/*.mo examples/msl/*.mo; do
  bench_case "$(basename "$f" .mo)" -- "$FLANGE" simulate "$f" -o "$W/x.csv" --quiet --stats
done
# the stick-slip benchmark of Modelica tools: three clutches coupling four
# inertias, every clutch sliding, locking and breaking away (1.5 s)
bench_case "rotational/CoupledClutches" -- "$FLANGE" simulate examples/msl/rotational/CoupledClutches.mo -o "$W/x.csv" --quiet --stats

# ---- the chain --------------------------------------------------------------
declare -A T_API T_IDA S_API S_IDA RSS_API RSS_IDA
header "Chain: N wagons with couplers and buffers (C API, contacts as flange chooses) and the hand-written IDA model"
for n in $CHAIN_N; do
  bench_case "chain API N=$n" -- "$B/chain_api" "$n"
  T_API[$n]=$MEDIAN; S_API[$n]=$(kv steps "$W/out"); RSS_API[$n]=$(kv rss_kb "$W/out")
  bench_case "chain hand-written IDA N=$n" -- "$B/chain_ida" "$n"
  T_IDA[$n]=$MEDIAN; S_IDA[$n]=$(kv steps "$W/out"); RSS_IDA[$n]=$(kv rss_kb "$W/meas")
done

# The overhead ratio at N = 1e4 once more, the two programs interleaved in
# pairs: on a shared machine the speed drifts between the cases above, and
# a ratio of neighbours is steadier than a ratio of separate medians.
PAIR_RATIOS=()
for r in 1 2 3 4 5; do
  : >"$W/pair"
  "$B/measure" "$W/pair" "$B/chain_api" 10000 >/dev/null 2>&1 || break
  "$B/measure" "$W/pair" "$B/chain_ida" 10000 >/dev/null 2>&1 || break
  PAIR_RATIOS+=("$(grep -o 'wall_s=[0-9.]*' "$W/pair" | cut -d= -f2 | paste -sd' ' | awk '{ printf "%.3f", $1 / $2 }')")
done
PAIR_MEDIAN=$(printf '%s\n' "${PAIR_RATIOS[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
say ""
say "Overhead at N = 1e4, interleaved pairs (\`chain_api 10000\` then \`chain_ida 10000\`): ratios ${PAIR_RATIOS[*]}; median $PAIR_MEDIAN."
# The same against the hand-written model with flange's compiled vector
# kernels (chain_ida --fast-vectors): flange's runs have them, Debian's
# SUNDIALS build does not, so this pair isolates the model evaluation.
FAST_RATIOS=()
for r in 1 2 3 4 5; do
  : >"$W/pair"
  "$B/measure" "$W/pair" "$B/chain_api" 10000 >/dev/null 2>&1 || break
  "$B/measure" "$W/pair" "$B/chain_ida" 10000 --fast-vectors >/dev/null 2>&1 || break
  FAST_RATIOS+=("$(grep -o 'wall_s=[0-9.]*' "$W/pair" | cut -d= -f2 | paste -sd' ' | awk '{ printf "%.3f", $1 / $2 }')")
done
FAST_MEDIAN=$(printf '%s\n' "${FAST_RATIOS[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
say "The same against \`chain_ida 10000 --fast-vectors\` (the hand-written model with flange's compiled vector kernels, as flange's runs have them): ratios ${FAST_RATIOS[*]}; median $FAST_MEDIAN."
# flange's own evaluation alone (no integrator): what target 1 is about
for n in 1000 10000; do
  "$B/chain_eval" "$n" 5000 >"$W/ev" 2>&1 || break
  say "\`chain_eval $n 5000\` (the residual and Jacobian as IDA calls them, at t = 3 s): $(cat "$W/ev")."
done
# ... and as inside a large run, where IDA's vectors push the model's arrays out of the cache between calls
if [ "$QUICK" != 1 ] && "$B/chain_eval" 100000 300 --cold >"$W/ev" 2>&1; then
  say "\`chain_eval 100000 300 --cold\` (the residual after a sweep over 14 vectors of the system's size, as IDA makes between calls): $(cat "$W/ev")."
fi

declare -A T_LOAD
header "Chain as Modelica text through the CLI (m1.s, m1.v written; energy audit off)"
for n in $TEXT_N; do
  "$B/bench_gen" chain "$n" >"$W/chain_$n.mo"
  bench_case "chain text N=$n" -- "$FLANGE" simulate "$W/chain_$n.mo" --vars m1.s,m1.v -o "$W/x.csv" --no-energy --quiet --stats
  # parse + compile alone: 5 runs that stop right after the start
  lc=()
  for r in 1 2 3 4 5; do
    "$FLANGE" simulate "$W/chain_$n.mo" --stop 1e-9 --interval 1e-9 --vars m1.s -o "$W/x.csv" --no-energy --quiet --stats \
      >"$W/lc" 2>/dev/null || break
    lc+=("$(awk -v a="$(kv load_s "$W/lc")" -v b="$(kv compile_s "$W/lc")" 'BEGIN { printf "%.3f", a + b }')")
  done
  T_LOAD[$n]=$(printf '%s\n' "${lc[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  say "|  | parse + compile: median ${T_LOAD[$n]} s of ${#lc[@]} (${lc[*]}) | | | | | | | | | \`$FLANGE simulate \$TMP/chain_$n.mo --stop 1e-9 --interval 1e-9 --vars m1.s --no-energy --stats\` (load_s + compile_s) |"
  rm -f "$W/chain_$n.mo"
done

# ---- the equation layer (issue 11) -------------------------------------------
# The 1e4 chain with its coupler written as equations (a user model on
# PartialCompliantWithRelativeStates) against the same chain with the
# built-in SpringDamper, interleaved in pairs; and the 1e5 chain written with
# component arrays and a for-loop against the flat text, parse + compile.
header "Equations: the 1e4 chain with a user-written coupler, and the 1e5 chain written with arrays"
"$B/bench_gen" chain 10000 >"$W/chain_b.mo"
"$B/bench_gen" chain-user 10000 >"$W/chain_u.mo"
bench_case "chain N=1e4, built-in SpringDamper" -- "$FLANGE" simulate "$W/chain_b.mo" --vars m1.s -o "$W/x.csv" --no-energy --quiet --stats
bench_case "chain N=1e4, coupler written as equations" -- "$FLANGE" simulate "$W/chain_u.mo" --vars m1.s -o "$W/x.csv" --no-energy --quiet --stats
USER_RATIOS=()
for r in 1 2 3; do
  : >"$W/pair"
  "$B/measure" "$W/pair" "$FLANGE" simulate "$W/chain_u.mo" --vars m1.s -o "$W/x.csv" --no-energy --quiet >/dev/null 2>&1 || break
  "$B/measure" "$W/pair" "$FLANGE" simulate "$W/chain_b.mo" --vars m1.s -o "$W/x.csv" --no-energy --quiet >/dev/null 2>&1 || break
  USER_RATIOS+=("$(grep -o 'wall_s=[0-9.]*' "$W/pair" | cut -d= -f2 | paste -sd' ' | awk '{ printf "%.3f", $1 / $2 }')")
done
USER_MEDIAN=$(printf '%s\n' "${USER_RATIOS[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
say ""
say "User coupler / built-in SpringDamper at N = 1e4, whole runs interleaved in pairs: ratios ${USER_RATIOS[*]}; median $USER_MEDIAN."
rm -f "$W/chain_b.mo" "$W/chain_u.mo"
ARR_N=${ARR_N:-100000}
[ -n "${BENCH_QUICK:-}" ] && ARR_N=10000
"$B/bench_gen" chain "$ARR_N" >"$W/chain_f.mo"
"$B/bench_gen" chain-array "$ARR_N" >"$W/chain_a.mo"
load_compile() { # median of 3 parse + compile times of a model file, var to write
  local lc=() r
  for r in 1 2 3; do
    "$FLANGE" simulate "$1" --stop 1e-9 --interval 1e-9 --vars "$2" -o "$W/x.csv" --no-energy --quiet --stats >"$W/lc" 2>/dev/null || break
    lc+=("$(awk -v a="$(kv load_s "$W/lc")" -v b="$(kv compile_s "$W/lc")" 'BEGIN { printf "%.3f", a + b }')")
  done
  printf '%s\n' "${lc[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}
T_FLAT=$(load_compile "$W/chain_f.mo" m1.s)
T_ARR=$(load_compile "$W/chain_a.mo" 'm[1].s')
say ""
say "Parse + compile at N = $ARR_N (median of 3, load_s + compile_s of \`$FLANGE simulate FILE --stop 1e-9 --interval 1e-9 --no-energy --stats\`): flat text $T_FLAT s ($(wc -c <"$W/chain_f.mo") bytes), arrays and a for-loop $T_ARR s ($(wc -c <"$W/chain_a.mo") bytes); ratio $(ratio "$T_ARR" "$T_FLAT")."
rm -f "$W/chain_f.mo" "$W/chain_a.mo"

# ---- ScalableTestSuite oscillators -----------------------------------------
header "ScalableTestSuite HarmonicOscillator / HarmonicOscillatorNetwork (text, m1.s written)"
for kind in hosc hoscnet; do
  for n in $HOSC_N; do
    "$B/bench_gen" $kind "$n" >"$W/${kind}_$n.mo"
    bench_case "$kind N=$n" -- "$FLANGE" simulate "$W/${kind}_$n.mo" --vars m1.s -o "$W/x.csv" --no-energy --quiet --stats
    rm -f "$W/${kind}_$n.mo"
  done
done

fi # BENCH_ONLY

# ---- event-heavy cases (issue 16) -------------------------------------------
# The friction chain (every mass on a SupportFriction, sticking and slipping
# at its own instants) and N independent bouncing bodies (restitution stops,
# each with its own sine force): every event restarts the integrator, so
# these measure what an event costs. A size is skipped when the one before
# it took over EV_CAP s (default 60), to keep the suite finite.
if [ "$ONLY" != scipy ]; then
EV_CAP=${BENCH_EV_CAP:-60}
if [ "$QUICK" = 1 ]; then FRIC_N="10 30 100 300"; BOUNCE_N="10 30 100 300"
else FRIC_N="10 30 100 300 1000 3000"; BOUNCE_N="10 30 100 300 1000"; fi
declare -A T_EV
# ev_cases KIND TITLE SIZES [LABEL OPTION...]: one table, each row followed
# by the time per event (median wall time / events) and Jacobian
# evaluations per step; LABEL (default KIND) names the rows and the times
# kept, the options go to flange simulate
ev_cases() {
  local kind=$1 title=$2 sizes=$3 label=${4:-$1} n prev= skip=
  if [ $# -ge 4 ]; then shift 4; else shift $#; fi
  header "$title"
  for n in $sizes; do
    if [ -n "$skip" ]; then
      say "| $label N=$n | skipped: N=$prev took ${T_EV[$label,$prev]} s > $EV_CAP s | | | | | | | | | |"
      continue
    fi
    "$B/bench_gen" "$kind" "$n" >"$W/${kind}_$n.mo"
    bench_case "$label N=$n" -- "$FLANGE" simulate "$W/${kind}_$n.mo" --vars m1.s -o "$W/x.csv" --no-energy --quiet --stats "$@"
    rm -f "$W/${kind}_$n.mo"
    T_EV[$label,$n]=$MEDIAN
    [ -z "$MEDIAN" ] && { skip=1; prev=$n; T_EV[$label,$n]=failed; continue; }
    local ev st jac res
    ev=$(( $(kv state_events "$W/out") + $(kv time_events "$W/out") )); st=$(kv steps "$W/out")
    jac=$(kv jac "$W/out"); res=$(kv res "$W/out")
    say "|  | $(awk -v t="$MEDIAN" -v e="$ev" -v s="$st" -v j="$jac" -v r="$res" 'BEGIN {
      printf "%s ms per event, %.3f jac per step, %.2f res per step", (e > 0 ? sprintf("%.3f", 1000 * t / e) : "n/a"), j / s, r / s }') | | | | | | | | | |"
    awk -v t="$MEDIAN" -v c="$EV_CAP" 'BEGIN { exit !(t > c) }' && skip=1
    prev=$n
  done
}
ev_cases fricchain "Friction chain: N masses on SupportFriction joined by spring-dampers, all driven by one sine force, 2 s (bench_gen fricchain)" "$FRIC_N"
ev_cases bounce "Independent bouncing bodies: N masses between restitution stops, each with its own sine force, 0.5 s (bench_gen bounce): one integrator per group (the default)" "$BOUNCE_N"
ev_cases bounce "The same with one integrator for the whole model (--one-integrator: before issue 16)" "$BOUNCE_N" "bounce --one-integrator" --one-integrator
ev_cases bounce-coupled "Weakly coupled bouncing bodies: the same, neighbours joined by a SpringDamper of 1 N/m, 0.01 N s/m: one group (bench_gen bounce-coupled)" "$BOUNCE_N"
BTOP=$([ "$QUICK" = 1 ] && echo 300 || echo 1000)
# the largest size with the energy audit on (flange simulate's default; every
# variable at every one of the ~36,000 output points would be 8.7 GB of CSV)
"$B/bench_gen" bounce "$BTOP" >"$W/bounce_all.mo"
header "Independent bouncing bodies N=$BTOP with the energy audit on (flange simulate's default), m1.s written"
bench_case "bounce N=$BTOP, energy audit" -- "$FLANGE" simulate "$W/bounce_all.mo" --vars m1.s -o "$W/x.csv" --quiet --stats
T_BALL=$MEDIAN
rm -f "$W/bounce_all.mo"
BOUNCE_SCALE=$(ratio "${T_EV[bounce,$BTOP]:-}" "${T_EV[bounce,100]:-}")
BOUNCE_GAIN=$(ratio "${T_EV[bounce --one-integrator,$BTOP]:-}" "${T_EV[bounce,$BTOP]:-}")
say ""
say "Bouncing bodies, scaling: time(N=$BTOP)/time(N=100) = $BOUNCE_SCALE (linear would be $([ "$QUICK" = 1 ] && echo 3 || echo 10)); with one integrator $(ratio "${T_EV[bounce --one-integrator,$BTOP]:-}" "${T_EV[bounce --one-integrator,100]:-}"). One integrator per group against one for the model at N=$BTOP: $BOUNCE_GAIN× faster."
say "Weak coupling makes one group: time(coupled)/time(independent) = $(for n in 100 300 $BTOP; do printf '%s at N=%s, ' "$(ratio "${T_EV[bounce-coupled,$n]:-}" "${T_EV[bounce,$n]:-}")" "$n"; done | sed 's/, $//') (what a multirate integrator could recover; docs/architecture.md)."
fi # not scipy

if [ -z "$ONLY" ]; then
# ---- peers: scipy, and the accuracy of everyone against a tight run --------
declare -A T_SCIPY T_SCIPY_INT
if [ $have_scipy = 1 ]; then
  header "The chain in Python: scipy.integrate.solve_ivp, BDF, contact events (bench/ref/chain_scipy.py)"
  for n in $SCIPY_N; do
    bench_case "chain scipy N=$n" -- "$PY" bench/ref/chain_scipy.py "$n"
    T_SCIPY[$n]=$MEDIAN; T_SCIPY_INT[$n]=$(kv seconds "$W/out")
  done
  header "flange with every contact located as an event (as scipy does)"
  for n in $SCIPY_N; do
    bench_case "chain API events N=$n" -- "$B/chain_api" "$n" --contact-events
  done
  say ""
  say "### Accuracy at rtol 1e-6: largest error of the final wagon positions (m) and velocities (m/s)"
  say ""
  say "Against \`chain_ida N --events --rtol 1e-10\` (every contact located, tight tolerance)."
  say ""
  say "| N | flange (default) | flange (events) | hand-written IDA | scipy BDF (events) |"
  say "|---|---|---|---|---|"
  for n in $SCIPY_N; do
    "$B/chain_ida" "$n" --events --rtol 1e-10 --dump "$W/ref" >/dev/null
    "$B/chain_api" "$n" --dump "$W/f" >/dev/null
    "$B/chain_api" "$n" --contact-events --dump "$W/fe" >/dev/null
    "$B/chain_ida" "$n" --dump "$W/i" >/dev/null
    "$PY" bench/ref/chain_scipy.py "$n" --dump "$W/s" >/dev/null
    err() { paste -d' ' "$1" "$W/ref" | awk '{ dx = $1 - $3; dv = $2 - $4; if (dx < 0) dx = -dx; if (dv < 0) dv = -dv;
      if (dx > mx) mx = dx; if (dv > mv) mv = dv } END { printf "%.2e / %.2e", mx, mv }'; }
    say "| $n | $(err "$W/f") | $(err "$W/fe") | $(err "$W/i") | $(err "$W/s") |"
  done
else
  say ""
  say "scipy is not installed (python3-scipy): the Python peer was skipped."
fi

# ---- the parameter study ----------------------------------------------------
declare -A ENS
header "Ensemble: hardstop_hysteresis over $RUNS parameter sets (stiffness, damping, gap), fl_ensemble_run"
for th in 1 2; do
  bench_case "ensemble threads=$th" -- "$B/ensemble" examples/hardstop_hysteresis.mo --runs "$RUNS" --threads $th
  say "|  | $(kv runs_per_s_core "$W/out") runs/s per core, $(kv runs_per_s "$W/out") runs/s | | | | | | | | | |"
  ENS[$th]="$(kv runs_per_s_core "$W/out") runs/s per core ($(kv runs_per_s "$W/out") runs/s)"
done

# ---- flange sweep: the same kind of study from the command line -------------
# A grid of 40 x 25 = 1000 runs (hard-stop stiffness and damping) with two
# collected quantities, on 1 and 2 threads and on 2 MPI ranks; efficiency
# = throughput with 2 workers / (2 x throughput with 1 thread).
declare -A SW
SWEEP=(examples/hardstop_hysteresis.mo --param 'hardStop.stiff_up=log(1e4:1e7:40)' --param 'hardStop.D_up=1:100:25'
       --collect 'max(abs(body2.s)),count_events' -o "$W/study.csv" --quiet)
header "flange sweep: hardstop_hysteresis, 1000 runs (40 stiffnesses x 25 dampings, log and linear grids)"
for th in 1 2; do
  rm -f "$W/study.csv.journal"
  bench_case "sweep --threads $th" -- "$FLANGE" sweep "${SWEEP[@]}" --threads $th
  SW[$th]=$MEDIAN
  say "|  | $(awk -v t="$MEDIAN" -v k=$th 'BEGIN { if (t > 0) printf "%.1f runs/s, %.1f runs/s per core", 1000 / t, 1000 / t / k }') | | | | | | | | | |"
done
if command -v mpirun >/dev/null 2>&1; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  bench_case "sweep mpirun -n 2" -- mpirun -n 2 --oversubscribe "$FLANGE" sweep "${SWEEP[@]}"
  SW[mpi]=$MEDIAN
  say "|  | $(awk -v t="$MEDIAN" 'BEGIN { if (t > 0) printf "%.1f runs/s, %.1f runs/s per rank", 1000 / t, 500 / t }') | | | | | | | | | |"
else
  say ""; say "mpirun is not installed (openmpi-bin): the MPI case was skipped."
fi
eff() { awk -v one="$1" -v two="$2" 'BEGIN { if (one > 0 && two > 0) printf "%.0f %%", 100 * one / (2 * two); else print "n/a" }'; }

fi # BENCH_ONLY

# ---- the scipy peer: integration and whole process (issue 16 target 5) ------
# The chain at N = 100, 1000, 10000 as a user runs it in each: `flange
# simulate` on the generated text (whole process = load + compile + run +
# writing m1.s, m1.v; integration = run_s of --stats) and chain_scipy.py
# (whole process = Python's start, imports, setup; integration = its
# seconds=, time.perf_counter around solve_ivp). A scipy run is stopped
# after BENCH_SCIPY_CAP s (default 600) and the larger sizes skipped. Then
# the final state of each against a tight reference (chain_ida --events
# --rtol 1e-10): a factor between different accuracies would mean nothing.
declare -A P5
if [ -z "$ONLY" ] || [ "$ONLY" = scipy ]; then
if [ $have_scipy = 1 ]; then
  P5_N="100 1000 10000"; [ "$QUICK" = 1 ] && P5_N="100 1000"
  P5_CAP=${BENCH_SCIPY_CAP:-600}
  header "scipy peer: integration and whole process (flange simulate on the chain text; chain_scipy.py, solve_ivp BDF with contact events)"
  p5_prev= p5_skip=
  for n in $P5_N; do
    if [ -n "$p5_skip" ]; then
      say "| chain N=$n | skipped: scipy at N=$p5_prev ${P5[sk,$p5_prev]} | | | | | | | | | |"
      continue
    fi
    "$B/bench_gen" chain "$n" >"$W/chain_$n.mo"
    INNER_KEY=run_s
    bench_case "flange N=$n" -- "$FLANGE" simulate "$W/chain_$n.mo" --vars m1.s,m1.v -o "$W/x.csv" --no-energy --quiet --stats
    P5[f,$n]=$MEDIAN P5[fi,$n]=$MEDIAN_IN
    P5[fc,$n]="$(kv steps "$W/out") / $(kv res "$W/out") / $(kv jac "$W/out") / $(kv lsetups "$W/out")"
    P5[fx,$n]=$(tail -n 1 "$W/x.csv" | cut -d, -f2)
    INNER_KEY=seconds
    bench_case "scipy N=$n" -- timeout "$P5_CAP" "$PY" bench/ref/chain_scipy.py "$n"
    INNER_KEY=
    rm -f "$W/chain_$n.mo"
    if [ -z "$MEDIAN" ]; then
      P5[sk,$n]="did not finish within $P5_CAP s"; p5_skip=1; p5_prev=$n; continue
    fi
    P5[s,$n]=$MEDIAN P5[si,$n]=$MEDIAN_IN
    P5[sc,$n]="$(kv steps "$W/out") / $(kv rhs "$W/out") / $(kv jac "$W/out") / $(kv lu "$W/out")"
    P5[sx,$n]=$(kv x1 "$W/out")
    # the bound: the same chain written by hand for IDA and KLU (no model
    # overhead at all), with flange's compiled vector kernels
    INNER_KEY=seconds
    bench_case "hand-written IDA N=$n" -- "$B/chain_ida" "$n" --fast-vectors
    INNER_KEY=
    P5[hi,$n]=$MEDIAN_IN
    P5[hc,$n]="$(kv steps "$W/out") / $(kv res "$W/out") / $(kv jac "$W/out") / $(kv lsetups "$W/out")"
    say "|  | **factor scipy/flange: integration $(ratio "${P5[si,$n]}" "${P5[fi,$n]}")× (${P5[si,$n]} s vs ${P5[fi,$n]} s), whole process $(ratio "${P5[s,$n]}" "${P5[f,$n]}")× (${P5[s,$n]} s vs ${P5[f,$n]} s)**; steps / res / jac / LU: scipy ${P5[sc,$n]}, flange ${P5[fc,$n]}; x1 scipy ${P5[sx,$n]}, flange ${P5[fx,$n]}; the hand-written IDA program's factor (integration): $(ratio "${P5[si,$n]}" "${P5[hi,$n]}")× (${P5[hi,$n]} s; ${P5[hc,$n]}) | | | | | | | | | |"
    awk -v t="$MEDIAN" -v c="$P5_CAP" 'BEGIN { exit !(t > c / 10) }' && { P5[sk,$n]="took $MEDIAN s (the next size would exceed $P5_CAP s)"; p5_skip=1; }
    p5_prev=$n
  done
  say ""
  say "Integration: flange's run_s (\`--stats\`; the run and the two written variables, after load and compile), scipy's seconds= (solve_ivp and its event restarts, after imports and setup); medians of the runs. Whole process: wall time of the command."
  say ""
  say "#### Accuracy of the final state (largest error of the wagon positions (m) / velocities (m/s))"
  say ""
  say "Against \`chain_ida N --events --rtol 1e-10\`; flange's state from \`chain_api N --dump\` (the same model and counters as the text run), scipy's from \`chain_scipy.py N --dump\`."
  say ""
  say "| N | flange (default) | scipy BDF (events) | flange vs scipy |"
  say "|---|---|---|---|"
  err() { paste -d' ' "$1" "$2" | awk '{ dx = $1 - $3; dv = $2 - $4; if (dx < 0) dx = -dx; if (dv < 0) dv = -dv;
    if (dx > mx) mx = dx; if (dv > mv) mv = dv } END { printf "%.2e / %.2e", mx, mv }'; }
  for n in $P5_N; do
    [ -n "${P5[s,$n]:-}" ] || continue
    "$B/chain_ida" "$n" --events --rtol 1e-10 --dump "$W/ref" >/dev/null
    "$B/chain_api" "$n" --dump "$W/f" >/dev/null
    timeout "$P5_CAP" "$PY" bench/ref/chain_scipy.py "$n" --dump "$W/s" >/dev/null
    say "| $n | $(err "$W/f" "$W/ref") | $(err "$W/s" "$W/ref") | $(err "$W/f" "$W/s") |"
  done
else
  say ""
  say "scipy is not installed (python3-scipy): the scipy peer was skipped."
fi
fi # scipy peer

# ---- the targets of the speed issue ----------------------------------------
say ""
say "### Targets"
say ""
say "| target | measured |"
say "|---|---|"
[ "$ONLY" != scipy ] && say "| bouncing bodies: time(N=1000)/time(N=100) ≤ 12 (issue 16, target 3) | $([ "$QUICK" = 1 ] && echo "n/a (quick run; time(300)/time(100) = $BOUNCE_SCALE)" || echo "$BOUNCE_SCALE (${T_EV[bounce,1000]:-n/a} s vs ${T_EV[bounce,100]:-n/a} s)") |"
[ "$ONLY" != scipy ] && say "| bouncing bodies at N=1000 ≥ 10× faster than one integrator (issue 16, target 3) | $([ "$QUICK" = 1 ] && echo "n/a (quick run; at N=300: ${BOUNCE_GAIN}×)" || echo "${BOUNCE_GAIN}× (${T_EV[bounce,1000]:-n/a} s vs ${T_EV[bounce --one-integrator,1000]:-n/a} s with --one-integrator; with the energy audit on: ${T_BALL:-n/a} s)") |"
[ -n "${P5[s,1000]:-}" ] && say "| scipy peer at N=1000: ≥ 10× through fewer steps and factorisations (issue 16, target 5) | $(ratio "${P5[si,1000]}" "${P5[fi,1000]}")× integration, $(ratio "${P5[s,1000]}" "${P5[f,1000]}")× whole process (N=100: $(ratio "${P5[si,100]:-}" "${P5[fi,100]:-}")× / $(ratio "${P5[s,100]:-}" "${P5[f,100]:-}")×; N=10000: $(ratio "${P5[si,10000]:-}" "${P5[fi,10000]:-}")× / $(ratio "${P5[s,10000]:-}" "${P5[f,10000]:-}")×); the same chain hand-written for IDA and KLU: $(ratio "${P5[si,1000]}" "${P5[hi,1000]:-}")× integration at N=1000 |"
if [ -z "$ONLY" ]; then
say "| overhead vs hand-written IDA at N=1e4 ≤ 1.3, steps within 5% | ${PAIR_MEDIAN:-n/a} (median of interleaved pairs; ${FAST_MEDIAN:-n/a} against chain_ida --fast-vectors; $(ratio "${T_API[10000]:-}" "${T_IDA[10000]:-}") from the separate medians), steps ${S_API[10000]:-} vs ${S_IDA[10000]:-} |"
if [ $have_scipy = 1 ]; then
  for n in 100 1000; do
    say "| ≥ 50× faster than scipy at N=$n (same accuracy, see above) | $(ratio "${T_SCIPY[$n]:-}" "${T_API[$n]:-}")× whole process; $(ratio "${T_SCIPY_INT[$n]:-}" "${T_API[$n]:-}")× against scipy's integration alone (${T_SCIPY_INT[$n]:-} s, without Python's start and imports) |"
  done
fi
if [ "$QUICK" != 1 ]; then
  say "| time(1e5)/time(1e4) ≤ 12 | $(ratio "${T_API[100000]:-}" "${T_API[10000]:-}") |"
  say "| time(1e6)/time(1e5) ≤ 12 | $(ratio "${T_API[1000000]:-}" "${T_API[100000]:-}") |"
  say "| peak memory ≤ 2 KB per component at N=1e6 (3N components) | $(awk -v r="${RSS_API[1000000]:-0}" 'BEGIN { printf "%.2f KB", r / 3e6 }') |"
  say "| peak memory ≤ 1.5× the hand-written IDA model at N=1e5 and 1e6, compile included (issue 16, target 2) | $(ratio "${RSS_API[100000]:-}" "${RSS_IDA[100000]:-}")× at 1e5 ($((${RSS_API[100000]:-0} / 1024)) MB vs $((${RSS_IDA[100000]:-0} / 1024)) MB), $(ratio "${RSS_API[1000000]:-}" "${RSS_IDA[1000000]:-}")× at 1e6 ($((${RSS_API[1000000]:-0} / 1024)) MB vs $((${RSS_IDA[1000000]:-0} / 1024)) MB) |"
  say "| 1e6 wagons, 10 s, under 10 minutes | ${T_API[1000000]:-n/a} s |"
  say "| parse + compile of the 1e5 model file ≤ 2 s | ${T_LOAD[100000]:-n/a} s |"
fi
say "| parse + compile of the 1e4 model file | ${T_LOAD[10000]:-n/a} s |"
say "| the 1e4 chain with a user-written coupler within 1.5x of the built-in SpringDamper | ${USER_MEDIAN:-n/a} (median of interleaved pairs) |"
say "| the $ARR_N chain written with arrays, parse + compile within 2x of the flat text | $(ratio "${T_ARR:-}" "${T_FLAT:-}") ($T_ARR s vs $T_FLAT s) |"
say "| ensemble throughput ($RUNS runs) | 2 threads: ${ENS[2]:-n/a}; 1 thread: ${ENS[1]:-n/a} |"
say "| flange sweep, 1000 runs: efficiency of 2 threads / of mpirun -n 2 against 1 thread | $(eff "${SW[1]:-}" "${SW[2]:-}") / $(eff "${SW[1]:-}" "${SW[mpi]:-}") (1 thread ${SW[1]:-n/a} s, 2 threads ${SW[2]:-n/a} s, 2 ranks ${SW[mpi]:-n/a} s) |"
fi # BENCH_ONLY
mv "$OUT.tmp" "$OUT"
echo "bench: wrote $OUT" >&2
