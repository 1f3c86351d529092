#!/usr/bin/env bash
# run.sh - what `make fuzz` does: build the libFuzzer target with clang into
# build-fuzz/ (everything under ASan and UBSan), seed build-fuzz/corpus/ from
# every Modelica text of the project, and fuzz for FUZZ_SECONDS seconds with
# FUZZ_JOBS workers. Crashing, leaking and slow (> 5 s) inputs land in
# build-fuzz/crashes/; the exit status is non-zero when there are any. At the
# end it prints the number of executions and the rate, for the record.
#   FUZZ_SECONDS (60)  FUZZ_JOBS (1)  FUZZ_FLAGS (more libFuzzer options, e.g.
#   "-fork=1 -ignore_crashes=1" to go on past crashes, keeping each)
set -eu
cd "$(dirname "$0")/../.."
B=build-fuzz
secs=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-1}
./scripts/install-deps.sh --fuzz
cmake -S . -B "$B" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLANGE_FUZZ=ON >/dev/null
cmake --build "$B" --target fuzz_flange -j "${JOBS:-$(nproc)}" > "$B/build.log" 2>&1 \
  || { cat "$B/build.log"; exit 1; }
mkdir -p "$B/corpus" "$B/crashes" "$B/logs"
/usr/bin/python3 tests/fuzz/seed_corpus.py . "$B/corpus"

run="$B/logs/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$run"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
opts=(-dict="$PWD/tests/fuzz/modelica.dict" -max_total_time="$secs" -timeout=5 -rss_limit_mb=2048
      -max_len=16384 -artifact_prefix="$PWD/$B/crashes/" -print_final_stats=1)
start=$(date +%s)
rc=0
if [ "$jobs" -le 1 ]; then
  "$PWD/$B/fuzz_flange" "${opts[@]}" ${FUZZ_FLAGS:-} "$PWD/$B/corpus" 2>&1 | tee "$run/fuzz-0.log" \
    | grep -E '^#[0-9]+.*(pulse|DONE)|ERROR|SUMMARY|stat::|runtime error' || true
  rc=${PIPESTATUS[0]}
else
  # one process per job, each logging to fuzz-N.log in the working directory
  (cd "$run" && "$PWD/../../fuzz_flange" "${opts[@]}" -jobs="$jobs" -workers="$jobs" ${FUZZ_FLAGS:-} \
     "$PWD/../../corpus") || rc=$?
fi
end=$(date +%s)
# executions: libFuzzer's final statistics, or in fork mode (-fork=N) the
# count on the last status line
execs=0
for log in "$run"/fuzz-*.log; do
  n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | awk '{s += $1} END {print s + 0}')
  # fork mode: the parent's status lines count every job's executions (an
  # interrupted job's final statistics count only its own)
  f=$(sed -n 's/^#\([0-9]*\): cov:.*/\1/p' "$log" | tail -n 1)
  [ "${f:-0}" -le "$n" ] || n=$f
  execs=$((execs + ${n:-0}))
done
secs_run=$((end - start > 0 ? end - start : 1))
echo "fuzz: $execs executions in ${secs_run} s with $jobs worker(s): $((execs / secs_run)) exec/s; logs in $run"
crashes=$(find "$B/crashes" -type f -newer "$run" | wc -l)
echo "fuzz: $crashes new file(s) in $B/crashes/ ($(ls "$B/crashes" | wc -l) in all)"
[ "$rc" -eq 0 ] && [ "$crashes" -eq 0 ]
