"""What the Python module's tests share (tests/python/test_*.py, run by
/usr/bin/python3 through ctest with FLANGE (the CLI), FLANGE_LIB (the build's
libflange.so), FLANGE_SRC, FLANGE_BUILD and PYTHONPATH=<source>/python):
ok/FAIL lines that count failures, the CLI run into a scratch directory, and
MAT results read back with scipy.io.loadmat (the full doubles)."""
import atexit
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
FLANGE = os.environ.get("FLANGE", "")
SRC = os.path.abspath(os.environ.get("FLANGE_SRC", os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
BUILD = os.environ.get("FLANGE_BUILD", os.path.join(SRC, "build"))
EX = os.path.join(SRC, "examples")
T = tempfile.mkdtemp(prefix="flange-py-")
atexit.register(shutil.rmtree, T, True)
fails = 0


def check(cond, what, detail=""):
    global fails
    print(("ok   " if cond else "FAIL ") + what + ("" if cond or not detail else ": " + str(detail)[:800]))
    if not cond:
        fails += 1
    return cond


def done():
    print("%d failure(s)" % fails if fails else "all passed")
    sys.exit(1 if fails else 0)


def skip(why):
    print("skip: " + why)
    sys.exit(SKIP)


def cli(*args, cwd=None):
    """Runs the CLI; (status, stdout, stderr)."""
    p = subprocess.run([FLANGE] + [str(a) for a in args], cwd=cwd or T, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def read_mat(path):
    """The trajectories of a MAT result: {name: array}, time first, in
    the file's column order."""
    import scipy.io
    m = scipy.io.loadmat(path, chars_as_strings=False)
    names = ["".join(r).rstrip(" \0") for r in m["name"].T]
    info, d2 = m["dataInfo"], m["data_2"]
    return {names[i]: d2[info[1, i] - 1] for i in range(len(names)) if info[0, i] in (0, 2)}


def cli_mat(model, *args):
    """flange simulate MODEL -o x.mat ARGS: the trajectories (status must be 0)."""
    out = os.path.join(T, "cli.mat")
    rc, _, err = cli("simulate", model, "-o", out, "--quiet", *args)
    if rc != 0:
        raise RuntimeError("flange simulate %s %s: status %d: %s" % (model, " ".join(args), rc, err))
    return read_mat(out)


def same(result, ref):
    """Same names in the same order, and bit-identical arrays."""
    import numpy as np
    if list(result) != list(ref):
        return False
    return all(result[k].dtype == np.float64 and result[k].shape == ref[k].shape
               and np.array_equal(result[k], ref[k]) for k in ref)


def diff(result, ref):
    """Where result and ref differ, for the message of a failed check."""
    import numpy as np
    if list(result) != list(ref):
        return "names %s vs %s" % (list(result)[:8], list(ref)[:8])
    for k in ref:
        if result[k].shape != ref[k].shape:
            return "%s: %d vs %d points" % (k, len(result[k]), len(ref[k]))
        if not np.array_equal(result[k], ref[k]):
            return "%s: max |difference| %g" % (k, np.max(np.abs(result[k] - ref[k])))
    return "?"
