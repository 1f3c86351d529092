"""flange: simulate 1-D mechanics written in Modelica, from Python.

A thin ctypes layer over libflange (include/flange.h), with numpy arrays for
the results::

    import flange
    r = flange.simulate("examples/hardstop_hysteresis.mo", stop=5,
                        params={"damper.d": 20}, vars=["body*.s"])
    r["time"], r["body2.s"]            # numpy arrays, one value per output point

    with flange.load("examples/hardstop_hysteresis.mo") as m:   # compiled once
        for d in (5, 10, 20):
            r = m.simulate(params={"damper.d": d})
            print(d, r["body2.s"].max())

Results hold every output point of the run, as the CLI's CSV does: the
Interval grid and both sides of every event (an event repeats its time).
Errors raise flange.Error with the library's messages, the lines
`flange simulate` prints; warnings are issued as flange.FlangeWarning.

Where the library comes from: see flange._lib (FLANGE_LIB, the installed
library, the build tree build/ beside python/, the system's search);
flange.library_path says which one was loaded.
"""
import collections
import ctypes
import numbers
import os
import re
import sys
import warnings

import numpy as np

from . import _lib
from ._lib import lib as _L

__all__ = ["simulate", "load", "sweep", "Study", "Model", "Result", "Experiment", "Error", "FlangeWarning",
           "library_path", "__version__"]

__version__ = _lib.version
library_path = _lib.path


class Error(Exception):
    """A failure reported by libflange. str(e) is the library's messages,
    one per line, as `flange simulate` prints them (warnings recorded before
    the error included); e.messages is the list of them."""

    def __init__(self, messages):
        if isinstance(messages, str):
            messages = [messages]
        self.messages = list(messages)
        super().__init__("\n".join(self.messages))


class FlangeWarning(UserWarning):
    """A warning of libflange (an under-determined initial condition, an
    energy balance that does not close, ...)."""


Experiment = collections.namedtuple("Experiment", "start_time stop_time interval tolerance")
Experiment.__doc__ = """The model's experiment annotation (StartTime 0, StopTime 1,
Interval (stop - start) / 500 and Tolerance 1e-6 where absent)."""


class Result(dict):
    """The result of a run: "time" then the selected variables, in the order
    of the model's output variables, each a 1-D float64 numpy array with one
    value per output point. Besides the mapping:

    units     {name: unit} ("s" for time, "" where a variable has none)
    stats     the run's counters (steps, res_evals, state_events, outputs,
              linear_solver, the energy audit's totals, ...)
    messages  the warnings the library recorded (also issued as
              FlangeWarning)
    """

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.units = {}
        self.stats = {}
        self.messages = []

    def __repr__(self):
        n = len(self["time"]) if "time" in self else 0
        return "<flange.Result: %d variables, %d output points>" % (len(self) - 1, n)


# ---- diagnostics ---------------------------------------------------------------

class _Diag:
    """An fl_diag, freed on exit."""

    def __enter__(self):
        self.p = _L.fl_diag_new()
        if not self.p:
            raise MemoryError("flange: out of memory")
        return self

    def __exit__(self, *exc):
        _L.fl_diag_free(self.p)
        self.p = None

    def items(self):
        return [(_L.fl_diag_severity(self.p, i), _lib.text(_L.fl_diag_text(self.p, i)))
                for i in range(_L.fl_diag_count(self.p))]


def _texts(items):
    return [t for _, t in items]


def _warn(items, stacklevel=3):
    for sev, t in items:
        if sev == _lib.FL_SEV_WARNING:
            warnings.warn(t, FlangeWarning, stacklevel=stacklevel)


# ---- arguments -------------------------------------------------------------------

def _expr(v):
    """A parameter value as Modelica expression text."""
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, numbers.Integral):
        return str(int(v))
    if isinstance(v, numbers.Real):
        f = float(v)
        if f != f or f in (float("inf"), float("-inf")):
            raise ValueError("flange: a parameter value must be a finite number, got %r" % (v,))
        return repr(f)
    if isinstance(v, str):
        return v
    if isinstance(v, (list, tuple, np.ndarray)):
        return "{" + ", ".join(_expr(x) for x in v) + "}"
    raise TypeError("flange: a parameter value is a number, a bool, a Modelica expression (str) or a "
                    "sequence of them, not %s" % type(v).__name__)


def _load_params(params):
    """{name: value} as the "name=value" texts of fl_load_opts.params."""
    if not params:
        return []
    return ["%s=%s" % (name, _expr(v)) for name, v in dict(params).items()]


def _split_globs(vars):
    """--vars semantics: each item may hold several globs separated by commas."""
    if vars is None:
        return []
    if isinstance(vars, (str, bytes)):
        vars = [vars]
    out = []
    for item in vars:
        item = item.decode() if isinstance(item, bytes) else str(item)
        out.extend(g for g in item.split(",") if g)
    return out


def _glob_regex(glob):
    """The CLI's globs (fl_glob_match): '*' within a name component (never
    across '.'), '**' across components, '?' one character other than '.';
    everything else literally. Matched on the UTF-8 bytes, as the C code."""
    b = glob.encode("utf-8", "surrogateescape")
    out, i = [], 0
    while i < len(b):
        if b[i:i + 2] == b"**":
            out.append(b".*")
            i += 2
        elif b[i:i + 1] == b"*":
            out.append(b"[^.]*")
            i += 1
        elif b[i:i + 1] == b"?":
            out.append(b"[^.]")
            i += 1
        else:
            out.append(re.escape(b[i:i + 1]))
            i += 1
    return re.compile(b"".join(out), re.DOTALL)


def _is_class_name(s, nlibs):
    """flange simulate's rule: an argument that is no file but reads as a
    Modelica class name names a model of the libraries (when there are
    libraries: libs or MODELICAPATH)."""
    if not nlibs and not os.environ.get("MODELICAPATH"):
        return False
    if (os.path.exists(s) and not os.path.isdir(s)) or (len(s) > 3 and s.endswith(".mo")):
        return False
    return re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*", s) is not None


# ---- models -----------------------------------------------------------------------

def load(path=None, model=None, params=None, libs=None, strict_init=False):
    """Load and compile a model once, for repeated runs (Model.simulate).

    path         the Modelica file (str or path-like); or, as in `flange
                 simulate`, the full name of a model of the libraries
                 ("Lib.Examples.Demo") when libs or MODELICAPATH are given
    model        which model of the file (its name or dotted path), or,
                 without path, the full name of a model of the libraries
    params       {name: value}: parameter overrides applied while the model
                 is instantiated (flange simulate --param), so that bindings
                 see them; values are numbers, bools or Modelica expressions
                 ("2*pi", "{1, 2}"). Structural parameters (masses) too.
    libs         directories or files of Modelica libraries (--lib), in order
    strict_init  under-determined initial conditions are an error

    Raises flange.Error with the library's messages."""
    m = _load(path, model, params, libs, strict_init)
    _warn(m._load_items)
    return m


def _load(path, model, params, libs, strict_init):
    """load() without issuing the warnings (flange.simulate issues them
    with the run's)."""
    model_name = model
    if path is not None:
        path = os.fspath(path)
    nlibs = len(libs) if libs else 0
    class_name = None
    if path is not None and isinstance(path, str) and _is_class_name(path, nlibs):
        if model_name:
            raise ValueError("flange: '%s' is no file: name the model as the argument or with model=, not both"
                             % path)
        class_name, path = path, None
    elif path is None:
        if not model_name:
            raise TypeError("flange: no model file given (path, or model= naming a model of the libraries)")
        class_name = model_name
    pvals, pkeep = _lib.cstr_array(_load_params(params))
    lvals, lkeep = _lib.cstr_array([os.fspath(x) for x in (libs or [])])
    lo = _lib.LoadOpts()
    lo.model_name = _lib.cstr(model_name) if model_name else None
    lo.params, lo.nparams = ctypes.cast(pvals, _lib.c_char_pp), len(pkeep)
    lo.libs, lo.nlibs = ctypes.cast(lvals, _lib.c_char_pp), len(lkeep)
    lo.modelicapath = None  # the environment's MODELICAPATH, as the CLI
    with _Diag() as d:
        if class_name is not None:
            m = _L.fl_model_load_class(_lib.cstr(class_name), ctypes.byref(lo), d.p)
        else:
            m = _L.fl_model_load_file(_lib.cstr(path), ctypes.byref(lo), d.p)
        sys_ = None
        name = ""
        if m:
            _L.fl_model_set_strict_init(m, 1 if strict_init else 0)
            name = _lib.text(_L.fl_model_name(m))
            sys_ = _L.fl_compile(m, d.p)
            _L.fl_model_free(m)  # the system does not refer to it
        items = d.items()
    if not sys_:
        raise Error(_texts(items) or ["error: the model could not be loaded"])
    m = Model(sys_, name, items)
    m._source = (path, class_name, model_name, _load_params(params), list(libs or []))
    return m


class Model:
    """A compiled model (an fl_system), for repeated runs. Made by
    flange.load; freed by close(), by leaving a `with` block, or when the
    object is collected.

    name        the model's name
    variables   the names of every output variable, in the library's order
                (the energy audit's energy.* among them, which results hold
                only when asked for with vars)
    units       {name: unit} of the output variables ("" where none)
    experiment  Experiment(start_time, stop_time, interval, tolerance)
    messages    the warnings of loading and compiling

    Runs of one Model may go on in several threads at once: each run uses a
    simulation state of its own (kept for reuse), the compiled system is
    shared read-only, and the library releases the GIL while it
    integrates."""

    def __init__(self, sys_, name, items):
        self._sys = sys_
        self._idle = []  # fl_sim objects at the compiled parameters, for reuse
        self._free_sim = _L.fl_sim_free  # kept for __del__ at interpreter exit
        self._free_sys = _L.fl_system_free
        self.name = name
        self.messages = _texts(items)
        self._load_items = items
        n = _L.fl_system_nvars(sys_)
        self._names_b = [_L.fl_system_var_name(sys_, i) for i in range(n)]
        self.variables = tuple(_lib.text(b) for b in self._names_b)
        self.units = {v: _lib.text(_L.fl_system_var_unit(sys_, i)) for i, v in enumerate(self.variables)}
        self._on_request = [bool(_L.fl_system_var_on_request(sys_, i)) for i in range(n)]
        o = _L.fl_sim_default_opts(sys_)
        self.experiment = Experiment(o.start_time, o.stop_time, o.interval, o.tolerance)

    def __repr__(self):
        state = "closed" if self._sys is None else "%d variables" % len(self.variables)
        return "<flange.Model %s: %s>" % (self.name, state)

    def close(self):
        """Free the compiled system and the simulation states (not while a
        run of this model is going on in another thread)."""
        idle, self._idle = self._idle, []
        for s in idle:
            self._free_sim(s)
        if self._sys is not None:
            self._free_sys(self._sys)
            self._sys = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __reduce__(self):
        # the compiled system lives in this process's memory: a copy sent to
        # another process would point nowhere
        raise TypeError("a flange.Model cannot be pickled: it holds a compiled system in this process's memory; "
                        "load the model in each process (see examples/python/dask_sweep.py)")

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def _check_open(self):
        if self._sys is None:
            raise ValueError("flange: the model %s is closed" % self.name)

    def param(self, name):
        """The compiled value of a Real (or Integer, Boolean) parameter
        ("damper.d"); KeyError if there is none."""
        self._check_open()
        sim = self._acquire([])
        try:
            v = _L.fl_sim_param(sim, _lib.cstr(name))
        finally:
            self._idle.append(sim)
        if v != v:
            raise KeyError(name)
        return v

    def _acquire(self, prior, fresh=False):
        """A simulation state at the compiled parameters: a reused one, or
        (fresh) a new one."""
        if not fresh:
            try:
                return self._idle.pop()
            except IndexError:
                pass
        with _Diag() as d:
            sim = _L.fl_sim_new(self._sys, d.p)
            items = d.items()
        if not sim:
            raise Error(prior + _texts(items) or ["error: no simulation state"])
        return sim

    def _selection(self, globs):
        """The indices the globs select, as fl_select_columns does: every
        variable but the on-request ones without globs; an unmatched glob is
        reported by the library (fl_sim_csv_size)."""
        if not globs:
            return [i for i, r in enumerate(self._on_request) if not r]
        rx = [_glob_regex(g) for g in globs]
        return [i for i, b in enumerate(self._names_b) if any(r.fullmatch(b) for r in rx)]

    def simulate(self, stop=None, params=None, vars=None, start=None, interval=None, tolerance=None,
                 solver="auto", contacts=None, energy=True, max_rows=None, one_integrator=False):
        """Run the model once; returns a Result ({"time": ..., name: ...}).

        stop, start  the time span (default: the experiment annotation)
        interval     the output grid spacing; default the annotation's, or,
                     when start or stop is given, (stop - start) / 500 (as
                     flange simulate --start/--stop)
        tolerance    IDA's relative tolerance
        params       {name: number}: Real parameters changed for this run
                     only (fl_sim_set_param). Structural parameters (masses,
                     lengths of bodies, initial conditions), Integer and
                     Boolean ones are refused with the library's message:
                     give those to flange.load(params=...). Modifiers
                     written as expressions of a changed parameter keep
                     their compiled values.
        vars         globs selecting variables, as flange simulate --vars
                     ("body*.s", "**.f", "a.s,b.v"); default every variable
                     but the energy audit's totals
        solver       "auto", "dense" or "klu" (--solver)
        contacts     None/"auto", "events" (--contact-events) or "step"
                     (--no-contact-events)
        energy       keep the energy audit (default, as flange simulate;
                     False is --no-energy: faster, energy.* are NaN)
        max_rows     the most output points (--max-rows; default 10^8)
        one_integrator  True: one integrator for the whole model, also when
                     it falls into independent groups (--one-integrator)"""
        return self._simulate(stop=stop, params=params, vars=vars, start=start, interval=interval,
                              tolerance=tolerance, solver=solver, contacts=contacts, energy=energy,
                              max_rows=max_rows, prior=[], one_integrator=one_integrator)

    def sweep(self, params=None, collect=None, samples=None, seed=1, lhs=False, runs=None, save=None, threads=0,
              start=None, stop=None, interval=None, tolerance=None, solver="auto", output=None, progress=None):
        """Run a parameter study of this model, as `flange sweep` does, and
        return a flange.Study ({column: values}, one entry per run).

        params     {name: values}: a list of numbers, or a spec string as on
                   the command line ("0:1:11", "log(1e-3:1:4)", and with
                   samples "uniform(0,1)", "normal(0,1)", "loguniform(1,10)");
                   several form the full-factorial grid, the last varying
                   fastest
        collect    ["max(mass.s)", "final(mass.v)", "at(mass.s, 0.5)",
                   "mean(abs(spring.f))", "count_events"]
        samples    N samples of the distributions (seed; lhs=True for a
                   Latin hypercube)
        runs       explicit runs: {name: values} (equal lengths) or a CSV file
        save       variables whose trajectories every run keeps
                   (Study.trajectories)
        threads    0: every core
        output     also write the table (.csv) or everything (.h5) there
        progress   progress(done, failed, total), called after each run

        Parameters the compiled system can change are set per run; the
        others (masses, the model's own parameters) compile the model again
        once per combination of their values: the study starts from the
        model's text, with the params given to flange.load applied to every
        run. A failed run is a row with status "failed" and its message."""
        from ._sweep import run_sweep
        self._check_open()
        path, class_name, model_name, load_params, libs = self._source
        return run_sweep(path, class_name, model_name, load_params, libs, params=params, collect=collect,
                         samples=samples, seed=seed, lhs=lhs, runs=runs, save=save, threads=threads, start=start,
                         stop=stop, interval=interval, tolerance=tolerance, solver=solver, output=output,
                         Error=Error, diag=_Diag, progress=progress)

    def _simulate(self, stop, params, vars, start, interval, tolerance, solver, contacts, energy, max_rows,
                  prior, one_integrator=False):
        self._check_open()
        if solver not in _lib.FL_SOLVER:
            raise ValueError("flange: solver must be 'auto', 'dense' or 'klu', not %r" % (solver,))
        if contacts not in _lib.FL_CONTACTS:
            raise ValueError("flange: contacts must be None, 'auto', 'events' or 'step', not %r" % (contacts,))
        changes = []
        for name, v in dict(params or {}).items():
            if isinstance(v, (str, bytes)) or not isinstance(v, numbers.Real):
                raise TypeError("flange: Model.simulate params are numbers (%s = %r); give expressions and "
                                "structural parameters to flange.load(params=...)" % (name, v))
            changes.append((name, float(v)))
        globs = _split_globs(vars)

        o = _L.fl_sim_default_opts(self._sys)
        if start is not None:
            o.start_time = float(start)
        if stop is not None:
            o.stop_time = float(stop)
        if interval is not None:
            o.interval = float(interval)
        elif start is not None or stop is not None:
            o.interval = (o.stop_time - o.start_time) / 500
        if tolerance is not None:
            o.tolerance = float(tolerance)
        o.solver = _lib.FL_SOLVER[solver]
        o.contacts = _lib.FL_CONTACTS[contacts]
        o.energy = 1 if energy else 0
        o.one_integrator = 1 if one_integrator else 0
        if max_rows is not None:
            if isinstance(max_rows, bool) or not isinstance(max_rows, numbers.Integral) or max_rows < 1:
                raise ValueError("flange: max_rows must be a positive whole number, got %r" % (max_rows,))
            o.max_outputs = int(max_rows)
        limit = o.max_outputs if o.max_outputs > 0 else _lib.FL_MAX_OUTPUTS_DEFAULT

        sel = self._selection(globs)
        sel_arr = (ctypes.c_int * max(1, len(sel)))(*sel)
        o.outputs = ctypes.cast(sel_arr, _lib.c_int_p)  # compute only what is kept, as the CSV writer
        o.noutputs = len(sel)

        # a run that changes parameters gets a simulation state of its own,
        # freed afterwards, so that every run starts from the compiled
        # parameters (a new state costs some 40 us); the others reuse one
        sim = self._acquire(_texts(prior), fresh=bool(changes))
        data = failure = None
        try:
            with _Diag() as d:
                ok = True
                for name, v in changes:
                    if _L.fl_sim_set_param(sim, _lib.cstr(name), v, d.p):
                        ok = False
                        break
                # the options and the globs checked by the library, with its
                # messages ("no variable matches ..."), and the grid's size
                rows = ctypes.c_double(0)
                cols = ctypes.c_int(0)
                garr, gkeep = _lib.cstr_array(globs)
                if ok and _L.fl_sim_csv_size(sim, ctypes.byref(o), ctypes.cast(garr, _lib.c_char_pp), len(gkeep),
                                             ctypes.byref(rows), ctypes.byref(cols), None, d.p):
                    ok = False
                if ok and cols.value != len(sel) + 1:
                    raise RuntimeError("flange: internal error: the module selects %d variables, the library %d"
                                       % (len(sel), cols.value - 1))
                if ok:
                    data, failure = _collect(sim, o, len(self.variables), sel, rows.value, limit, d)
                    ok = data is not None
                items = d.items()
                stats = _L.fl_sim_stats(sim)
        finally:
            if changes:
                _L.fl_sim_free(sim)
            else:
                self._idle.append(sim)
        if isinstance(failure, BaseException):  # raised in the output callback (KeyboardInterrupt, ...)
            raise failure
        if not ok:
            msgs = _texts(prior + items)
            if failure is not None:
                msgs.append(failure)
            raise Error(msgs or ["error: the run failed"])
        times, values = data
        res = Result()
        res["time"] = times
        for k, i in enumerate(sel):
            res[self.variables[i]] = values[k]
        res.units = {"time": "s"}
        res.units.update((self.variables[i], self.units[self.variables[i]]) for i in sel)
        res.stats = {f: getattr(stats, f) for f, _ in _lib.Stats._fields_}
        res.stats["linear_solver"] = _lib.text(stats.linear_solver)
        res.messages = _texts(prior + items)
        _warn(prior + items, stacklevel=4)
        return res


_prev_unraisablehook = None


def _unraisable(u):
    """sys.unraisablehook while the module is in use: an exception raised as
    the output callback is entered, before its try (a signal handler's
    KeyboardInterrupt, which CPython raises on entering a function), reaches
    ctypes, which can only report it here. It is recorded for the run, which
    the callback then stops, and raised when fl_sim_run returns. Everything
    else goes to the hook that was there before."""
    record = getattr(u.object, "_flange_record", None)
    if record is not None and u.exc_value is not None:
        record(u.exc_value)
    elif _prev_unraisablehook is not None:
        _prev_unraisablehook(u)


def _catch_unraisable():
    global _prev_unraisablehook
    if sys.unraisablehook is not _unraisable:
        _prev_unraisablehook = sys.unraisablehook
        sys.unraisablehook = _unraisable


def _collect(sim, o, nvars, sel, rows_est, limit, d):
    """Runs the simulation, collecting the selected outputs. Returns
    ((times, values), None), values an (nsel, npoints) array whose rows are
    the variables; or (None, failure) where failure is None (the library
    reported to d), the exception raised in the callback, or the message of
    the row limit (the CSV writer's).

    The callback only copies: each output row holds the selected values
    alone, in the order selected (fl_sim_opts.selected_only; with every
    variable selected, all of them by variable, which is the same order),
    and is memmoved straight into the result. Blocks start at the size of
    the output grid (at most about 64 MB) and double when events add
    points."""
    nsel = len(sel)
    o.selected_only = 0 if sel == list(range(nvars)) else 1
    rowbytes = 8 * nsel
    cap = int(max(16, min(rows_est + 16, (1 << 26) // (8 * (nsel + 1)))))
    times = np.empty(cap)
    out = np.empty((cap, nsel))
    base = out.ctypes.data
    memmove = ctypes.memmove
    n = 0  # rows collected
    fail = None

    def grow():
        nonlocal times, out, base
        c = 2 * len(times)
        t = np.empty(c)
        t[:n] = times[:n]
        times = t
        a = np.empty((c, nsel))
        a[:n] = out[:n]
        out = a
        base = out.ctypes.data

    def on_output(user, t, vals, nv):
        nonlocal n, fail
        try:
            if fail is not None:  # raised on entering an earlier call (see _unraisable)
                return 1
            if n >= limit:
                fail = ("error: the run was stopped at t = %.9g: it reached the limit of %.0f output points "
                        "(events add up to two each; fl_sim_opts.max_outputs, flange simulate --max-rows)"
                        % (t, limit))
                return 1
            if n == len(times):
                grow()
            times[n] = t
            if rowbytes:
                memmove(base + n * rowbytes, vals, rowbytes)
            n += 1
            return 0
        except BaseException as e:  # never through the library: stop the run, raise afterwards
            fail = e
            return 1

    def record(e):
        nonlocal fail
        if fail is None:
            fail = e

    on_output._flange_record = record
    _catch_unraisable()
    fn = _lib.OutputFn(on_output)
    rc = _L.fl_sim_run(sim, ctypes.byref(o), fn, None, d.p)
    if rc or fail is not None:
        return None, fail
    return (times[:n].copy(), np.ascontiguousarray(out[:n].T)), None


def simulate(path=None, stop=None, params=None, vars=None, model=None, start=None, interval=None,
             tolerance=None, libs=None, solver="auto", contacts=None, energy=True, max_rows=None,
             strict_init=False, one_integrator=False):
    """Load, compile and run a model once, as `flange simulate` does;
    returns a Result: {"time": array, name: array, ...} with every output
    point (the Interval grid and both sides of every event).

    path, model, libs, strict_init   as flange.load (--model, --lib)
    params    {name: value} overrides applied when the model is loaded
              (--param): numbers, bools or Modelica expressions; bindings
              that depend on them see the new values
    vars      globs selecting variables (--vars); default all but energy.*
    stop, start, interval, tolerance, solver, contacts, energy, max_rows,
    one_integrator  as Model.simulate (--stop, --start, ...)

    Raises flange.Error with the messages flange simulate prints."""
    m = _load(path, model, params, libs, strict_init)
    try:
        return m._simulate(stop=stop, params=None, vars=vars, start=start, interval=interval, tolerance=tolerance,
                           solver=solver, contacts=contacts, energy=energy, max_rows=max_rows,
                           prior=m._load_items, one_integrator=one_integrator)
    finally:
        m.close()


def sweep(path=None, params=None, collect=None, model=None, libs=None, **kw):
    """flange.load(path, model=model, libs=libs).sweep(params, collect, **kw):
    a parameter study of a model file (see Model.sweep)."""
    with load(path, model=model, libs=libs) as m:
        return m.sweep(params=params, collect=collect, **kw)


from ._sweep import Study  # noqa: E402  (after the module's own names)
