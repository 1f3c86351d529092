#!/usr/bin/env bash
# MAT results (-o result.mat): the layout of Dymola's and OpenModelica's
# result files (Aclass, name, description, dataInfo, data_1, data_2, MAT v4,
# binTrans) read back by /usr/bin/python3's scipy.io.loadmat and equal to
# the CSV of the same run; parameters in data_1; compare and plot reading
# MAT files (also one stored the other way round, binNormal); clear errors
# for damaged files; and the output rules of CSV files for MAT files too
# (a link followed, /dev/null written in place, a failed run leaves the
# previous file, the model is never the output).
. "$(dirname "$0")/../lib/cli.sh"
EX="$FLANGE_SRC/examples"
PY=/usr/bin/python3
cd "$T" || exit 1
cp "$EX/msl/Oscillator.mo" model.mo
"$PY" -c 'import scipy.io' 2>/dev/null || { echo "skip: /usr/bin/python3 has no scipy"; exit 77; }

first_err() { # STATUS MESSAGE NAME: the first line of stderr is exactly MESSAGE
  local rc=$? line; line=$(head -n 1 err)
  if [ "$rc" = "$1" ] && [ "$line" = "$2" ]; then ok "$3"; else bad "$3: status $rc, stderr: $(head -c 600 err)"; fi
}

# ---- the same run as CSV and as MAT ---------------------------------------------
"$FLANGE" simulate model.mo -o r.csv --quiet --param spring1.c=20000 || bad "CSV run"
"$FLANGE" simulate model.mo -o r.mat --param spring1.c=20000 2> err; rc=$?
[ $rc = 0 ] && grep -q '^flange: wrote r.mat (1001 output points)\. ' err && [ ! -e r.mat.units ] \
  && ok "-o r.mat: written, no units file beside it" || bad "-o r.mat: status $rc, $(cat err)"
[ "$(head -c 4 r.mat | od -An -tu4 | tr -d ' ')" = 51 ] && ok "MAT v4: the first matrix is text (type 51)" \
  || bad "MAT v4 header: $(head -c 20 r.mat | od -An -tu4)"

cat > check.py <<'EOF'
import csv, sys
import numpy as np
import scipy.io
fails = 0
def check(cond, what):
    global fails
    print(("ok   " if cond else "FAIL ") + what)
    fails += 0 if cond else 1
m = scipy.io.loadmat("r.mat", chars_as_strings=False)
def strings(a, by_column):  # a character matrix, one string per column (binTrans) or row
    a = a.T if by_column else a
    return ["".join(r).rstrip(" \0") for r in a]
check(strings(m["Aclass"], False) == ["Atrajectory", "1.1", "", "binTrans"], "Aclass: Atrajectory, 1.1, '', binTrans")
names = strings(m["name"], True)
descs = strings(m["description"], True)
info = m["dataInfo"]
d1, d2 = m["data_1"], m["data_2"]
check(info.dtype == np.int32 and info.shape == (4, len(names)) and len(descs) == len(names),
      "dataInfo: int32, 4 x %d, one column per name and description" % len(names))
with open("r.csv") as f:
    rows = list(csv.reader(f))
header, body = rows[0], rows[1:]
traj = [i for i in range(len(names)) if info[0, i] == 2]
check(names[0] == "time" and list(info[:, 0]) == [0, 1, 0, -1], "time first, dataInfo (0, 1, 0, -1)")
check([names[i] for i in traj] == header[1:], "the trajectories are the CSV's columns, in order")
check(all(list(info[:, i]) == [2, k + 2, 0, -1] for k, i in enumerate(traj)), "trajectories: dataInfo (2, row, 0, -1)")
check(d2.shape == (len(header), len(body)) and d2.dtype == np.float64,
      "data_2: (1 + %d) rows x %d points, double" % (len(header) - 1, len(body)))
check(all(float(r[0]) == t for r, t in zip(body, d2[0])), "time equals the CSV's time exactly")
same = all("%.12g" % d2[k + 1, j] == body[j][k + 1] for j in range(len(body)) for k in range(len(header) - 1))
check(same, "every value prints as the CSV's text (%.12g of the same double)")
i = names.index("mass1.s")
check(descs[i] == "absolute position of the center of the component [m]", "description of mass1.s: '%s'" % descs[i])
check(descs[names.index("mass1.v")].endswith(" [m/s]") and descs[names.index("sine1.y")] == "",
      "units in brackets; no unit, no brackets")
params = {names[i]: i for i in range(len(names)) if info[0, i] == 1}
check(d1.shape == (1 + len(params), 2) and list(d1[0]) == [0.0, 1.0], "data_1: time row (start, stop), 2 columns")
def param(name):
    i = params[name]
    check(info[2, i] == 0 and info[3, i] == 0 and info[1, i] >= 2, "%s: dataInfo (1, %d, 0, 0)" % (name, info[1, i]))
    return d1[info[1, i] - 1]
check(list(param("spring1.c")) == [20000.0, 20000.0], "spring1.c = 20000 (the run's --param) at start and end")
check(list(param("mass1.m")) == [1.0, 1.0] and list(param("sine1.f")) == [15.9155, 15.9155], "mass1.m, sine1.f")
check(descs[params["spring1.c"]] == "spring constant [N/m]", "description of spring1.c")
check(list(param("force1.useSupport")) == [0.0, 0.0], "a Boolean parameter as 0/1")
sys.exit(1 if fails else 0)
EOF
"$PY" check.py > py.out 2>&1; rc=$?
sed 's/^/  /' py.out
[ $rc = 0 ] && ok "scipy.io.loadmat reads the documented layout and the CSV's values" || bad "scipy.io.loadmat checks"

# --vars: the selection and the parameters
"$FLANGE" simulate model.mo -o v.mat --quiet --vars 'mass1.s,mass2.v' || bad "--vars run"
"$PY" -c '
import scipy.io
m = scipy.io.loadmat("v.mat", chars_as_strings=False)
names = ["".join(c).rstrip() for c in m["name"].T]
assert names[:3] == ["time", "mass1.s", "mass2.v"], names[:3]
assert m["data_2"].shape == (3, 1001) and list(m["dataInfo"][0, :3]) == [0, 2, 2]
assert "spring2.c" in names and m["data_1"].shape[0] > 1
' 2> err && ok "--vars: time, mass1.s, mass2.v in data_2, the parameters in data_1" || bad "--vars: $(tail -n 2 err)"

# ---- compare and plot read MAT files ----------------------------------------------
"$FLANGE" compare r.mat r.csv > out 2> err; rc=$?
[ $rc = 0 ] && [ "$(tail -n 1 out)" = "48 of 48 signals inside the 2e-3 tube" ] && [ ! -s err ] \
  && ok "compare r.mat r.csv: every trajectory inside the tube (parameters not compared)" || bad "compare r.mat r.csv: $rc $(tail -n 2 out) $(cat err)"
"$FLANGE" compare r.csv r.mat > out; rc=$?
[ $rc = 0 ] && [ "$(tail -n 1 out)" = "48 of 48 signals inside the 2e-3 tube" ] && ok "compare r.csv r.mat (a MAT reference)" \
  || bad "compare r.csv r.mat: $rc $(tail -n 1 out)"
# the CSV carries 12 digits, the MAT file the doubles: the deviation is the CSV's rounding
"$PY" -c '
import re, sys
worst = [float(m.group(1)) for m in re.finditer(r"worst ([0-9.e+-]+)", open("out").read())]
sys.exit(0 if len(worst) == 48 and max(worst) < 1e-9 else 1)' && ok "compare r.csv r.mat: deviations below 1e-9 (12-digit rounding)" \
  || bad "compare r.csv r.mat deviations: $(grep -v 'worst 0 ' out | head -n 3)"
"$FLANGE" compare r.mat r.mat > out; rc=$?
[ $rc = 0 ] && [ "$(grep -c 'worst 0 = 0% of tube' out)" = 48 ] && ok "compare r.mat r.mat: zero difference" \
  || bad "compare r.mat r.mat: $(head -n 3 out)"
printf 'mass1.s\nspring1.c\n' > sigs
"$FLANGE" compare r.mat r.mat --signals sigs > out; rc=$?
[ $rc = 0 ] && [ "$(tail -n 1 out)" = "2 of 2 signals inside the 2e-3 tube" ] && ok "compare --signals names a parameter of data_1" \
  || bad "compare --signals with a parameter: $rc $(cat out)"
"$FLANGE" plot r.mat --y 'mass*.s' 2> err; rc=$?
[ $rc = 0 ] && [ "$(head -c 4 r.png | od -An -c | tr -d ' ')" = '211PNG' ] && [ "$(head -n 1 err)" = "flange: wrote r.png" ] \
  && ok "plot r.mat: r.png drawn" || bad "plot r.mat: status $rc, $(cat err), $(ls)"
"$FLANGE" plot r.mat --x mass1.s --y mass1.v -o phase.svg --quiet && grep -q '<svg' phase.svg \
  && ok "plot r.mat --x (phase plot, SVG)" || bad "plot r.mat --x"
"$FLANGE" simulate model.mo -o p.mat --quiet --plot p.svg --plot-vars mass1.s && [ -s p.svg ] && [ -s p.mat ] \
  && ok "simulate -o p.mat --plot: the picture from the MAT result" || bad "simulate -o .mat --plot: $(ls)"

# a result stored the other way round (binNormal: one variable per row, one
# time point per row of data_2), as other tools may write it, made by scipy
"$PY" -c '
import numpy as np, scipy.io
names = ["Time", "x", "y", "k"]
w = max(map(len, names))
t = np.linspace(0.0, 1.0, 11)
scipy.io.savemat("n.mat", {
    "Aclass": np.array(["Atrajectory", "1.1        ", "           ", "binNormal  "]),
    "name": np.array([n.ljust(w) for n in names]),
    "description": np.array([d.ljust(20) for d in ["Time in [s]", "position [m]", "speed [m/s|km/h]", "gain"]]),
    "dataInfo": np.array([[0, 1, 0, -1], [2, 2, 0, -1], [2, -3, 0, -1], [1, 2, 0, 0]], dtype=np.int32),
    "data_1": np.array([[0.0, 5.0], [1.0, 5.0]]),
    "data_2": np.column_stack([t, t * t, 2 * t]),
}, format="4")' || bad "writing n.mat"
printf 'time,x,y\n' > n.csv
"$PY" -c '
for i in range(11):
    t = i / 10
    print("%r,%r,%r" % (t, t * t, -2 * t))' >> n.csv
"$FLANGE" compare n.mat n.csv > out; rc=$?
[ $rc = 0 ] && [ "$(tail -n 1 out)" = "2 of 2 signals inside the 2e-3 tube" ] && [ "$(grep -c 'worst 0 = 0% of tube' out)" = 2 ] \
  && ok "a binNormal file with a negated alias (y = -data_2 row 3): zero difference" || bad "binNormal: $rc $(cat out)"
printf 'k\n' > ks
"$FLANGE" compare n.mat n.mat --signals ks > /dev/null && ok "binNormal: a parameter in data_1" || bad "binNormal parameter"
"$FLANGE" plot n.mat --y x,y -o n.png --quiet && [ -s n.png ] && ok "plot a binNormal file" || bad "plot binNormal"

# ---- damaged files: a message, no crash ---------------------------------------------
head -c 1000 r.mat > trunc.mat
"$FLANGE" compare trunc.mat r.csv > /dev/null 2> err
first_err 2 "trunc.mat: error: truncated: matrix 'name' (19 x 79) needs more bytes than the 904 left in the file" "truncated MAT file"
head -c 90 r.mat > trunc2.mat
"$FLANGE" plot trunc2.mat --y x 2> err
first_err 1 "trunc2.mat: error: truncated: the matrix at byte 71 has no complete header" "MAT file cut in a header"
"$PY" -c '
import random
random.seed(7)
open("garbage.mat", "wb").write(bytes(random.randrange(256) for _ in range(4096)))'
"$FLANGE" compare garbage.mat r.csv 2> err
first_err 2 "garbage.mat: error: not a MAT v4 file: it does not start with a matrix header" "garbage .mat"
: > empty.mat
"$FLANGE" plot empty.mat --y x 2> err
first_err 1 "empty.mat: error: the file is empty: not a MAT file" "empty .mat"
"$PY" -c 'import scipy.io, numpy; scipy.io.savemat("v5.mat", {"x": numpy.arange(3.0)})'
"$FLANGE" compare v5.mat r.csv 2> err
first_err 2 "v5.mat: error: a MAT v5/v7 file: flange reads MAT v4 result files (as Dymola and OpenModelica write)" "MAT v5 file"
"$PY" -c 'import scipy.io, numpy; scipy.io.savemat("plain.mat", {"x": numpy.arange(3.0)}, format="4")'
"$FLANGE" compare plain.mat r.csv 2> err
first_err 2 "plain.mat: error: not a result file: it lacks Aclass" "a MAT v4 file that is no result"
# a damaged dataInfo: a row data_2 does not have
"$PY" -c '
import scipy.io
m = scipy.io.loadmat("r.mat", chars_as_strings=False)
m["dataInfo"][1, 5] = 99
m["Aclass"] = scipy.io.loadmat("r.mat")["Aclass"]
m["name"] = ["".join(c) for c in m["name"].T]
m["description"] = ["".join(c) for c in m["description"].T]
for k in [k for k in m if k.startswith("__")]: del m[k]
import numpy
m["name"] = numpy.array(m["name"]).reshape(-1)
m["description"] = numpy.array(m["description"]).reshape(-1)
m["Aclass"][3] = "binNormal  "
m["dataInfo"] = m["dataInfo"].T.copy()
m["data_1"] = m["data_1"].T.copy()
m["data_2"] = m["data_2"].T.copy()
scipy.io.savemat("badinfo.mat", m, format="4")'
"$FLANGE" compare badinfo.mat r.csv 2> err
first_err 2 "badinfo.mat: error: dataInfo of 'mass1.flange_a.f' points to data_2 row 99, which the file does not have" "dataInfo out of range"
"$PY" -c '
b = bytearray(open("r.mat", "rb").read())
b[71:75] = (7777).to_bytes(4, "little")  # the type of the second matrix (name)
open("badtype.mat", "wb").write(b)'
"$FLANGE" compare badtype.mat r.csv 2> err
first_err 2 "badtype.mat: error: damaged: the matrix at byte 71 has no valid type (7777)" "a damaged matrix header"
printf 'time,x\n0,1\n1,2\n2,3\n3,4\n' > text.mat
"$FLANGE" compare text.mat r.csv 2> err
first_err 2 "text.mat: error: not a MAT v4 file: it does not start with a matrix header" "a text file named .mat"

# ---- where the file goes -----------------------------------------------------------
cp r.mat keep.mat
mkdir sub && echo old > sub/real.mat && ln -s sub/real.mat link.mat
"$FLANGE" simulate model.mo -o link.mat --quiet --param spring1.c=20000
[ -L link.mat ] && [ "$(readlink link.mat)" = sub/real.mat ] && cmp -s sub/real.mat r.mat \
  && ok "-o a symbolic link: the link stays, the file it names gets the result" || bad "-o link.mat: $(ls -l link.mat sub)"
"$FLANGE" simulate model.mo -o /dev/null --quiet && [ -c /dev/null ] && ok "-o /dev/null: still a device" \
  || bad "-o /dev/null: $(ls -l /dev/null)"
ln -s /dev/null null.mat
"$FLANGE" simulate model.mo -o null.mat --quiet && [ -L null.mat ] && [ -c /dev/null ] \
  && ok "-o a .mat link to /dev/null: written in place, the link and the device stay" || bad "-o null.mat: $(ls -l null.mat /dev/null)"
# a run that fails on its way (more output points than --max-rows allows,
# through the events): the previous file untouched, no temporary file
cp "$EX/hardstop_hysteresis.mo" hs.mo
cp r.mat hs.mat && cp r.mat hs.before
"$FLANGE" simulate hs.mo -o hs.mat --max-rows 2600 2> err; rc=$?
[ $rc = 1 ] && grep -q '^error: the run was stopped at t = ' err && cmp -s hs.mat hs.before \
  && [ -z "$(ls -A | grep tmp)" ] && ok "a failed run leaves the previous .mat as it was, no temporary file" \
  || bad "failed run: status $rc, $(cat err), $(ls)"
"$FLANGE" simulate hs.mo -o new.mat --max-rows 2600 2> /dev/null
[ ! -e new.mat ] && [ -z "$(ls -A | grep tmp)" ] && ok "a failed run leaves no new .mat" || bad "failed run: $(ls)"
chmod 600 keep.mat
"$FLANGE" simulate model.mo -o keep.mat --quiet
[ "$(stat -c %a keep.mat)" = 600 ] && ok "a replaced .mat keeps its permissions" || bad "permissions $(stat -c %a keep.mat)"
# the model is never the output, whatever it is called
cp model.mo m.mat
"$FLANGE" simulate m.mat -o m.mat 2> err
first_err 2 "flange simulate: -o m.mat would overwrite the model file m.mat" "-o the model file named .mat"
cmp -s m.mat model.mo && ok "the model file is untouched" || bad "the model file changed"
"$FLANGE" simulate model.mo -o out.MAT --quiet && [ "$(head -c 4 out.MAT | od -An -tu4 | tr -d ' ')" = 51 ] \
  && ok ".MAT (upper case) is a MAT file" || bad ".MAT"
"$FLANGE" simulate model.mo -o sub/x.mat/y.mat 2> err
first_err 1 "error: cannot create sub/x.mat/y.mat: No such file or directory" "-o in a missing directory"

[ $fails = 0 ] && echo "all passed" || echo "$fails failed"
exit $((fails > 0))
