within Modelica.Blocks.Nonlinear;
// Nonlinear signal blocks of MSL 4.1.0 (Limiter, VariableLimiter,
// SlewRateLimiter, DeadZone) as equations: same names, parameters, defaults
// and equations as the MSL, so that models written for it run unchanged.
// homotopy() solves the actual problem in flange (no homotopy continuation),
// so homotopyType only chooses the simplified expression it carries along.
block Limiter "output = input clipped to [uMin, uMax]"
  parameter Real uMax(start = 1) "upper limit";
  parameter Real uMin = -uMax "lower limit";
  parameter Boolean strict = false "true: limits without events (noEvent)";
  parameter Modelica.Blocks.Types.LimiterHomotopy homotopyType = Modelica.Blocks.Types.LimiterHomotopy.Linear
    "simplified model for homotopy-based initialization";
  extends Modelica.Blocks.Interfaces.SISO;
protected
  Real simplifiedExpr "the simplified model of homotopy()";
equation
  assert(uMax >= uMin, "Limiter: Limits must be consistent. However, uMax (=" + String(uMax) +
    ") < uMin (=" + String(uMin) + ")");
  simplifiedExpr = if homotopyType == Modelica.Blocks.Types.LimiterHomotopy.Linear then u
    elseif homotopyType == Modelica.Blocks.Types.LimiterHomotopy.UpperLimit then uMax
    elseif homotopyType == Modelica.Blocks.Types.LimiterHomotopy.LowerLimit then uMin
    else 0;
  if strict then
    if homotopyType == Modelica.Blocks.Types.LimiterHomotopy.NoHomotopy then
      y = smooth(0, noEvent(if u > uMax then uMax elseif u < uMin then uMin else u));
    else
      y = homotopy(actual = smooth(0, noEvent(if u > uMax then uMax elseif u < uMin then uMin else u)),
        simplified = simplifiedExpr);
    end if;
  else
    if homotopyType == Modelica.Blocks.Types.LimiterHomotopy.NoHomotopy then
      y = smooth(0, if u > uMax then uMax elseif u < uMin then uMin else u);
    else
      y = homotopy(actual = smooth(0, if u > uMax then uMax elseif u < uMin then uMin else u),
        simplified = simplifiedExpr);
    end if;
  end if;
end Limiter;

block VariableLimiter "output = input clipped to [limit2, limit1], limits from inputs"
  extends Modelica.Blocks.Interfaces.SISO;
  parameter Boolean strict = false "true: limits without events (noEvent)";
  parameter Modelica.Blocks.Types.VariableLimiterHomotopy homotopyType =
    Modelica.Blocks.Types.VariableLimiterHomotopy.Linear "simplified model for homotopy-based initialization";
  parameter Real ySimplified = 0 "output of the simplified model when homotopyType = Fixed";
  Modelica.Blocks.Interfaces.RealInput limit1 "upper limit";
  Modelica.Blocks.Interfaces.RealInput limit2 "lower limit";
protected
  Real simplifiedExpr "the simplified model of homotopy()";
equation
  assert(limit1 >= limit2, "Input signals are not consistent: limit1 < limit2");
  simplifiedExpr = if homotopyType == Modelica.Blocks.Types.VariableLimiterHomotopy.Linear then u
    elseif homotopyType == Modelica.Blocks.Types.VariableLimiterHomotopy.Fixed then ySimplified
    else 0;
  if strict then
    if homotopyType == Modelica.Blocks.Types.VariableLimiterHomotopy.NoHomotopy then
      y = smooth(0, noEvent(if u > limit1 then limit1 elseif u < limit2 then limit2 else u));
    else
      y = homotopy(actual = smooth(0, noEvent(if u > limit1 then limit1 elseif u < limit2 then limit2 else u)),
        simplified = simplifiedExpr);
    end if;
  else
    if homotopyType == Modelica.Blocks.Types.VariableLimiterHomotopy.NoHomotopy then
      y = smooth(0, if u > limit1 then limit1 elseif u < limit2 then limit2 else u);
    else
      y = homotopy(actual = smooth(0, if u > limit1 then limit1 elseif u < limit2 then limit2 else u),
        simplified = simplifiedExpr);
    end if;
  end if;
end VariableLimiter;

block SlewRateLimiter "output follows the input with its rate of change held in [Falling, Rising]"
  extends Modelica.Blocks.Interfaces.SISO;
  parameter Real Rising(min = Modelica.Constants.small) = 1 "largest rate of rise (1/s)";
  parameter Real Falling(max = -Modelica.Constants.small) = -Rising "largest rate of fall, negative (1/s)";
  parameter Modelica.Units.SI.Time Td(min = Modelica.Constants.small) = 0.001
    "time constant of the approximate derivative of the input";
  parameter Modelica.Blocks.Types.Init initType = Modelica.Blocks.Types.Init.SteadyState
    "initialization (SteadyState: y = u)";
  parameter Real y_start = 0 "initial output (InitialState, InitialOutput), else a guess";
  parameter Boolean strict = false "true: limits without events (noEvent)";
protected
  Real val = (u - y)/Td "rate of change the output would take without limits";
initial equation
  if initType == Modelica.Blocks.Types.Init.SteadyState then
    y = u;
  elseif initType == Modelica.Blocks.Types.Init.InitialState or
         initType == Modelica.Blocks.Types.Init.InitialOutput then
    y = y_start;
  end if;
equation
  if strict then
    der(y) = smooth(1, if noEvent(val < Falling) then Falling elseif noEvent(val > Rising) then Rising else val);
  else
    der(y) = if val < Falling then Falling elseif val > Rising then Rising else val;
  end if;
end SlewRateLimiter;

block DeadZone "output 0 inside [uMin, uMax], the input minus the nearer limit outside"
  parameter Real uMax(start = 1) "upper end of the dead zone";
  parameter Real uMin = -uMax "lower end of the dead zone";
  extends Modelica.Blocks.Interfaces.SISO;
equation
  assert(uMax >= uMin, "DeadZone: Limits must be consistent. However, uMax (=" + String(uMax) +
    ") < uMin (=" + String(uMin) + ")");
  y = homotopy(actual = smooth(0, if u > uMax then u - uMax elseif u < uMin then u - uMin else 0), simplified = u);
end DeadZone;
