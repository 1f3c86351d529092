#!/usr/bin/env bash
# `make install PREFIX=...` installs the libraries (libflange and
# libflange-plot, static and shared), the header, the CLI and the pkg-config
# files flange.pc and flange-plot.pc into PREFIX, also when the build was
# configured for another prefix (this build directory is configured for the
# default, /usr/local); the pkg-config files name the paths under PREFIX and
# are enough to build programs against either library, static or shared.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v make >/dev/null || { echo "SKIP: make not installed"; exit 77; }
command -v pkg-config >/dev/null || { echo "SKIP: pkg-config not installed"; exit 77; }

configured=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$FLANGE_BUILD/CMakeCache.txt")
P="$T/p"
[ "$configured" != "$P" ] || fail "the build is configured for the test's prefix"
# the real front door: the Makefile (the build itself is up to date, so its
# build step does nothing); the outer make's jobserver is not ours to use
( unset MAKEFLAGS MFLAGS MAKELEVEL
  make -s -C "$FLANGE_SRC" install BUILD="$FLANGE_BUILD" PREFIX="$P" > "$T/install.log" 2>&1 ) \
  || { cat "$T/install.log"; fail "make install PREFIX=$P"; }

pc=$(find "$P" -name flange.pc | head -n 1)
pcplot=$(find "$P" -name flange-plot.pc | head -n 1)
[ -n "$pc" ] || fail "no flange.pc installed"
[ -n "$pcplot" ] || fail "no flange-plot.pc installed"
[ -x "$P/bin/flange" ] || fail "no bin/flange"
[ -f "$P/include/flange.h" ] || fail "no include/flange.h"
export PKG_CONFIG_PATH="$(dirname "$pc")"
real() { readlink -f "$1"; }
[ "$(real "$(pkg-config --variable=prefix flange)")" = "$(real "$P")" ] \
  || fail "flange.pc prefix is $(pkg-config --variable=prefix flange), not $P"
libdir=$(pkg-config --variable=libdir flange)
[ "$(real "$(pkg-config --variable=includedir flange)")" = "$(real "$P/include")" ] \
  || fail "flange.pc includedir is $(pkg-config --variable=includedir flange)"
case "$(real "$libdir")" in "$(real "$P")"/lib*) ;; *) fail "flange.pc libdir $libdir is not under $P";; esac
[ "$(real "$(pkg-config --variable=libdir flange-plot)")" = "$(real "$libdir")" ] || fail "flange-plot.pc libdir"
for f in libflange.a libflange.so libflange-plot.a libflange-plot.so; do
  [ -e "$libdir/$f" ] || fail "$libdir/$f not installed"
done
grep -q plplot "$pc" && fail "flange.pc mentions PLplot"
pkg-config --print-requires flange-plot | grep -q '^flange' || fail "flange-plot.pc does not require flange"
echo "ok   installed into $P; pkg-config paths point there"
"$P/bin/flange" --version | grep -q "^flange " || fail "installed CLI does not run"

# static: the archive itself plus the private dependencies pkg-config lists
cc -std=c11 ${FLANGE_CFLAGS:-} -o "$T/static_demo" "$FLANGE_SRC/examples/api_oscillator.c" $(pkg-config --cflags flange) \
   "$libdir/libflange.a" $(pkg-config --libs --static flange | sed 's/-lflange//') || fail "static build with pkg-config"
"$T/static_demo" > "$T/out1.txt" || fail "static demo run"
grep -q "linear solver dense" "$T/out1.txt" || fail "static demo output"

cc -std=c11 ${FLANGE_CFLAGS:-} -o "$T/shared_demo" "$FLANGE_SRC/examples/api_oscillator.c" $(pkg-config --cflags --libs flange) -lm \
   -Wl,-rpath,"$libdir" || fail "shared build with pkg-config"
"$T/shared_demo" > "$T/out2.txt" || fail "shared demo run"
cmp -s "$T/out1.txt" "$T/out2.txt" || fail "static and shared builds disagree"
echo "ok   static and shared builds against flange.pc agree"

# the plot library: a program that plots a result, linked through flange-plot.pc
"$P/bin/flange" simulate "$FLANGE_SRC/examples/hardstop_hysteresis.mo" -o "$T/r.csv" --stop 1 --quiet \
  || fail "installed CLI simulate"
cat > "$T/plot.c" <<'C'
#include <stdio.h>
#include "flange.h"
int main(int argc, char **argv)
{
    const char *y[] = {"body2.s"};
    fl_plot_opts o = {y, 1, NULL, "installed", FL_PLOT_OVERLAY, 400, 300};
    fl_diag *d = fl_diag_new();
    int rc = fl_plot_csv(argv[1], argv[2], &o, d);
    for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "%s\n", fl_diag_text(d, i));
    fl_diag_free(d);
    return argc == 3 && rc == 0 ? 0 : 1;
}
C
is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; }
cc -std=c11 ${FLANGE_CFLAGS:-} -o "$T/plot_shared" "$T/plot.c" $(pkg-config --cflags --libs flange-plot) \
   -Wl,-rpath,"$libdir" || fail "shared build with pkg-config flange-plot"
"$T/plot_shared" "$T/r.csv" "$T/a.png" && is_png "$T/a.png" || fail "shared plot program"
cc -std=c11 ${FLANGE_CFLAGS:-} -o "$T/plot_static" "$T/plot.c" $(pkg-config --cflags flange-plot) \
   "$libdir/libflange-plot.a" "$libdir/libflange.a" \
   $(pkg-config --libs --static flange-plot | sed 's/-lflange-plot//; s/-lflange\b//') || fail "static build with flange-plot"
"$T/plot_static" "$T/r.csv" "$T/b.png" && is_png "$T/b.png" || fail "static plot program"
echo "ok   static and shared programs linked through flange-plot.pc draw a PNG"
echo "install, pkg-config, static and shared builds: ok"
