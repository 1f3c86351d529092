#!/usr/bin/env bash
# A study's result table in HDF5 (src/sweep/h5.c) as h5py sees it: the
# sample table of tests/unit/test_h5.c written by flange's writer and read
# by /usr/bin/python3's h5py and numpy (the layout: the root attributes,
# /table with its `columns` and one dataset per column, /trajectories with
# its `variables` and one group per run with points; the escaped names; the
# values exactly, -0.0, NaN, subnormals and text included); the same facts
# printed by flange's reader and by h5py agree line by line; a table h5py
# writes by hand (integer and float32 columns, h5py's strings) reads back;
# an HDF5 file without /table, with columns of different lengths, a text
# file and an empty file named .h5 are refused with their exact messages.
. "$FLANGE_SRC/tests/lib/cli.sh"
PY=/usr/bin/python3
H5="$FLANGE_BUILD/tests/test_h5"
"$PY" -c 'import h5py, numpy' 2>/dev/null || { echo "SKIP: /usr/bin/python3 has no h5py"; exit 77; }
[ -x "$H5" ] || { echo "FAIL: $H5 not built"; exit 1; }
cd "$T" || exit 1
version=$(sed -n 's/^#define FLANGE_VERSION "\(.*\)"$/\1/p' "$FLANGE_SRC/include/flange.h")

"$H5" write study.h5 2> err && [ ! -s err ] && ok "the sample table written" || bad "write: $(cat err)"
"$H5" read study.h5 > dump.c 2> err && ok "flange reads it back" || bad "read: $(cat err)"

# dump.py: the same lines test_h5's dump() prints, from h5py
cat > dump.py <<'EOF'
import sys, math
import h5py, numpy as np
def text(b):
    if isinstance(b, str): b = b.encode("utf-8", "surrogateescape")
    out = b'"'
    for c in b:
        if c in (0x22, 0x5c): out += b"\\" + bytes([c])
        elif c < 0x20 or c == 0x7f: out += b"\\x%02x" % c
        else: out += bytes([c])
    return out + b'"'
def num(x):
    x = float(x)
    if math.isnan(x): return b"nan"
    if x == 0 and math.copysign(1, x) < 0: return b"-0"
    return b"%.17g" % x
def escape(name):  # the dataset name of a column or variable
    if name == "": return "%"
    s = "".join("%%%02X" % ord(c) if c in "%/" or (c == "." and i == 0) else c for i, c in enumerate(name))
    return s
f = h5py.File(sys.argv[1], "r")
a = f.attrs
out = []
def raw(v):  # an attribute's string as bytes
    return v.encode("utf-8", "surrogateescape") if isinstance(v, str) else bytes(v)
out.append(b"model_name " + (text(raw(a["model_name"])) if "model_name" in a else b"-"))
out.append(b"flange_version " + (text(raw(a["flange_version"])) if "flange_version" in a else b"-"))
out.append(b"model_text " + (b"yes" if "model_text" in a else b"-"))
out.append(b"nruns %d" % (int(a["nruns"]) if "nruns" in a else 0))
for i, p in enumerate(a.get("parameters", [])):
    s = b"-" if "structural" not in a else b"%d" % a["structural"][i]
    out.append(b"parameter " + text(raw(p)) + b" structural " + s)
t = f["table"]
cols = list(t.attrs["columns"])
data, kinds = {}, {}
for c in cols:
    ds = t[escape(c)]
    kinds[c] = ds.dtype.kind in "OSU"
    data[c] = ds[()]
out.append(b"columns" + b"".join(b" " + (b"text:" if kinds[c] else b"number:") + text(c) for c in cols))
nrows = len(data[cols[0]]) if cols else 0
for r in range(nrows):
    out.append(b"row" + b"".join(b" " + (text(raw(data[c][r])) if kinds[c] else num(data[c][r])) for c in cols))
if "trajectories" in f:
    g = f["trajectories"]
    names = list(g.attrs["variables"])
    for v in names: out.append(b"saved " + text(v))
    for r in range(nrows):
        grp = "run_%06d" % int(data["run"][r])
        if grp not in g or "time" not in g[grp]:
            out.append(b"points 0:")
            continue
        cols_ = [g[grp]["time"][()]] + [g[grp][escape(v)][()] for v in names]
        n = len(cols_[0])
        out.append(b"points %d:" % n + b"".join(b" " + num(cols_[j][k]) for k in range(n) for j in range(len(cols_))))
sys.stdout.buffer.write(b"\n".join(out) + b"\n")
EOF
"$PY" dump.py study.h5 > dump.py.out 2> err || bad "h5py dump: $(cat err)"
cmp -s dump.c dump.py.out && ok "h5py sees every value flange's reader sees ($(wc -l < dump.c) lines)" \
  || { bad "h5py and flange's reader differ:"; diff dump.c dump.py.out | head -20; }

# check.py: the layout and the values, as a user of h5py and numpy meets them
cat > check.py <<'EOF'
import sys, math, struct
import h5py, numpy as np
fails = 0
def check(cond, what):
    global fails
    print(("ok   " if cond else "FAIL ") + what)
    fails += 0 if cond else 1
version = sys.argv[1]
f = h5py.File("study.h5", "r")
a = f.attrs
check(list(a) == ["model_name", "model_text", "flange_version", "nruns", "parameters", "structural"],
      "root attributes in order: %s" % list(a))
check(a["model_name"] == "Oscillator" and a["flange_version"] == version, "model_name, flange_version " + version)
check(a["model_text"] == 'model Oscillator "Gr\u00f6\u00dfe"\n  parameter Real m = 1;\nend Oscillator;\n',
      "model_text, UTF-8 and line breaks kept")
check(a["nruns"] == 10 and a["nruns"].dtype == np.int64, "nruns: int64 10")
check(list(a["parameters"]) == ["mass.m=1.5,2.5,1e308", "spring.c=log(1:100:3)"], "parameters: the definitions")
check(a["structural"].dtype == np.int8 and list(a["structural"]) == [1, 0], "structural: int8 [1, 0]")
check(sorted(f) == ["table", "trajectories"], "groups: /table and /trajectories")
t = f["table"]
cols = list(t.attrs["columns"])
check(cols == ["run", "mass.m", "status", "message", "max(abs(mass.v))", "at(mass.s, 0.5)", "a/b%c", ".dot", ""],
      "columns attribute: the names in order")
check(list(t) == ["run", "mass.m", "status", "message", "max(abs(mass.v))", "at(mass.s, 0.5)", "a%2Fb%25c",
                  "%2Edot", "%"], "datasets in creation order, '/', '%%', a leading '.' and '' escaped: %s" % list(t))
check(all(t[n].shape == (3,) for n in t), "every column: 3 values")
check(all(t[n].dtype == np.float64 for n in ["run", "mass.m", "max(abs(mass.v))", "a%2Fb%25c"]), "numbers: float64")
check(list(t["run"][()]) == [1, 2, 3] and list(t["mass.m"][()]) == [1.5, 2.5, 1e308], "run and mass.m")
m = t["max(abs(mass.v))"][()]
check(m[0] == 0.25 and math.isnan(m[1]) and m[2] == -1 / 3, "NaN kept, -1/3 exact")
z = t["at(mass.s, 0.5)"][()]
check(z[0] == 0 and np.signbit(z[0]) and math.isnan(z[1]) and z[2] == 12345.678901234567, "-0.0 kept")
s = t["a%2Fb%25c"][()]
check(s[0] == 1e-300 and s[1] == 5e-324 and s[1] > 0 and s[2] == -1e-300, "1e-300 and the smallest subnormal")
d = t["%2Edot"][()]
check(d[0] == math.inf and d[1] == -math.inf and d[2] == 0.1, "infinities")
st = t["status"]
check(st.dtype.kind == "O" and h5py.check_string_dtype(st.dtype).encoding == "utf-8", "status: variable-length UTF-8")
check(list(st.asstr()[()]) == ["ok", "failed", "ok"], "status values")
check(list(t["message"].asstr()[()]) == ["", 'the solver failed at t = 0.25, "step too small"; try --tolerance',
                                        "Gr\u00f6\u00dfe \u221a \u2713 \U0001f527"], "message: empty, quotes, UTF-8")
raw = t["%"]
check(h5py.check_string_dtype(raw.dtype).encoding == "ascii" and
      list(raw[()]) == [b"\xff not UTF-8 \xfe", b"", b'line one\nline two\t"tab"'],
      "a column that is not UTF-8: ASCII strings, the bytes as they were")
# the recipe of the layout comment
cols_ = {c: t[c].asstr()[()] if t[c].dtype.kind == "O" else t[c][()] for c in t.attrs["columns"][:6]}
check(list(cols_) == cols[:6] and list(cols_["status"]) == ["ok", "failed", "ok"], "the recipe of the comment works")
g = f["trajectories"]
check(list(g.attrs["variables"]) == ["mass.s", "der(mass.v)"], "variables attribute")
check(list(g) == ["run_000001", "run_000003"], "one group per run with points (run 2 has none)")
r1 = g["run_000001"]
check(list(r1) == ["der(mass.v)", "mass.s", "time"], "time and the variables (h5py lists them by name)")
check(list(r1["time"][()]) == [0, 0.25, 0.5, 0.75, 1.0] and r1["time"].dtype == np.float64, "run 1: 5 times")
check(len(g["run_000003/time"]) == 3 and len(g["run_000003/der(mass.v)"]) == 3, "run 3: 3 points")
dv = r1["der(mass.v)"][()]
check(dv[0] == 1e-300 and np.signbit(dv[1]) and dv[1] == 0 and math.isnan(dv[2]), "trajectory values exact")
print("%d failed" % fails)
sys.exit(1 if fails else 0)
EOF
"$PY" check.py "$version" > check.out 2>&1; rc=$?
cat check.out
[ $rc = 0 ] && ok "h5py: layout and values" || bad "h5py: layout and values"

# a table written by hand with h5py, as a user may write one
cat > write.py <<'EOF'
import h5py, numpy as np
with h5py.File("hand.h5", "w") as f:
    t = f.create_group("table")
    t["run"] = np.array([0, 1], dtype=np.int64)
    t["k"] = np.array([0.5, -2.25], dtype=np.float32)
    t["status"] = np.array(["ok", "f\u00e4iled"], dtype=h5py.string_dtype())
    t["fixed"] = np.array([b"ab", b"c"], dtype="S3")
    t.attrs["columns"] = ["run", "k", "status", "fixed"]
    f.attrs["model_name"] = "Hand"
    f.attrs["nruns"] = 2
    f.attrs["parameters"] = ["k=0.5,-2.25"]
    g = f.create_group("trajectories")
    g.attrs["variables"] = ["x"]
    g["run_000001/time"] = [0.0, 1.0]
    g["run_000001/x"] = [3.0, 4.0]
with h5py.File("notable.h5", "w") as f:
    f["data"] = np.arange(3.0)
    f.attrs["title"] = "not a study"
with h5py.File("ragged.h5", "w") as f:
    t = f.create_group("table")
    t["run"] = np.arange(3.0)
    t["y"] = np.arange(2.0)
    t.attrs["columns"] = ["run", "y"]
EOF
"$PY" write.py 2> err || bad "h5py write: $(cat err)"
"$H5" read hand.h5 > hand.out 2> err; rc=$?
cat > hand.want <<'EOF'
model_name "Hand"
flange_version -
model_text -
nruns 2
parameter "k=0.5,-2.25" structural -
columns number:"run" number:"k" text:"status" text:"fixed"
row 0 0.5 "ok" "ab"
row 1 -2.25 "fäiled" "c"
saved "x"
points 0:
points 2: 0 3 1 4
EOF
[ $rc = 0 ] && cmp -s hand.out hand.want && ok "a table h5py wrote (int64, float32, h5py's and fixed strings) reads" \
  || { bad "hand.h5: status $rc, $(cat err)"; diff hand.want hand.out; }

refused() { # FILE MESSAGE
  "$H5" read "$1" > /dev/null 2> err; local rc=$?
  if [ $rc = 1 ] && [ "$(cat err)" = "$1: error: $2" ]; then ok "$1 refused: $2"
  else bad "$1: status $rc, stderr: $(head -c 400 err)"; fi
}
refused notable.h5 "not a flange sweep table: the file has no /table"
refused ragged.h5 "the column 'y' has 2 values, 'run' 3: the columns must be equally long"
printf 'run,status\n1,ok\n' > text.h5
refused text.h5 "not an HDF5 file"
: > empty.h5
refused empty.h5 "the file is empty: not an HDF5 file"
head -c 3000 study.h5 > cut.h5
refused cut.h5 "truncated: the file has 3000 of its $(stat -c %s study.h5) bytes"

[ $fails = 0 ] && echo "all passed" || echo "$fails failed"
exit $((fails > 0))
