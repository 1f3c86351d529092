#!/usr/bin/env bash
# Output files and run options on the command line: -o - (CSV on stdout,
# the summary alone on stderr), -o /dev/null, a symbolic link and a FIFO
# (written in place, nothing replaced), result and picture formats by
# extension, -o naming the model, SIGTERM/SIGINT/SIGHUP during a run (no
# temporary file, the previous result untouched, the signal's exit status),
# the checks of start, stop, interval and tolerance, the one CSV reader of
# compare and plot on malformed files, and the warnings about a large result
# and a long run. Every message is checked whole.
. "$(dirname "$0")/../lib/cli.sh"
EX="$FLANGE_SRC/examples"
cd "$T" || exit 1
cp "$EX/msl/Oscillator.mo" model.mo
cp model.mo model.orig

# the first line of a command's stderr is exactly $2, its status $1
first_err() { # STATUS MESSAGE NAME
  local rc=$? line; line=$(head -n 1 err)
  if [ "$rc" = "$1" ] && [ "$line" = "$2" ]; then ok "$3"; else bad "$3: status $rc, stderr: $(head -c 600 err)"; fi
}
# no file but the ones listed is left in the scratch directory
only_files() { # NAME FILES...
  local name=$1; shift
  local want have; want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
  have=$(ls -A | sort | tr '\n' ' ')
  [ "$have" = "$want" ] && ok "$name: no file left behind" || bad "$name: files '$have', expected '$want'"
}
base="model.mo model.orig"

# ---- -o - ------------------------------------------------------------------
"$FLANGE" simulate model.mo -o ref.csv --quiet || bad "reference run"
"$FLANGE" simulate model.mo -o - > stdout.csv 2> err; rc=$?
[ $rc = 0 ] && cmp -s stdout.csv ref.csv && ok "-o -: the CSV on stdout is the file -o FILE writes" \
  || bad "-o -: status $rc, $(cmp stdout.csv ref.csv 2>&1)"
[ "$(wc -l < err)" = 1 ] && grep -q "^flange: wrote standard output (1001 output points)\. " err \
  && ok "-o -: only the summary on stderr" || bad "-o -: stderr $(cat err)"
[ ! -e - ] && [ ! -e ./-.units ] && ok "-o -: no file named '-', no units file" || bad "-o -: files $(ls)"
"$FLANGE" simulate model.mo -o - --stats > /dev/null 2> err
first_err 2 "flange simulate: --stats prints on standard output, where -o - writes the CSV" "-o - with --stats"
"$FLANGE" simulate model.mo -o - --plot p.png > /dev/null 2> err
first_err 2 "flange simulate: --plot reads the result back from its file: not with -o -" "-o - with --plot"
rm -f stdout.csv ref.csv ref.csv.units err

# ---- devices, links, FIFOs ---------------------------------------------------
"$FLANGE" simulate model.mo -o ref.csv --quiet --vars mass1.s,mass1.v
"$FLANGE" simulate model.mo -o /dev/null --quiet --vars mass1.s,mass1.v && [ -c /dev/null ] && [ ! -e /dev/null.units ] \
  && ok "-o /dev/null: written, still a character device, no units beside it" || bad "-o /dev/null: $(ls -l /dev/null)"
# /dev/stdout into a pipe: the link is not replaced
"$FLANGE" simulate model.mo -o /dev/stdout --quiet --vars mass1.s,mass1.v | cat > piped.csv
cmp -s piped.csv ref.csv && [ -L /dev/stdout ] && ok "-o /dev/stdout into a pipe" || bad "-o /dev/stdout: $(ls -l /dev/stdout)"
# ... and into a file, with --stats after the CSV through the same stream
"$FLANGE" simulate model.mo -o /dev/stdout --quiet --vars mass1.s,mass1.v --stats > redirected.txt
head -n 1002 redirected.txt | cmp -s - ref.csv && [ "$(wc -l < redirected.txt)" = 1003 ] \
  && tail -n 1 redirected.txt | grep -q '^steps=' && ok "-o /dev/stdout into a file: the CSV, then the --stats line" \
  || bad "-o /dev/stdout into a file: $(tail -n 2 redirected.txt)"
rm -f piped.csv redirected.txt
# a symbolic link stays a link; the file it names gets the result
mkdir sub && echo old > sub/real.csv && ln -s sub/real.csv link.csv
"$FLANGE" simulate model.mo -o link.csv --quiet --vars mass1.s,mass1.v
[ -L link.csv ] && [ "$(readlink link.csv)" = sub/real.csv ] && cmp -s sub/real.csv ref.csv && [ -f link.csv.units ] \
  && ok "-o through a symbolic link: the link stays, its file is replaced" || bad "symbolic link: $(ls -l link.csv sub)"
rm -rf sub link.csv link.csv.units
# a FIFO: written in place while another process reads it (bounded by timeout)
mkfifo fifo.csv
timeout 60 cat fifo.csv > from_fifo.csv & reader=$!
timeout 60 "$FLANGE" simulate model.mo -o fifo.csv --quiet --vars mass1.s,mass1.v; rc=$?
wait $reader
[ $rc = 0 ] && [ -p fifo.csv ] && cmp -s from_fifo.csv ref.csv && [ ! -e fifo.csv.units ] \
  && ok "-o FIFO: written in place, read by another process, still a FIFO" || bad "FIFO: status $rc, $(ls -l fifo.csv)"
rm -f fifo.csv from_fifo.csv ref.csv ref.csv.units
only_files "devices, links, FIFOs" $base

# ---- formats and the model file -------------------------------------------------
"$FLANGE" simulate model.mo -o out.xyz 2> err
first_err 2 "flange simulate: out.xyz: flange writes results as CSV or MAT, not '.xyz' (a .csv or .mat name, or - for standard output)" ".xyz refused"
"$FLANGE" simulate model.mo --plot out.jpg 2> err
first_err 2 "flange simulate: out.jpg: unknown picture format '.jpg' (use .png, .svg or .pdf)" "--plot .jpg refused"
"$FLANGE" simulate model.mo -o model.mo 2> err
first_err 2 "flange simulate: -o model.mo would overwrite the model file model.mo" "-o the model"
"$FLANGE" simulate model.mo -o ./model.mo 2> err
first_err 2 "flange simulate: -o ./model.mo would overwrite the model file model.mo" "-o the model as ./"
ln -s model.mo alias.csv
"$FLANGE" simulate model.mo -o alias.csv 2> err
first_err 2 "flange simulate: -o alias.csv would overwrite the model file model.mo" "-o a link to the model"
"$FLANGE" simulate alias.csv -o "$T/model.mo" 2> err
first_err 2 "flange simulate: -o $T/model.mo would overwrite the model file alias.csv" "model through a link, -o its file"
# the default name <Model>.csv, when the model file has that very name
cp model.mo Oscillator.csv
"$FLANGE" simulate Oscillator.csv 2> err
first_err 2 "flange simulate: -o Oscillator.csv would overwrite the model file Oscillator.csv" "default name = the model"
cmp -s Oscillator.csv model.orig && cmp -s model.mo model.orig && ok "the model files are unchanged" || bad "a model file changed"
rm -f alias.csv Oscillator.csv err
only_files "formats" $base

# ---- signals ----------------------------------------------------------------
# a run of 1e7 rows; once its temporary file has data, the signal; the
# previous result must stay as it was. A script's background jobs ignore
# SIGINT (and flange keeps a signal ignored): the run gets the default back
# through an exec from python.
default_sigint='import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])'
for sig in TERM INT HUP; do
  echo previous > run.csv
  /usr/bin/python3 -c "$default_sigint" "$FLANGE" simulate model.mo -o run.csv --stop 10000 --interval 0.001 \
    --vars mass1.s --max-rows 1000000000 --quiet 2> err & pid=$!
  started=0
  for i in $(seq 600); do
    tmp=$(ls run.csv.tmp* 2>/dev/null | head -n 1)
    if [ -n "$tmp" ] && [ -s "$tmp" ]; then started=1; break; fi
    sleep 0.1
  done
  kill -s "$sig" $pid; { wait $pid; } 2> /dev/null; rc=$?
  want=$((128 + $(kill -l "$sig")))
  if [ $started = 1 ] && [ $rc = $want ] && [ "$(cat run.csv)" = previous ] && [ ! -s err ]; then
    ok "SIG$sig while writing: status $rc, the previous result untouched"
  else
    bad "SIG$sig: started $started, status $rc (expected $want), run.csv $(head -c 40 run.csv), stderr $(cat err)"
  fi
  only_files "SIG$sig" $base run.csv err
done
rm -f run.csv err

# ---- start, stop, interval, tolerance ------------------------------------------
usage_case() { # NAME MESSAGE ARGS...  (the previous result is kept)
  local name=$1 msg=$2; shift 2
  echo previous > keep.csv
  "$FLANGE" simulate model.mo -o keep.csv "$@" 2> err
  first_err 2 "flange simulate: $msg" "$name"
  [ "$(cat keep.csv)" = previous ] && [ ! -e keep.csv.units ] || bad "$name: the previous result changed"
}
usage_case "stop before start" "--stop -1 must be greater than the start time 0" --stop -1
usage_case "stop equal to start" "--stop 0 must be greater than the start time 0" --stop 0
usage_case "start after the model's stop" "--start 5 must be less than the stop time 1 of the model" --start 5
usage_case "zero interval" "--interval must be positive, got '0'" --interval 0
usage_case "negative interval" "--interval must be positive, got '-0.1'" --interval -0.1
usage_case "NaN interval" "--interval needs a number, got 'nan'" --interval nan
usage_case "infinite stop" "--stop needs a number, got 'inf'" --stop inf
usage_case "tolerance 1e-300" "--tolerance must be between 1e-14 and 0.01, got '1e-300'" --tolerance 1e-300
usage_case "tolerance 0" "--tolerance must be between 1e-14 and 0.01, got '0'" --tolerance 0
usage_case "tolerance 0.5" "--tolerance must be between 1e-14 and 0.01, got '0.5'" --tolerance 0.5
usage_case "bad --max-rows" "--max-rows needs a positive whole number, got '2.5'" --max-rows 2.5
"$FLANGE" simulate model.mo -o o.csv --tolerance 1e-14 --interval 0.1 --quiet && ok "tolerance 1e-14 accepted" \
  || bad "tolerance 1e-14"
"$FLANGE" simulate model.mo -o o.csv --tolerance 0.01 --interval 0.1 --quiet 2> /dev/null && ok "tolerance 0.01 accepted" \
  || bad "tolerance 0.01"
# from the model's annotation: the library's message, status 1
sed 's/annotation *(experiment(/annotation(experiment(Tolerance=1e-300, /' model.mo > tight.mo
grep -q "Tolerance=1e-300" tight.mo || bad "could not set the tolerance of the model"
"$FLANGE" simulate tight.mo -o o2.csv 2> err
first_err 1 "error: the tolerance must be between 1e-14 and 0.01 (got 1e-300)" "annotation Tolerance=1e-300"
rm -f o.csv o.csv.units keep.csv tight.mo err
only_files "option checks" $base

# ---- malformed CSVs for compare and plot -----------------------------------
printf 'time,x\n0,0\n1,1\n' > ref.csv
head -c 300 "$FLANGE" > garbage.csv
printf '0,1\n1,2\n' > noheader.csv
printf 'time,x\n0,1\n1,2,3\n' > ragged.csv
printf 'time,x\n0,1\n1,abc\n' > text.csv
printf 'time,x\n0,1\n1,nan\n' > nan.csv
printf 'time,x\n0,1\n1,2\n0.5,3\n' > unsorted.csv
: > empty.csv
check_bad_csv() { # FILE MESSAGE
  "$FLANGE" compare "$1" ref.csv > out 2> err; local rc=$?
  if [ $rc = 2 ] && [ "$(cat err)" = "$2" ] && [ ! -s out ]; then ok "compare $1"; else
    bad "compare $1: status $rc, stderr $(head -c 300 err | od -c | head -n 3)"; fi
  "$FLANGE" compare ref.csv "$1" > out 2> err; rc=$?
  [ $rc = 2 ] && [ "$(cat err)" = "$2" ] && ok "compare against $1" || bad "compare against $1: status $rc, $(cat -v err)"
  "$FLANGE" plot "$1" --y x -o pic.png 2> err; rc=$?
  if [ $rc = 1 ] && [ "$(cat err)" = "$2" ] && [ ! -e pic.png ]; then ok "plot $1"; else
    bad "plot $1: status $rc, stderr $(cat -v err)"; fi
}
check_bad_csv garbage.csv "garbage.csv:1:1: error: binary data (byte 0x7f): not a CSV table"
check_bad_csv noheader.csv "noheader.csv:1:1: error: no header: the first line holds numbers where the column names (time, ...) belong"
check_bad_csv ragged.csv "ragged.csv:3:5: error: expected 2 values, found 3"
check_bad_csv text.csv "text.csv:3:3: error: 'abc' is not a number"
check_bad_csv nan.csv "nan.csv:3:3: error: 'nan' is not a finite number"
check_bad_csv unsorted.csv "unsorted.csv:4:1: error: time decreases from 1 to 0.5"
check_bad_csv empty.csv "empty.csv: error: empty file (no header)"
rm -f ref.csv garbage.csv noheader.csv ragged.csv text.csv nan.csv unsorted.csv empty.csv out err
only_files "malformed CSVs" $base

# ---- pictures through links ------------------------------------------------------
"$FLANGE" simulate model.mo -o r.csv --quiet
mkdir pics && ln -s pics/real.png pic.png
"$FLANGE" plot r.csv --y mass1.s -o pic.png --quiet && [ -L pic.png ] && [ "$(od -An -c -N4 pics/real.png | tr -d ' ')" = "211PNG" ] \
  && ok "plot -o through a symbolic link: the link stays" || bad "plot through a link: $(ls -l pic.png pics)"
"$FLANGE" plot r.csv --y mass1.s -o r.csv 2> err
first_err 2 "flange plot: r.csv: unknown picture format '.csv' (use .png, .svg or .pdf)" "plot -o the result"
rm -rf pics pic.png r.csv r.csv.units err
only_files "pictures" $base

# ---- a large result, a long run ----------------------------------------------------
# with --max-rows 1000 the warning starts above 100 rows; above 1000 the run is refused
"$FLANGE" simulate model.mo -o big.csv --vars mass1.s --interval 0.005 --max-rows 1000 --quiet 2> err
first_err 0 "warning: the result will have 201 rows of 2 columns, up to 9.1 kB: a larger --interval or fewer --vars make it smaller" \
  "large-output warning before the run"
[ "$(wc -l < err)" = 1 ] && [ "$(wc -l < big.csv)" = 202 ] && ok "warned once, the run went on" || bad "warning: $(cat err)"
"$FLANGE" simulate model.mo -o big.csv --vars mass1.s --interval 0.02 --max-rows 1000 --quiet 2> err
[ $? = 0 ] && [ ! -s err ] && ok "no warning at 51 rows" || bad "51 rows: $(cat err)"
rm -f big.csv big.csv.units
echo previous > big.csv
"$FLANGE" simulate model.mo -o big.csv --vars mass1.s --interval 0.0005 --max-rows 1000 2> err
first_err 1 "error: the output interval 0.0005 from 0 to 1 gives 2001 output points, more than the limit of 1000 (choose a larger interval, or raise the limit: fl_sim_opts.max_outputs, flange simulate --max-rows)" \
  "above --max-rows: refused"
[ "$(cat big.csv)" = previous ] && [ ! -e big.csv.units ] && ok "refused run: the previous result kept" \
  || bad "refused run changed big.csv"
FLANGE_WARN_BYTES=5000 "$FLANGE" simulate model.mo -o big.csv --vars mass1.s --quiet 2> err
first_err 0 "warning: the result will have 1001 rows of 2 columns, up to 45 kB: a larger --interval or fewer --vars make it smaller" \
  "warning above FLANGE_WARN_BYTES"
# to stdout as well (it is a file here)
"$FLANGE" simulate model.mo -o - --vars mass1.s --interval 0.005 --max-rows 1000 --quiet 2> err > /dev/null
first_err 0 "warning: the result will have 201 rows of 2 columns, up to 9.1 kB: a larger --interval or fewer --vars make it smaller" \
  "large-output warning with -o -"
# StopTime 1e9 for an undamped oscillator of period 0.63 s: off a terminal,
# one warning after the first second, while it runs
cat > long.mo <<'EOF'
model Osc
  Modelica.Mechanics.Translational.Components.Fixed fixed;
  Modelica.Mechanics.Translational.Components.Spring spring(c=100);
  Modelica.Mechanics.Translational.Components.Mass mass(m=1, s(start=1, fixed=true), v(start=0, fixed=true));
equation
  connect(fixed.flange, spring.flange_a);
  connect(spring.flange_b, mass.flange_a);
end Osc;
EOF
"$FLANGE" simulate long.mo -o long.csv --stop 1e9 --interval 1e7 2> err & pid=$!
seen=0
for i in $(seq 300); do grep -q "warning: a long run" err && { seen=1; break; }; sleep 0.1; done
kill $pid 2>/dev/null; wait $pid
[ $seen = 1 ] && [ "$(wc -l < err)" = 1 ] \
  && grep -Eq "^warning: a long run: model time [0-9.e+-]+ of 1e\+09 s after [0-9.]+ s, about [0-9.e+]+ (s|minutes|hours|days|years) to go$" err \
  && ok "long-run warning off a terminal" || bad "long-run warning: $(cat err)"
"$FLANGE" simulate long.mo -o long.csv --stop 1e9 --interval 1e7 --quiet 2> err & pid=$!
sleep 2; kill $pid 2>/dev/null; wait $pid
[ ! -s err ] && ok "--quiet: no long-run warning" || bad "--quiet long run: $(cat err)"
rm -f big.csv big.csv.units long.mo err
only_files "large and long runs" $base

[ $fails = 0 ] && echo "all passed" || echo "$fails failed"
exit $((fails > 0))
