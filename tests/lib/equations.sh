# equations.sh - sourced by the tests of the equation layer
# (tests/cli/equations*.sh) after cli.sh: models written as a user writes
# them, simulated with the command-line tool, their results checked against
# closed forms in Python (csvcheck.py) and their errors against whole
# messages.
#
#   model NAME <<'EOF' ... EOF          writes $T/NAME.mo
#   sim NAME [OPTION ...]               simulates it into $T/NAME.csv (stderr in $T/NAME.err);
#                                       status 0, or a FAIL line with the messages
#   values WHAT NAME <<'PY' ... PY      runs the Python checks on $T/NAME.csv (csvcheck.py)
#   expect NAME STATUS [OPTION ...] -- EXPECTED_STDERR
#                                       simulates $T/NAME.mo; stderr without "$T/" must be
#                                       EXPECTED_STDERR exactly; a failed run leaves no NAME.csv*
#   expect_check NAME STATUS -- EXPECTED_STDERR    the same for `flange check`
#   expect_re NAME STATUS [OPTION ...] -- REGEX    (below) for messages not settled yet
CSVCHECK="$(dirname "${BASH_SOURCE[0]}")/csvcheck.py"
PY=/usr/bin/python3

model() { cat > "$T/$1.mo"; }

sim() {
  local name=$1; shift
  if ! "$FLANGE" simulate "$T/$name.mo" -o "$T/$name.csv" --quiet "$@" 2> "$T/$name.err" > /dev/null; then
    bad "$name: the simulation failed"; sed "s|$T/||g" "$T/$name.err"; return 1
  fi
}

values() {
  local what=$1 name=$2
  if [ ! -s "$T/$name.csv" ]; then bad "$what: no result $name.csv"; cat > /dev/null; return; fi
  if "$PY" "$CSVCHECK" "$T/$name.csv" > "$T/$name.chk"; then ok "$what"; else bad "$what"; cat "$T/$name.chk"; fi
}

run_expect() {
  local cmd=$1 name=$2 status=$3; shift 3
  local label=$name opts=()
  [ "$cmd" = check ] && label="check $name"
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  printf '%s\n' "$2" > "$T/$name.want"
  if [ "$cmd" = simulate ]; then
    "$FLANGE" simulate "$T/$name.mo" -o "$T/$name.csv" --quiet "${opts[@]}" 2> "$T/$name.raw" > /dev/null
  else
    "$FLANGE" check "$T/$name.mo" "${opts[@]}" 2> "$T/$name.raw" > /dev/null
  fi
  local rc=$?
  sed "s|$T/||g" "$T/$name.raw" > "$T/$name.got"
  if [ "$rc" != "$status" ]; then
    bad "$label: exit status $rc, expected $status"; cat "$T/$name.got"; return
  fi
  if ! diff "$T/$name.want" "$T/$name.got" > "$T/$name.diff"; then
    bad "$label: messages differ (< expected, > got)"; cat "$T/$name.diff"; return
  fi
  if [ "$status" != 0 ] && ls "$T/$name".csv* > /dev/null 2>&1; then
    bad "$label: an output file was left behind"; return
  fi
  ok "$label"
}
expect() { run_expect simulate "$@"; }
expect_check() { run_expect check "$@"; }

#   expect_re NAME STATUS [OPTION ...] -- REGEX
#                                       like expect, for messages whose wording is not settled
#                                       yet (tests/pending): stderr must be one line matching the
#                                       extended regular expression REGEX
expect_re() {
  local name=$1 status=$2; shift 2
  local opts=()
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  "$FLANGE" simulate "$T/$name.mo" -o "$T/$name.csv" --quiet "${opts[@]}" 2> "$T/$name.raw" > /dev/null
  local rc=$?
  sed "s|$T/||g" "$T/$name.raw" > "$T/$name.got"
  if [ "$rc" != "$status" ]; then
    bad "$name: exit status $rc, expected $status"; cat "$T/$name.got"; return
  fi
  if [ "$(wc -l < "$T/$name.got")" != 1 ] || ! grep -Eq "$2" "$T/$name.got"; then
    bad "$name: the message does not match /$2/"; cat "$T/$name.got"; return
  fi
  if [ "$status" != 0 ] && ls "$T/$name".csv* > /dev/null 2>&1; then
    bad "$name: an output file was left behind"; return
  fi
  ok "$name"
}
