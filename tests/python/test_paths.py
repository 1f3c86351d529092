"""Where the module finds libflange.so: FLANGE_LIB first (and only: a
FLANGE_LIB that cannot be loaded is an ImportError naming it), then the
build tree `build/` beside `python/` when the module is imported from the
source tree (PYTHONPATH=python), and a clear ImportError when there is no
library anywhere. Each case in a fresh /usr/bin/python3 whose environment
holds only what the case sets."""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pycheck import BUILD, EX, SRC, T, check, done, skip  # noqa: E402

try:
    import numpy  # noqa: F401
except ImportError:
    skip("/usr/bin/python3 has no numpy (Debian: python3-numpy)")

LIB = os.environ.get("FLANGE_LIB") or os.path.join(BUILD, "libflange.so")
PROBE = ("import flange, sys; r = flange.simulate(%r, stop=1, vars='body2.s'); "
         "print(flange.library_path); print(flange.__file__); print(len(r['time']))"
         % os.path.join(EX, "hardstop_hysteresis.mo"))


def run(pythonpath, cwd, extra=None, code=PROBE):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "FLANGE_LIB", "LD_LIBRARY_PATH")}
    env["PYTHONPATH"] = pythonpath
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(extra or {})
    return subprocess.run([sys.executable, "-s", "-c", code], cwd=cwd, env=env, capture_output=True, text=True)


def real(p):
    return os.path.realpath(p)


# a source tree with its build in build/: a copy of python/flange beside a link to this build
tree = os.path.join(T, "src")
shutil.copytree(os.path.join(SRC, "python", "flange"), os.path.join(tree, "python", "flange"),
                ignore=shutil.ignore_patterns("__pycache__", "_paths.py"))
os.symlink(BUILD, os.path.join(tree, "build"))
p = run("python", tree)
out = p.stdout.split("\n")
check(p.returncode == 0 and out[0] == os.path.join(tree, "build", "libflange.so")
      and out[1] == os.path.join(tree, "python", "flange", "__init__.py") and out[2].isdigit() and int(out[2]) > 500,
      "PYTHONPATH=python from the source root: the module finds build/libflange.so and runs",
      p.stdout + p.stderr)
# the same from another working directory, with an absolute PYTHONPATH
p = run(os.path.join(tree, "python"), T)
check(p.returncode == 0 and p.stdout.split("\n")[0] == os.path.join(tree, "build", "libflange.so"),
      "an absolute PYTHONPATH from elsewhere finds the same library", p.stdout + p.stderr)
# this checkout itself, when its build directory is build/
if real(BUILD) == real(os.path.join(SRC, "build")):
    p = run("python", SRC)
    check(p.returncode == 0 and real(p.stdout.split("\n")[0]) == real(os.path.join(SRC, "build", "libflange.so")),
          "in this checkout: PYTHONPATH=python finds build/libflange.so", p.stdout + p.stderr)
else:
    print("note: this build is not <source>/build: the checkout's own PYTHONPATH=python case is not run")

# FLANGE_LIB first, even with a build tree beside the module
p = run("python", tree, {"FLANGE_LIB": LIB})
check(p.returncode == 0 and p.stdout.split("\n")[0] == LIB, "FLANGE_LIB wins over the build tree", p.stdout + p.stderr)
p = run("python", tree, {"FLANGE_LIB": os.path.join(T, "nope.so")})
check(p.returncode == 1 and "ImportError: flange: cannot load the library FLANGE_LIB=%s: " % os.path.join(T, "nope.so")
      in p.stderr, "a FLANGE_LIB that does not load: ImportError naming it, no other library tried",
      p.stderr[-600:])

# no library anywhere: a clear ImportError (unless the system has one installed)
alone = os.path.join(T, "alone")
shutil.copytree(os.path.join(tree, "python"), os.path.join(alone, "python"))
p = run("python", alone, code="import ctypes.util; print(ctypes.util.find_library('flange'))")
if p.stdout.strip() != "None":
    print("note: the system has a libflange (%s): the not-found case is not run" % p.stdout.strip())
else:
    p = run("python", alone)
    last = p.stderr.strip().split("\n")[-1]
    check(p.returncode == 1 and last.startswith("ImportError: flange: cannot find libflange.so (looked in %s, "
                                                "ctypes.util.find_library('flange'))" % os.path.join(alone, "build"))
          and last.endswith("Build it (make), install it (make install) or set FLANGE_LIB to its full path."),
          "no library: ImportError saying where it looked and what to do", last)
done()
