# csvcheck.py - value checks of a simulation result for the command-line
# tests: the checks are Python text on stdin, run with the result's columns
# at hand, so that a test states its closed form next to the model.
#
#   /usr/bin/python3 csvcheck.py RESULT.csv < checks
#
# Names the checks see: t (the time column), col(name) (a column as a list),
# rows (the rows as dicts), at(name, time, side) (the value at a time of the
# grid; side 0 the first row of that time, -1 the last: the two sides of an
# event), near(got, want, tol, what) (|got - want| <= tol, else a failure
# naming what), worst(name, f) (the largest |col(name)[i] - f(t[i])|),
# jumps(name) (the times where a column changes within one time: events),
# crossings(name, level) (times where a column passes level, by linear
# interpolation between rows) and math. A failed check prints its reason
# on stdout and the exit status is 1.
import csv
import math
import sys

fails = []


def load(path):
    with open(path, newline="") as f:
        r = list(csv.reader(f))
    head = r[0]
    data = [[float(x) for x in row] for row in r[1:] if row]
    return head, data


head, data = load(sys.argv[1])
index = {n: i for i, n in enumerate(head)}
rows = [dict(zip(head, row)) for row in data]
t = [row[0] for row in data]


def col(name):
    if name not in index:
        raise KeyError("no column '%s' (the columns are %s)" % (name, ", ".join(head)))
    return [row[index[name]] for row in data]


def at(name, time, side=0):
    hits = [i for i, x in enumerate(t) if abs(x - time) <= 1e-12 * max(1.0, abs(time))]
    if not hits:
        raise KeyError("no row at time %.17g" % time)
    return data[hits[side]][index[name]]


def near(got, want, tol, what):
    if not (abs(got - want) <= tol):
        fails.append("%s = %.12g, expected %.12g (tolerance %.3g, off by %.3g)" % (what, got, want, tol, abs(got - want)))
    return got


def worst(name, f, tmin=-math.inf, tmax=math.inf):
    c = col(name)
    return max((abs(c[i] - f(t[i])) for i in range(len(t)) if tmin <= t[i] <= tmax), default=0.0)


def jumps(name):
    c = col(name)
    return [t[i] for i in range(1, len(t)) if t[i] == t[i - 1] and c[i] != c[i - 1]]


def crossings(name, level=0.0, direction=0):
    c = col(name)
    out = []
    for i in range(1, len(t)):
        a, b = c[i - 1] - level, c[i] - level
        if t[i] == t[i - 1]:
            continue
        if (a < 0 <= b and direction >= 0) or (a > 0 >= b and direction <= 0):
            if a != b:
                out.append(t[i - 1] + (t[i] - t[i - 1]) * a / (a - b))
    return out


def check(cond, what):
    if not cond:
        fails.append(what)


code = sys.stdin.read()
try:
    exec(compile(code, "checks", "exec"))
except Exception as ex:  # a check that cannot run is a failure too
    fails.append("%s: %s" % (type(ex).__name__, ex))
for f in fails:
    print("  " + f)
sys.exit(1 if fails else 0)
