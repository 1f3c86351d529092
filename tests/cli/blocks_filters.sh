#!/usr/bin/env bash
# The linear systems and filters of Modelica.Blocks.Continuous (issue 12),
# written into models as a user writes them: TransferFunction, StateSpace,
# CriticalDamping, LowpassButterworth and Filter against closed forms and
# against transfer functions built in Python from scipy's analog prototypes
# (buttap, cheb1ap, besselap: roots found independently of flange's design
# functions), with every initType; the equation-layer fixes they needed
# (derivatives of filter outputs with steady-state initial equations,
# one-element start arrays, parameter arrays checked against their declared
# sizes); a bad parameter's whole message.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

if ! "$PY" -c 'import numpy, scipy.signal, scipy.linalg' 2> /dev/null; then
  bad "python3-numpy and python3-scipy are needed (scripts/install-deps.sh installs them)"
  exit 1
fi

# ---- TransferFunction: a step of height 1 at t0 = 0.5 (offset 0.5 from 0):
#   tf1 = 1/(s + 1), InitialState x = 0:       y = 1 - e^-tau (tau = t - t0)
#   tf2 = 4/(2s + 4), InitialState x = 0.1:    x = u/(2s + 4) (the unscaled state), y = 4x
#        x = 0.25 + (0.1 - 0.25) e^(-2 tau) after the step, 0.1 e^(-2t) before it
#   tf3 = 1/(s^2 + 2s + 5), InitialState 0:    y = (1 - e^-tau (cos 2tau + sin(2tau)/2))/5,
#        x[2] = y, x[1] = y' = e^-tau sin(2tau)/2 (controller canonical form)
#   tf4 = (s + 2)/(s^2 + 2s + 5), SteadyState from u = 0.5: y = x[1] + 2 x[2], so
#        y = 0.2 + e^-tau sin(2tau)/2 + 2 y3 after the step
#   tf5 = 1/(s^2 + 2s + 5), InitialOutput y_start = 0.3 with u = 0.5 before the step:
#        y = 0.1 + 0.2 e^-t (cos 2t + sin(2t)/2) until t0
#   tf6 = {3}/{2}: no state, y = 1.5u
model tf <<'EOF'
model TF
  Modelica.Blocks.Sources.Step step(startTime = 0.5, height = 1, offset = 0);
  Modelica.Blocks.Sources.Step step2(startTime = 0.5, height = 1, offset = 0.5);
  Modelica.Blocks.Continuous.TransferFunction tf1(b = {1}, a = {1, 1}, initType = Modelica.Blocks.Types.Init.InitialState);
  Modelica.Blocks.Continuous.TransferFunction tf2(b = {4}, a = {2, 4}, initType = Modelica.Blocks.Types.Init.InitialState, x_start = {0.1});
  Modelica.Blocks.Continuous.TransferFunction tf3(b = {1}, a = {1, 2, 5}, initType = Modelica.Blocks.Types.Init.InitialState);
  Modelica.Blocks.Continuous.TransferFunction tf4(b = {1, 2}, a = {1, 2, 5}, initType = Modelica.Blocks.Types.Init.SteadyState);
  Modelica.Blocks.Continuous.TransferFunction tf5(b = {1}, a = {1, 2, 5}, initType = Modelica.Blocks.Types.Init.InitialOutput, y_start = 0.3);
  Modelica.Blocks.Continuous.TransferFunction tf6(b = {3}, a = {2});
equation
  connect(step.y, tf1.u);
  connect(step.y, tf2.u);
  connect(step.y, tf3.u);
  connect(step2.y, tf4.u);
  connect(step2.y, tf5.u);
  connect(step2.y, tf6.u);
  annotation(experiment(StopTime = 6, Interval = 0.01));
end TF;
EOF
sim tf --tolerance 1e-9 && values "TransferFunction: first and second order step responses, scaled states, every initType" tf <<'PY'
t0 = 0.5
def after(f):
    return lambda t: 0.0 if t <= t0 else f(t - t0)
e = math.exp
near(worst("tf1.y", after(lambda s: 1 - e(-s))), 0, 1e-7, "tf1: y = 1 - e^-tau")
near(worst("tf1.x[1]", after(lambda s: 1 - e(-s))), 0, 1e-7, "tf1: x = y")
x2 = lambda t: 0.1*e(-2*t) if t <= t0 else 0.25 + (0.1*e(-2*t0) - 0.25)*e(-2*(t - t0))
near(worst("tf2.x[1]", x2), 0, 1e-7, "tf2: the unscaled state x = u/(2s + 4) from x_start")
near(worst("tf2.y", lambda t: 4*x2(t)), 0, 4e-7, "tf2: y = 4x")
near(at("tf2.x_scaled[1]", 0), 0.1*4, 1e-12, "tf2: the integrated state is x*a[end]")
y3 = lambda s: (1 - e(-s)*(math.cos(2*s) + math.sin(2*s)/2))/5
near(worst("tf3.y", after(y3)), 0, 1e-7, "tf3: step response of 1/(s^2 + 2s + 5)")
near(worst("tf3.x[2]", after(y3)), 0, 1e-7, "tf3: x[2] = y")
near(worst("tf3.x[1]", after(lambda s: e(-s)*math.sin(2*s)/2)), 0, 1e-7, "tf3: x[1] = der(y)")
# tf4 = x[1] + 2 x[2] with x[2] = u/a(s): from the steady state of u = 0.5
y4 = lambda t: 0.2 if t <= t0 else 0.2 + e(-(t - t0))*math.sin(2*(t - t0))/2 + 2*y3(t - t0)
near(at("tf4.y", 0), 2*0.5/5, 1e-12, "tf4: SteadyState starts at y = b(0)/a(0)*u")
near(worst("tf4.y", y4), 0, 1e-7, "tf4: step response of (s + 2)/(s^2 + 2s + 5)")
y5 = lambda t: 0.1 + 0.2*e(-t)*(math.cos(2*t) + math.sin(2*t)/2)
near(at("tf5.y", 0), 0.3, 1e-12, "tf5: InitialOutput starts at y_start")
near(worst("tf5.y", y5, tmax=t0), 0, 1e-7, "tf5: InitialOutput, then the free response (der(y) = 0 at the start)")
near(worst("tf6.y", lambda t: 1.5*(0.5 if t < t0 else 1.5), tmax=t0 - 1e-9), 0, 1e-12, "tf6: no state, y = b/a*u (before the step)")
near(worst("tf6.y", lambda t: 1.5*(0.5 if t < t0 else 1.5), tmin=t0 + 1e-9), 0, 1e-12, "tf6: no state, y = b/a*u (after it)")
near(at("tf6.y", t0, 0), 0.75, 1e-12, "tf6: the step instant, before")
near(at("tf6.y", t0, -1), 2.25, 1e-12, "tf6: the step instant, after")
PY

# ---- StateSpace: A = [-1, 2; -3, -4], B = [1, 0; 0, 2], C = [1, 0; 1, 1],
# D = [0, 0; 0.5, 0]; u1 a step 0 -> 1 at 0.2, u2 = 0.5. Against the matrix
# exponential: x(t) = e^(A(t - tk)) x(tk) + A^-1 (e^(A(t - tk)) - I) B u
# between the steps (scipy.linalg.expm).
#   ss1 InitialState x = {1, -1}; ss2 SteadyState: x = -A^-1 B u(0);
#   ss3 InitialOutput y = {0.2, -0.1}: C square, so x(0) = C^-1 (y_start - D u(0))
#   ss4 a single input and output with InitialOutput (C is 1x2: the state
#   closest to steady, the least-squares solution of MSL's equalityLeastSquares)
model ss <<'EOF'
model SS
  Modelica.Blocks.Sources.Step u1(startTime = 0.2);
  Modelica.Blocks.Sources.Constant u2(k = 0.5);
  Modelica.Blocks.Continuous.StateSpace ss1(A = [-1, 2; -3, -4], B = [1, 0; 0, 2], C = [1, 0; 1, 1], D = [0, 0; 0.5, 0],
    initType = Modelica.Blocks.Types.Init.InitialState, x_start = {1, -1});
  Modelica.Blocks.Continuous.StateSpace ss2(A = [-1, 2; -3, -4], B = [1, 0; 0, 2], C = [1, 0; 1, 1], D = [0, 0; 0.5, 0],
    initType = Modelica.Blocks.Types.Init.SteadyState);
  Modelica.Blocks.Continuous.StateSpace ss3(A = [-1, 2; -3, -4], B = [1, 0; 0, 2], C = [1, 0; 1, 1], D = [0, 0; 0.5, 0],
    initType = Modelica.Blocks.Types.Init.InitialOutput, y_start = {0.2, -0.1});
  Modelica.Blocks.Continuous.StateSpace ss4(A = [-1, 2; -3, -4], B = [1; 0], C = [1, 1],
    initType = Modelica.Blocks.Types.Init.InitialOutput, y_start = {0.3});
equation
  connect(u1.y, ss1.u[1]);
  connect(u2.y, ss1.u[2]);
  connect(u1.y, ss2.u[1]);
  connect(u2.y, ss2.u[2]);
  connect(u1.y, ss3.u[1]);
  connect(u2.y, ss3.u[2]);
  connect(u2.y, ss4.u[1]);
  annotation(experiment(StopTime = 4, Interval = 0.01));
end SS;
EOF
sim ss --tolerance 1e-9 && values "StateSpace: 2x2 system against the matrix exponential, every initType" ss <<'PY'
import numpy as np
from scipy.linalg import expm
A = np.array([[-1.0, 2], [-3, -4]]); B = np.array([[1.0, 0], [0, 2]])
C = np.array([[1.0, 0], [1, 1]]); D = np.array([[0, 0], [0.5, 0]])
def u(t):
    return np.array([0.0 if t < 0.2 else 1.0, 0.5])
def traj(x0):
    def x(t):
        tk, xk, uk = 0.0, np.array(x0, float), u(0)
        if t > 0.2:
            E = expm(A*0.2)
            xk = E @ xk + np.linalg.solve(A, (E - np.eye(2)) @ B @ uk)
            tk, uk = 0.2, u(1)
        E = expm(A*(t - tk))
        return E @ xk + np.linalg.solve(A, (E - np.eye(2)) @ B @ uk)
    return x
starts = {"ss1": [1, -1], "ss2": -np.linalg.solve(A, B @ u(0)),
          "ss3": np.linalg.solve(C, np.array([0.2, -0.1]) - D @ u(0))}
for name, x0 in starts.items():
    x = traj(x0)
    for i in range(2):
        near(worst("%s.x[%d]" % (name, i + 1), lambda t: x(t)[i]), 0, 2e-7, "%s.x[%d]" % (name, i + 1))
        # (y[2] jumps with u at 0.2: the instant itself is checked on both sides below)
        for lo, hi in ((0, 0.2 - 1e-9), (0.2 + 1e-9, 10)):
            near(worst("%s.y[%d]" % (name, i + 1), lambda t: (C @ x(t) + D @ u(t))[i], lo, hi), 0, 2e-7, "%s.y[%d]" % (name, i + 1))
    near(at(name + ".y[2]", 0.2, -1) - at(name + ".y[2]", 0.2, 0), 0.5, 1e-9, name + ": y[2] jumps by D[2, 1]*1 at the step")
near(at("ss3.y[1]", 0), 0.2, 1e-10, "ss3: InitialOutput y[1]")
near(at("ss3.y[2]", 0), -0.1, 1e-10, "ss3: InitialOutput y[2]")
# ss4: min |A x + B u| subject to C x = 0.3: the optimality conditions
b4 = np.array([1.0, 0]); c4 = np.array([1.0, 1])
K = np.block([[A.T @ A, c4.reshape(2, 1)], [c4.reshape(1, 2), np.zeros((1, 1))]])
x4 = np.linalg.solve(K, np.concatenate([-A.T @ b4*0.5, [0.3]]))[:2]
near(at("ss4.y[1]", 0), 0.3, 1e-10, "ss4: InitialOutput y")
near(at("ss4.x[1]", 0), x4[0], 1e-9, "ss4: x[1] closest to steady state")
near(at("ss4.x[2]", 0), x4[1], 1e-9, "ss4: x[2] closest to steady state")
PY

# ---- CriticalDamping: n identical lags with w = 2 pi f/alpha,
# alpha = sqrt(2^(1/n) - 1) when normalized. A unit step at 0.1 s, f = 2 Hz.
#   n = 1: y = 1 - e^(-w tau); n = 2: y = 1 - e^(-w tau)(1 + w tau), x[1] = 1 - e^(-w tau)
#   cd2u: normalized = false (w = 2 pi f); cd2s: SteadyState from u = 0.5 (offset):
#   y(0) = u(0); cd2o: InitialOutput y_start = 0.2 with u = 0.5: x[1] = 0.5 steady,
#   y = 0.5 + (0.2 - 0.5) e^(-w t) until the step. Each normalized filter is
#   3 dB down at f: |1/(1 + j 2 pi f/w)|^n = 1/sqrt(2).
model cd <<'EOF'
model CD
  Modelica.Blocks.Sources.Step step(startTime = 0.1);
  Modelica.Blocks.Sources.Step step2(startTime = 0.1, offset = 0.5);
  Modelica.Blocks.Continuous.CriticalDamping cd1(n = 1, f = 2, initType = Modelica.Blocks.Types.Init.InitialState);
  Modelica.Blocks.Continuous.CriticalDamping cd2(n = 2, f = 2, initType = Modelica.Blocks.Types.Init.InitialState);
  Modelica.Blocks.Continuous.CriticalDamping cd2u(n = 2, f = 2, normalized = false, initType = Modelica.Blocks.Types.Init.InitialState);
  Modelica.Blocks.Continuous.CriticalDamping cd2s(n = 2, f = 2, initType = Modelica.Blocks.Types.Init.SteadyState);
  Modelica.Blocks.Continuous.CriticalDamping cd2o(n = 2, f = 2, initType = Modelica.Blocks.Types.Init.InitialOutput, y_start = 0.2);
equation
  connect(step.y, cd1.u);
  connect(step.y, cd2.u);
  connect(step.y, cd2u.u);
  connect(step2.y, cd2s.u);
  connect(step2.y, cd2o.u);
  annotation(experiment(StopTime = 1, Interval = 0.002));
end CD;
EOF
sim cd --tolerance 1e-9 && values "CriticalDamping: n = 1, 2 step responses (normalized or not), SteadyState, InitialOutput" cd <<'PY'
t0, f, e = 0.1, 2.0, math.exp
w1 = 2*math.pi*f/math.sqrt(2**(1/1) - 1)
w2 = 2*math.pi*f/math.sqrt(2**(1/2) - 1)
for w, n in ((w1, 1), (w2, 2)):
    near(abs(1/(1 + 1j*2*math.pi*f/w))**n, 1/math.sqrt(2), 1e-15, "normalized n = %d: 3 dB down at f" % n)
def after(g):
    return lambda t: 0.0 if t <= t0 else g(t - t0)
near(worst("cd1.y", after(lambda s: 1 - e(-w1*s))), 0, 1e-7, "n = 1: y = 1 - e^(-w tau)")
near(worst("cd2.x[1]", after(lambda s: 1 - e(-w2*s))), 0, 1e-7, "n = 2: x[1] = 1 - e^(-w tau)")
near(worst("cd2.y", after(lambda s: 1 - e(-w2*s)*(1 + w2*s))), 0, 1e-7, "n = 2: y = 1 - e^(-w tau)(1 + w tau)")
wu = 2*math.pi*f
near(worst("cd2u.y", after(lambda s: 1 - e(-wu*s)*(1 + wu*s))), 0, 1e-7, "n = 2, not normalized: w = 2 pi f")
near(at("cd2s.y", 0), 0.5, 1e-12, "SteadyState: y = u at t = 0")
near(worst("cd2s.y", lambda t: 0.5 + (0 if t <= t0 else 1 - e(-w2*(t - t0))*(1 + w2*(t - t0)))), 0, 1e-7, "SteadyState, then the step")
near(at("cd2o.y", 0), 0.2, 1e-12, "InitialOutput: y = y_start")
near(at("cd2o.x[1]", 0), 0.5, 1e-12, "InitialOutput: the first lag steady")
near(worst("cd2o.y", lambda t: 0.5 - 0.3*e(-w2*t), tmax=t0), 0, 1e-7, "InitialOutput: the free response")
PY

# ---- LowpassButterworth, f = 1 Hz (w = 2 pi), a unit step at 0.1 s:
#   n = 2: one section of damping 1/sqrt(2): y = 1 - e^(-w tau/sqrt2)(cos(w tau/sqrt2) + sin(w tau/sqrt2));
#   n = 1: a lag with T = 1/w; n = 3 against scipy's butter(3, w); SteadyState
#   from u = 0.5: y = u at t = 0; InitialOutput (n = 3): y(0) = y_start, the
#   section steady (x1 = u, x2 = 0), xr = y_start.
model bw <<'EOF'
model BW
  Modelica.Blocks.Sources.Step step(startTime = 0.1);
  Modelica.Blocks.Sources.Step step2(startTime = 0.1, offset = 0.5);
  Modelica.Blocks.Continuous.LowpassButterworth bw1(n = 1, f = 1, initType = Modelica.Blocks.Types.Init.InitialState);
  Modelica.Blocks.Continuous.LowpassButterworth bw2(n = 2, f = 1, initType = Modelica.Blocks.Types.Init.InitialState);
  Modelica.Blocks.Continuous.LowpassButterworth bw3(n = 3, f = 1, initType = Modelica.Blocks.Types.Init.InitialState);
  Modelica.Blocks.Continuous.LowpassButterworth bw2s(n = 2, f = 1, initType = Modelica.Blocks.Types.Init.SteadyState);
  Modelica.Blocks.Continuous.LowpassButterworth bw3o(n = 3, f = 1, initType = Modelica.Blocks.Types.Init.InitialOutput, y_start = 0.2);
equation
  connect(step.y, bw1.u);
  connect(step.y, bw2.u);
  connect(step.y, bw3.u);
  connect(step2.y, bw2s.u);
  connect(step2.y, bw3o.u);
  annotation(experiment(StopTime = 2, Interval = 0.002));
end BW;
EOF
sim bw --tolerance 1e-9 && values "LowpassButterworth: n = 1, 2, 3 step responses, SteadyState, InitialOutput" bw <<'PY'
import numpy as np, scipy.signal as sg
t0, w, e = 0.1, 2*math.pi, math.exp
def after(g):
    return lambda t: 0.0 if t <= t0 else g(t - t0)
near(worst("bw1.y", after(lambda s: 1 - e(-w*s))), 0, 1e-7, "n = 1: a lag of T = 1/w")
c = w/math.sqrt(2)
near(worst("bw2.y", after(lambda s: 1 - e(-c*s)*(math.cos(c*s) + math.sin(c*s)))), 0, 1e-7, "n = 2: damping 1/sqrt(2) at w")
b3, a3 = sg.butter(3, w, analog=True)
ts = [x - t0 for x in t if x > t0]
_, y3 = sg.step((b3, a3), T=[0.0] + ts)
ref = dict(zip([round(x, 9) for x in ts], y3[1:]))
near(worst("bw3.y", lambda x: ref[round(x - t0, 9)] if x > t0 else 0.0), 0, 1e-6, "n = 3: scipy's butter(3)")
near(at("bw2s.y", 0), 0.5, 1e-12, "SteadyState: y = u at t = 0")
near(at("bw3o.y", 0), 0.2, 1e-12, "InitialOutput: y = y_start")
near(at("bw3o.x1[1]", 0), 0.5, 1e-12, "InitialOutput: the section steady at u")
near(at("bw3o.x2[1]", 0), 0.0, 1e-12, "InitialOutput: the section at rest")
PY

# ---- Filter against transfer functions built from scipy's prototypes: the
# block's sections are, for a prototype den(s) = prod(s - p_k) (poles of
# buttap, cheb1ap(n, A_ripple), besselap(n, 'delay'), or -1 for critical
# damping; with normalized = true scaled so that |den(0)/den(j)| = 10^(-3/20),
# and CriticalDamping's poles at -1/sqrt(10^(3/(10 n)) - 1)):
#   LowPass  gain*den(0)/den(s/wc)     (lp2lp)       HighPass gain*den(0)/den(wc/s) (lp2hp)
#   BandPass gain/den((s^2 + w0^2)/(s bw))  (lp2bp)  BandStop the poles of gain*den(0)/den(s bw/(s^2 + w0^2)) (lp2bs)
# with wc = 2 pi f_cut, w0 = 2 pi sqrt(f_min f_cut), bw = 2 pi (f_cut - f_min).
# Each starts at rest (InitialState) and gets a unit step at 0.05 s.
cat > "$T/filters.txt" <<'EOF'
lp_cd CriticalDamping LowPass 3 true
lp_cdu CriticalDamping LowPass 2 false
lp_bes Bessel LowPass 4 true
lp_besu Bessel LowPass 5 false
lp_bw Butterworth LowPass 4 true
lp_ch ChebyshevI LowPass 4 true
lp_chu ChebyshevI LowPass 3 false
hp_bw Butterworth HighPass 3 true
hp_bes Bessel HighPass 3 true
hp_ch ChebyshevI HighPass 2 false
bp_ch ChebyshevI BandPass 2 false
bp_bes Bessel BandPass 3 true
bs_bw Butterworth BandStop 2 true
bs_cd CriticalDamping BandStop 1 true
EOF
{
  echo 'model Filters'
  echo '  Modelica.Blocks.Sources.Step step(startTime = 0.05);'
  while read -r name af ft n norm; do
    echo "  Modelica.Blocks.Continuous.Filter $name(analogFilter = Modelica.Blocks.Types.AnalogFilter.$af, filterType = Modelica.Blocks.Types.FilterType.$ft, order = $n, normalized = $norm, f_cut = 3, f_min = 1.5, gain = 1.5, A_ripple = 0.7, init = Modelica.Blocks.Types.Init.InitialState);"
  done < "$T/filters.txt"
  echo 'equation'
  while read -r name rest; do echo "  connect(step.y, $name.u);"; done < "$T/filters.txt"
  echo '  annotation(experiment(StopTime = 2, Interval = 0.001));'
  echo 'end Filters;'
} > "$T/filters.mo"
sim filters --tolerance 1e-9 --vars '*.y' && FILTERS="$T/filters.txt" values "Filter: low, high, band pass and band stop of all four characteristics against scipy's prototypes" filters <<'PY'
import os, numpy as np, scipy.signal as sg
from scipy.optimize import brentq
t0, fc, fmin, gain, rip = 0.05, 3.0, 1.5, 1.5, 0.7
def proto(af, n, norm):
    if af == "CriticalDamping":
        a = math.sqrt(10**(3/10/n) - 1) if norm else 1.0
        return np.full(n, -1/a + 0j)
    if af == "Butterworth":
        return sg.buttap(n)[1]
    p = sg.cheb1ap(n, rip)[1] if af == "ChebyshevI" else sg.besselap(n, norm="delay")[1]
    if not norm:
        return p
    den = np.poly(p).real
    h = lambda w: abs(np.polyval(den, 0)/np.polyval(den, 1j*w)) - 10**(-3/20)
    w3 = brentq(h, 1e-3, 1e3, xtol=1e-15)
    return p/w3
wc, w0, bw = 2*math.pi*fc, 2*math.pi*math.sqrt(fmin*fc), 2*math.pi*(fc - fmin)
for line in open(os.environ["FILTERS"]):
    name, af, ft, n, norm = line.split()
    den = np.poly(proto(af, int(n), norm == "true")).real
    d0 = np.polyval(den, 0)
    if ft == "LowPass":
        b, a = sg.lp2lp([d0], den, wc)
    elif ft == "HighPass":
        b, a = sg.lp2hp([d0], den, wc)
    elif ft == "BandPass":
        b, a = sg.lp2bp([1.0], den, w0, bw)
    else:
        # MSL's sections are (s^2 + c0)/(s^2 + c1 s + c0): each pair of poles of
        # the transformed filter with zeros at its own natural frequency (for
        # a pole pair of the prototype, not quite the centre w0)
        b, a = sg.lp2bs([d0], den, w0, bw)
        up = [q for q in np.roots(a) if q.imag > 0]
        b = np.array([1.0])
        for q in up:
            b = np.polymul(b, [1.0, 0.0, abs(q)**2])
    ts = [x - t0 for x in t if x > t0]
    _, ys = sg.step((gain*np.array(b), a), T=[0.0] + ts)
    ref = dict(zip([round(x, 9) for x in ts], ys[1:]))
    scale = max(1.0, max(abs(v) for v in ys))
    f = lambda x: ref[round(x - t0, 9)] if x > t0 else 0.0
    near(worst(name + ".y", f, tmin=t0 + 1e-9), 0, 2e-6*scale, "%s: %s %s of order %s" % (name, af, ft, n))
    near(at(name + ".y", t0, 0), 0, 1e-12, name + ": at rest until the step")
    near(at(name + ".y", t0, -1), gain*b[0]/a[0] if len(b) == len(a) else 0, 1e-9, name + ": the jump at the step (direct feedthrough)")
PY

# ---- the Bessel prototypes of high order, which flange computes (zeros of
# the Bessel polynomial in double-double arithmetic) where the MSL tabulates
# them, against scipy's besselap: den1 (a*p + 1), den2 (b2*p^2 + b1*p + 1,
# least damped last), 3 dB down at 1 rad/s, alpha = 1/(3 dB frequency of the
# filter with a delay of 1 s)
{
  echo 'model BesselBase'
  echo '  function packed "c1, c2[:, 1], c2[:, 2], alpha"'
  echo '    input Integer n;'
  echo '    output Real v[n + 1];'
  echo '  protected'
  echo '    Real c1[mod(n, 2)];'
  echo '    Real c2[integer(n/2), 2];'
  echo '    Real alpha;'
  echo '  algorithm'
  echo '    (c1, c2, alpha) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.BesselBaseCoefficients(n);'
  echo '    v := cat(1, c1, c2[:, 1], c2[:, 2], {alpha});'
  echo '  end packed;'
  for n in 1 2 7 16 25 33 41; do
    echo "  parameter Real p$n[$((n + 1))] = packed($n);"
    echo "  Real b$n[$((n + 1))] = p$n;"
  done
  echo 'end BesselBase;'
} > "$T/besselbase.mo"
sim besselbase && values "Bessel prototypes of orders 1..41 against scipy's besselap" besselbase <<'PY'
import numpy as np, scipy.signal as sg
from scipy.optimize import brentq
for n in (1, 2, 7, 16, 25, 33, 41):
    p = sg.besselap(n, norm="delay")[1]
    den = np.poly(p).real
    w3 = brentq(lambda w: abs(np.polyval(den, 0)/np.polyval(den, 1j*w)) - 10**(-3/20), 1e-3, 1e3, xtol=1e-16)
    q = sorted(p/w3, key=lambda z: z.imag)
    m = n//2
    c1 = [-1/q[m].real] if n % 2 else []
    up = q[n - m:]
    want = c1 + [1/abs(z)**2 for z in up] + [-2*z.real/abs(z)**2 for z in up] + [1/w3]
    tol = 1e-11 if n <= 33 else 1e-9
    for i, w in enumerate(want):
        got = col("b%d[%d]" % (n, i + 1))[0]
        near(got/w, 1, tol, "order %d, coefficient %d (%.15g)" % (n, i + 1, w))
PY

# ---- the gain of each filter at zero frequency is `gain` (low pass, band
# stop; 0 for high and band pass), and SteadyState (Filter's default) starts
# every one of them in balance: y(0) = gain*u(0), x steady.
{
  echo 'model Gains'
  echo '  Modelica.Blocks.Sources.Step step(startTime = 0.2, height = -0.4, offset = 0.8);'
  for af in CriticalDamping Bessel Butterworth ChebyshevI; do
    for ft in LowPass HighPass BandPass BandStop; do
      echo "  Modelica.Blocks.Continuous.Filter ${af}_$ft(analogFilter = Modelica.Blocks.Types.AnalogFilter.$af, filterType = Modelica.Blocks.Types.FilterType.$ft, order = 3, f_cut = 4, f_min = 2, gain = 2.5);"
    done
  done
  echo 'equation'
  for af in CriticalDamping Bessel Butterworth ChebyshevI; do
    for ft in LowPass HighPass BandPass BandStop; do echo "  connect(step.y, ${af}_$ft.u);"; done
  done
  echo '  annotation(experiment(StopTime = 12, Interval = 0.01));'
  echo 'end Gains;'
} > "$T/gains.mo"
sim gains --tolerance 1e-9 --vars '*.y,*.x*' && values "Filter: DC gain = gain, SteadyState starts in balance" gains <<'PY'
for af in ("CriticalDamping", "Bessel", "Butterworth", "ChebyshevI"):
    for ft, k in (("LowPass", 2.5), ("HighPass", 0.0), ("BandPass", 0.0), ("BandStop", 2.5)):
        name = "%s_%s" % (af, ft)
        near(at(name + ".y", 0), k*0.8, 1e-12, name + ": y(0) = gain*u(0) (SteadyState)")
        near(col(name + ".y")[-1], k*0.4, 1e-6, name + ": final y = DC gain*u")
        for xn in [h for h in head if h.startswith(name + ".x[")]:
            near(at(xn, 0.1), at(xn, 0), 1e-12, xn + " stays where SteadyState put it")
PY

# ---- derivatives of a filter's output (MSL FilterWithDifferentiation's
# structure with a user Der block): the steady-state initial equations of
# the filter refer to der(x) of states that index reduction turns into
# unknowns of their own. Three lags in series, each (1/(1 + s/5)), from
# the steady state of u = 0.1; u steps to 1.1 at 0.1 s:
#   y = 0.1 + 1 - e^(-5 tau)(1 + 5 tau + (5 tau)^2/2), d1 = y', d2 = y''
model der <<'EOF'
model DerChain
  block Der
    extends Modelica.Blocks.Interfaces.SISO;
  equation
    y = der(u);
  end Der;
  Modelica.Blocks.Sources.Step step(startTime = 0.1, offset = 0.1);
  Modelica.Blocks.Continuous.CriticalDamping lags(n = 3, f = 5/(2*Modelica.Constants.pi), normalized = false,
    initType = Modelica.Blocks.Types.Init.SteadyState);
  Der d1;
  Der d2;
equation
  connect(step.y, lags.u);
  connect(lags.y, d1.u);
  connect(d1.y, d2.u);
  annotation(experiment(StopTime = 2, Interval = 0.005));
end DerChain;
EOF
sim der --tolerance 1e-9 && values "derivatives of a filter output with SteadyState initial equations" der <<'PY'
t0, w, e = 0.1, 5.0, math.exp
def after(g, base=0.0):
    return lambda t: base if t <= t0 else base + g(t - t0)
near(worst("lags.y", after(lambda s: 1 - e(-w*s)*(1 + w*s + (w*s)**2/2), 0.1)), 0, 1e-7, "y")
near(worst("d1.y", after(lambda s: e(-w*s)*w*(w*s)**2/2)), 0, 1e-6, "y'")
near(worst("d2.y", after(lambda s: e(-w*s)*w*w*(w*s - (w*s)**2/2))), 0, 1e-5, "y''")
PY

# ---- a bad parameter: an array whose size contradicts its declaration
# (StateSpace's B has size(A, 1) rows), at the modifier, and nothing else
model badss <<'EOF'
model BadSS
  Modelica.Blocks.Sources.Step step(startTime = 0.1);
  Modelica.Blocks.Continuous.StateSpace ss(A = [-1, 0; 0, -2], B = [1; 1; 1], C = [1, 1]);
equation
  connect(step.y, ss.u[1]);
end BadSS;
EOF
expect badss 1 -- "badss.mo:3:68: error: parameter 'ss.B' is declared with 2 rows, but its value has 3x1 elements"
model badtf <<'EOF'
model BadTF
  Modelica.Blocks.Sources.Step step(startTime = 0.1);
  Modelica.Blocks.Continuous.TransferFunction tf(b = {1}, a = {1, 2, 1}, x_start = {1, 2, 3});
equation
  connect(step.y, tf.u);
end BadTF;
EOF
expect badtf 1 -- "badtf.mo:3:84: error: parameter 'tf.x_start' is declared with 2 elements, but its value has 3 elements"

exit $((fails > 0))
