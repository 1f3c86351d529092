# cli.sh - sourced by the command-line tests (tests/cli/*.sh): a scratch
# directory $T removed on exit, and ok/bad lines that count the failures.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fails=$((fails+1)); }
