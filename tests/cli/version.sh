#!/usr/bin/env bash
# The version is written once, in flange.h: FLANGE_VERSION and
# FLANGE_VERSION_NUMBER agree, and the library (fl_version, through
# `flange --version`) reports it.
. "$FLANGE_SRC/tests/lib/cli.sh"
h="$FLANGE_SRC/include/flange.h"
v=$(sed -n 's/^#define FLANGE_VERSION "\(.*\)"$/\1/p' "$h")
num=$(sed -n 's/^#define FLANGE_VERSION_NUMBER \([0-9]*\)$/\1/p' "$h")
IFS=. read -r major minor patch <<< "$v"
[ -n "$v" ] && [ "$num" = "$((major * 10000 + minor * 100 + patch))" ] \
  && ok "FLANGE_VERSION $v, FLANGE_VERSION_NUMBER $num" || bad "header version '$v' and number '$num' disagree"
out=$("$FLANGE" --version)
[ "$out" = "flange $v" ] && ok "flange --version: $out" || bad "flange --version printed '$out', expected 'flange $v'"
[ "$fails" -eq 0 ] || exit 1
