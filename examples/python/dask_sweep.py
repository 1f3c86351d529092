#!/usr/bin/env python3
"""A parameter sweep on a dask.distributed cluster, one compiled model per worker.

The damping d of the drag on the slider of examples/hardstop_hysteresis.mo is
swept; each run reports the largest excursion of the slider, max(body2.s).
A worker plugin loads and compiles the model once when each worker starts
(flange.load); the tasks only change the parameter and run
(Model.simulate(params=...), i.e. fl_sim_set_param). The cluster here is a
LocalCluster of worker processes; the same code runs on any dask.distributed
cluster whose workers can import flange and read the model file.

    PYTHONPATH=python python3 examples/python/dask_sweep.py --runs 8
    python3 examples/python/dask_sweep.py --file M.mo --param spring.c \\
        --from 1e3 --to 1e5 --log --var mass.s --runs 64 --workers 4

Prints a table: the parameter value, max(var), and the worker's process id
and how many times that worker compiled the model (always 1). Values are
printed in full (repr), so that they can be compared exactly.
Needs Debian's python3-distributed (exits with status 77 without it).
"""
import argparse
import logging
import os
import sys

import numpy as np

try:
    from distributed import Client, LocalCluster, WorkerPlugin, get_worker
except ImportError:  # pragma: no cover - depends on the machine
    Client = None

    class WorkerPlugin:  # so that the class below can still be defined
        pass

import flange

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_MODEL = os.path.join(HERE, "..", "hardstop_hysteresis.mo")


class FlangeModel(WorkerPlugin):
    """Compiles the model once per worker, when the worker starts (or when
    the plugin is registered with a running worker); the tasks find it as
    get_worker().flange_model."""

    name = "flange-model"

    def __init__(self, path, model=None):
        self.path = path
        self.model = model

    def setup(self, worker):
        worker.flange_model = flange.load(self.path, model=self.model)
        worker.flange_loads = getattr(worker, "flange_loads", 0) + 1

    def teardown(self, worker):
        m = getattr(worker, "flange_model", None)
        if m is not None:
            m.close()


def peak(value, param, var):
    """One run on a worker: (value, max(var), pid, loads on this worker)."""
    w = get_worker()
    r = w.flange_model.simulate(params={param: value}, vars=[var])
    return value, float(np.max(r[var])), os.getpid(), w.flange_loads


def values(start, stop, n, log):
    v = np.geomspace(start, stop, n) if log else np.linspace(start, stop, n)
    return [float(x) for x in v]


def sweep(path, param, var, vals, workers=2, model=None):
    """Runs every value on a LocalCluster of `workers` processes; returns the
    tasks' results in the order of vals."""
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
        plugin = FlangeModel(os.path.abspath(path), model)
        register = getattr(client, "register_plugin", None) or client.register_worker_plugin
        register(plugin)
        futures = client.map(peak, vals, param=param, var=var, pure=False)
        return client.gather(futures)


def main(argv=None):
    ap = argparse.ArgumentParser(description="flange parameter sweep on a dask.distributed LocalCluster")
    ap.add_argument("--file", dest="path", default=DEFAULT_MODEL, help="the Modelica file")
    ap.add_argument("--param", default="damper.d", help="the Real parameter to sweep (default damper.d)")
    ap.add_argument("--var", default="body2.s", help="the variable whose maximum is collected (default body2.s)")
    ap.add_argument("--from", dest="start", type=float, default=1.0, help="first value (default 1)")
    ap.add_argument("--to", dest="stop", type=float, default=50.0, help="last value (default 50)")
    ap.add_argument("--log", action="store_true", help="logarithmic spacing")
    ap.add_argument("--runs", type=int, default=16, help="number of values (default 16)")
    ap.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    a = ap.parse_args(argv)
    if Client is None:
        print("dask_sweep.py: dask.distributed is not installed (Debian: python3-distributed)", file=sys.stderr)
        return 77
    vals = values(a.start, a.stop, a.runs, a.log)
    rows = sweep(a.path, a.param, a.var, vals, workers=a.workers)
    print("%d runs on %d workers: max(%s) against %s" % (len(rows), a.workers, a.var, a.param))
    print("%-24s %-24s %8s %6s" % (a.param, "max(%s)" % a.var, "worker", "loads"))
    for value, top, pid, loads in rows:
        print("%-24r %-24r %8d %6d" % (value, top, pid, loads))
    return 0


if __name__ == "__main__":
    sys.exit(main())
