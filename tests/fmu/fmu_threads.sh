#!/usr/bin/env bash
# Runs tests/fmu/fmu_threads.c (FMU_THREADS: the built program) on FMI 2.0
# and FMI 3.0 FMUs of examples/msl/Friction.mo exported by `flange fmu` and
# unpacked into directories whose names need percent-encoding in a file URI
# (a space, a '%'). In a sanitizer build the program and flange_fmu.so are
# both instrumented, so the FMU runs under ASan/UBSan inside it.
. "$FLANGE_SRC/tests/lib/cli.sh"
command -v unzip >/dev/null || { echo "skip: unzip missing"; exit 77; }
[ -x "${FMU_THREADS:-}" ] || { echo "FAIL: FMU_THREADS not built"; exit 1; }
M="$FLANGE_SRC/examples/msl/Friction.mo"
for v in 2 3; do
  "$FLANGE" fmu "$M" --fmi $v -o "$T/F$v.fmu" || { echo "FAIL: flange fmu --fmi $v"; exit 1; }
  mkdir -p "$T/unpacked dir %$v"
  unzip -q "$T/F$v.fmu" -d "$T/unpacked dir %$v" || { echo "FAIL: unzip"; exit 1; }
done
"$FMU_THREADS" "$T/unpacked dir %2" "$T/unpacked dir %3" || exit 1
