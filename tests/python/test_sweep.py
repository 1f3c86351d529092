"""Model.sweep and flange.sweep: the same study as `flange sweep` gives the
same table (every number bit for bit: the CLI's CSV writes numbers that read
back exactly), structural parameters reported, failed runs as rows, saved
trajectories equal to single runs of Model.simulate, samples with a seed
the same as the CLI's, explicit runs from a mapping, and errors as
flange.Error with the CLI's messages."""
import csv
import math
import os
import subprocess

import numpy as np

from pycheck import EX, FLANGE, T, check, done
import flange

model = os.path.join(EX, "msl", "Oscillator.mo")
COLS = ["max(mass2.s)", "final(mass2.v)", "mean(abs(mass2.v))", "at(mass2.s, 0.5)", "count_events"]


def cli(*args):
    out = os.path.join(T, "cli.csv")
    subprocess.run([FLANGE, "sweep", model, *args, "--collect", ",".join(COLS), "-o", out, "--quiet"], check=True)
    with open(out) as f:
        return list(csv.DictReader(f))


def same(study, rows, what):
    good = len(study["run"]) == len(rows)
    for i, r in enumerate(rows):
        for k, v in r.items():
            got = study[k][i]
            if k in ("status", "message"):
                good = good and got == v
            else:
                want = float(v) if v != "" else math.nan
                good = good and (got == want or (math.isnan(got) and math.isnan(want)))
    check(good, what, (study, rows[:2]))


st = flange.sweep(model, params={"damper1.d": [1, 10, 100], "mass2.m": "1:2:3"}, collect=COLS)
same(st, cli("--param", "damper1.d=1,10,100", "--param", "mass2.m=1:2:3"), "grid: the CLI's table, bit for bit")
check(st.structural == {"damper1.d": False, "mass2.m": True}, "structural parameters reported", st.structural)
check(list(st.keys())[:5] == ["run", "damper1.d", "mass2.m", "status", "message"], "columns in the CLI's order")

st = flange.sweep(model, params={"damper1.d": "uniform(1,100)"}, collect=COLS, samples=20, seed=3, lhs=True, threads=1)
same(st, cli("--param", "damper1.d=uniform(1,100)", "--samples", "20", "--seed", "3", "--lhs"),
     "LHS samples with a seed: the CLI's")

st = flange.sweep(model, params={"spring2.c": [-1, 1e4]}, collect=COLS)
check(st["status"] == ["failed", "ok"] and st["message"][0] == "spring2.c = -1 is invalid: it must be >= 0"
      and math.isnan(st["max(mass2.s)"][0]), "a failed run is a row with its message", st)

with flange.load(model) as m:
    st = m.sweep(runs={"damper1.d": [3.0, 30.0]}, collect=["max(mass2.s)"], save=["mass2.s", "mass2.v"])
    good = len(st.trajectories) == 2
    for i, d in enumerate((3.0, 30.0)):
        r = m.simulate(params={"damper1.d": d})
        tr = st.trajectories[i]
        good = good and np.array_equal(tr["time"], r["time"]) and np.array_equal(tr["mass2.s"], r["mass2.s"]) \
            and np.array_equal(tr["mass2.v"], r["mass2.v"]) and st["max(mass2.s)"][i] == r["mass2.s"].max()
    check(good, "saved trajectories equal single runs of Model.simulate")

try:
    flange.sweep(model, params={"damper1.d": "1:2"}, collect=COLS)
    check(False, "a bad range raises")
except flange.Error as e:
    check(str(e) == "error: --param damper1.d: a range is START:STOP:N (N values from START to STOP), e.g. 0:1:11",
          "a bad range: flange.Error with the CLI's message", str(e))
done()
