#!/usr/bin/env bash
# Modelica.Blocks.Continuous (issue 12): Integrator, LimIntegrator,
# Derivative, Der, FirstOrder, SecondOrder, PI, PID and LimPID, written as
# a user writes them with the MSL class names, against the closed forms of
# their step responses and free responses, every initType, and the
# anti-windup of LimPID derived below; the messages of a start value the
# MSL refuses and of a parameter given only a start value.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# Every model here steps its input at t0 = 0.5 (height h = 2 unless said):
# tau = t - t0 after the step. event(x): the event instants (the times a
# row repeats).
PRE='def event_times():
    return [t[i] for i in range(1, len(t)) if t[i] == t[i - 1]]
def after(f, t0=0.5):
    return lambda x: f(x - t0) if x > t0 else None
def worst_after(name, f, t0=0.5, tmin=-1):
    c = col(name)
    return max(abs(c[i] - f(t[i] - t0)) for i in range(len(t)) if t[i] > t0 + 1e-12 and t[i] >= tmin)
def worst_but(name, f, jumps=(0.5,)):
    # worst(), leaving out the two rows of each jump (checked with at())
    c = col(name)
    return max(abs(c[i] - f(t[i])) for i in range(len(t)) if all(abs(t[i] - j) > 1e-12 for j in jumps))
'
checks() { { printf '%s\n' "$PRE"; cat; } ; }

# ---- Integrator: y = k h tau after the step, y_start before; the default
# initType is InitialState (y = y_start); InitialOutput the same; NoInit
# takes y_start as a start value, silently (the MSL default of a block is
# no under-determined model). Parameters may name the source's parameters,
# set (step.height = 2) or its defaults (step.offset = 0).
model integrator <<'EOF'
model IntegratorSteps
  Modelica.Blocks.Sources.Step step(height = 2, startTime = 0.5);
  Modelica.Blocks.Continuous.Integrator plain(k = 3);
  Modelica.Blocks.Continuous.Integrator fromStart(k = 3, y_start = 1);
  Modelica.Blocks.Continuous.Integrator fromOutput(k = -1, initType = Modelica.Blocks.Types.Init.InitialOutput, y_start = -1);
  Modelica.Blocks.Continuous.Integrator noInit(initType = Modelica.Blocks.Types.Init.NoInit, y_start = 0.5);
  Modelica.Blocks.Continuous.Integrator fromSource(k = step.height, y_start = step.offset + 0.25);
equation
  connect(step.y, plain.u);
  connect(step.y, fromStart.u);
  connect(step.y, fromOutput.u);
  connect(step.y, noInit.u);
  connect(step.y, fromSource.u);
  annotation(experiment(StopTime = 1.5, Interval = 0.05));
end IntegratorSteps;
EOF
sim integrator --tolerance 1e-8 && values "Integrator: y = y_start + k h (t - t0) for each initType" integrator < <(checks <<'PY'
for name, y0, k in (("plain", 0, 3), ("fromStart", 1, 3), ("fromOutput", -1, -1), ("noInit", 0.5, 1), ("fromSource", 0.25, 2)):
    near(worst(name + ".y", lambda x: y0 + (k*2*(x - 0.5) if x > 0.5 else 0)), 0, 1e-9, "worst error of %s.y" % name)
near(at("plain.y", 1.5), 6, 1e-9, "plain.y at 1.5 s")
PY
)
if [ -s "$T/integrator.err" ]; then bad "Integrator with NoInit: no message expected"; cat "$T/integrator.err"; else ok "Integrator with NoInit: its start value silently"; fi

# ---- LimIntegrator: k = 3, outMax = 1.5 (outMin = -outMax), u = 2, then
# -2 from t = 1: y = 6 t until it reaches 1.5 at t = 0.25 exactly (an
# event), holds, leaves the limit at once when u turns (y = 1.5 - 6 (t - 1)),
# reaches -1.5 at t = 1.5 (an event) and holds. strict = true: the same
# without events (within the tolerance).
model limint <<'EOF'
model LimIntegratorSteps
  Modelica.Blocks.Sources.Step step(height = -4, offset = 2, startTime = 1);
  Modelica.Blocks.Continuous.LimIntegrator lim(k = 3, outMax = 1.5);
equation
  connect(step.y, lim.u);
  annotation(experiment(StopTime = 2, Interval = 0.01));
end LimIntegratorSteps;
EOF
sim limint --tolerance 1e-8 && values "LimIntegrator: saturates at t = 0.25 and t = 1.5 exactly, leaves the limit when u turns" limint < <(checks <<'PY'
def y(x):
    if x <= 1: return min(6*x, 1.5)
    return max(1.5 - 6*(x - 1), -1.5)
near(worst("lim.y", y), 0, 1e-7, "worst error of lim.y")
ev = event_times()
check(any(abs(e - 0.25) < 1e-9 for e in ev), "no event at 0.25 (events %s)" % ev)
check(any(abs(e - 1.5) < 1e-9 for e in ev), "no event at 1.5 (events %s)" % ev)
PY
)
sed -i 's/outMax = 1.5)/outMax = 1.5, strict = true)/' "$T/limint.mo"
sim limint --tolerance 1e-8 && values "LimIntegrator strict: the same limits without state events" limint < <(checks <<'PY'
def y(x):
    if x <= 1: return min(6*x, 1.5)
    return max(1.5 - 6*(x - 1), -1.5)
near(worst("lim.y", y), 0, 1e-4, "worst error of lim.y")
check(event_times() == [1.0], "events %s, expected only the step at 1" % event_times())
PY
)

# ---- Derivative (k = 2, T = 0.1): after a step of h, y = (k/T) h e^(-tau/T)
# (the default NoInit starts x at x_start = 0 = u). Free responses with u =
# 0: InitialState x = x_start = 1 gives y = -(k/T) e^(-t/T); InitialOutput
# y = y_start = 5 gives y = 5 e^(-t/T); SteadyState with u = 3: x = 3, y = 0.
model derivative <<'EOF'
model DerivativeSteps
  Modelica.Blocks.Sources.Step step(height = 2, startTime = 0.5);
  Modelica.Blocks.Sources.Constant zero(k = 0);
  Modelica.Blocks.Sources.Constant three(k = 3);
  Modelica.Blocks.Continuous.Derivative d(k = 2, T = 0.1);
  Modelica.Blocks.Continuous.Derivative state(k = 2, T = 0.1, initType = Modelica.Blocks.Types.Init.InitialState, x_start = 1);
  Modelica.Blocks.Continuous.Derivative out(k = 2, T = 0.1, initType = Modelica.Blocks.Types.Init.InitialOutput, y_start = 5);
  Modelica.Blocks.Continuous.Derivative steady(k = 2, T = 0.1, initType = Modelica.Blocks.Types.Init.SteadyState);
equation
  connect(step.y, d.u);
  connect(zero.y, state.u);
  connect(zero.y, out.u);
  connect(three.y, steady.u);
  annotation(experiment(StopTime = 1, Interval = 0.01));
end DerivativeSteps;
EOF
sim derivative --tolerance 1e-9 && values "Derivative: y = (k/T) h e^(-tau/T); x_start, y_start, steady state" derivative < <(checks <<'PY'
near(worst_after("d.y", lambda x: 20*2*math.exp(-x/0.1)), 0, 1e-6, "worst error of d.y after the step")
near(at("d.y", 0.5, -1), 40, 1e-9, "d.y right after the step (k h/T)")
near(max(abs(v) for v, x in zip(col("d.y"), t) if x < 0.5), 0, 0, "d.y before the step")
near(worst("state.y", lambda x: -20*math.exp(-x/0.1)), 0, 1e-6, "worst error of state.y")
near(worst("out.y", lambda x: 5*math.exp(-x/0.1)), 0, 1e-6, "worst error of out.y")
near(at("out.x", 0), -0.25, 1e-12, "out.x(0) = u - y_start T/k")
near(worst("steady.y", lambda x: 0), 0, 1e-12, "steady.y")
near(worst("steady.x", lambda x: 3), 0, 1e-12, "steady.x")
PY
)

# ---- FirstOrder (k = 2, T = 0.2) and Der: y = k h (1 - e^(-tau/T)), and
# der.y = der(fo.y) = (k h/T) e^(-tau/T); InitialOutput y_start = 1 with
# u = 0: y = e^(-t/T); SteadyState with u = 3: y = k u = 6.
model firstorder <<'EOF'
model FirstOrderSteps
  Modelica.Blocks.Sources.Step step(height = 2, startTime = 0.5);
  Modelica.Blocks.Sources.Constant zero(k = 0);
  Modelica.Blocks.Sources.Constant three(k = 3);
  Modelica.Blocks.Continuous.FirstOrder fo(k = 2, T = 0.2);
  Modelica.Blocks.Continuous.Der slope;
  Modelica.Blocks.Continuous.FirstOrder out(k = 2, T = 0.2, initType = Modelica.Blocks.Types.Init.InitialOutput, y_start = 1);
  Modelica.Blocks.Continuous.FirstOrder steady(k = 2, T = 0.2, initType = Modelica.Blocks.Types.Init.SteadyState);
equation
  connect(step.y, fo.u);
  connect(fo.y, slope.u);
  connect(zero.y, out.u);
  connect(three.y, steady.u);
  annotation(experiment(StopTime = 1.5, Interval = 0.01));
end FirstOrderSteps;
EOF
sim firstorder --tolerance 1e-9 && values "FirstOrder: y = k h (1 - e^(-tau/T)); Der: its slope; InitialOutput, SteadyState" firstorder < <(checks <<'PY'
near(worst("fo.y", lambda x: 4*(1 - math.exp(-(x - 0.5)/0.2)) if x > 0.5 else 0), 0, 1e-7, "worst error of fo.y")
near(worst_after("slope.y", lambda x: 4/0.2*math.exp(-x/0.2)), 0, 1e-6, "worst error of slope.y = der(fo.y)")
near(at("slope.y", 0.5, -1), 20, 1e-9, "slope.y right after the step")
near(worst("out.y", lambda x: math.exp(-x/0.2)), 0, 1e-7, "worst error of out.y")
near(worst("steady.y", lambda x: 6), 0, 1e-12, "steady.y")
PY
)

# ---- SecondOrder (k = 2, w = 10): step responses, tau = t - t0,
#   D = 0.3 (underdamped, wd = w sqrt(1 - D^2)):
#     y = k h [1 - e^(-D w tau) (cos(wd tau) + D/sqrt(1 - D^2) sin(wd tau))]
#   D = 1 (critically damped): y = k h [1 - (1 + w tau) e^(-w tau)]
# yd = der(y). InitialState y = 1, yd = 0 with u = 0 (D = 0.3): the free
# response e^(-D w t) (cos(wd t) + D/sqrt(1 - D^2) sin(wd t)). SteadyState
# with u = 3: y = k u = 6, yd = 0.
model secondorder <<'EOF'
model SecondOrderSteps
  Modelica.Blocks.Sources.Step step(height = 2, startTime = 0.5);
  Modelica.Blocks.Sources.Constant zero(k = 0);
  Modelica.Blocks.Sources.Constant three(k = 3);
  Modelica.Blocks.Continuous.SecondOrder under(k = 2, w = 10, D = 0.3);
  Modelica.Blocks.Continuous.SecondOrder critical(k = 2, w = 10, D = 1);
  Modelica.Blocks.Continuous.SecondOrder free(k = 2, w = 10, D = 0.3,
    initType = Modelica.Blocks.Types.Init.InitialState, y_start = 1, yd_start = 0);
  Modelica.Blocks.Continuous.SecondOrder steady(k = 2, w = 10, D = 0.3, initType = Modelica.Blocks.Types.Init.SteadyState);
equation
  connect(step.y, under.u);
  connect(step.y, critical.u);
  connect(zero.y, free.u);
  connect(three.y, steady.u);
  annotation(experiment(StopTime = 2, Interval = 0.005));
end SecondOrderSteps;
EOF
sim secondorder --tolerance 1e-9 && values "SecondOrder: underdamped (D = 0.3) and critical (D = 1) step responses, free response, steady state" secondorder < <(checks <<'PY'
w, D = 10.0, 0.3
wd = w*math.sqrt(1 - D*D)
def under(x):
    return 4*(1 - math.exp(-D*w*x)*(math.cos(wd*x) + D/math.sqrt(1 - D*D)*math.sin(wd*x)))
def under_d(x):  # its derivative: k h w^2/wd e^(-D w x) sin(wd x)
    return 4*w*w/wd*math.exp(-D*w*x)*math.sin(wd*x)
near(worst_after("under.y", under), 0, 1e-6, "worst error of under.y")
near(worst_after("under.yd", under_d), 0, 1e-5, "worst error of under.yd")
near(max(col("under.y")), max(under(x - 0.5) for x in t if x > 0.5), 1e-6, "overshoot of under.y")
near(worst_after("critical.y", lambda x: 4*(1 - (1 + w*x)*math.exp(-w*x))), 0, 1e-6, "worst error of critical.y")
check(max(col("critical.y")) <= 4 + 1e-9, "critical.y overshoots: %.12g" % max(col("critical.y")))
near(worst("free.y", lambda x: math.exp(-D*w*x)*(math.cos(wd*x) + D/math.sqrt(1 - D*D)*math.sin(wd*x))), 0, 1e-6,
     "worst error of free.y")
near(worst("steady.y", lambda x: 6), 0, 1e-12, "steady.y")
near(worst("steady.yd", lambda x: 0), 0, 1e-12, "steady.yd")
PY
)

# ---- PI (k = 2, T = 0.5): y = k (x + u), der(x) = u/T; after a step of h
# from x = 0: y = k h (1 + tau/T). InitialState x_start = 1 with u = 0:
# y = k = 2 for ever; InitialOutput y_start = 3 with u = 0 until the step:
# x = 1.5, then y = k (1.5 + h (1 + tau/T)).
model pi <<'EOF'
model PISteps
  Modelica.Blocks.Sources.Step step(height = 2, startTime = 0.5);
  Modelica.Blocks.Sources.Constant zero(k = 0);
  Modelica.Blocks.Continuous.PI pi(k = 2, T = 0.5);
  Modelica.Blocks.Continuous.PI state(k = 2, T = 0.5, initType = Modelica.Blocks.Types.Init.InitialState, x_start = 1);
  Modelica.Blocks.Continuous.PI out(k = 2, T = 0.5, initType = Modelica.Blocks.Types.Init.InitialOutput, y_start = 3);
equation
  connect(step.y, pi.u);
  connect(zero.y, state.u);
  connect(step.y, out.u);
  annotation(experiment(StopTime = 1.5, Interval = 0.05));
end PISteps;
EOF
sim pi --tolerance 1e-9 && values "PI: y = k h (1 + tau/T); x_start; y_start" pi < <(checks <<'PY'
near(worst_but("pi.y", lambda x: 4*(1 + (x - 0.5)/0.5) if x > 0.5 else 0), 0, 1e-8, "worst error of pi.y")
near(at("pi.y", 0.5, 0), 0, 1e-12, "pi.y before the step")
near(at("pi.y", 0.5, -1), 4, 1e-9, "pi.y after the step (k h)")
near(worst("state.y", lambda x: 2), 0, 1e-12, "state.y")
near(worst_but("out.y", lambda x: 2*(1.5 + 2*(1 + (x - 0.5)/0.5)) if x > 0.5 else 3), 0, 1e-8, "worst error of out.y")
PY
)

# ---- PID (k = 2, Ti = 0.5, Td = 0.1, Nd = 10): I = integrator k = 1/Ti,
# D = Derivative(k = Td, T = Td/Nd = 0.01); after a step of h:
#   I.y = h tau/Ti, D.y = (Td/(Td/Nd)) h e^(-tau Nd/Td) = 10 h e^(-100 tau),
#   y = k (h + I.y + D.y).
# InitialOutput y_start = 3 with u = 0 until the step: D in steady state
# (D.y = 0), I.y = y_start/k = 1.5, then y = k (h + 1.5 + h tau/Ti + D.y).
model pid <<'EOF'
model PIDSteps
  Modelica.Blocks.Sources.Step step(height = 2, startTime = 0.5);
  Modelica.Blocks.Continuous.PID pid(k = 2, Ti = 0.5, Td = 0.1);
  Modelica.Blocks.Continuous.PID out(k = 2, Ti = 0.5, Td = 0.1, initType = Modelica.Blocks.Types.Init.InitialOutput, y_start = 3);
equation
  connect(step.y, pid.u);
  connect(step.y, out.u);
  annotation(experiment(StopTime = 1, Interval = 0.002));
end PIDSteps;
EOF
sim pid --tolerance 1e-10 && values "PID: proportional, integral and derivative parts; InitialOutput" pid < <(checks <<'PY'
near(worst_after("pid.I.y", lambda x: 2*x/0.5), 0, 1e-8, "worst error of pid.I.y")
near(worst_after("pid.D.y", lambda x: 20*math.exp(-100*x)), 0, 1e-5, "worst error of pid.D.y")
near(worst_after("pid.y", lambda x: 2*(2 + 2*x/0.5 + 20*math.exp(-100*x))), 0, 2e-5, "worst error of pid.y")
near(at("pid.y", 0.5, -1), 2*(2 + 20), 1e-9, "pid.y right after the step")
near(at("out.y", 0.25), 3, 1e-9, "out.y before the step")
near(worst_after("out.y", lambda x: 2*(2 + 1.5 + 2*x/0.5 + 20*math.exp(-100*x))), 0, 2e-5, "worst error of out.y")
PY
)
# a parameter the MSL declares with a start value only: its start value,
# with the warning at the user's declaration
model pidstart <<'EOF'
model PIDStart
  Modelica.Blocks.Sources.Step step(height = 2, startTime = 0.5);
  Modelica.Blocks.Continuous.PID pid(k = 2);
equation
  connect(step.y, pid.u);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end PIDStart;
EOF
expect pidstart 0 -- "pidstart.mo:3:34: warning: parameter 'pid.Ti' has no value; using its start value
pidstart.mo:3:34: warning: parameter 'pid.Td' has no value; using its start value"

# ---- LimPID.
# P: y = clip(k (wp u_s - u_m), yMin, yMax) with u_s = 2 t, u_m = 1, k = 2,
# wp = 0.5, yMax = 2, yMin = -1: y = clip(2 t - 2, -1, 2), at the limits
# up to t = 0.5 and from t = 2 (the Limiter's relations are inside
# smooth(0, ...): continuous, no events in flange).
# PD (wd = 1, Td = 0.1, Nd = 10) after a set-point step of h = 2 at t0 with
# u_m = 0: D.u = wd u_s - u_m, D.y = 10 h e^(-100 tau), y = k (h + D.y).
# PID with feed-forward (u_ff = u_s, kFF = 3): y = k (h + I.y + D.y) + kFF h
# with I.y = h tau/Ti and D.y = 0 (wd = 0: the set point does not reach D).
model limpid <<'EOF'
model LimPIDTypes
  Modelica.Blocks.Sources.Ramp ramp(height = 6, duration = 3);
  Modelica.Blocks.Sources.Step step(height = 2, startTime = 0.5);
  Modelica.Blocks.Sources.Constant one(k = 1);
  Modelica.Blocks.Sources.Constant zero(k = 0);
  Modelica.Blocks.Continuous.LimPID p(controllerType = Modelica.Blocks.Types.SimpleController.P, k = 2, wp = 0.5,
    yMax = 2, yMin = -1);
  Modelica.Blocks.Continuous.LimPID pd(controllerType = Modelica.Blocks.Types.SimpleController.PD, k = 2, Td = 0.1,
    wd = 1, yMax = 100);
  Modelica.Blocks.Continuous.LimPID pid(k = 2, Ti = 0.5, Td = 0.1, yMax = 100, withFeedForward = true, kFF = 3);
equation
  connect(ramp.y, p.u_s);
  connect(one.y, p.u_m);
  connect(step.y, pd.u_s);
  connect(zero.y, pd.u_m);
  connect(step.y, pid.u_s);
  connect(zero.y, pid.u_m);
  connect(step.y, pid.u_ff);
  annotation(experiment(StopTime = 3, Interval = 0.002));
end LimPIDTypes;
EOF
sim limpid --tolerance 1e-10 && values "LimPID: P with set-point weight and limits, PD, PID with feed-forward" limpid < <(checks <<'PY'
near(worst("p.y", lambda x: min(max(2*x - 2, -1), 2)), 0, 1e-9, "worst error of p.y")
near(worst("p.controlError", lambda x: 2*x - 1), 0, 1e-9, "worst error of p.controlError")
near(worst_after("pd.D.y", lambda x: 20*math.exp(-100*x)), 0, 1e-5, "worst error of pd.D.y")
near(worst_after("pd.y", lambda x: 2*(2 + 20*math.exp(-100*x))), 0, 2e-5, "worst error of pd.y")
near(worst_after("pid.I.y", lambda x: 2*x/0.5), 0, 1e-8, "worst error of pid.I.y")
near(worst("pid.D.y", lambda x: 0), 0, 1e-12, "pid.D.y (wd = 0)")
near(worst_after("pid.y", lambda x: 2*(2 + 2*x/0.5) + 3*2), 0, 1e-8, "worst error of pid.y")
PY
)

# ---- LimPID anti-windup (PI, k = 2, Ti = 0.5, Ni = 0.9, yMax = 1.5,
# yMin = -1.5; x = I.y, e = u_s - u_m). The integrator's input is
#   I.u = e + (y - yPID)/(k Ni),   yPID = k (e + x),   der(x) = I.u/Ti,
# so while the output is limited at L, x relaxes to the value where I.u = 0,
#   x_L = (L + k Ni e)/k - e,  with time constant Ni Ti/1 ... here
#   der(x) = (1/Ti) (e + (L - k e - k x)/(k Ni)) = -(x - x_L)/(Ni Ti),
# Ni Ti = 0.45 s, instead of growing without bound.
# e = 1 until t = 1: yPID(0) = 2 > 1.5, so the output is at yMax from the
#   start and x = x_up (1 - e^(-t/0.45)), x_up = (1.5 + 1.8)/2 - 1 = 0.65;
#   at t = 1, x1 = 0.65 (1 - e^(-1/0.45)).
# e = -0.25 from t = 1: yPID = 2 (x1 - 0.25) = 0.659 is inside the limits at
#   once (without anti-windup x would be 2 and the output still at yMax):
#   x = x1 - 0.5 (t - 1), y = 2 (x - 0.25), down to yMin at
#   t2 = 2 + 2 x1 (x2 = -0.5); then x relaxes to
#   x_low = (-1.5 - 0.45)/2 + 0.25 = -0.725 with the same time constant.
model windup <<'EOF'
model AntiWindup
  Modelica.Blocks.Sources.Step setPoint(height = -1.25, offset = 1, startTime = 1);
  Modelica.Blocks.Sources.Constant measurement(k = 0);
  Modelica.Blocks.Continuous.LimPID pi(controllerType = Modelica.Blocks.Types.SimpleController.PI, k = 2, Ti = 0.5,
    yMax = 1.5);
equation
  connect(setPoint.y, pi.u_s);
  connect(measurement.y, pi.u_m);
  annotation(experiment(StopTime = 5, Interval = 0.01));
end AntiWindup;
EOF
sim windup --tolerance 1e-10 && values "LimPID anti-windup: the integral relaxes to the tracking law's value while limited, the output leaves the limit at once" windup < <(checks <<'PY'
tc = 0.9*0.5
x1 = 0.65*(1 - math.exp(-1/tc))
t2 = 2 + 2*x1
def x(s):
    if s <= 1: return 0.65*(1 - math.exp(-s/tc))
    if s <= t2: return x1 - 0.5*(s - 1)
    return -0.725 + (-0.5 + 0.725)*math.exp(-(s - t2)/tc)
def y(s):
    if s < 1: return 1.5
    if s <= t2: return 2*(x(s) - 0.25)
    return -1.5
near(worst("pi.I.y", x), 0, 1e-7, "worst error of pi.I.y")
near(worst_but("pi.y", y, (1,)), 0, 1e-7, "worst error of pi.y")
near(at("pi.y", 1, 0), 1.5, 1e-12, "pi.y at yMax before the set point drops")
near(at("pi.y", 1, -1), 2*(x1 - 0.25), 1e-7, "pi.y right after the set point drops (out of the limit at once)")
near(at("pi.I.y", 1), x1, 1e-7, "pi.I.y when the set point drops (without anti-windup: 2)")
c = crossings("pi.limiter.u", -1.5)
check(len(c) == 1, "the limiter's input crosses yMin at %s" % c)
near(c[0], t2, 1e-6, "time the output reaches yMin")
near(t[-1], 5, 0, "stop time")
near(at("pi.I.y", 5), x(5), 1e-7, "pi.I.y at the end (near x_low = -0.725)")
PY
)

# InitialOutput: the output before the limiter starts at y_start (PI,
# u_s = u_m = 0: x = y_start/k and y stays there); a y_start outside the
# limits is the MSL's error, at the controller's declaration
model limpidout <<'EOF'
model LimPIDOutput
  Modelica.Blocks.Sources.Constant zero(k = 0);
  Modelica.Blocks.Continuous.LimPID pi(controllerType = Modelica.Blocks.Types.SimpleController.PI, k = 2, Ti = 0.5,
    yMax = 1, initType = Modelica.Blocks.Types.Init.InitialOutput, y_start = 0.5);
equation
  connect(zero.y, pi.u_s);
  connect(zero.y, pi.u_m);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end LimPIDOutput;
EOF
sim limpidout --tolerance 1e-10 && values "LimPID InitialOutput: y = y_start, the integral part y_start/k" limpidout <<'PY'
near(worst("pi.y", lambda x: 0.5), 0, 1e-10, "pi.y")
near(worst("pi.I.y", lambda x: 0.25), 0, 1e-10, "pi.I.y")
PY
sed 's/y_start = 0.5)/y_start = 3)/' "$T/limpidout.mo" > "$T/limpidbad.mo"
expect limpidbad 1 -- "limpidbad.mo:3:37: error: at t = 0: assertion failed: LimPID: Start value y_start (=3) is outside of the limits of yMin (=-1) and yMax (=1)"

# ---- the reset input of an Integrator from a BooleanPulse: at each rising
# edge (t = 0.5, 1.5) y restarts from y_start = 0, so y = t - 0.5 - k
model resetint <<'EOF'
model ResetInt
  Modelica.Blocks.Sources.Constant one(k = 1);
  Modelica.Blocks.Sources.BooleanPulse pulse(width = 50, period = 1, startTime = 0.5);
  Modelica.Blocks.Continuous.Integrator integ(use_reset = true, initType = Modelica.Blocks.Types.Init.InitialOutput, y_start = 0);
equation
  connect(one.y, integ.u);
  connect(pulse.y, integ.reset);
  annotation(experiment(StopTime = 2, Interval = 0.01));
end ResetInt;
EOF
sim resetint --tolerance 1e-10 && values "Integrator reset by a BooleanPulse: y = t before 0.5, then t - 0.5 - k" resetint <<'PY'
near(worst("integ.y", lambda t: t, 0, 0.49), 0, 1e-8, "worst error of integ.y before the first reset")
near(worst("integ.y", lambda t: t - 0.5, 0.51, 1.49), 0, 1e-8, "worst error of integ.y after the first reset")
near(worst("integ.y", lambda t: t - 1.5, 1.51, 2), 0, 1e-8, "worst error of integ.y after the second reset")
near(len(jumps("integ.y")), 2, 0, "resets (jumps of integ.y)")
PY

exit $((fails > 0))
