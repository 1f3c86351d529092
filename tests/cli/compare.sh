#!/usr/bin/env bash
# compare.sh - tests of "flange compare": exit status 0/1/2 and the messages for pass, fail, missing file and bad usage.
set -u

if [ -z "${FLANGE:-}" ] || [ ! -x "${FLANGE}" ]; then
  echo "FLANGE must name the flange executable"
  exit 1
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/flange_cli_compare.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
failures=0

fail() {
  echo "FAILED: $*"
  failures=$((failures + 1))
}

# Runs flange with the given arguments, keeping stdout, stderr and status.
run() {
  "$FLANGE" "$@" >"$dir/out" 2>"$dir/err"
  status=$?
}

cat >"$dir/ref.csv" <<'EOF'
"time","mass.s","mass.v"
0,0,1
0.25,0.25,1
0.5,0.5,1
0.5,0.5,0
0.75,0.5,0
1,0.5,0
EOF
printf 'time,mass.s,mass.v\r\n0,0,1\r\n0.5,0.5001,1\r\n1,0.5,0\r\n' >"$dir/good.csv"
printf 'time,mass.s,mass.v\n0,0,1\n0.5,0.6,1\n1,0.5,0\n' >"$dir/bad.csv"
printf '# only the position\nmass.s\n' >"$dir/signals.txt"

run compare "$dir/good.csv" "$dir/ref.csv"
[ "$status" -eq 0 ] || fail "matching result: exit status $status, expected 0 ($(cat "$dir/err"))"
grep -q "PASS" "$dir/out" || fail "matching result: no PASS in output: $(cat "$dir/out")"

run compare "$dir/bad.csv" "$dir/ref.csv" --tol 2e-3
[ "$status" -eq 1 ] || fail "deviating result: exit status $status, expected 1"
grep -q "FAIL" "$dir/out" || fail "deviating result: no FAIL in output: $(cat "$dir/out")"
grep -q "outside the 2e-3 tube" "$dir/out" || fail "deviating result: no summary line: $(cat "$dir/out")"

run compare "$dir/bad.csv" "$dir/ref.csv" --tol=0.25 --signals "$dir/signals.txt"
[ "$status" -eq 0 ] || fail "--tol=0.25 --signals: exit status $status, expected 0 ($(cat "$dir/err"))"
grep -q "mass.v" "$dir/out" && fail "--signals: mass.v was compared although not listed"

run compare "$dir/missing.csv" "$dir/ref.csv"
[ "$status" -eq 2 ] || fail "missing file: exit status $status, expected 2"
grep -q "missing.csv" "$dir/err" || fail "missing file: message does not name the file: $(cat "$dir/err")"

run compare "$dir/good.csv" "$dir/ref.csv" --frobnicate
[ "$status" -eq 2 ] || fail "unknown option: exit status $status, expected 2"
grep -q "usage:" "$dir/err" || fail "unknown option: no usage line: $(cat "$dir/err")"

run compare "$dir/good.csv"
[ "$status" -eq 2 ] || fail "missing argument: exit status $status, expected 2"
grep -q "usage:" "$dir/err" || fail "missing argument: no usage line: $(cat "$dir/err")"

run compare "$dir/good.csv" "$dir/ref.csv" --tol abc
[ "$status" -eq 2 ] || fail "bad --tol: exit status $status, expected 2"
grep -q "usage:" "$dir/err" || fail "bad --tol: no usage line: $(cat "$dir/err")"

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all compare CLI checks passed"
