#!/usr/bin/python3
"""chain_scipy.py - the benchmark chain in SciPy, as an engineer would write it
without flange: the model of bench/ref/chain_ida.c (constants of bench/chain.h)
integrated with scipy.integrate.solve_ivp(method='BDF'), a vectorised numpy
right-hand side and an analytic sparse (CSC) Jacobian.

    chain_scipy.py N [--rtol R] [--dump FILE] [--no-events] [--event-style S]

N wagons, state y = [x0, v0, x1, v1, ...], all zero at t = 0; the first wagon
is pushed by a force step at CHAIN_T_STEP. Tolerances as chain_ida: rtol R
(default CHAIN_RTOL), atol R*1e-4 for positions and R for velocities.

With events (the default) the buffer modes (-1 compressed, 0 free, +1
stretched) are held constant inside the right-hand side; every contact onset
and release is located by a terminal solve_ivp event and the integration is
restarted there with the new mode, as chain_ida --events restarts IDA. The
integration runs in segments: [0, T_STEP] without force, then from T_STEP on
with it, one segment per event. Per buffer only the boundaries its current
mode can cross are armed: a free buffer |xr| = GAP (both +GAP and -GAP), a
stretched one xr = +GAP, a compressed one xr = -GAP. Each is written as a
function g_i that is positive inside the current mode and falls through zero
when the mode ends (direction -1). The new mode is taken from which boundary
was crossed (free -> sign of xr, contact -> free), never from re-evaluating
the state at the event, and a per-segment offset of at most a few 1e-14 m
makes every g_i start strictly positive, so the event just handled cannot
fire again at the restart point.

--event-style min (default): one vectorised event function, min_i g_i, which
  falls through zero exactly when the first buffer changes mode; the buffers
  that changed are those with g_i <= 0 there (at least the arg-min).
--event-style list: one Python event function per buffer (N-1 of them, each
  reading a shared vectorised evaluation), the textbook solve_ivp way; for
  comparison of the cost of solve_ivp's per-function event handling.
--no-events: the modes are computed from the state inside the right-hand side
  and the Jacobian (the buffers are stepped through).

Prints one line like chain_ida:
  steps=... rhs=... jac=... lu=... events=... seconds=... x1=... v1=...
summed over the segments: rhs, jac and lu are solve_ivp's nfev, njev, nlu;
steps counts the accepted BDF steps (a BDF subclass counts successful
_step_impl calls; the same as len(sol.t) - 1 with t_eval=None, but without
storing every step); seconds is the wall time of the integration only
(time.perf_counter, after imports and argument parsing). x1, v1 are the first
wagon at the stop time. --dump FILE writes the final state, one line "x v" per
wagon (%.17g).

Needs numpy and scipy (Debian: python3-scipy).
"""
import argparse
import sys
import time

import numpy as np
from scipy.integrate import BDF, solve_ivp
from scipy.sparse import coo_matrix, csc_matrix

# bench/chain.h
CHAIN_M = 5e4  # kg, each wagon
CHAIN_C = 5e6  # N/m, coupler spring
CHAIN_D = 2e5  # N.s/m, coupler damping
CHAIN_GAP = 0.02  # m, buffer play each way
CHAIN_K = 2e7  # N/m, buffer stiffness
CHAIN_DB = 2e5  # N.s/m, buffer damping
CHAIN_F = 1.2e5  # N, force step on the first wagon
CHAIN_T_STEP = 0.1  # s, time of the step
CHAIN_STOP = 10.0  # s
CHAIN_RTOL = 1e-6

# a restart's event functions start at least this far (m) inside their mode
EVENT_MARGIN = 1e-14


class CountingBDF(BDF):
    """scipy's BDF, counting accepted steps (each successful _step_impl)."""

    accepted = 0

    def _step_impl(self):
        ok, msg = super()._step_impl()
        if ok:
            CountingBDF.accepted += 1
        return ok, msg


class Chain:
    def __init__(self, n):
        self.n = n
        self.force = 0.0
        self.mode = np.zeros(max(n - 1, 0), dtype=np.int8)  # per buffer
        self.stepping = False  # modes from the state (--no-events)
        self._set_links(self.mode)
        self._build_pattern()

    # link stiffness, damping and constant force term for given modes:
    # tension f = kl*xr + dl*vr + f0
    def _links(self, mode):
        c = mode != 0
        kl = CHAIN_C + CHAIN_K * c
        dl = CHAIN_D + CHAIN_DB * c
        f0 = (-CHAIN_K * CHAIN_GAP) * mode
        return kl, dl, f0

    def _set_links(self, mode):
        self.kl, self.dl, self.f0 = self._links(mode)

    def set_mode(self, mode):
        self.mode = mode
        self._set_links(mode)

    @staticmethod
    def mode_of(xr):
        return (xr > CHAIN_GAP).astype(np.int8) - (xr < -CHAIN_GAP).astype(np.int8)

    def rhs(self, t, y):
        x = y[0::2]
        v = y[1::2]
        xr = x[1:] - x[:-1]
        vr = v[1:] - v[:-1]
        if self.stepping:
            kl, dl, f0 = self._links(self.mode_of(xr))
        else:
            kl, dl, f0 = self.kl, self.dl, self.f0
        f = kl * xr + dl * vr + f0  # tensions
        a = np.empty(self.n)
        a[:-1] = f
        a[-1] = 0.0
        a[1:] -= f
        a[0] += self.force
        a *= 1.0 / CHAIN_M
        dy = np.empty_like(y)
        dy[0::2] = v
        dy[1::2] = a
        return dy

    # The Jacobian's pattern, built once: 7n-4 entries in groups
    #   (2i, 2i+1) = 1                        dx_i/dt = v_i
    #   (2i+1, 2i) = -(kl_{i-1} + kl_i)/m     (2i+1, 2i+1) = -(dl_{i-1} + dl_i)/m
    #   (2i+1, 2i+2) = kl_i/m                 (2i+1, 2i+3) = dl_i/m
    #   (2i+3, 2i) = kl_i/m                   (2i+3, 2i+1) = dl_i/m
    # and the permutation of the group order into CSC order.
    def _build_pattern(self):
        n = self.n
        i = np.arange(n)
        j = np.arange(n - 1)
        rows = np.concatenate([2 * i, 2 * i + 1, 2 * i + 1, 2 * j + 1, 2 * j + 1, 2 * j + 3, 2 * j + 3])
        cols = np.concatenate([2 * i + 1, 2 * i, 2 * i + 1, 2 * j + 2, 2 * j + 3, 2 * j, 2 * j + 1])
        nnz = rows.size
        slot = coo_matrix((np.arange(1, nnz + 1, dtype=float), (rows, cols)), shape=(2 * n, 2 * n)).tocsc()
        slot.sort_indices()
        self.perm = slot.data.astype(np.intp) - 1
        self.indices = slot.indices
        self.indptr = slot.indptr
        self.vals = np.empty(nnz)
        self.vals[:n] = 1.0

    def jac(self, t, y):
        n = self.n
        if self.stepping:
            x = y[0::2]
            kl, dl, _ = self._links(self.mode_of(x[1:] - x[:-1]))
        else:
            kl, dl = self.kl, self.dl
        s = 1.0 / CHAIN_M
        kd = np.zeros(n)
        dd = np.zeros(n)
        kd[:-1] -= kl
        kd[1:] -= kl
        dd[:-1] -= dl
        dd[1:] -= dl
        v = self.vals
        m = n - 1
        v[n:2 * n] = kd * s
        v[2 * n:3 * n] = dd * s
        o = 3 * n
        v[o:o + m] = kl * s
        v[o + m:o + 2 * m] = dl * s
        v[o + 2 * m:o + 3 * m] = kl * s
        v[o + 3 * m:o + 4 * m] = dl * s
        return csc_matrix((v[self.perm], self.indices, self.indptr), shape=(2 * n, 2 * n))

    # event functions: positive inside the current mode, falling through zero
    # when it ends (free: |xr| = GAP; stretched: xr = GAP; compressed: xr = -GAP)
    def g_all(self, y, mode):
        x = y[0::2]
        xr = x[1:] - x[:-1]
        return np.where(mode == 0, CHAIN_GAP - np.abs(xr), mode * xr - CHAIN_GAP)


def integrate(n, rtol, events, style):
    ch = Chain(n)
    neq = 2 * n
    atol = np.empty(neq)
    atol[0::2] = rtol * 1e-4
    atol[1::2] = rtol
    y = np.zeros(neq)
    nfev = njev = nlu = nev = 0
    CountingBDF.accepted = 0

    def run(t0, t1, evfuns=None):
        nonlocal nfev, njev, nlu
        sol = solve_ivp(ch.rhs, (t0, t1), y, method=CountingBDF, t_eval=[t1], events=evfuns,
                        rtol=rtol, atol=atol, jac=ch.jac)
        if sol.status < 0:
            sys.exit(f"chain_scipy: solve_ivp failed after t = {t0}: {sol.message}")
        nfev += sol.nfev
        njev += sol.njev
        nlu += sol.nlu
        return sol

    if not events or n < 2:
        ch.stepping = not events
        run(0.0, CHAIN_T_STEP)  # nothing moves, but integrate it as chain_ida does
        ch.force = CHAIN_F
        sol = run(CHAIN_T_STEP, CHAIN_STOP)
        return sol.y[:, -1], CountingBDF.accepted, nfev, njev, nlu, 0

    run(0.0, CHAIN_T_STEP)
    t = CHAIN_T_STEP
    ch.force = CHAIN_F
    mode = ch.mode.copy()
    while True:
        # offsets so that every g_i starts at >= EVENT_MARGIN
        off = np.maximum(0.0, EVENT_MARGIN - ch.g_all(y, mode))
        seg_mode = mode

        if style == "min":
            def ev(tt, yy, seg_mode=seg_mode, off=off):
                return np.min(ch.g_all(yy, seg_mode) + off)
            ev.terminal = True
            ev.direction = -1
            evfuns = [ev]
        else:
            cache = {"t": None, "y": None, "g": None}

            def g_cached(tt, yy, seg_mode=seg_mode, off=off, cache=cache):
                if cache["t"] != tt or cache["y"] is not yy:
                    cache["t"], cache["y"] = tt, yy
                    cache["g"] = ch.g_all(yy, seg_mode) + off
                return cache["g"]

            evfuns = []
            for i in range(n - 1):
                def ev(tt, yy, i=i):
                    return g_cached(tt, yy)[i]
                ev.terminal = True
                ev.direction = -1
                evfuns.append(ev)

        sol = run(t, CHAIN_STOP, evfuns)
        if sol.status != 1:  # reached the stop time
            return sol.y[:, -1], CountingBDF.accepted, nfev, njev, nlu, nev
        # the terminating event: the last root found
        hit = [k for k, te in enumerate(sol.t_events) if te.size]
        te = min(sol.t_events[k][-1] for k in hit)
        k0 = next(k for k in hit if sol.t_events[k][-1] == te)
        ye = sol.y_events[k0][-1]
        g = ch.g_all(ye, seg_mode) + off
        changed = g <= 0.0
        if style == "min":
            changed[np.argmin(g)] = True
        else:
            changed[k0] = True
        x = ye[0::2]
        xr = x[1:] - x[:-1]
        # the new mode from the boundary crossed: free -> contact on the side
        # of xr, contact -> free
        mode = seg_mode.copy()
        mode[changed] = np.where(seg_mode[changed] == 0, np.where(xr[changed] > 0, 1, -1), 0)
        ch.set_mode(mode)
        nev += 1
        t = te
        y = ye


def main():
    ap = argparse.ArgumentParser(description="the benchmark chain with scipy's solve_ivp BDF")
    ap.add_argument("n", type=int, help="number of wagons")
    ap.add_argument("--rtol", type=float, default=CHAIN_RTOL)
    ap.add_argument("--dump", metavar="FILE", help="write the final state, 'x v' per wagon")
    ap.add_argument("--no-events", action="store_true", help="step through the buffers")
    ap.add_argument("--event-style", choices=("min", "list"), default="min")
    a = ap.parse_args()
    if a.n < 1 or not a.rtol > 0:
        ap.error("need N >= 1 and rtol > 0")
    t0 = time.perf_counter()
    y, steps, nfev, njev, nlu, nev = integrate(a.n, a.rtol, not a.no_events, a.event_style)
    secs = time.perf_counter() - t0
    print(f"steps={steps} rhs={nfev} jac={njev} lu={nlu} events={nev} seconds={secs:.4f} "
          f"x1={y[0]:.12g} v1={y[1]:.12g}")
    if a.dump:
        with open(a.dump, "w") as f:
            for i in range(a.n):
                f.write(f"{y[2 * i]:.17g} {y[2 * i + 1]:.17g}\n")


if __name__ == "__main__":
    main()
