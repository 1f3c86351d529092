#!/usr/bin/env bash
# The FMU runtime flange_fmu.so (the binary every exported FMU carries) is
# self-contained and exports the FMI functions and nothing else: ldd shows
# the C library, libm and the dynamic loader only (libflange, SUNDIALS and
# SuiteSparse are linked in statically; no libmatio, libhdf5, PLplot), and
# nm -D shows exactly the fmi2*/fmi3* functions of the standard (the list of
# the official headers where ../shared holds them, else of src/fmi/*abi.h).
# A sanitizer build adds the sanitizer runtimes to the allowed list.
. "$FLANGE_SRC/tests/lib/cli.sh"
command -v nm >/dev/null && command -v ldd >/dev/null || { echo "skip: binutils/ldd missing"; exit 77; }
so="$FLANGE_BUILD/flange_fmu.so"
[ -f "$so" ] || { echo "FAIL: $so not built"; exit 1; }

allowed='^(linux-vdso\.so\.1|libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|/lib64/ld-linux-x86-64\.so\.2)$'
[ -n "${FLANGE_CFLAGS:-}" ] && allowed='^(linux-vdso\.so\.1|libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|/lib64/ld-linux-x86-64\.so\.2|libasan\.so\.[0-9]+|libubsan\.so\.[0-9]+|libstdc\+\+\.so\.6|libgcc_s\.so\.1)$'
ldd "$so" | awk '{print $1}' > "$T/deps"
extra=$(grep -Ev "$allowed" "$T/deps" | tr '\n' ' ')
[ -z "$extra" ] && ok "ldd flange_fmu.so: $(tr '\n' ' ' < "$T/deps")" || bad "flange_fmu.so depends on: $extra"
readelf -d "$so" | grep -q 'NEEDED.*\(sundials\|klu\|matio\|hdf5\|plplot\|flange\)' \
  && bad "flange_fmu.so needs a shared library it should carry: $(readelf -d "$so" | grep NEEDED)" \
  || ok "no NEEDED entry for SUNDIALS, SuiteSparse, matio, HDF5, PLplot or libflange"

nm -D --defined-only "$so" | awk '{print $3}' | sort > "$T/exported"
others=$(grep -Ev '^fmi[23][A-Za-z0-9]+$' "$T/exported" | tr '\n' ' ')
[ -z "$others" ] && ok "only fmi2*/fmi3* symbols exported ($(wc -l < "$T/exported"))" || bad "other symbols exported: $others"
data=$(nm -D --defined-only "$so" | awk 'NF == 3 && $2 != "T" {print $3}' | tr '\n' ' ')
[ -z "$data" ] && ok "every exported symbol is a function" || bad "data exported: $data"

INC="${FLANGE_SHARED:-$FLANGE_SRC/../shared}/tools/fmusim/src/include"
if [ -f "$INC/fmi2FunctionTypes.h" ] && [ -f "$INC/fmi3FunctionTypes.h" ]; then
  grep -oh 'fmi[23][A-Za-z0-9]*TYPE' "$INC/fmi2FunctionTypes.h" "$INC/fmi3FunctionTypes.h" | sed 's/TYPE$//' | sort -u > "$T/std"
  src="the official headers"
else
  { grep -o 'fmi2[A-Za-z0-9]*(' "$FLANGE_SRC/src/fmi/fmi2abi.h" | tr -d '('
    grep -o 'fmi3[A-Za-z0-9]*(' "$FLANGE_SRC/src/fmi/fmi3abi.h" | tr -d '('
    sed -n 's/^FL_FMI3_GETSET(\([A-Za-z0-9]*\),.*/fmi3Get\1\nfmi3Set\1/p' "$FLANGE_SRC/src/fmi/fmi3abi.h"; } \
    | grep -v 'TYPE$' | sort -u > "$T/std"
  src="src/fmi/fmi2abi.h and fmi3abi.h"
fi
if cmp -s "$T/std" "$T/exported"; then
  ok "exports every function of $src: $(grep -c '^fmi2' "$T/std") of FMI 2.0, $(grep -c '^fmi3' "$T/std") of FMI 3.0"
else
  bad "exports differ from $src (< standard, > exported):"; diff "$T/std" "$T/exported"
fi
[ "$fails" -eq 0 ] || exit 1
