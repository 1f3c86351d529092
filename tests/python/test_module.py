"""The Python module flange against the CLI: flange.simulate and
Model.simulate give bit-identical results to `flange simulate -o x.mat` (read
with scipy.io.loadmat, the full doubles) with the same options, --vars,
load-time --param and runtime parameters; errors raise flange.Error with the
CLI's messages; warnings are issued; the structures the module declares
match the C compiler's; an exception in the output callback stops the run
and propagates; repeated runs do not grow the process; concurrent runs of
one Model agree with serial ones."""
import os
import shutil
import signal
import subprocess
import sys
import threading
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pycheck import EX, SRC, T, check, cli, cli_mat, diff, done, same, skip  # noqa: E402

try:
    import numpy as np
    import scipy.io  # noqa: F401
except ImportError:
    skip("/usr/bin/python3 has no numpy or scipy (Debian: python3-numpy, python3-scipy)")

import flange  # noqa: E402
from flange import _lib  # noqa: E402

print("library %s, version %s" % (flange.library_path, flange.__version__))
HS = os.path.join(EX, "hardstop_hysteresis.mo")

# ---- flange.simulate equals flange simulate -o x.mat ------------------------------------
for rel in ["hardstop_hysteresis.mo", "drivetrain.mo", "msl/Friction.mo", "msl/Oscillator.mo",
            "msl/rotational/CoupledClutches.mo"]:
    path = os.path.join(EX, rel)
    if not os.path.exists(path):
        continue
    r, ref = flange.simulate(path), cli_mat(path)
    check(same(r, ref), "%s: flange.simulate equals the CLI's MAT result (%d columns, %d points)"
          % (rel, len(ref), len(ref["time"])), diff(r, ref))

# options as the CLI's --stop, --start, --interval, --tolerance, --solver
for kw, args in [({"stop": 3}, ["--stop", "3"]),
                 ({"start": 1, "stop": 4}, ["--start", "1", "--stop", "4"]),
                 ({"interval": 0.01, "tolerance": 1e-8}, ["--interval", "0.01", "--tolerance", "1e-8"]),
                 ({"stop": 2, "solver": "klu"}, ["--stop", "2", "--solver", "klu"]),
                 ({"stop": 2, "energy": False}, ["--stop", "2", "--no-energy"])]:
    r, ref = flange.simulate(HS, **kw), cli_mat(HS, *args)
    check(same(r, ref), "options %s equal the CLI's %s" % (kw, " ".join(args)), diff(r, ref))

# one_integrator as --one-integrator: Friction has three independent groups
# (each its own integrator by default), so the two runs differ
FR = os.path.join(EX, "msl", "Friction.mo")
r, ref, grouped = flange.simulate(FR, one_integrator=True), cli_mat(FR, "--one-integrator"), flange.simulate(FR)
check(same(r, ref) and not same(r, grouped), "one_integrator=True equals the CLI's --one-integrator, not the grouped run",
      diff(r, ref))

# --vars: the same globs select the same columns
for v, arg in [(["body*.s", "damper.f"], "body*.s,damper.f"), ("body2.*", "body2.*"),
               ("**.f", "**.f"), ("hardStop.?", "hardStop.?"), (["energy.*"], "energy.*"),
               ("body1.s,,body2.v", "body1.s,,body2.v")]:
    r, ref = flange.simulate(HS, vars=v), cli_mat(HS, "--vars", arg)
    check(same(r, ref), "vars=%r selects what --vars %s does (%s)" % (v, arg, ", ".join(list(ref)[1:6])),
          diff(r, ref))

# ---- load-time parameters (--param): bindings see them ----------------------------------------
with open(os.path.join(T, "P.mo"), "w") as f:
    f.write("""model P "a mass on a spring whose stiffness is bound to model parameters"
  parameter Real k = 100;
  parameter Boolean stiff = false;
  Modelica.Mechanics.Translational.Components.Mass mass(m = 1, s(start = 0.1, fixed = true), v(fixed = true));
  Modelica.Mechanics.Translational.Components.Spring spring(c = if stiff then 4 * k else k);
  Modelica.Mechanics.Translational.Components.Fixed fixed;
equation
  connect(fixed.flange, spring.flange_a);
  connect(spring.flange_b, mass.flange_a);
  annotation(experiment(StopTime = 1, Interval = 0.01));
end P;
""")
P = os.path.join(T, "P.mo")
base = flange.simulate(P)
for params, args in [({"k": 400}, ["--param", "k=400"]),
                     ({"k": 2.5e2}, ["--param", "k=250.0"]),
                     ({"k": "2*200"}, ["--param", "k=2*200"]),
                     ({"stiff": True}, ["--param", "stiff=true"]),
                     ({"stiff": np.bool_(True), "k": np.float64(50)}, ["--param", "stiff=true", "--param", "k=50"])]:
    r, ref = flange.simulate(P, params=params), cli_mat(P, *args)
    check(same(r, ref) and not np.array_equal(r["mass.s"], base["mass.s"]),
          "params=%r equals the CLI's %s (and changes the motion)" % (params, " ".join(args)), diff(r, ref))
# the period follows the bound stiffness: w = sqrt(4 k / m) with stiff
r = flange.simulate(P, params={"stiff": True, "k": 100}, vars="mass.s")
w = np.sqrt(400.0)
check(np.max(np.abs(r["mass.s"] - 0.1 * np.cos(w * r["time"]))) < 1e-4,
      "with stiff the spring is 4 k: mass.s = 0.1 cos(20 t) within 1e-4")
r, ref = flange.simulate(HS, params={"damper.d": 20, "body2.m": 2}), \
    cli_mat(HS, "--param", "damper.d=20", "--param", "body2.m=2")
check(same(r, ref), "structural and Real --param together (body2.m=2, damper.d=20) equal the CLI's", diff(r, ref))

# ---- libraries (--lib): a model file using one, and a model of the library by name ------------
os.environ.pop("MODELICAPATH", None)
os.makedirs(os.path.join(T, "lib", "Lib"))
with open(os.path.join(T, "lib", "Lib", "package.mo"), "w") as f:
    f.write("""within;
package Lib "a small library"
  model Osc "a mass on a spring"
    parameter Real c = 4;
    Modelica.Mechanics.Translational.Components.Fixed fixed;
    Modelica.Mechanics.Translational.Components.Spring spring(c = c);
    Modelica.Mechanics.Translational.Components.Mass mass(m = 1, s(start = 0.2, fixed = true), v(fixed = true));
  equation
    connect(fixed.flange, spring.flange_a);
    connect(spring.flange_b, mass.flange_a);
    annotation(experiment(StopTime = 2, Interval = 0.01));
  end Osc;
end Lib;
""")
with open(os.path.join(T, "use.mo"), "w") as f:
    f.write("model UseLib\n  Lib.Osc osc(c = 9);\n  annotation(experiment(StopTime = 2, Interval = 0.01));\nend UseLib;\n")
LIBDIR = os.path.join(T, "lib", "Lib")
r, ref = flange.simulate(os.path.join(T, "use.mo"), libs=[LIBDIR]), cli_mat(os.path.join(T, "use.mo"), "--lib", LIBDIR)
check(same(r, ref) and abs(r["osc.mass.s"][-1] - 0.2 * np.cos(3 * 2)) < 1e-4,
      "libs=[Lib]: a model file using the library equals the CLI's --lib (s = 0.2 cos(3 t))", diff(r, ref))
r, ref = flange.simulate("Lib.Osc", libs=[LIBDIR], params={"c": 16}), \
    cli_mat("Lib.Osc", "--lib", LIBDIR, "--param", "c=16")
check(same(r, ref) and abs(r["mass.s"][-1] - 0.2 * np.cos(4 * 2)) < 1e-4,
      "a model of the library by its name (\"Lib.Osc\") equals the CLI's", diff(r, ref))
r = flange.simulate(model="Lib.Osc", libs=[LIBDIR], params={"c": 16})
check(same(r, ref), "model=\"Lib.Osc\" without a path: the same")

# ---- Model: compiled once, repeated runs, runtime parameters ---------------------------------
with flange.load(HS) as m:
    ref = cli_mat(HS)
    a, b = m.simulate(), m.simulate()
    check(same(a, ref) and same(b, ref), "Model.simulate twice: identical, and equal to the CLI's")
    check(m.name == "HardStopHysteresis" and m.experiment.stop_time == 12.566370614359172
          and m.experiment.interval == 0.005 and m.experiment.tolerance == 1e-6 and m.experiment.start_time == 0,
          "Model: name and experiment annotation", (m.name, m.experiment))
    full = cli_mat(HS, "--vars", "**")
    check(list(m.variables) == list(full)[1:], "Model.variables are every output variable, in the CLI's order")
    check(m.units["body2.s"] == "m" and m.units["body2.v"] == "m/s" and m.units["damper.f"] == "N"
          and a.units["time"] == "s" and a.units["body2.s"] == "m", "units of the model and of a result")
    units_csv = os.path.join(T, "u.csv")
    cli("simulate", HS, "-o", units_csv, "--quiet")
    with open(units_csv + ".units") as f:
        lines = f.read().split("\n")[1:]
    check(["%s,%s" % kv for kv in a.units.items()] == [ln for ln in lines if ln],
          "Result.units equal the CLI's .units file")
    check(m.param("damper.d") == 10 and m.param("hardStop.upper_bnd") == 0.1, "Model.param reads compiled values")
    for name, v in [("damper.d", 20), ("damper.d", 2.5), ("hardStop.upper_bnd", 0.15), ("vRef.amplitude", 0.7)]:
        r, ref2 = m.simulate(params={name: v}), cli_mat(HS, "--param", "%s=%r" % (name, v))
        check(same(r, ref2), "runtime %s = %r equals the CLI's --param" % (name, v), diff(r, ref2))
    import pickle
    try:
        pickle.dumps(m)
        check(False, "a Model refuses to be pickled", "pickled")
    except TypeError as e:
        check("load the model in each process" in str(e), "a Model refuses to be pickled (a pointer of this process)")
    rp = pickle.loads(pickle.dumps(a))
    check(same(rp, ref) and rp.units == a.units and rp.stats == a.stats, "a Result pickles with its units and stats")
    c = m.simulate()
    check(same(c, ref), "after runtime changes, a run without params is at the compiled parameters again")
    check(m.param("damper.d") == 10, "the compiled value is unchanged")
    r, ref2 = m.simulate(params={"damper.d": 20}, vars="body*.s", stop=5), \
        cli_mat(HS, "--param", "damper.d=20", "--vars", "body*.s", "--stop", "5")
    check(same(r, ref2), "runtime param with vars and stop equals the CLI's", diff(r, ref2))
    for params, msg in [({"body2.m": 2}, "error: body2.m was used to build the model's structure (bodies, fixed "
                         "positions, initial conditions): change it in the model and compile again"),
                        ({"nope.x": 1}, "error: no component for parameter 'nope.x' (write component.parameter)"),
                        ({"damper.d": -1}, "error: damper.d = -1 is invalid: it must be >= 0")]:
        try:
            m.simulate(params=params)
            check(False, "runtime %r refused" % params, "no error")
        except flange.Error as e:
            check(str(e) == msg and e.messages == [msg], "runtime %r refused: %s" % (params, e), str(e))
    try:
        m.simulate(params={"damper.d": "2*10"})
        check(False, "an expression as runtime param refused", "no error")
    except TypeError as e:
        check("flange.load(params=...)" in str(e), "an expression as runtime param: TypeError naming load(params=)")
    check(same(m.simulate(), ref), "refused changes leave the model as compiled")

    # two threads running the same Model at once (the GIL is released in the library)
    out = {}

    def run(key, d):
        out[key] = m.simulate(params={"damper.d": d})
    th = [threading.Thread(target=run, args=(i, d)) for i, d in enumerate([5, 20, 5, 20])]
    for t in th:
        t.start()
    for t in th:
        t.join()
    check(all(same(out[i], m.simulate(params={"damper.d": d})) for i, d in enumerate([5, 20, 5, 20])),
          "four concurrent runs of one Model equal the serial ones")

    # an exception raised while the library integrates (here by a signal
    # handler, as Ctrl-C would) stops the run and propagates; the model lives on
    class Stop(Exception):
        pass

    def handler(sig, frame):
        raise Stop()
    old = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, 0.05)
    try:
        m.simulate(interval=1e-6, stop=12, vars="body2.s")
        check(False, "an exception in the output callback propagates", "the run finished")
    except Stop:
        check(True, "an exception in the output callback stops the run and propagates")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    check(same(m.simulate(), ref), "the model runs normally after an interrupted run")

    # memory: results are freed with their arrays, runs leave nothing behind
    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    for _ in range(30):
        m.simulate(params={"damper.d": 12})
    r0 = rss()
    for _ in range(100):
        m.simulate(params={"damper.d": 12})
        m.simulate(vars="body*.*")
    grown = rss() - r0
    check(grown < 8e6, "200 more runs (each result about 1 MB) grow the process by %.1f MB, less than 8" % (grown / 1e6))
check(m._sys is None and repr(m).endswith("closed>"), "leaving the with block frees the model")
try:
    m.simulate()
    check(False, "a closed model refuses to run", "no error")
except ValueError as e:
    check("closed" in str(e), "a closed model refuses to run: %s" % e)

# ---- errors: flange.Error with the CLI's messages ---------------------------------------------
bad = os.path.join(T, "bad.mo")
with open(bad, "w") as f:
    f.write("model M\n  Real x(start=1;\nequation\n  der(x) = -x;\nend M;\n")


def same_error(what, call, cli_args):
    rc, _, err = cli("simulate", *cli_args, "-o", os.path.join(T, "e.csv"), "--quiet")
    # the CLI's own warning before a large result is no message of the library
    err = "".join(ln for ln in err.splitlines(True) if not ln.startswith("warning: the result will have "))
    try:
        call()
        check(False, what, "no error")
        return None
    except flange.Error as e:
        check(rc == 1 and str(e) == err.rstrip("\n") and e.messages == err.rstrip("\n").split("\n"),
              "%s: flange.Error is the CLI's message: %s" % (what, str(e).replace("\n", " | ")),
              "python %r, CLI (status %d) %r" % (str(e), rc, err))
        return e


missing = os.path.join(T, "nope.mo")
same_error("a missing file", lambda: flange.simulate(missing), [missing])
same_error("a missing file (load)", lambda: flange.load(missing), [missing])
e = same_error("a syntax error", lambda: flange.simulate(bad), [bad])
check(e is not None and str(e).startswith(bad + ":2:17: error: syntax error"), "the syntax error is at file:2:17")
same_error("a glob matching nothing", lambda: flange.simulate(HS, vars=["body*.s", "nothing*"]),
           [HS, "--vars", "body*.s,nothing*"])
same_error("an invalid --param value", lambda: flange.simulate(HS, params={"damper.d": -1}),
           [HS, "--param", "damper.d=-1"])
same_error("an unknown --param", lambda: flange.simulate(HS, params={"nope.d": 1}), [HS, "--param", "nope.d=1"])
same_error("a grid over the row limit", lambda: flange.simulate(HS, max_rows=100), [HS, "--max-rows", "100"])
# the grid fits (2514 points), the events take it over 2600: stopped as the CSV writer stops
same_error("events over the row limit", lambda: flange.simulate(HS, max_rows=2600), [HS, "--max-rows", "2600"])
same_error("a wrong model name", lambda: flange.simulate(HS, model="Nope"), [HS, "--model", "Nope"])
try:
    flange.simulate(HS, stop=-1)
    check(False, "a stop time before the start", "no error")
except flange.Error as e:
    check(str(e) == "error: the stop time (-1) must be greater than the start time (0)",
          "a stop time before the start: the library's message: %s" % e)
check(issubclass(flange.Error, Exception), "flange.Error is an Exception")

# ---- warnings: issued, and the CLI's lines ----------------------------------------------------
with open(os.path.join(T, "W.mo"), "w") as f:
    f.write("""model W "initial conditions left open: flange completes them with start values"
  Modelica.Mechanics.Translational.Components.Mass mass(m = 1);
  Modelica.Mechanics.Translational.Components.Damper damper(d = 1);
  Modelica.Mechanics.Translational.Components.Fixed fixed;
equation
  connect(fixed.flange, damper.flange_a);
  connect(damper.flange_b, mass.flange_a);
end W;
""")
W = os.path.join(T, "W.mo")
rc, _, err = cli("simulate", W, "-o", os.path.join(T, "w.csv"), "--quiet")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    r = flange.simulate(W)
got = [str(w.message) for w in caught if issubclass(w.category, flange.FlangeWarning)]
check(rc == 0 and err and got == err.rstrip("\n").split("\n") and r.messages == got,
      "warnings: issued as FlangeWarning, the CLI's lines (%s)" % "; ".join(got)[:120], (got, err))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with flange.load(W) as mw:
        mw.simulate()
got2 = [str(w.message) for w in caught if issubclass(w.category, flange.FlangeWarning)]
check(got2 == got and mw.messages == got, "flange.load issues the same warnings once, Model.simulate none more")

# ---- the declarations against the header -------------------------------------------------------
with open(os.path.join(SRC, "include", "flange.h")) as f:
    hdr = f.read()
check("#define FLANGE_VERSION_NUMBER %d\n" % _lib.HEADER_VERSION_NUMBER in hdr,
      "the module was written for this header's FLANGE_VERSION_NUMBER (%d)" % _lib.HEADER_VERSION_NUMBER)
cc = shutil.which("cc")
if cc:
    structs = {"fl_sim_opts": _lib.SimOpts, "fl_load_opts": _lib.LoadOpts, "fl_stats": _lib.Stats}
    src = ["#include <stdio.h>", "#include <stddef.h>", '#include "flange.h"', "int main(void) {"]
    for cname, py in structs.items():
        src.append('printf("%s %%zu\\n", sizeof(%s));' % (cname, cname))
        for fname, _ in py._fields_:
            src.append('printf("%s.%s %%zu\\n", offsetof(%s, %s));' % (cname, fname, cname, fname))
    src.append("return 0; }")
    with open(os.path.join(T, "layout.c"), "w") as f:
        f.write("\n".join(src) + "\n")
    exe = os.path.join(T, "layout")
    p = subprocess.run([cc, "-std=c11", "-I", os.path.join(SRC, "include"), "-o", exe, os.path.join(T, "layout.c")],
                       capture_output=True, text=True)
    if check(p.returncode == 0, "the layout program compiles", p.stderr):
        c_layout = dict(line.split() for line in subprocess.run([exe], capture_output=True, text=True).stdout.split("\n")
                        if line)
        py_layout = {}
        for cname, py in structs.items():
            py_layout[cname] = str(__import__("ctypes").sizeof(py))
            for fname, _ in py._fields_:
                py_layout["%s.%s" % (cname, fname)] = str(getattr(py, fname).offset)
        check(c_layout == py_layout, "ctypes structures have the C compiler's sizes and offsets (%d fields)"
              % len(c_layout), {k: (c_layout.get(k), v) for k, v in py_layout.items() if c_layout.get(k) != v})
else:
    print("skip: no C compiler: the structures' layouts are not checked")

done()
