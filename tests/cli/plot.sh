#!/usr/bin/env bash
# Pictures: flange plot writes valid PNG, SVG and PDF files of the requested
# size for overlay, stacked and phase plots; bad signals, files, formats
# and sizes fail with clear messages and leave nothing behind; simulate
# --plot; the progress line appears on a terminal and never in a pipe; the
# example script draws the pictures of make run and make examples.
. "$(dirname "$0")/../lib/cli.sh"
EX="$FLANGE_SRC/examples"

png_size() { # width x height from the IHDR chunk
  local b; b=($(od -An -tu1 -j16 -N8 "$1"))
  echo "$(( (b[0]<<24) + (b[1]<<16) + (b[2]<<8) + b[3] ))x$(( (b[4]<<24) + (b[5]<<16) + (b[6]<<8) + b[7] ))"
}
is_png() { [ "$(od -An -c -N4 "$1" | tr -d ' ')" = "211PNG" ]; }

"$FLANGE" simulate "$EX/msl/Oscillator.mo" -o "$T/o.csv" --quiet || bad "simulate Oscillator"
grep -q "^mass1.s,m$" "$T/o.csv.units" && grep -q "^mass1.v,m/s$" "$T/o.csv.units" && grep -q "^time,s$" "$T/o.csv.units" \
  && ok "units beside the result" || bad "units file: $(head -3 "$T/o.csv.units")"

# overlay PNG of the requested size
"$FLANGE" plot "$T/o.csv" --y 'mass*.s' -o "$T/overlay.png" --size 640x480 --quiet
is_png "$T/overlay.png" && [ "$(png_size "$T/overlay.png")" = "640x480" ] \
  && ok "overlay PNG 640x480" || bad "overlay PNG: $(png_size "$T/overlay.png" 2>/dev/null)"
# default name and size
"$FLANGE" plot "$T/o.csv" --y mass1.s --quiet && is_png "$T/o.png" && [ "$(png_size "$T/o.png")" = "900x600" ] \
  && ok "default picture RESULT.png, 900x600" || bad "default picture"
# stacked SVG (points)
"$FLANGE" plot "$T/o.csv" --y 'mass1.s,mass1.v,damper1.f' --layout stacked -o "$T/stacked.svg" --size 700x500 --quiet
head -c 400 "$T/stacked.svg" | grep -q '<svg .*width="700pt" height="500pt"' && tail -c 20 "$T/stacked.svg" | grep -q "</svg>" \
  && ok "stacked SVG 700x500" || bad "stacked SVG: $(head -c 300 "$T/stacked.svg")"
# phase plot PDF
"$FLANGE" plot "$T/o.csv" --x mass1.s --y mass1.v -o "$T/phase.pdf" --size 600x600 --title "phase" --quiet
head -c 5 "$T/phase.pdf" | grep -q "%PDF-" && grep -aq "/MediaBox \[ 0 0 600 600 \]" "$T/phase.pdf" && tail -c 6 "$T/phase.pdf" | grep -q "%%EOF" \
  && ok "phase PDF 600x600" || bad "phase PDF"

# errors: message, status, nothing left behind
expect_fail() { # NAME STATUS FRAGMENT -- ARGS...
  local name=$1 status=$2 frag=$3; shift 4
  "$FLANGE" plot "$@" 2> "$T/err" >/dev/null; local rc=$?
  if [ $rc = "$status" ] && grep -qF -- "$frag" "$T/err" && ! ls "$T"/bad.* >/dev/null 2>&1; then ok "$name"
  else bad "$name ($rc): $(cat "$T/err")"; fi
}
expect_fail "unknown signal" 1 "o.csv: no signal matches 'nosuch.s' (the file has" -- "$T/o.csv" --y nosuch.s -o "$T/bad.png"
expect_fail "unknown x" 1 "o.csv: no signal 'nosuch' for the x axis" -- "$T/o.csv" --x nosuch --y mass1.s -o "$T/bad.png"
expect_fail "missing file" 1 "cannot open $T/missing.csv" -- "$T/missing.csv" --y mass1.s -o "$T/bad.png"
printf 'time,a\n0,1\n1,x\n' > "$T/broken.csv"
expect_fail "broken file" 1 "broken.csv:3" -- "$T/broken.csv" --y a -o "$T/bad.png"
expect_fail "format" 2 "flange plot: $T/bad.jpg: unknown picture format '.jpg' (use .png, .svg or .pdf)" -- "$T/o.csv" --y mass1.s -o "$T/bad.jpg"
expect_fail "size" 2 "--size needs WIDTHxHEIGHT" -- "$T/o.csv" --y mass1.s --size 640 -o "$T/bad.png"
expect_fail "layout" 2 "--layout must be stacked or overlay" -- "$T/o.csv" --y mass1.s --layout grid -o "$T/bad.png"
expect_fail "no signals" 2 "which signals? give them with --y" -- "$T/o.csv" -o "$T/bad.png"
expect_fail "unwritable" 1 "error: cannot create $T/nodir/x.png: No such file or directory" -- "$T/o.csv" --y mass1.s -o "$T/nodir/x.png"

# simulate --plot: the motion of the bodies by default, or the chosen signals
"$FLANGE" simulate "$EX/msl/SignConvention.mo" -o "$T/s.csv" --plot "$T/s.png" 2> "$T/s.err"
is_png "$T/s.png" && grep -q "wrote $T/s.csv (.*) and $T/s.png" "$T/s.err" && ok "simulate --plot" || bad "simulate --plot: $(cat "$T/s.err")"
"$FLANGE" simulate "$EX/msl/SignConvention.mo" -o "$T/s2.csv" --plot "$T/s2.svg" --plot-vars nosuch --quiet 2> "$T/s2.err"
[ $? = 1 ] && grep -q "no signal matches 'nosuch'" "$T/s2.err" && [ ! -e "$T/s2.svg" ] \
  && ok "simulate --plot-vars unknown" || bad "simulate --plot-vars: $(cat "$T/s2.err")"

# the summary ends every run; the progress line only on a terminal
"$FLANGE" simulate "$EX/hardstop_hysteresis.mo" -o "$T/h.csv" 2> "$T/pipe.err"
grep -q "^flange: wrote $T/h.csv (2737 output points). [0-9]* steps, [0-9]* residual and [0-9]* Jacobian evaluations; 111 state events and 0 time events; dense linear solver; .* s (model .* s, run .* s); the energy balance closes to .* of the throughput.$" "$T/pipe.err" \
  && ok "summary" || bad "summary: $(cat "$T/pipe.err")"
FLANGE_PROGRESS_AFTER=0 "$FLANGE" simulate "$EX/hardstop_hysteresis.mo" -o "$T/h.csv" 2>&1 | cat > "$T/pipe.out"
if grep -q "flange: t = " "$T/pipe.out" || grep -q $'\r' "$T/pipe.out"; then bad "progress in a pipe"; else ok "no progress in a pipe"; fi
FLANGE_PROGRESS_AFTER=0 "$FLANGE" simulate "$EX/hardstop_hysteresis.mo" -o "$T/h.csv" 2> "$T/file.err"
grep -q "flange: t = " "$T/file.err" && bad "progress in a file" || ok "no progress in a file"
if command -v script >/dev/null; then
  FLANGE_PROGRESS_AFTER=0 script -qfec "'$FLANGE' simulate '$EX/hardstop_hysteresis.mo' -o '$T/h.csv'" /dev/null > "$T/tty.out"
  grep -q "flange: t = [0-9.e+-]* of 12.5664 s ([0-9]*%), [0-9]* steps, [0-9]* events" "$T/tty.out" && grep -q "flange: wrote $T/h.csv" "$T/tty.out" \
    && ok "progress on a terminal" || bad "progress on a terminal: $(head -c 400 "$T/tty.out")"
  FLANGE_PROGRESS_AFTER=0 script -qfec "'$FLANGE' simulate '$EX/hardstop_hysteresis.mo' -o '$T/h.csv' --quiet" /dev/null > "$T/ttyq.out"
  [ ! -s "$T/ttyq.out" ] && ok "--quiet on a terminal" || bad "--quiet on a terminal: $(head -c 300 "$T/ttyq.out")"
else
  echo "skip progress on a terminal: 'script' (util-linux) is not installed"
fi

# the pictures of make run, through the example script
FLANGE="$FLANGE" "$FLANGE_SRC/scripts/example.sh" "$EX/hardstop_hysteresis.mo" "$T/run" > "$T/run.out"
[ "$(cat "$T/run.out")" = "wrote $T/run/hardstop_hysteresis.csv $T/run/hardstop_hysteresis.png $T/run/hardstop_hysteresis_time.png" ] \
  && is_png "$T/run/hardstop_hysteresis.png" && is_png "$T/run/hardstop_hysteresis_time.png" \
  && ok "example pictures" || bad "example pictures: $(cat "$T/run.out")"

if [ $fails -ne 0 ]; then echo "$fails checks failed"; exit 1; fi
echo "all plot checks passed"
