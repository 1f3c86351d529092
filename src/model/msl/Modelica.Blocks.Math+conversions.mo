within Modelica.Blocks.Math;
block BooleanToReal "y = realTrue while u is true, realFalse while it is false"
  extends Modelica.Blocks.Interfaces.partialBooleanSI;
  parameter Real realTrue = 1.0 "y for u = true";
  parameter Real realFalse = 0.0 "y for u = false";
  Modelica.Blocks.Interfaces.RealOutput y;
equation
  y = if u then realTrue else realFalse;
end BooleanToReal;
block BooleanToInteger "y = integerTrue while u is true, integerFalse while it is false"
  extends Modelica.Blocks.Interfaces.partialBooleanSI;
  parameter Integer integerTrue = 1 "y for u = true";
  parameter Integer integerFalse = 0 "y for u = false";
  Modelica.Blocks.Interfaces.IntegerOutput y;
equation
  y = if u then integerTrue else integerFalse;
end BooleanToInteger;
block RealToInteger "y: u rounded to the nearest Integer (halves away from zero)"
  Modelica.Blocks.Interfaces.RealInput u;
  Modelica.Blocks.Interfaces.IntegerOutput y;
protected
  Boolean rounds_otherwise = if u > 0 then u >= y + 0.5 or u < y - 0.5 else u <= y - 0.5 or u > y + 0.5
    "an event where y changes (floor() and ceil() make none on flange's equation layer)";
equation
  y = if (u > 0) then integer(floor(u + 0.5)) else integer(ceil(u - 0.5));
end RealToInteger;
block IntegerToReal "y = u as a Real"
  Modelica.Blocks.Interfaces.IntegerInput u;
  Modelica.Blocks.Interfaces.RealOutput y;
equation
  y = u;
end IntegerToReal;
block RealToBoolean "y = u >= threshold"
  Modelica.Blocks.Interfaces.RealInput u;
  extends Modelica.Blocks.Interfaces.partialBooleanSO;
  parameter Real threshold = 0.5 "y is true from here on";
equation
  y = u >= threshold;
end RealToBoolean;
block IntegerToBoolean "y = u >= threshold"
  parameter Integer threshold = 1 "y is true from here on";
  extends Modelica.Blocks.Interfaces.partialBooleanSO;
  Modelica.Blocks.Interfaces.IntegerInput u;
equation
  y = u >= threshold;
end IntegerToBoolean;
