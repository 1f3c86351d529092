"""Parameter studies from Python: Model.sweep and flange.sweep, a thin layer
over the library's fl_sweep (the engine of `flange sweep`), so that a study
gives the same rows in Python as on the command line."""
import ctypes
import math
import os

import numpy as np

from . import _lib
from ._lib import lib as _L

_c_long_p = ctypes.POINTER(ctypes.c_long)
ProgressFn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_long, ctypes.c_long, ctypes.c_long)

_protos = {
    "fl_sweep_new": (ctypes.c_void_p, [ctypes.c_char_p, ctypes.POINTER(_lib.LoadOpts), ctypes.c_void_p]),
    "fl_sweep_free": (None, [ctypes.c_void_p]),
    "fl_sweep_param": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]),
    "fl_sweep_samples": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_long, ctypes.c_ulonglong, ctypes.c_int,
                                        ctypes.c_void_p]),
    "fl_sweep_runs_file": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]),
    "fl_sweep_collect": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]),
    "fl_sweep_save": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]),
    "fl_sweep_set_times": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_double, ctypes.c_double, ctypes.c_double,
                                          ctypes.c_double]),
    "fl_sweep_set_solver": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    "fl_sweep_prepare": (ctypes.c_long, [ctypes.c_void_p, ctypes.c_void_p]),
    "fl_sweep_nparams": (ctypes.c_int, [ctypes.c_void_p]),
    "fl_sweep_param_name": (ctypes.c_char_p, [ctypes.c_void_p, ctypes.c_int]),
    "fl_sweep_param_structural": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    "fl_sweep_run": (ctypes.c_long, [ctypes.c_void_p, _c_long_p, ctypes.c_long, ctypes.c_int, ProgressFn,
                                     ctypes.c_void_p, ctypes.c_void_p]),
    "fl_sweep_ncols": (ctypes.c_int, [ctypes.c_void_p]),
    "fl_sweep_col_name": (ctypes.c_char_p, [ctypes.c_void_p, ctypes.c_int]),
    "fl_sweep_value": (ctypes.c_double, [ctypes.c_void_p, ctypes.c_long, ctypes.c_int]),
    "fl_sweep_text": (ctypes.c_char_p, [ctypes.c_void_p, ctypes.c_long, ctypes.c_int]),
    "fl_sweep_trajectory": (ctypes.c_long, [ctypes.c_void_p, ctypes.c_long,
                                            ctypes.POINTER(ctypes.POINTER(ctypes.c_double)),
                                            ctypes.POINTER(ctypes.c_int)]),
    "fl_sweep_saved_name": (ctypes.c_char_p, [ctypes.c_void_p, ctypes.c_int]),
    "fl_sweep_write": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_long, ctypes.c_long,
                                      ctypes.c_void_p]),
}
for _name, (_res, _args) in _protos.items():
    _f = getattr(_L, _name)
    _f.restype = _res
    _f.argtypes = _args


class Study(dict):
    """The result of a sweep: {column: values}, the columns of `flange
    sweep`'s table in its order ("run", the parameters, "status",
    "message", the collected quantities). Number columns are numpy float
    arrays (NaN where a failed run has no value); "status" ("ok",
    "failed") and "message" are lists of str.

    structural    {parameter: True when it was applied by compiling again}
    trajectories  one dict per run ({"time": array, var: array, ...}) of the
                  saved variables, or None where the run failed; [] when
                  nothing was saved"""

    def __repr__(self):
        n = len(self.get("run", ()))
        return "<flange.Study: %d runs, columns %s>" % (n, ", ".join(self.keys()))


def _param_spec(name, values):
    """A --param text from a Python value: a list/array of numbers, or a
    spec string ("0:1:11", "uniform(0,1)")."""
    if isinstance(values, str):
        return "%s=%s" % (name, values)
    try:
        vals = list(values)
    except TypeError:
        vals = [values]
    return "%s=%s" % (name, ",".join(repr(float(v)) for v in vals))


def run_sweep(path, class_name, model_name, load_params, libs, params=None, collect=None, samples=None, seed=1,
              lhs=False, runs=None, save=None, threads=0, start=None, stop=None, interval=None, tolerance=None,
              solver="auto", output=None, Error=RuntimeError, diag=None, progress=None):
    pvals, pkeep = _lib.cstr_array(load_params)
    lvals, lkeep = _lib.cstr_array([os.fspath(x) for x in (libs or [])])
    lo = _lib.LoadOpts()
    lo.model_name = _lib.cstr(class_name or model_name) if (class_name or model_name) else None
    lo.params, lo.nparams = ctypes.cast(pvals, _lib.c_char_pp), len(pkeep)
    lo.libs, lo.nlibs = ctypes.cast(lvals, _lib.c_char_pp), len(lkeep)
    lo.modelicapath = None
    with diag() as d:
        s = _L.fl_sweep_new(_lib.cstr(path) if path is not None else None, ctypes.byref(lo), d.p)
        if not s:
            raise Error([t for _, t in d.items()])
        try:
            ok = True
            runs_file = None
            if runs is not None and not isinstance(runs, (str, os.PathLike)):
                # a mapping {name: values}: through a temporary runs file
                import tempfile
                names = list(runs)
                cols = [np.asarray(runs[n], dtype=float).ravel() for n in names]
                fd, runs_file = tempfile.mkstemp(suffix=".csv")
                with os.fdopen(fd, "w") as f:
                    f.write(",".join(names) + "\n")
                    for row in zip(*cols):
                        f.write(",".join(repr(float(x)) for x in row) + "\n")
                runs = runs_file
            try:
                for name, vals in (params or {}).items():
                    ok = ok and _L.fl_sweep_param(s, _lib.cstr(_param_spec(name, vals)), d.p) == 0
                if ok and runs is not None:
                    ok = _L.fl_sweep_runs_file(s, _lib.cstr(os.fspath(runs)), d.p) == 0
                if ok and samples:
                    ok = _L.fl_sweep_samples(s, int(samples), int(seed), 1 if lhs else 0, d.p) == 0
                if isinstance(collect, str):
                    collect = [collect]
                for c in (collect or []):
                    ok = ok and _L.fl_sweep_collect(s, _lib.cstr(c), d.p) == 0
                if isinstance(save, str):
                    save = [save]
                for v in (save or []):
                    ok = ok and _L.fl_sweep_save(s, _lib.cstr(v), d.p) == 0
                nan = float("nan")
                _L.fl_sweep_set_times(s, nan if start is None else float(start), nan if stop is None else float(stop),
                                      nan if interval is None else float(interval),
                                      nan if tolerance is None else float(tolerance))
                _L.fl_sweep_set_solver(s, _lib.FL_SOLVER[solver])
                nruns = _L.fl_sweep_prepare(s, d.p) if ok else -1
            finally:
                if runs_file:
                    os.unlink(runs_file)
            if nruns < 0:
                raise Error([t for sev, t in d.items() if sev == _lib.FL_SEV_ERROR] or ["error: the study failed"])
            cb = ProgressFn(lambda u, done, failed, total: progress(done, failed, total)) if progress else ProgressFn()
            if _L.fl_sweep_run(s, None, 0, int(threads), cb, None, d.p) < 0:
                raise Error([t for sev, t in d.items() if sev == _lib.FL_SEV_ERROR])
            if output is not None and _L.fl_sweep_write(s, _lib.cstr(os.fspath(output)), 0, -1, d.p):
                raise Error([t for sev, t in d.items() if sev == _lib.FL_SEV_ERROR])
            st = Study()
            ncols = _L.fl_sweep_ncols(s)
            npar = _L.fl_sweep_nparams(s)
            for j in range(ncols):
                name = _lib.text(_L.fl_sweep_col_name(s, j))
                if j in (npar + 1, npar + 2):
                    st[name] = [_lib.text(_L.fl_sweep_text(s, r, j)) for r in range(nruns)]
                else:
                    st[name] = np.array([_L.fl_sweep_value(s, r, j) for r in range(nruns)], dtype=float)
            st["run"] = st["run"].astype(np.int64)
            st.structural = {_lib.text(_L.fl_sweep_param_name(s, j)): bool(_L.fl_sweep_param_structural(s, j) == 1)
                             for j in range(npar)}
            st.trajectories = []
            data = ctypes.POINTER(ctypes.c_double)()
            nsaved = ctypes.c_int(0)
            if save:
                _L.fl_sweep_trajectory(s, 0, ctypes.byref(data), ctypes.byref(nsaved))
                names = ["time"] + [_lib.text(_L.fl_sweep_saved_name(s, k)) for k in range(nsaved.value)]
                for r in range(nruns):
                    n = _L.fl_sweep_trajectory(s, r, ctypes.byref(data), ctypes.byref(nsaved))
                    if n <= 0 or not data:
                        st.trajectories.append(None)
                        continue
                    a = np.ctypeslib.as_array(data, shape=(n, len(names))).copy()
                    st.trajectories.append({nm: a[:, k] for k, nm in enumerate(names)})
            return st
        finally:
            _L.fl_sweep_free(s)
