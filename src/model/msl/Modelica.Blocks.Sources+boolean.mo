within Modelica.Blocks.Sources;
block BooleanConstant "y = k"
  parameter Boolean k = true "the value";
  extends Modelica.Blocks.Interfaces.partialBooleanSource;
equation
  y = k;
end BooleanConstant;
block BooleanStep "y = startValue before startTime, not startValue from then on"
  parameter Modelica.Units.SI.Time startTime = 0 "when y changes";
  parameter Boolean startValue = false "y before startTime";
  extends Modelica.Blocks.Interfaces.partialBooleanSource;
equation
  y = if time >= startTime then not startValue else startValue;
end BooleanStep;
block BooleanPulse "y true for width percent of every period, from startTime on"
  parameter Real width(final min = Modelica.Constants.small, final max = 100) = 50 "of the period, in percent";
  parameter Modelica.Units.SI.Time period(final min = Modelica.Constants.small, start = 1) "one period";
  parameter Modelica.Units.SI.Time startTime = 0 "start of the first pulse";
  extends Modelica.Blocks.Interfaces.partialBooleanSource;
protected
  parameter Modelica.Units.SI.Time Twidth = period*width/100 "the length of one pulse";
  discrete Modelica.Units.SI.Time pulseStart "start of the current pulse";
initial equation
  pulseStart = startTime;
equation
  when sample(startTime, period) then
    pulseStart = time;
  end when;
  y = time >= pulseStart and time < pulseStart + Twidth;
end BooleanPulse;
block SampleTrigger "y true at the instants startTime + k*period only"
  parameter Modelica.Units.SI.Time period(final min = Modelica.Constants.small, start = 0.01) "between two triggers";
  parameter Modelica.Units.SI.Time startTime = 0 "the first trigger";
  extends Modelica.Blocks.Interfaces.partialBooleanSource;
equation
  y = sample(startTime, period);
end SampleTrigger;
block BooleanExpression "y = a Boolean expression given as its modifier"
  Modelica.Blocks.Interfaces.BooleanOutput y = true "the expression (y = ... in the declaration)";
end BooleanExpression;
block BooleanTable "y switches at the time points of table, from startValue"
  parameter Modelica.Units.SI.Time table[:] = {0, 1} "the instants where y changes";
  parameter Boolean startValue = false "y before table[1]";
  parameter Modelica.Blocks.Types.Extrapolation extrapolation = Modelica.Blocks.Types.Extrapolation.HoldLastPoint
    "outside the table";
  parameter Modelica.Units.SI.Time startTime = -Modelica.Constants.inf "y = false before it";
  parameter Modelica.Units.SI.Time shiftTime = 0 "the table shifted in time by it";
  extends Modelica.Blocks.Interfaces.partialBooleanSO;
  Modelica.Blocks.Sources.CombiTimeTable combiTimeTable(
    final table = if n > 0 then if startValue then [table[1], 1.0; table, {mod(i + 1, 2.0) for i in 1:n}]
      else [table[1], 0.0; table, {mod(i, 2.0) for i in 1:n}] else if startValue then [0.0, 1.0] else [0.0, 0.0],
    final smoothness = Modelica.Blocks.Types.Smoothness.ConstantSegments,
    final columns = {2},
    final extrapolation = extrapolation,
    final startTime = startTime,
    final shiftTime = shiftTime);
  Modelica.Blocks.Math.RealToBoolean realToBoolean;
protected
  parameter Integer n = size(table, 1) "the number of time points";
equation
  assert(n < 2 or min({table[i] - table[i - 1] for i in 2:max(n, 2)}) > 0,
    "Time values of table not strict monotonically increasing");
  assert(extrapolation <> Modelica.Blocks.Types.Extrapolation.LastTwoPoints, "Unsuitable extrapolation setting.");
  connect(combiTimeTable.y[1], realToBoolean.u);
  connect(realToBoolean.y, y);
end BooleanTable;
block IntegerConstant "y = k"
  parameter Integer k(start = 1) "the value";
  extends Modelica.Blocks.Interfaces.IntegerSO;
equation
  y = k;
end IntegerConstant;
block IntegerStep "y = offset before startTime, offset + height from then on"
  parameter Integer height = 1 "the step";
  extends Modelica.Blocks.Interfaces.IntegerSignalSource;
equation
  y = offset + (if time < startTime then 0 else height);
end IntegerStep;
block IntegerExpression "y = an Integer expression given as its modifier"
  Modelica.Blocks.Interfaces.IntegerOutput y = 0 "the expression (y = ... in the declaration)";
end IntegerExpression;
block IntegerTable "y = the value of table's second column at the last time point passed"
  parameter Real table[:, 2] = fill(0, 0, 2) "time points and values (times strictly increasing)";
  parameter Modelica.Blocks.Types.Extrapolation extrapolation = Modelica.Blocks.Types.Extrapolation.HoldLastPoint
    "outside the table";
  parameter Modelica.Units.SI.Time startTime = -Modelica.Constants.inf "y = 0 before it";
  parameter Modelica.Units.SI.Time shiftTime = 0 "the table shifted in time by it";
  extends Modelica.Blocks.Interfaces.IntegerSO;
  Modelica.Blocks.Sources.CombiTimeTable combiTimeTable(
    final table = table,
    final smoothness = Modelica.Blocks.Types.Smoothness.ConstantSegments,
    final columns = {2},
    final extrapolation = extrapolation,
    final startTime = startTime,
    final shiftTime = shiftTime);
  Modelica.Blocks.Math.RealToInteger realToInteger;
protected
  parameter Integer n = size(table, 1) "the number of time points";
equation
  assert(n < 2 or min({table[i, 1] - table[i - 1, 1] for i in 2:max(n, 2)}) > 0,
    "Time values of table not strict monotonically increasing");
  assert(extrapolation <> Modelica.Blocks.Types.Extrapolation.LastTwoPoints, "Unsuitable extrapolation setting.");
  connect(combiTimeTable.y[1], realToInteger.u);
  connect(realToInteger.y, y);
end IntegerTable;
block RadioButtonSource "a Boolean like a radio button: pressed at the times of buttonTimeTable, released by reset"
  parameter Modelica.Units.SI.Time buttonTimeTable[:] = {0, 1} "when the button is pressed";
  input Boolean reset[:] = {false} "the button is released when one of them turns true";
  Modelica.Blocks.Interfaces.BooleanOutput on(start = false, fixed = true);
protected
  Modelica.Blocks.Sources.BooleanTable table(table = buttonTimeTable, y(start = false, fixed = true));
  parameter Integer nReset = size(reset, 1);
  Boolean pre_reset[nReset];
initial equation
  pre(pre_reset) = fill(false, nReset);
  pre(reset) = fill(false, nReset);
equation
  // (the MSL's algorithm: pre_reset := pre(reset), then the when-statement
  // of pre_reset and the one of change(table.y), which wins as the later)
  pre_reset = pre(reset);
  when change(table.y) then
    on = true;
  elsewhen pre_reset then
    on = false;
  end when;
end RadioButtonSource;
