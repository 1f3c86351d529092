#!/usr/bin/env bash
# Several results in one picture: flange plot a.csv b.csv ... draws every
# signal from every file, each over its own time (or its own --x), with
# legend entries "FILE: VAR" (as much of the path as tells equal names
# apart), stacked by unit across the files; CSV and MAT results mix; a
# signal missing in one file, an unreadable file and units the files
# disagree on are errors naming the file; the picture is named after the
# first result. The pictures are read back: the pixels of each series'
# colour in the PNG, and in the SVG the data lines (one colour per series,
# over the span of its own file) and the texts, decoded from cairo's glyph
# outlines against pictures of known text.
. "$(dirname "$0")/../lib/cli.sh"
EX="$FLANGE_SRC/examples"
PY=/usr/bin/python3
cd "$T" || exit 1
cp "$EX/msl/Oscillator.mo" model.mo
"$PY" -c 'import zlib, re' 2>/dev/null || { echo "skip: no /usr/bin/python3"; exit 77; }

# two runs of one model: another stiffness, and twice the time on another grid
"$FLANGE" simulate model.mo -o a.csv --quiet --param spring1.c=10000 || bad "run a"
"$FLANGE" simulate model.mo -o b.csv --quiet --param spring1.c=20000 --stop 2 --interval 0.0005 || bad "run b"
"$FLANGE" simulate model.mo -o a.mat --quiet --param spring1.c=10000 || bad "run a.mat"
[ "$(wc -l < a.csv)" = 1002 ] && [ "$(wc -l < b.csv)" = 4002 ] && ok "two runs: 1001 and 4001 rows" \
  || bad "rows: $(wc -l a.csv b.csv)"

# ---- reading pictures back ------------------------------------------------------
cat > svg.py <<'EOF'
# svg.py CAL_DIR FILE.svg: one line per text of the picture (decoded from the
# glyph outlines of the calibration pictures, '?' for an unknown glyph),
# then one line per colour of the data lines: "line R,G,B PATHS XMIN XMAX"
import re, sys
def texts(path):
    s = open(path).read()
    sym = {}
    for i, body in re.findall(r'<symbol overflow="visible" id="([^"]*)">(.*?)</symbol>', s, re.S):
        d = re.search(r' d="([^"]*)"', body)
        sym[i] = d.group(1) if d else ""
    out = []
    for g in re.findall(r'<g style="fill:[^"]*">(.*?)</g>', s, re.S):
        ids = re.findall(r'<use xlink:href="#([^"]*)"', g)
        if ids: out.append([sym[i] for i in ids])
    return out
cal = sys.argv[1]
L = "abcdefghijklmnopqrstuvwxyz"
D = "0123456789.:_/ -[]ABCDEFGHIJKLMNOPQRSTUVWXYZ"
glyph = {}
for pic in ("legend", "ylabel_l", "ylabel_d", "xlabel_l", "xlabel_d"):
    groups = texts(f"{cal}/{pic}.svg")
    for name in ((L, D) if pic == "legend" else (L if pic.endswith("_l") else D,)):
        g = [g for g in groups if len(g) == len(name)]
        assert len(g) == 1, (pic, name, [len(x) for x in groups])
        for d, ch in zip(g[0], name):
            assert glyph.get(d, ch) == ch, (pic, ch)
            glyph[d] = ch
s = open(sys.argv[2]).read()
for g in texts(sys.argv[2]):
    print("text " + "".join(glyph.get(d, "?") for d in g))
lines = {}
for style, d in re.findall(r'<path style="([^"]*)" d="([^"]*)"', s):
    # data lines are 1.6 wide with butt ends (the legend's samples have round ends)
    if "stroke-width:1.6;" not in style or "linecap:butt" not in style: continue
    rgb = re.search(r"stroke:rgb\(([^)]*)\)", style).group(1)
    rgb = ",".join(str(round(float(v.rstrip("%")) * 2.55)) for v in rgb.split(","))
    xs = [float(x) for x in re.findall(r"[ML] ([-0-9.e]+) [-0-9.e]+", d)]
    n, lo, hi = lines.get(rgb, (0, 1e300, -1e300))
    lines[rgb] = (n + 1, min(lo, min(xs)), max(hi, max(xs)))
for rgb, (n, lo, hi) in lines.items():
    print(f"line {rgb} {n} {lo:.1f} {hi:.1f}")
EOF
cat > png.py <<'EOF'
# png.py FILE.png R,G,B ...: how many pixels have exactly each colour
import sys, zlib, struct
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat = 8, b""
while pos < len(b):
    n, typ = struct.unpack(">I4s", b[pos:pos + 8])
    data = b[pos + 8:pos + 8 + n]
    if typ == b"IHDR": w, h, depth, ctype = struct.unpack(">IIBB", data[:10])
    if typ == b"IDAT": idat += data
    pos += 12 + n
assert depth == 8 and ctype in (2, 6), (depth, ctype)
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
rows, prev, p = [], bytearray(stride), 0
for y in range(h):
    f, line = raw[p], bytearray(raw[p + 1:p + 1 + stride])
    p += 1 + stride
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        c = prev[i - bpp] if i >= bpp else 0
        up = prev[i]
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + up) & 255
        elif f == 3: line[i] = (line[i] + (a + up) // 2) & 255
        elif f == 4:
            pa, pb, pc = abs(up - c), abs(a - c), abs(a + up - 2 * c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else up if pb <= pc else c)) & 255
    rows.append(bytes(line))
    prev = line
count = {}
for line in rows:
    for i in range(0, stride, bpp):
        count[tuple(line[i:i + 3])] = count.get(tuple(line[i:i + 3]), 0) + 1
print(" ".join(str(count.get(tuple(int(v) for v in c.split(",")), 0)) for c in sys.argv[2:]))
EOF
# calibration: pictures whose texts are known (the legend's size, the axis
# labels' along and across)
mkdir cal
L=abcdefghijklmnopqrstuvwxyz
D='0123456789.:_/ -[]ABCDEFGHIJKLMNOPQRSTUVWXYZ'
printf 'time,%s,"%s",y\n0,0,1,1\n1,1,0,2\n' "$L" "$D" > cal/t.csv
"$FLANGE" plot cal/t.csv --y "$L,$D" -o cal/legend.svg --quiet \
  && "$FLANGE" plot cal/t.csv --y "$L" -o cal/ylabel_l.svg --quiet \
  && "$FLANGE" plot cal/t.csv --y "$D" -o cal/ylabel_d.svg --quiet \
  && "$FLANGE" plot cal/t.csv --x "$L" --y y -o cal/xlabel_l.svg --quiet \
  && "$FLANGE" plot cal/t.csv --x "$D" --y y -o cal/xlabel_d.svg --quiet || bad "calibration pictures"
"$PY" svg.py cal cal/legend.svg > cal.out && grep -qxF "text $L" cal.out && grep -qxF "text $D" cal.out \
  && ok "SVG texts decoded from the glyphs" || bad "calibration: $(cat cal.out)"
BLUE=31,119,180 RED=214,39,40 GREEN=44,160,44 ORANGE=255,127,14

# the texts but the tick labels (numbers), '|' after each
texts() { "$PY" svg.py cal "$1" | sed -n 's/^text //p' | grep -v '?' | grep -Ev '^-?[0-9.]+$' | tr '\n' '|'; }
lines() { "$PY" svg.py cal "$1" | sed -n 's/^line //p'; }

# ---- two runs over time ---------------------------------------------------------
"$FLANGE" plot a.csv b.csv --y mass1.s -o ab.svg 2> err; rc=$?
[ $rc = 0 ] && [ "$(head -n 1 err)" = "flange: wrote ab.svg" ] && ok "plot a.csv b.csv: written" || bad "plot a b: $rc $(cat err)"
[ "$(texts ab.svg)" = "time [s]|mass1.s [m]|a.csv: mass1.s|b.csv: mass1.s|" ] \
  && ok "SVG: legend 'a.csv: mass1.s', 'b.csv: mass1.s', axes time [s] and mass1.s [m]" || bad "SVG texts: $(texts ab.svg)"
# a (1 s) in blue over half the width b (2 s) in red covers
lines ab.svg > l.out
"$PY" - "$BLUE" "$RED" <<'EOF' && ok "SVG: two data lines, each over its own time span (1 s and 2 s)" || bad "SVG lines: $(cat l.out)"
import sys
l = {f[0]: [float(v) for v in f[1:]] for f in (x.split() for x in open("l.out"))}
blue, red = l[sys.argv[1]], l[sys.argv[2]]
assert len(l) == 2, l
assert blue[1] == red[1], (blue, red)                       # both start at t = 0
r = (blue[2] - blue[1]) / (red[2] - red[1])
assert abs(r - 0.5) < 0.005, r
EOF
# the PNG: both colours drawn (b's small swing gives fewer pixels of the pure
# colour); a picture of a alone has no red
"$FLANGE" plot a.csv b.csv --y mass1.s -o ab.png --quiet && "$FLANGE" plot a.csv --y mass1.s -o a1.png --quiet || bad "PNGs"
read -r nb nr < <("$PY" png.py ab.png "$BLUE" "$RED")
read -r ob or < <("$PY" png.py a1.png "$BLUE" "$RED")
[ "$nb" -gt 1000 ] && [ "$nr" -gt 100 ] && [ "$ob" -gt 1000 ] && [ "$or" = 0 ] \
  && ok "PNG: $nb blue and $nr red pixels (alone: $ob blue, $or red)" || bad "PNG pixels: $nb $nr / $ob $or"

# stacked by unit across the files, legend in the order of the signals
"$FLANGE" plot a.csv b.csv --y mass1.s,mass1.v --layout stacked -o st.svg --quiet || bad "stacked"
[ "$(texts st.svg)" = "mass1.s [m]|a.csv: mass1.s|b.csv: mass1.s|time [s]|mass1.v [m/s]|a.csv: mass1.v|b.csv: mass1.v|" ] \
  && [ "$(lines st.svg | wc -l)" = 4 ] && ok "stacked: one panel per unit, four series in four colours" \
  || bad "stacked: $(texts st.svg) $(lines st.svg)"
# a phase plot per file
"$FLANGE" plot a.csv b.csv --x mass1.s --y mass1.v -o ph.svg --quiet || bad "phase"
[ "$(texts ph.svg)" = "mass1.s [m]|mass1.v [m/s]|a.csv: mass1.v|b.csv: mass1.v|" ] && [ "$(lines ph.svg | wc -l)" = 2 ] \
  && ok "phase plot of two files" || bad "phase: $(texts ph.svg)"
# one file: plain names, as before
"$FLANGE" plot a.csv --y 'mass*.s' -o one.svg --quiet
[ "$(texts one.svg)" = "time [s]|position [m]|mass1.s|mass2.s|" ] && ok "one file: legend of plain names" \
  || bad "one file: $(texts one.svg)"

# the same name in two directories: as much of the path as tells them apart
mkdir -p runs/soft runs/hard
cp a.csv a.csv.units runs/soft/ && cp b.csv runs/hard/a.csv && cp b.csv.units runs/hard/a.csv.units
"$FLANGE" plot runs/soft/a.csv runs/hard/a.csv --y mass1.s -o same.svg --quiet
[ "$(texts same.svg)" = "time [s]|mass1.s [m]|soft/a.csv: mass1.s|hard/a.csv: mass1.s|" ] \
  && ok "equal names: soft/a.csv and hard/a.csv" || bad "equal names: $(texts same.svg)"

# a CSV and a MAT result of the same run: the same line twice
"$FLANGE" plot a.csv a.mat --y mass1.s -o mat.svg --quiet || bad "csv + mat"
[ "$(texts mat.svg)" = "time [s]|mass1.s [m]|a.csv: mass1.s|a.mat: mass1.s|" ] \
  && ok "a.csv and a.mat overlaid: legend a.csv / a.mat" || bad "csv + mat: $(texts mat.svg)"
data_paths() { grep 'stroke-width:1.6;stroke-linecap:butt' "$1" | grep "stroke:rgb($2" | sed 's/.* d=//'; }
data_paths mat.svg 12.156863 > blue.d && data_paths mat.svg 83.921569 > red.d
[ "$(wc -l < blue.d)" -gt 0 ] && cmp -s blue.d red.d && ok "a.csv and a.mat: identical data lines ($(wc -l < blue.d) paths each)" \
  || bad "a.csv and a.mat: the data lines differ ($(wc -l blue.d red.d))"

# a file without units takes them from the others
cp b.csv nounits.csv
"$FLANGE" plot a.csv nounits.csv --y mass1.s -o nu.svg --quiet
[ "$(texts nu.svg)" = "time [s]|mass1.s [m]|a.csv: mass1.s|nounits.csv: mass1.s|" ] \
  && ok "a file without units: the unit from the other" || bad "no units: $(texts nu.svg)"
# a glob takes what each file has
"$FLANGE" simulate model.mo -o c.csv --quiet --vars 'mass2.*' || bad "run c"
"$FLANGE" plot a.csv c.csv --y 'mass*.s' -o glob.svg --quiet
[ "$(texts glob.svg)" = "time [s]|position [m]|a.csv: mass1.s|a.csv: mass2.s|c.csv: mass2.s|" ] \
  && ok "a glob matches in each file what it has" || bad "glob: $(texts glob.svg)"
# the default picture is named after the first result
"$FLANGE" plot b.csv a.csv --y mass1.s 2> err && [ "$(head -n 1 err)" = "flange: wrote b.png" ] && [ -s b.png ] && [ ! -e a.png ] \
  && ok "default picture: the first result's name, b.png" || bad "default name: $(cat err)"
"$FLANGE" plot --help | grep -qF "flange plot RESULT.csv|RESULT.mat [RESULT...] --y" \
  && "$FLANGE" --help | grep -qF "plot RESULT.csv [RESULT...] --y" && ok "usage: several results" || bad "usage"

# ---- errors: the exact message, status 1, no picture ------------------------------
expect() { # NAME MESSAGE -- ARGS...
  local name=$1 msg=$2; shift 3
  "$FLANGE" plot "$@" -o bad.png 2> err >/dev/null; local rc=$?
  if [ $rc = 1 ] && [ "$(cat err)" = "$msg" ] && [ ! -e bad.png ]; then ok "$name"
  else bad "$name: status $rc, $(cat err)"; fi
}
expect "a signal missing in the second file" \
  "error: c.csv: no signal matches 'mass1.s' (the file has $(head -1 c.csv | tr ',' '\n' | tail -n +2 | wc -l) signals, e.g. $(head -1 c.csv | cut -d, -f2))" \
  -- a.csv c.csv --y mass1.s
expect "the x signal missing in the second file" "error: c.csv: no signal 'mass1.s' for the x axis" \
  -- a.csv c.csv --x mass1.s --y mass2.v
expect "a missing second file" "error: cannot open missing.csv: No such file or directory" -- a.csv missing.csv --y mass1.s
printf 'time,mass1.s\n0,1\n1,x\n' > broken.csv
expect "a broken second file" "broken.csv:3:3: error: 'x' is not a number" -- a.csv broken.csv --y mass1.s
cp b.csv cm.csv && sed 's/^mass1.s,m$/mass1.s,cm/' b.csv.units > cm.csv.units
expect "units the files disagree on" "error: cm.csv: signal 'mass1.s' has unit 'cm', but 'm' in a.csv" \
  -- a.csv cm.csv --y mass1.s
expect "x units the files disagree on" "error: cm.csv: signal 'mass1.s' has unit 'cm', but 'm' in a.csv" \
  -- a.csv cm.csv --x mass1.s --y mass1.v

# the picture never overwrites a result (-o or the default name)
printf 'time,x\n0,1\n1,2\n' > q.csv && cp q.csv q.png && cp q.csv q2.csv
"$FLANGE" plot q.csv q.png --y x 2> err; rc=$?
[ $rc = 2 ] && [ "$(head -1 err)" = "flange plot: the picture q.png would overwrite the result file q.png" ] && cmp -s q.csv q.png \
  && ok "the default picture would be the second result: refused" || bad "default over a result: $rc $(cat err)"
"$FLANGE" plot q2.csv q.png --y x -o ./q.png 2> err; rc=$?
[ $rc = 2 ] && [ "$(head -1 err)" = "flange plot: -o ./q.png would overwrite the result file q.png" ] && cmp -s q.csv q.png \
  && ok "-o the second result: refused" || bad "-o over the second result: $rc $(cat err)"

if [ $fails -ne 0 ]; then echo "$fails checks failed"; exit 1; fi
echo "all plot overlay checks passed"
