#!/usr/bin/env bash
# `make install` installs the library (static and shared), the header, the
# CLI and a pkg-config file that is enough to build a program against flange.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$FLANGE_BUILD" --prefix "$T/prefix" >/dev/null || fail "cmake --install"
pc=$(find "$T/prefix" -name flange.pc | head -n 1)
[ -n "$pc" ] || fail "no flange.pc installed"
[ -x "$T/prefix/bin/flange" ] || fail "no bin/flange"
[ -f "$T/prefix/include/flange.h" ] || fail "no include/flange.h"
ls "$T"/prefix/lib*/libflange.a "$T"/prefix/lib*/libflange.so >/dev/null 2>&1 || \
  ls "$T"/prefix/lib/*/libflange.a >/dev/null 2>&1 || fail "libraries not installed"
"$T/prefix/bin/flange" --version | grep -q "^flange " || fail "installed CLI does not run"

export PKG_CONFIG_PATH="$(dirname "$pc")"
command -v pkg-config >/dev/null || { echo "SKIP: pkg-config not installed"; exit 77; }
libdir=$(pkg-config --variable=libdir flange)
# static: the archive itself plus the private dependencies pkg-config lists
cc -std=c11 ${FLANGE_CFLAGS:-} -o "$T/static_demo" "$FLANGE_SRC/examples/api_oscillator.c" $(pkg-config --cflags flange) \
   "$libdir/libflange.a" $(pkg-config --libs --static flange | sed 's/-lflange//') || fail "static build with pkg-config"
"$T/static_demo" > "$T/out1.txt" || fail "static demo run"
grep -q "linear solver dense" "$T/out1.txt" || fail "static demo output"

cc -std=c11 ${FLANGE_CFLAGS:-} -o "$T/shared_demo" "$FLANGE_SRC/examples/api_oscillator.c" $(pkg-config --cflags --libs flange) -lm \
   -Wl,-rpath,"$libdir" || fail "shared build with pkg-config"
"$T/shared_demo" > "$T/out2.txt" || fail "shared demo run"
cmp -s "$T/out1.txt" "$T/out2.txt" || fail "static and shared builds disagree"
echo "install, pkg-config, static and shared builds: ok"
