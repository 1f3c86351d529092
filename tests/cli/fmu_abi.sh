#!/usr/bin/env bash
# The FMI 2.0 and 3.0 declarations flange's FMU runtime is built from
# (src/fmi/fmi2abi.h, fmi3abi.h: written for flange, so that the build
# needs no copy of the standard's headers) agree with the Modelica
# Association's headers in ../shared: every function declared again over
# the official types (tests/fmu/abi_protos.c), and the types, struct layouts
# and enumeration values compared by static assertions
# (tests/fmu/abi_types.c, over a copy of flange's headers with the prefixes
# renamed). Skipped without ../shared.
. "$FLANGE_SRC/tests/lib/cli.sh"
INC="${FLANGE_SHARED:-$FLANGE_SRC/../shared}/tools/fmusim/src/include"
[ -f "$INC/fmi2Functions.h" ] && [ -f "$INC/fmi3Functions.h" ] || { echo "skip: no FMI headers in $INC"; exit 77; }
command -v cc >/dev/null || { echo "skip: no C compiler"; exit 77; }
CC="cc -std=c11 -Wall -Wextra -Werror ${FLANGE_CFLAGS:-}"

if $CC -I"$INC" -I"$FLANGE_SRC/src" -o "$T/protos" "$FLANGE_SRC/tests/fmu/abi_protos.c" 2> "$T/p.err"; then
  ok "every fmi2*/fmi3* declaration matches the official prototype"
else
  bad "prototypes differ from the official headers: $(head -c 2000 "$T/p.err")"
fi

mkdir -p "$T/inc"
sed 's/fmi2/flx2/g; s/FL_FMI2ABI_H/FLX2ABI_H/' "$FLANGE_SRC/src/fmi/fmi2abi.h" > "$T/inc/flx2abi.h"
sed 's/fmi3/flx3/g; s/FL_FMI3ABI_H/FLX3ABI_H/; s/fl_fmi3_vrs/flx_fmi3_vrs/g; s/FL_FMI3_GETSET/FLX_FMI3_GETSET/g' \
  "$FLANGE_SRC/src/fmi/fmi3abi.h" > "$T/inc/flx3abi.h"
sed -i 's/fl_fmi2_vrs/flx_fmi2_vrs/g' "$T/inc/flx2abi.h"
if $CC -I"$INC" -I"$T/inc" -Wno-type-limits -o "$T/types" "$FLANGE_SRC/tests/fmu/abi_types.c" 2> "$T/t.err"; then
  ok "types, layouts and enumeration values equal the official ones"
  "$T/types" && ok "official version strings as expected" || bad "official version strings differ"
else
  bad "types differ from the official headers: $(head -c 2000 "$T/t.err")"
fi
[ "$fails" -eq 0 ] || exit 1
