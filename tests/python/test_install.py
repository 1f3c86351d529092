"""`make install PREFIX=...` installs the module beside the library: with
only the installed package directory on PYTHONPATH (no source tree, no
build tree, no FLANGE_LIB), /usr/bin/python3 imports flange from the prefix,
which loads the prefix's libflange.so and gives the CLI's results; the same
after the whole prefix is moved (the package names the library's directory
relative to itself). The default module directory, under the default prefix
/usr/local, is on the interpreter's sys.path."""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pycheck import BUILD, EX, SRC, T, check, cli_mat, done, same, skip  # noqa: E402

try:
    import numpy  # noqa: F401
    import scipy.io  # noqa: F401
except ImportError:
    skip("/usr/bin/python3 has no numpy or scipy (Debian: python3-numpy, python3-scipy)")
if not shutil.which("make"):
    skip("make not installed")

cache = {}
with open(os.path.join(BUILD, "CMakeCache.txt")) as f:
    for line in f:
        if "=" in line and ":" in line.split("=", 1)[0] and not line.startswith(("//", "#")):
            k, v = line.rstrip("\n").split("=", 1)
            cache[k.split(":")[0]] = v
pydir = cache.get("FLANGE_PYTHON_DIR", "")
check(pydir != "", "the build records FLANGE_PYTHON_DIR (%s)" % pydir)

# the default prefix's module directory is where the interpreter looks
if cache.get("CMAKE_INSTALL_PREFIX") == "/usr/local" and not os.path.isabs(pydir):
    p = subprocess.run([sys.executable, "-c", "import sys; print('\\n'.join(sys.path))"],
                       capture_output=True, text=True, env={"PATH": os.environ.get("PATH", "")})
    check(os.path.join("/usr/local", pydir) in p.stdout.split("\n"),
          "%s is on %s's sys.path" % (os.path.join("/usr/local", pydir), sys.executable), p.stdout)

P = os.path.join(T, "p")
env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
p = subprocess.run(["make", "-s", "-C", SRC, "install", "BUILD=" + BUILD, "PREFIX=" + P], env=env,
                   capture_output=True, text=True)
if not check(p.returncode == 0, "make install PREFIX=%s" % P, p.stdout + p.stderr):
    done()
pkg = os.path.join(P, pydir, "flange")
check(sorted(f for f in os.listdir(pkg)) == ["__init__.py", "_lib.py", "_paths.py", "_sweep.py"],
      "the package is installed in PREFIX/%s/flange: %s" % (pydir, ", ".join(sorted(os.listdir(pkg)))))
manifest = open(os.path.join(BUILD, "install_manifest.txt")).read().split("\n")
check(os.path.join(pkg, "_paths.py") in manifest, "_paths.py is in install_manifest.txt")

HS = os.path.join(EX, "hardstop_hysteresis.mo")
PROBE = """import sys, flange, numpy as np, scipy.io
r = flange.simulate(%r, params={"damper.d": 20})
np.save(sys.argv[1], np.array([r[k] for k in r]))
print(flange.__file__); print(flange.library_path); print(" ".join(r))
print("\\n".join(p for p in sys.path))
""" % HS


def probe(prefix, name):
    """Imports the installed module in a clean /usr/bin/python3 run from
    an empty directory; (process, the result's arrays)."""
    cwd = os.path.join(T, "cwd-" + name)
    os.makedirs(cwd, exist_ok=True)
    e = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": os.path.join(prefix, pydir), "PYTHONDONTWRITEBYTECODE": "1"}
    out = os.path.join(cwd, "r.npy")
    p = subprocess.run([sys.executable, "-s", "-c", PROBE, out], cwd=cwd, env=e, capture_output=True, text=True)
    return p, (numpy.load(out) if p.returncode == 0 else None)


ref = cli_mat(HS, "--param", "damper.d=20")
for prefix, what in [(P, "installed"), (os.path.join(T, "moved"), "moved")]:
    if what == "moved":
        os.rename(P, prefix)
    p, arr = probe(prefix, what)
    lines = p.stdout.split("\n")
    if not check(p.returncode == 0, "%s: the module imports and runs" % what, p.stderr[-800:]):
        continue
    check(lines[0] == os.path.join(prefix, pydir, "flange", "__init__.py"), "%s: flange is the prefix's" % what,
          lines[0])
    check(os.path.realpath(lines[1]).startswith(os.path.realpath(os.path.join(prefix, "lib")) + os.sep),
          "%s: it loads the prefix's library %s" % (what, lines[1]))
    src_paths = [q for q in lines[3:] if q and (os.path.realpath(q).startswith(os.path.realpath(SRC) + os.sep)
                                               or os.path.realpath(q) == os.path.realpath(SRC))]
    check(not src_paths, "%s: neither the source nor the build tree is on the path" % what, src_paths)
    res = dict(zip(lines[2].split(" "), arr))
    check(same(res, ref), "%s: the result equals the CLI's MAT result (damper.d=20)" % what)
done()
