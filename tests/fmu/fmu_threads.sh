#!/usr/bin/env bash
# Runs tests/fmu/fmu_threads.c (FMU_THREADS: the built program) on FMI 2.0
# and FMI 3.0 FMUs of examples/msl/Friction.mo exported by `flange fmu` and
# unpacked into directories whose names need percent-encoding in a file URI
# (a space, a '%'), with the threads of the host in a locale whose decimal
# point is a comma (de_DE.UTF-8, made with localedef where the locale
# sources are installed). In a sanitizer build the program and flange_fmu.so are
# both instrumented, so the FMU runs under ASan/UBSan inside it.
. "$FLANGE_SRC/tests/lib/cli.sh"
command -v unzip >/dev/null || { echo "skip: unzip missing"; exit 77; }
[ -x "${FMU_THREADS:-}" ] || { echo "FAIL: FMU_THREADS not built"; exit 1; }
"$FLANGE" fmu --help >/dev/null 2>&1 || { echo "skip: this flange has no fmu command"; exit 77; }
M="$FLANGE_SRC/examples/msl/Friction.mo"
for v in 2 3; do
  "$FLANGE" fmu "$M" --fmi $v -o "$T/F$v.fmu" || { echo "FAIL: flange fmu --fmi $v"; exit 1; }
  mkdir -p "$T/unpacked dir %$v"
  unzip -q "$T/F$v.fmu" -d "$T/unpacked dir %$v" || { echo "FAIL: unzip"; exit 1; }
done
mkdir -p "$T/loc"
if command -v localedef >/dev/null && [ -f /usr/share/i18n/locales/de_DE ] &&
   { localedef -i de_DE -f UTF-8 "$T/loc/de_DE.UTF-8" 2>/dev/null; [ -d "$T/loc/de_DE.UTF-8" ]; }; then
  export LOCPATH="$T/loc" FMU_TEST_LOCALE=de_DE.UTF-8
else
  echo "note: no de_DE locale could be made: the host runs in the C locale"
fi
"$FMU_THREADS" "$T/unpacked dir %2" "$T/unpacked dir %3" || exit 1
