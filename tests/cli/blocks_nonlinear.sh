#!/usr/bin/env bash
# Modelica.Blocks.Nonlinear (issue 12): Limiter, VariableLimiter, DeadZone
# and SlewRateLimiter, written as a user writes them with the MSL class
# names, against their closed forms on ramps and steps (the limits, the
# default uMin = -uMax, strict, homotopyType, the slew rates and their
# initType), and the MSL's messages for limits that contradict each other.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# ---- Limiter and DeadZone on the ramp r = -2 + 2 t (t in [0, 2]):
#   clip:      y = min(max(r, uMin), uMax)
#   dead zone: y = r - uMax above uMax, r - uMin below uMin, 0 between
# with uMax = 1, uMin = -0.5, and the default uMin = -uMax for uMax = 1.2.
# strict (noEvent) and every homotopyType give the same output: flange
# solves the actual problem (homotopy() without continuation).
model limits <<'EOF'
model Limits
  Modelica.Blocks.Sources.Ramp ramp(height = 4, duration = 2, offset = -2);
  Modelica.Blocks.Nonlinear.Limiter limiter(uMax = 1, uMin = -0.5);
  Modelica.Blocks.Nonlinear.Limiter symmetric(uMax = 1.2);
  Modelica.Blocks.Nonlinear.Limiter strict(uMax = 1, uMin = -0.5, strict = true);
  Modelica.Blocks.Nonlinear.Limiter upper(uMax = 1, uMin = -0.5, homotopyType = Modelica.Blocks.Types.LimiterHomotopy.UpperLimit);
  Modelica.Blocks.Nonlinear.Limiter none(uMax = 1, uMin = -0.5, homotopyType = Modelica.Blocks.Types.LimiterHomotopy.NoHomotopy);
  Modelica.Blocks.Nonlinear.DeadZone deadZone(uMax = 1, uMin = -0.5);
  Modelica.Blocks.Nonlinear.DeadZone symmetricZone(uMax = 1.2);
equation
  connect(ramp.y, limiter.u);
  connect(ramp.y, symmetric.u);
  connect(ramp.y, strict.u);
  connect(ramp.y, upper.u);
  connect(ramp.y, none.u);
  connect(ramp.y, deadZone.u);
  connect(ramp.y, symmetricZone.u);
  annotation(experiment(StopTime = 2, Interval = 0.01));
end Limits;
EOF
sim limits --tolerance 1e-8 && values "Limiter and DeadZone on a ramp: clip, dead zone, default uMin = -uMax, strict, homotopyType" limits <<'PY'
def r(x): return -2 + 2*x
def clip(v, lo, hi): return min(max(v, lo), hi)
def dead(v, lo, hi): return v - hi if v > hi else (v - lo if v < lo else 0)
for name in ("limiter", "strict", "upper", "none"):
    near(worst(name + ".y", lambda x: clip(r(x), -0.5, 1)), 0, 1e-12, "worst error of %s.y" % name)
near(worst("symmetric.y", lambda x: clip(r(x), -1.2, 1.2)), 0, 1e-12, "worst error of symmetric.y")
near(worst("deadZone.y", lambda x: dead(r(x), -0.5, 1)), 0, 1e-12, "worst error of deadZone.y")
near(worst("symmetricZone.y", lambda x: dead(r(x), -1.2, 1.2)), 0, 1e-12, "worst error of symmetricZone.y")
near(at("limiter.y", 2), 1, 0, "limiter.y at the end")
near(at("deadZone.y", 0), -1.5, 1e-15, "deadZone.y at the start")
PY

# ---- VariableLimiter: u = r = -2 + 2 t, upper limit limit1 = 1, lower limit
# limit2 = -1 + t/2 (a ramp): y = min(max(r, limit2), limit1); r passes
# limit2 at t = 2/3 and limit1 at t = 1.5.
model varlimit <<'EOF'
model VariableLimits
  Modelica.Blocks.Sources.Ramp ramp(height = 4, duration = 2, offset = -2);
  Modelica.Blocks.Sources.Constant upperLimit(k = 1);
  Modelica.Blocks.Sources.Ramp lowerLimit(height = 1, duration = 2, offset = -1);
  Modelica.Blocks.Nonlinear.VariableLimiter limiter;
  Modelica.Blocks.Nonlinear.VariableLimiter strict(strict = true, homotopyType = Modelica.Blocks.Types.VariableLimiterHomotopy.Fixed);
equation
  connect(ramp.y, limiter.u);
  connect(upperLimit.y, limiter.limit1);
  connect(lowerLimit.y, limiter.limit2);
  connect(ramp.y, strict.u);
  connect(upperLimit.y, strict.limit1);
  connect(lowerLimit.y, strict.limit2);
  annotation(experiment(StopTime = 2, Interval = 0.01));
end VariableLimits;
EOF
sim varlimit --tolerance 1e-8 && values "VariableLimiter on a ramp between a constant and a ramp limit" varlimit <<'PY'
def y(x): return min(max(-2 + 2*x, -1 + x/2), 1)
near(worst("limiter.y", y), 0, 1e-12, "worst error of limiter.y")
near(worst("strict.y", y), 0, 1e-12, "worst error of strict.y")
near(at("limiter.y", 0.5), -0.75, 1e-12, "limiter.y at 0.5 (on the lower limit)")
near(at("limiter.y", 1), 0, 1e-12, "limiter.y at 1 (passing the input)")
PY

# ---- SlewRateLimiter (Rising = 2, Falling = -Rising, Td = 1e-4) on a step
# from 1 to -1 at t0 = 0.5, initialised in steady state (y = u = 1): at the
# step (u - y)/Td = -2e4 is below Falling, so y falls at exactly Falling,
#   y = 1 - 2 (t - t0),
# until (u - y)/Td reaches Falling, at y = -1 + 2 Td, t1 = t0 + (2 - 2 Td)/2;
# then y = -1 + 2 Td e^(-(t - t1)/Td) (the approximate derivative).
# InitialOutput y_start = 0.3 with the input at 1: y rises at Rising,
#   y = 0.3 + 2 t, until y = 1 - 2 Td at t = (0.7 - 2 Td)/2, then
#   y = 1 - 2 Td e^(-(t - t1')/Td);
# after t0 both follow the step down as the first.
model slew <<'EOF'
model SlewRates
  Modelica.Blocks.Sources.Step step(height = -2, offset = 1, startTime = 0.5);
  Modelica.Blocks.Nonlinear.SlewRateLimiter slew(Rising = 2, Td = 1e-4);
  Modelica.Blocks.Nonlinear.SlewRateLimiter fromOutput(Rising = 2, Td = 1e-4,
    initType = Modelica.Blocks.Types.Init.InitialOutput, y_start = 0.3);
  Modelica.Blocks.Nonlinear.SlewRateLimiter strict(Rising = 2, Td = 1e-4, strict = true);
equation
  connect(step.y, slew.u);
  connect(step.y, fromOutput.u);
  connect(step.y, strict.u);
  annotation(experiment(StopTime = 2, Interval = 0.01));
end SlewRates;
EOF
sim slew --tolerance 1e-9 && values "SlewRateLimiter: falls at exactly Falling after a step, rises at Rising from y_start, then follows the input" slew <<'PY'
Td, t0 = 1e-4, 0.5
t1 = t0 + (2 - 2*Td)/2
def down(x):
    if x <= t0: return 1
    if x <= t1: return 1 - 2*(x - t0)
    return -1 + 2*Td*math.exp(-(x - t1)/Td)
tr = (0.7 - 2*Td)/2
def up(x):
    if x > t0: return down(x)
    if x <= tr: return 0.3 + 2*x
    return 1 - 2*Td*math.exp(-(x - tr)/Td)
near(worst("slew.y", down), 0, 1e-8, "worst error of slew.y")
near(worst("strict.y", down), 0, 1e-8, "worst error of strict.y")
near(worst("fromOutput.y", up), 0, 1e-8, "worst error of fromOutput.y")
near(at("slew.y", 0), 1, 1e-12, "slew.y(0) = u(0) (SteadyState)")
near(at("fromOutput.y", 0), 0.3, 1e-12, "fromOutput.y(0) = y_start")
near((at("slew.y", 1.4) - at("slew.y", 0.6))/0.8, -2, 1e-9, "slope of slew.y while limited (Falling = -Rising)")
PY

# ---- the chain of the MSL's SlewRateLimiter example: a unit position step
# at 0.1 s, its slope held to vMax = 2 (limit_v), differentiated (Der v),
# that speed's slope held to aMax = 20 (limit_a), integrated back. While
# limited, limit_a rises at exactly 20 from 0.1 s (to 2 m/s at 0.2 s) and
# falls at exactly 20 once limit_v has arrived (about 0.6 s, within a few
# Td); the smoothed position ends at the step's 1 m. Der reads the
# derivative of limit_v's state: its value from the state, so that the
# relations of limit_a are decided on the values their root functions see.
model chain <<'EOF'
model SlewChain
  Modelica.Blocks.Sources.Step positionStep(startTime = 0.1);
  Modelica.Blocks.Nonlinear.SlewRateLimiter limit_v(initType = Modelica.Blocks.Types.Init.InitialOutput,
    Rising = 2, y_start = positionStep.offset, Td = 0.0001);
  Modelica.Blocks.Continuous.Der v;
  Modelica.Blocks.Nonlinear.SlewRateLimiter limit_a(initType = Modelica.Blocks.Types.Init.InitialOutput,
    y_start = 0, Rising = 20, Td = 0.0001);
  Modelica.Blocks.Continuous.Integrator positionSmoothed(initType = Modelica.Blocks.Types.Init.InitialOutput,
    y_start = positionStep.offset);
  Modelica.Blocks.Continuous.Der a;
equation
  connect(positionStep.y, limit_v.u);
  connect(limit_v.y, v.u);
  connect(v.y, limit_a.u);
  connect(limit_a.y, positionSmoothed.u);
  connect(limit_a.y, a.u);
  annotation(experiment(StopTime = 1, Interval = 0.001));
end SlewChain;
EOF
sim chain && values "SlewRateLimiter behind Der: speed ramps at exactly +-20, the position arrives" chain <<'PY'
near(worst("limit_a.y", lambda x: 20*(x - 0.1), 0.1001, 0.19), 0, 1e-9, "limit_a.y while rising (20 (t - 0.1))")
near(worst("a.y", lambda x: 20, 0.1001, 0.19), 0, 1e-6, "a.y while rising")
near(worst("v.y", lambda x: 2, 0.1001, 0.59), 0, 1e-9, "v.y = der(limit_v.y) while limit_v rises at 2")
near((at("limit_a.y", 0.68) - at("limit_a.y", 0.62))/0.06, -20, 1e-6, "slope of limit_a.y while falling")
near(worst("a.y", lambda x: -20, 0.61, 0.69), 0, 1e-6, "a.y while falling")
near(at("positionSmoothed.y", 1), 1, 1e-3, "position at the end")
near(at("limit_v.y", 1), 1, 1e-9, "limit_v.y at the end")
PY

# ---- the MSL's messages for inconsistent limits, at the block's declaration
model badlimits <<'EOF'
model BadLimits
  Modelica.Blocks.Sources.Ramp ramp(height = 4, duration = 2, offset = -2);
  Modelica.Blocks.Nonlinear.Limiter limiter(uMax = 1, uMin = 2);
equation
  connect(ramp.y, limiter.u);
  annotation(experiment(StopTime = 2, Interval = 0.01));
end BadLimits;
EOF
expect badlimits 1 -- "badlimits.mo:3:37: error: at t = 0: assertion failed: Limiter: Limits must be consistent. However, uMax (=1) < uMin (=2)"
model badzone <<'EOF'
model BadZone
  Modelica.Blocks.Sources.Ramp ramp(height = 4, duration = 2, offset = -2);
  Modelica.Blocks.Nonlinear.DeadZone deadZone(uMax = -0.25, uMin = 0.5);
equation
  connect(ramp.y, deadZone.u);
  annotation(experiment(StopTime = 2, Interval = 0.01));
end BadZone;
EOF
expect badzone 1 -- "badzone.mo:3:38: error: at t = 0: assertion failed: DeadZone: Limits must be consistent. However, uMax (=-0.25) < uMin (=0.5)"
# the limits of a VariableLimiter cross while the model runs: the limit
# limit2 = t passes limit1 = 1 at t = 1, where the run stops (the crossing
# located by the integrator's root finding: the model has a state, the lag)
model crossing <<'EOF'
model CrossingLimits
  Modelica.Blocks.Sources.Ramp ramp(height = 2, duration = 2);
  Modelica.Blocks.Sources.Constant upperLimit(k = 1);
  Modelica.Blocks.Nonlinear.VariableLimiter limiter;
  Modelica.Blocks.Continuous.FirstOrder lag(T = 0.1);
equation
  connect(ramp.y, limiter.u);
  connect(upperLimit.y, limiter.limit1);
  connect(ramp.y, limiter.limit2);
  connect(limiter.y, lag.u);
  annotation(experiment(StopTime = 2, Interval = 0.01));
end CrossingLimits;
EOF
expect crossing 1 -- "crossing.mo:4:45: error: at t = 1: assertion failed: Input signals are not consistent: limit1 < limit2"

# what the blocks' asserts are made of, in a model of one's own: texts
# joined with +, String() of parameter expressions; a number is no text
model joined <<'EOF'
model Joined
  parameter Real p = 2.5;
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  assert(x < p, "x passed p = " + String(p) + " (" + String(2*p) + " is twice that)");
  annotation(experiment(StopTime = 3));
end Joined;
EOF
expect joined 1 -- "joined.mo:6:3: error: at t = 2.5: assertion failed: x passed p = 2.5 (5 is twice that)"
model notext <<'EOF'
model NoText
  parameter Real p = 2.5;
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  assert(x < p, "x passed p = " + p);
  annotation(experiment(StopTime = 3));
end NoText;
EOF
expect notext 1 -- "notext.mo:6:33: error: only a string can be joined to a string (String(x) makes one of x)"

exit $((fails > 0))
