"""Finding and loading libflange.so, and the ctypes declarations of the part
of include/flange.h the module uses.

The library is looked for, in this order:

1. the environment variable FLANGE_LIB: the full path of the library (an
   error if it cannot be loaded: no other library is tried);
2. the installed library: `make install` writes _paths.py beside this file
   with the library directory relative to the package;
3. the build tree: imported from the source tree (PYTHONPATH=python), the
   library of the build directory `build/` beside `python/`;
4. the system's search (ctypes.util.find_library("flange")).
"""
import ctypes
import ctypes.util
import glob
import os

# The header these declarations were written from (FLANGE_VERSION_NUMBER of
# include/flange.h; tests/python/test_module.py checks them against it and
# the structures' layouts against a C compiler's). A library of another
# major or minor version is refused: its structures may differ.
HEADER_VERSION_NUMBER = 100

_here = os.path.dirname(os.path.abspath(__file__))


def _in_dir(d):
    """The library in directory d: libflange.so, else libflange.so.N...."""
    p = os.path.join(d, "libflange.so")
    if os.path.exists(p):
        return p
    found = sorted(glob.glob(os.path.join(d, "libflange.so.[0-9]*")), key=len)
    return found[0] if found else None


def _candidates():
    """(how it was found, path or name) in the order of the search."""
    try:
        from . import _paths  # written by make install
        yield "installed", _in_dir(os.path.normpath(os.path.join(_here, _paths.LIBDIR))), \
            os.path.normpath(os.path.join(_here, _paths.LIBDIR))
    except ImportError:
        pass
    root = os.path.dirname(os.path.dirname(_here))  # <source>/python/flange -> <source>
    yield "build tree", _in_dir(os.path.join(root, "build")), os.path.join(root, "build")
    yield "system", ctypes.util.find_library("flange"), "ctypes.util.find_library('flange')"


def _load():
    env = os.environ.get("FLANGE_LIB")
    if env:
        try:
            return ctypes.CDLL(env), env
        except OSError as e:
            raise ImportError("flange: cannot load the library FLANGE_LIB=%s: %s" % (env, e)) from None
    tried, errors = [], []
    for how, path, where in _candidates():
        if not path:
            tried.append(where)
            continue
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            errors.append("%s (%s): %s" % (path, how, e))
    msg = "flange: cannot find libflange.so"
    if tried:
        msg += " (looked in %s)" % ", ".join(tried)
    if errors:
        msg += "; failed to load " + "; ".join(errors)
    msg += ". Build it (make), install it (make install) or set FLANGE_LIB to its full path."
    raise ImportError(msg)


lib, path = _load()

c_double_p = ctypes.POINTER(ctypes.c_double)
c_int_p = ctypes.POINTER(ctypes.c_int)
c_char_pp = ctypes.POINTER(ctypes.c_char_p)


class LoadOpts(ctypes.Structure):
    _fields_ = [("model_name", ctypes.c_char_p),
                ("params", c_char_pp), ("nparams", ctypes.c_int),
                ("libs", c_char_pp), ("nlibs", ctypes.c_int),
                ("modelicapath", ctypes.c_char_p)]


class Stats(ctypes.Structure):
    _fields_ = [("steps", ctypes.c_long), ("res_evals", ctypes.c_long), ("jac_evals", ctypes.c_long),
                ("lin_setups", ctypes.c_long), ("err_test_fails", ctypes.c_long),
                ("nonlin_conv_fails", ctypes.c_long), ("time_events", ctypes.c_long),
                ("state_events", ctypes.c_long), ("outputs", ctypes.c_long),
                ("linear_solver", ctypes.c_char_p),
                ("e_kinetic", ctypes.c_double), ("e_potential", ctypes.c_double),
                ("e_dissipated", ctypes.c_double), ("e_impacts", ctypes.c_double),
                ("e_work", ctypes.c_double), ("e_impulse_work", ctypes.c_double),
                ("e_drift_max", ctypes.c_double), ("e_throughput", ctypes.c_double),
                ("e_closed", ctypes.c_int)]


ProgressFn = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_double, ctypes.POINTER(Stats))
# vals arrives as an address (an int): the collector copies it with memmove
OutputFn = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_double, ctypes.c_void_p, ctypes.c_int)


class SimOpts(ctypes.Structure):
    _fields_ = [("start_time", ctypes.c_double), ("stop_time", ctypes.c_double),
                ("interval", ctypes.c_double), ("tolerance", ctypes.c_double),
                ("solver", ctypes.c_int), ("quiet", ctypes.c_int),
                ("contacts", ctypes.c_int), ("energy", ctypes.c_int),
                ("progress", ProgressFn), ("progress_user", ctypes.c_void_p),
                ("outputs", c_int_p), ("noutputs", ctypes.c_int), ("selected_only", ctypes.c_int),
                ("max_outputs", ctypes.c_long), ("one_integrator", ctypes.c_int)]


FL_SEV_NOTE, FL_SEV_WARNING, FL_SEV_ERROR = 0, 1, 2
FL_SOLVER = {"auto": 0, "dense": 1, "klu": 2}
FL_CONTACTS = {None: 0, "auto": 0, "events": 1, "step": 2}
FL_MAX_OUTPUTS_DEFAULT = 100000000

_protos = {
    "fl_version": (ctypes.c_char_p, []),
    "fl_version_number": (ctypes.c_int, []),
    "fl_diag_new": (ctypes.c_void_p, []),
    "fl_diag_free": (None, [ctypes.c_void_p]),
    "fl_diag_count": (ctypes.c_int, [ctypes.c_void_p]),
    "fl_diag_errors": (ctypes.c_int, [ctypes.c_void_p]),
    "fl_diag_severity": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    "fl_diag_text": (ctypes.c_char_p, [ctypes.c_void_p, ctypes.c_int]),
    "fl_model_load_file": (ctypes.c_void_p, [ctypes.c_char_p, ctypes.POINTER(LoadOpts), ctypes.c_void_p]),
    "fl_model_load_class": (ctypes.c_void_p, [ctypes.c_char_p, ctypes.POINTER(LoadOpts), ctypes.c_void_p]),
    "fl_model_free": (None, [ctypes.c_void_p]),
    "fl_model_name": (ctypes.c_char_p, [ctypes.c_void_p]),
    "fl_model_set_strict_init": (None, [ctypes.c_void_p, ctypes.c_int]),
    "fl_compile": (ctypes.c_void_p, [ctypes.c_void_p, ctypes.c_void_p]),
    "fl_system_free": (None, [ctypes.c_void_p]),
    "fl_system_nvars": (ctypes.c_int, [ctypes.c_void_p]),
    "fl_system_var_name": (ctypes.c_char_p, [ctypes.c_void_p, ctypes.c_int]),
    "fl_system_var_unit": (ctypes.c_char_p, [ctypes.c_void_p, ctypes.c_int]),
    "fl_system_var_on_request": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    "fl_sim_default_opts": (SimOpts, [ctypes.c_void_p]),
    "fl_sim_new": (ctypes.c_void_p, [ctypes.c_void_p, ctypes.c_void_p]),
    "fl_sim_free": (None, [ctypes.c_void_p]),
    "fl_sim_run": (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(SimOpts), OutputFn, ctypes.c_void_p,
                                  ctypes.c_void_p]),
    "fl_sim_csv_size": (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(SimOpts), c_char_pp, ctypes.c_int,
                                       c_double_p, c_int_p, c_double_p, ctypes.c_void_p]),
    "fl_sim_stats": (Stats, [ctypes.c_void_p]),
    "fl_sim_set_param": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_double, ctypes.c_void_p]),
    "fl_sim_param": (ctypes.c_double, [ctypes.c_void_p, ctypes.c_char_p]),
}
for _name, (_res, _args) in _protos.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args

version = lib.fl_version().decode()
version_number = lib.fl_version_number()
if version_number // 100 != HEADER_VERSION_NUMBER // 100:
    raise ImportError("flange: the library %s is version %s; this module was written for %d.%d.x"
                      % (path, version, HEADER_VERSION_NUMBER // 10000, HEADER_VERSION_NUMBER // 100 % 100))


def text(b):
    """A C string from the library as str (bytes that are no UTF-8 kept as
    surrogate escapes, as os.fsdecode does)."""
    return b.decode("utf-8", "surrogateescape") if b is not None else ""


def cstr(s):
    """str (or bytes, or a path-like) as a C string."""
    if isinstance(s, bytes):
        return s
    if isinstance(s, os.PathLike):
        return os.fsencode(s)
    return str(s).encode("utf-8", "surrogateescape")


def cstr_array(items):
    """(array of char *, the bytes objects it points into, kept alive by the caller)."""
    bs = [cstr(s) for s in items]
    arr = (ctypes.c_char_p * max(1, len(bs)))(*bs)
    return arr, bs
