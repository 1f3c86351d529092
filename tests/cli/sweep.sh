#!/usr/bin/env bash
# flange sweep: the rows of a study equal single runs of flange simulate
# (the Python module gives those runs' doubles; the collected quantities
# recomputed from them); threads and MPI ranks give the same file; a
# structural parameter (a mass) is swept; a failing run is a row with its
# message; a study killed halfway and resumed has every run exactly once
# and the file of an uninterrupted study; shards merged give the same file;
# samples are reproducible and a Latin hypercube puts one sample in each
# stratum; explicit runs from a file; and the usage errors, exactly.
. "$(dirname "$0")/../lib/cli.sh"
EX="$FLANGE_SRC/examples"
PY=/usr/bin/python3
cd "$T" || exit 1
cp "$EX/msl/Oscillator.mo" model.mo
"$PY" -c 'import numpy' 2>/dev/null || { echo "skip: /usr/bin/python3 has no numpy"; exit 77; }
COLS='max(mass2.s),final(mass2.v),mean(abs(mass2.v)),at(mass2.s, 0.5),min(abs(mass1.s)),count_events'

first_err() { # STATUS MESSAGE NAME: the first line of stderr is exactly MESSAGE
  local rc=$? line; line=$(head -n 1 err)
  if [ "$rc" = "$1" ] && [ "$line" = "$2" ]; then ok "$3"; else bad "$3: status $rc, stderr: $(head -c 600 err)"; fi
}

# ---- a grid with a run-time and a structural parameter ----------------------
"$FLANGE" sweep model.mo --param damper1.d=1,10,100 --param mass2.m=1:2:3 --collect "$COLS" -o grid.csv \
  --threads 2 2> err && ok "grid: exit 0" || bad "grid: $(cat err)"
grep -q '^sweep: 9 runs, 2 parameter(s), 1 structural (3 compilations)$' err && ok "mass2.m is structural: 3 compilations" \
  || bad "grid summary: $(cat err)"
[ "$(head -n 1 grid.csv)" = 'run,damper1.d,mass2.m,status,message,max(mass2.s),final(mass2.v),mean(abs(mass2.v)),"at(mass2.s, 0.5)",min(abs(mass1.s)),count_events' ] \
  && ok "header: run, parameters, status, message, collected as written" || bad "header: $(head -n 1 grid.csv)"
cut -d, -f1-5 grid.csv | tr '\n' ' ' | grep -q '^run,damper1.d,mass2.m,status,message 0,1,1,ok,"" 1,1,1.5,ok,"" 2,1,2,ok,"" 3,10,1,ok,"" .* 8,100,2,ok,"" $' \
  && ok "full-factorial grid, the last --param fastest" || bad "grid rows: $(cut -d, -f1-5 grid.csv | tr '\n' ' ')"
"$FLANGE" sweep model.mo --param damper1.d=1,10,100 --param mass2.m=1:2:3 --collect "$COLS" -o grid1.csv \
  --threads 1 --quiet && cmp -s grid.csv grid1.csv && ok "--threads 1 and --threads 2: the same file" \
  || bad "threads 1 vs 2 differ: $(diff grid.csv grid1.csv | head -5)"

# every row against its single run, through the Python module (the CLI's doubles)
export PYTHONPATH="$FLANGE_SRC/python" FLANGE_LIB="$FLANGE_BUILD/libflange.so" PYTHONDONTWRITEBYTECODE=1
if ! "$PY" -c 'import flange' 2>/dev/null; then
  echo "note: the Python module cannot load $FLANGE_LIB (a sanitizer build): the rows are checked in the normal build"
elif "$PY" - <<'PYEOF'
import csv, math, sys
import numpy as np
import flange
fails = 0
rows = list(csv.DictReader(open("grid.csv")))
for r in rows:
    res = flange.simulate("model.mo", params={"damper1.d": float(r["damper1.d"]), "mass2.m": float(r["mass2.m"])})
    t, s2, v2, s1 = res["time"], res["mass2.s"], res["mass2.v"], res["mass1.s"]
    want = {"max(mass2.s)": s2.max(), "final(mass2.v)": v2[-1],
            "mean(abs(mass2.v))": np.trapz(np.abs(v2), t) / (t[-1] - t[0]),
            "at(mass2.s, 0.5)": np.interp(0.5, t, s2), "min(abs(mass1.s))": np.abs(s1).min(), "count_events": 0}
    for k, w in want.items():
        got = float(r[k])
        exact = k not in ("mean(abs(mass2.v))", "at(mass2.s, 0.5)")
        good = got == w if exact else abs(got - w) <= 1e-12 * max(1.0, abs(w))
        if not good:
            print("FAIL run %s %s: %r, single run %r" % (r["run"], k, got, w))
            fails += 1
sys.exit(1 if fails else 0)
PYEOF
then ok "9 rows equal single runs (max, final, min exactly; mean and at within 1e-12)"; else bad "rows vs single runs"; fi

# ---- plots of a study: a quantity over a parameter, one line per other value -------
"$FLANGE" plot grid.csv --x damper1.d --y 'max(mass2.s)' -o grid.svg --quiet || bad "plot of a study table"
cols=$(grep -o 'stroke:rgb([0-9.%,]*)' grid.svg | sort | uniq -c | awk '$1 == 2' | wc -l)
[ "$cols" = 3 ] && ok "plot of the table: 3 lines (one per mass2.m), each in the legend" || bad "plot lines: $cols"
"$FLANGE" plot grid.csv --y 'max(mass2.s)' -o g2.svg 2> err
first_err 1 "error: grid.csv: a study table: give the parameter for the x axis (--x damper1.d)" "plot of a table without --x"

# ---- HDF5: the table, the definition, the trajectories ---------------------------
"$FLANGE" sweep model.mo --param damper1.d=1,10,100 --param mass2.m=1:2:3 --collect "$COLS" --save 'mass2.s,mass2.v' \
  -o grid.h5 --quiet || bad "HDF5 study"
"$FLANGE" sweep --merge grid.h5 -o grid_h5.csv 2> err && cmp -s grid_h5.csv grid.csv \
  && ok "HDF5 read back by flange (--merge into CSV) = the CSV study" || bad "h5 -> csv differs: $(cat err)"
grep -q "^warning: grid_h5.csv: a CSV file holds the table only: the saved trajectories are left out$" err \
  && ok "converting to CSV says the trajectories stay behind" || bad "no warning: $(cat err)"
if "$PY" -c 'import h5py' 2>/dev/null; then
  "$PY" - <<'PYEOF' && ok "h5py: the table equals the CSV, definition and trajectories there" || bad "h5py read-back"
import csv, math
import h5py, numpy as np
rows = list(csv.DictReader(open("grid.csv")))
f = h5py.File("grid.h5", "r")
cols = [c.decode() if isinstance(c, bytes) else c for c in f["table"].attrs["columns"]]
assert cols == list(rows[0].keys()), cols
for c in cols:
    d = f["table"][c]
    for i, r in enumerate(rows):
        v = d[i]
        if isinstance(v, bytes): v = v.decode()
        if isinstance(v, str): assert v == r[c], (c, v, r[c])
        else: assert v == float(r[c]), (c, v, r[c])
defs = [p.decode() if isinstance(p, bytes) else p for p in f.attrs["parameters"]]
assert defs == ["damper1.d=1,10,100", "mass2.m=1:2:3"], defs
assert list(f.attrs["structural"]) == [0, 1]
assert "model Oscillator" in (f.attrs["model_text"] if isinstance(f.attrs["model_text"], str) else f.attrs["model_text"].decode())
tr = f["trajectories"]
assert len(tr) == 9 and len(tr["run_000004"]["time"]) == 1001
assert float(np.max(tr["run_000004"]["mass2.s"])) == float(rows[4]["max(mass2.s)"])
PYEOF
else
  echo "skip: /usr/bin/python3 has no h5py: the HDF5 file was checked through flange only"
fi
for i in 0 1; do "$FLANGE" sweep model.mo --param damper1.d=1,10,100 --param mass2.m=1:2:3 --collect "$COLS" \
  --save 'mass2.s,mass2.v' --shard $i/2 -o part$i.h5 --quiet || bad "h5 shard $i"; done
"$FLANGE" sweep --merge part1.h5 part0.h5 -o merged.h5 && "$FLANGE" sweep --merge merged.h5 -o merged_h5.csv 2>/dev/null \
  && cmp -s merged_h5.csv grid.csv && ok "HDF5 shards merged = the whole study" || bad "h5 shards"
"$FLANGE" sweep --merge part1.h5 -o lone.h5 2> err
first_err 1 "error: --merge: run 0 is missing (the study has 9 runs, the shards hold 5)" "an HDF5 shard alone: runs missing"
"$FLANGE" sweep --merge part0.h5 -o lone.h5 2> err
first_err 1 "error: --merge: run 4 is missing (the study has 9 runs, the shards hold 4)" "the first HDF5 shard alone: the study's size tells"
"$FLANGE" plot grid.h5 --y mass2.s -o traj.svg --quiet && \
  [ "$(grep -o 'stroke:rgb([0-9.%,]*)' traj.svg | sort -u | grep -vc 'rgb(0%,0%,0%)\|rgb(100%,100%,100%)\|rgb(88.235294%')" -ge 8 ] \
  && ok "plot of the saved trajectories: a line per run" || bad "trajectory plot"

# ---- failing runs are rows -------------------------------------------------------
"$FLANGE" sweep model.mo --param spring2.c=-1,1e4 --param damper1.d=5 --collect 'max(mass2.s)' -o fail.csv --quiet \
  && ok "failing runs: exit 0" || bad "failing runs: exit $?"
[ "$(sed -n 2p fail.csv)" = '0,-1,5,failed,"spring2.c = -1 is invalid: it must be >= 0",' ] \
  && ok "a failed run: status, message, no value" || bad "failed row: $(sed -n 2p fail.csv)"
sed -n 3p fail.csv | grep -q '^1,10000,5,ok,"",-0\.49' && ok "the study goes on after it" || bad "row 1: $(sed -n 3p fail.csv)"

# ---- resume: killed halfway, resumed, every run exactly once ----------------------
ARGS=(model.mo --param damper1.d=1:100:300 --collect 'max(mass2.s),final(mass2.v)' --threads 1)
"$FLANGE" sweep "${ARGS[@]}" -o whole.csv --quiet || bad "uninterrupted study"
"$FLANGE" sweep "${ARGS[@]}" -o cut.csv --quiet & pid=$!
for _ in $(seq 1 400); do # until about a third of the runs are in the journal
  [ -f cut.csv.journal ] && [ "$(stat -c %s cut.csv.journal)" -gt 3000 ] && break; sleep 0.01; done
kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
if [ -f cut.csv ]; then
  skip_resume=1; echo "note: the study ended before it could be killed (a fast machine): resume checked on a cut journal"
  "$FLANGE" sweep "${ARGS[@]}" -o cut2.csv --quiet & pid=$!; sleep 0.05; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
fi
[ -f cut.csv.journal ] && [ ! -f cut.csv ] && ok "killed: a journal, no output" || bad "after kill: $(ls cut*)"
# a torn last record too
printf 'FLRF\001\002' >> cut.csv.journal
"$FLANGE" sweep "${ARGS[@]}" -o cut.csv 2> err; first_err 1 "error: cut.csv.journal exists: an earlier run of this study was interrupted; add --resume to continue it (or remove the file to start again)" "without --resume: refused"
"$FLANGE" sweep "${ARGS[@]}" -o cut.csv --resume 2> err || bad "resume: $(cat err)"
back=$(sed -n 's/^sweep: \([0-9]*\) run(s) taken back from cut.csv.journal$/\1/p' err)
now=$(sed -n 's/^sweep: 300 runs (0 failed; \([0-9]*\) run now, \([0-9]*\) taken back).*/\1 \2/p' err)
[ -n "$back" ] && [ "$back" -gt 0 ] && [ "$now" = "$((300 - back)) $back" ] \
  && ok "resume: $back taken back + $((300 - back)) run now = 300" || bad "resume counts: back=$back now=$now $(cat err)"
cmp -s whole.csv cut.csv && ok "resumed study = uninterrupted study (every run once, in order)" \
  || bad "resumed differs: $(diff whole.csv cut.csv | head -5)"
[ ! -e cut.csv.journal ] && ok "journal removed when the output is written" || bad "journal left"
"$FLANGE" sweep model.mo --param damper1.d=1:100:301 --collect 'max(mass2.s)' -o other.csv --quiet &
pid=$!; sleep 0.05; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
if [ -f other.csv.journal ]; then
  cp other.csv.journal whole.csv.journal
  "$FLANGE" sweep "${ARGS[@]}" -o whole.csv --resume 2> err
  first_err 1 "error: whole.csv.journal belongs to a different study (the model, the parameters, the collected quantities or the times differ): cannot resume it with these settings" "a journal of another study is refused"
  rm -f whole.csv.journal other.csv.journal
fi

# ---- shards and merge ------------------------------------------------------------
for i in 0 1 2; do
  "$FLANGE" sweep "${ARGS[@]}" --shard $i/3 -o shard$i.csv 2> err$i || bad "shard $i"
done
grep -q '^sweep: 100 runs (shard 1/3: runs 100 to 199 of 300), 1 parameter(s)$' err1 && ok "shard 1/3: runs 100 to 199" \
  || bad "shard summary: $(cat err1)"
"$FLANGE" sweep --merge shard2.csv shard0.csv shard1.csv -o merged.csv && cmp -s merged.csv whole.csv \
  && ok "--merge of 3 shards = the whole study" || bad "merge differs"
"$FLANGE" sweep --merge shard0.csv shard2.csv -o m2.csv 2> err
first_err 1 "error: --merge: run 100 is missing (the shards hold 200 runs)" "merge: a missing shard"
"$FLANGE" sweep --merge shard0.csv shard0.csv -o m3.csv 2> err
first_err 1 "error: --merge: run 0 is in more than one shard" "merge: a shard twice"
"$FLANGE" sweep --merge shard0.csv grid.csv -o m4.csv 2> err
first_err 1 "error: grid.csv: its columns (or saved variables, or study size) differ from those of shard0.csv: not a shard of the same study" "merge: another study"
[ ! -e m2.csv ] && [ ! -e m3.csv ] && [ ! -e m4.csv ] && ok "failed merges write nothing" || bad "a failed merge wrote"

# ---- samples ------------------------------------------------------------------------
"$FLANGE" sweep model.mo --param 'damper1.d=uniform(1,100)' --param mass2.m=1,2 --samples 50 --seed 7 \
  --collect 'final(mass2.v)' -o u.csv --quiet || bad "uniform samples"
"$FLANGE" sweep model.mo --param 'damper1.d=uniform(1,100)' --param mass2.m=1,2 --samples 50 --seed 7 \
  --collect 'final(mass2.v)' -o u2.csv --quiet --threads 1 && cmp -s u.csv u2.csv && ok "samples: the same seed, the same study" \
  || bad "samples not reproducible"
"$FLANGE" sweep model.mo --param 'damper1.d=loguniform(1,100)' --param 'spring2.c=normal(1e4,100)' --samples 400 --lhs \
  --collect 'final(mass2.v)' -o lhs.csv --quiet || bad "lhs"
"$PY" - <<'PYEOF' && ok "uniform within bounds; LHS one sample per stratum, normal mean and sigma within 1 %" || bad "samples"
import csv, math, sys
import numpy as np
from scipy.special import ndtr
u = list(csv.DictReader(open("u.csv")))
assert len(u) == 100 and [r["mass2.m"] for r in u[:2]] == ["1", "1"] and u[50]["mass2.m"] == "2", "layout"
d = np.array([float(r["damper1.d"]) for r in u])
assert (d > 1).all() and (d < 100).all() and (d[:50] == d[50:]).all(), "uniform samples"
l = list(csv.DictReader(open("lhs.csv")))
x = np.array([float(r["damper1.d"]) for r in l]); c = np.array([float(r["spring2.c"]) for r in l])
strata = np.floor(np.log(x) / np.log(100) * 400).astype(int)
assert sorted(strata) == list(range(400)), "loguniform strata"
ps = np.floor(ndtr((c - 1e4) / 100) * 400).astype(int)
assert sorted(ps) == list(range(400)), "normal strata"
assert abs(c.mean() - 1e4) < 1 and abs(c.std() - 100) < 1, (c.mean(), c.std())
PYEOF

# ---- explicit runs -----------------------------------------------------------------
printf 'damper1.d,mass2.m\n10,1.5\n100,2\n' > runs.csv
"$FLANGE" sweep model.mo --runs runs.csv --collect "$COLS" -o r.csv --quiet || bad "--runs"
[ "$(sed -n 2p r.csv)" = "$(sed -n 6p grid.csv | sed 's/^4,/0,/')" ] && [ "$(sed -n 3p r.csv)" = "$(sed -n 10p grid.csv | sed 's/^8,/1,/')" ] \
  && ok "--runs: the rows of the same parameter sets in the grid" || bad "--runs rows: $(cat r.csv)"
printf 'damper1.d,mass2.m\n10,x\n' > badruns.csv
"$FLANGE" sweep model.mo --runs badruns.csv --collect 'max(mass2.s)' -o x.csv 2> err
first_err 1 "error: badruns.csv:2:4: 'x' is not a number (mass2.m)" "--runs: a located error"

# ---- usage and definition errors -------------------------------------------------
"$FLANGE" sweep model.mo --param damper1.d=1:2 --collect 'max(mass2.s)' -o x.csv 2> err
first_err 1 "error: --param damper1.d: a range is START:STOP:N (N values from START to STOP), e.g. 0:1:11" "a bad range"
"$FLANGE" sweep model.mo --param 'damper1.d=uniform(1,2)' --collect 'max(mass2.s)' -o x.csv 2> err
first_err 1 "error: a distribution (uniform, normal, loguniform) needs --samples N" "a distribution without --samples"
"$FLANGE" sweep model.mo --param damper1.d=1,2 --collect 'max(mass9.s)' -o x.csv 2> err
first_err 1 "error: --collect max(mass9.s): the model has no variable 'mass9.s' (flange check lists them)" "an unknown variable"
"$FLANGE" sweep model.mo --param damper1.d=1,2 --collect 'median(mass2.s)' -o x.csv 2> err
first_err 1 "error: --collect 'median(mass2.s)': write final(v), max(v), min(v), mean(v), at(v, t) (of a variable v or abs(v)), count_events or status" "an unknown quantity"
"$FLANGE" sweep model.mo --param damper1.d=1,2 --collect 'at(mass2.s, 7)' -o x.csv 2> err
first_err 1 "error: --collect at(mass2.s, 7): the time 7 is outside the runs' span [0, 1]" "at() outside the run"
"$FLANGE" sweep model.mo --param nosuch.p=1,2 --collect 'max(mass2.s)' -o x.csv 2> err
first_err 1 "error: --param nosuch.p: 'Oscillator' has no element 'nosuch' (and with every other value tried)" "an unknown parameter"
"$FLANGE" sweep model.mo --param damper1.d=1,2 --collect 'max(mass2.s)' 2> err
first_err 2 "flange sweep: no output given: -o STUDY.csv or -o STUDY.h5" "no -o"
"$FLANGE" sweep model.mo --param damper1.d=1,2 --save mass2.s -o x.csv 2> err
first_err 2 "flange sweep: --save keeps trajectories in an HDF5 file: -o STUDY.h5" "--save with CSV"
"$FLANGE" sweep model.mo --param damper1.d=1,2 --collect 'max(mass2.s)' -o model.mo 2> err
first_err 2 "flange sweep: the output model.mo would overwrite an input" "the model is never the output"
[ ! -e x.csv ] && ok "failed studies write nothing" || bad "x.csv written"
cmp -s model.mo "$EX/msl/Oscillator.mo" && ok "model untouched" || bad "model changed"

# ---- MPI: the same file as the threads ---------------------------------------------
if command -v mpirun >/dev/null 2>&1; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  # the sanitizer build: what OpenMPI keeps until exit is suppressed (tests/lsan.supp) by library,
  # which needs the whole stack of each allocation (its plugins hide the rest from the fast unwinder)
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
  mpirun -n 2 --oversubscribe "$FLANGE" sweep model.mo --param damper1.d=1,10,100 --param mass2.m=1:2:3 \
    --collect "$COLS" -o mpi.csv --quiet > mpi.out 2>&1
  rc=$?
  if [ $rc = 0 ] && cmp -s mpi.csv grid.csv; then ok "mpirun -n 2: the same file as the threads"
  elif grep -q "built without MPI" mpi.out; then ok "mpirun with a flange built without MPI: refused ($(head -n 1 mpi.out))"
  else bad "mpirun -n 2: status $rc, $(head -c 600 mpi.out)"; fi
  mpirun -n 2 --oversubscribe "$FLANGE" sweep "${ARGS[@]}" -o mpi300.csv --quiet > mpi.out 2>&1 \
    && cmp -s mpi300.csv whole.csv && ok "mpirun -n 2, 300 runs: the same file" || grep -q "built without MPI" mpi.out \
    || bad "mpirun 300 runs: $(head -c 600 mpi.out)"
else
  echo "skip: mpirun is not installed (Debian: openmpi-bin): the MPI checks did not run"
fi
[ $fails = 0 ] && echo "all passed" || echo "$fails failed"
exit $((fails > 0))
