"""examples/python/dask_sweep.py: a sweep of damper.d in
examples/hardstop_hysteresis.mo on a dask.distributed LocalCluster of 2
worker processes, one compiled model per worker. Its printed numbers equal
the same runs done serially here with flange.load(...).simulate (exactly:
the example prints repr()s), every run is there once, both workers took
part, and each compiled the model once. Skipped without dask.distributed."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pycheck import EX, SRC, check, done, skip  # noqa: E402

try:
    import numpy as np
except ImportError:
    skip("/usr/bin/python3 has no numpy (Debian: python3-numpy)")
try:
    import distributed  # noqa: F401
except ImportError:
    skip("dask.distributed is not installed (Debian: python3-distributed): the Dask example is not run")

import flange  # noqa: E402

EXAMPLE = os.path.join(SRC, "examples", "python", "dask_sweep.py")
RUNS = 6
p = subprocess.run([sys.executable, EXAMPLE, "--runs", str(RUNS), "--from", "2", "--to", "40"],
                   capture_output=True, text=True, timeout=500)
print("\n".join("  " + ln for ln in p.stdout.split("\n") if ln))
if not check(p.returncode == 0, "the example runs on a LocalCluster (status %d)" % p.returncode, p.stderr[-1500:]):
    done()
lines = p.stdout.strip().split("\n")
check(lines[0] == "%d runs on 2 workers: max(body2.s) against damper.d" % RUNS, "its title", lines[0])
rows = [ln.split() for ln in lines[2:]]
values = [float(r[0]) for r in rows]
tops = [float(r[1]) for r in rows]
pids = {r[2] for r in rows}
check(values == [float(v) for v in np.linspace(2, 40, RUNS)], "every value once, in order", values)
check(len(pids) == 2, "both worker processes ran some of the runs", pids)
check(all(r[3] == "1" for r in rows), "each worker compiled the model once (loads = 1 on every row)")

with flange.load(os.path.join(EX, "hardstop_hysteresis.mo")) as m:
    serial = [float(np.max(m.simulate(params={"damper.d": v}, vars=["body2.s"])["body2.s"])) for v in values]
check(tops == serial, "max(body2.s) equals the serial in-process runs exactly", list(zip(tops, serial)))
check(all(a > b for a, b in zip(serial, serial[1:])) and 0.4 < serial[-1] < serial[0] < 0.6,
      "more damping, less overshoot beyond 0.4 m (body1's 0.5 m less the 0.1 m gap): %.4f .. %.4f"
      % (serial[0], serial[-1]))
done()
