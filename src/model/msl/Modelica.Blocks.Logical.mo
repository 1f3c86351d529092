within Modelica.Blocks.Logical;
block And "y = u1 and u2"
  extends Modelica.Blocks.Interfaces.partialBooleanSI2SO;
equation
  y = u1 and u2;
end And;
block Or "y = u1 or u2"
  extends Modelica.Blocks.Interfaces.partialBooleanSI2SO;
equation
  y = u1 or u2;
end Or;
block Xor "y: exactly one of u1, u2"
  extends Modelica.Blocks.Interfaces.partialBooleanSI2SO;
equation
  y = not ((u1 and u2) or (not u1 and not u2));
end Xor;
block Nor "y = not (u1 or u2)"
  extends Modelica.Blocks.Interfaces.partialBooleanSI2SO;
equation
  y = not (u1 or u2);
end Nor;
block Nand "y = not (u1 and u2)"
  extends Modelica.Blocks.Interfaces.partialBooleanSI2SO;
equation
  y = not (u1 and u2);
end Nand;
block Not "y = not u"
  extends Modelica.Blocks.Interfaces.partialBooleanSISO;
equation
  y = not u;
end Not;
block Pre "y = pre(u): u an event iteration later (breaks loops of logical blocks)"
  parameter Boolean pre_u_start = false "pre(u) at the start";
  extends Modelica.Blocks.Interfaces.partialBooleanSISO;
initial equation
  pre(u) = pre_u_start;
equation
  y = pre(u);
end Pre;
block Edge "y = edge(u): true at the instants u turns true"
  parameter Boolean pre_u_start = false "pre(u) at the start";
  extends Modelica.Blocks.Interfaces.partialBooleanSISO;
initial equation
  pre(u) = pre_u_start;
equation
  y = edge(u);
end Edge;
block FallingEdge "y = edge(not u): true at the instants u turns false"
  parameter Boolean pre_u_start = false "pre(u) at the start";
  extends Modelica.Blocks.Interfaces.partialBooleanSISO;
protected
  Boolean not_u = not u;
initial equation
  pre(not_u) = not pre_u_start;
equation
  y = edge(not_u);
end FallingEdge;
block Change "y = change(u): true at the instants u changes"
  parameter Boolean pre_u_start = false "pre(u) at the start";
  extends Modelica.Blocks.Interfaces.partialBooleanSISO;
initial equation
  pre(u) = pre_u_start;
equation
  y = change(u);
end Change;
block GreaterThreshold "y = u > threshold"
  extends Modelica.Blocks.Interfaces.partialBooleanThresholdComparison;
equation
  y = u > threshold;
end GreaterThreshold;
block GreaterEqualThreshold "y = u >= threshold"
  extends Modelica.Blocks.Interfaces.partialBooleanThresholdComparison;
equation
  y = u >= threshold;
end GreaterEqualThreshold;
block LessThreshold "y = u < threshold"
  extends Modelica.Blocks.Interfaces.partialBooleanThresholdComparison;
equation
  y = u < threshold;
end LessThreshold;
block LessEqualThreshold "y = u <= threshold"
  extends Modelica.Blocks.Interfaces.partialBooleanThresholdComparison;
equation
  y = u <= threshold;
end LessEqualThreshold;
block Greater "y = u1 > u2"
  extends Modelica.Blocks.Interfaces.partialBooleanComparison;
equation
  y = u1 > u2;
end Greater;
block GreaterEqual "y = u1 >= u2"
  extends Modelica.Blocks.Interfaces.partialBooleanComparison;
equation
  y = u1 >= u2;
end GreaterEqual;
block Less "y = u1 < u2"
  extends Modelica.Blocks.Interfaces.partialBooleanComparison;
equation
  y = u1 < u2;
end Less;
block LessEqual "y = u1 <= u2"
  extends Modelica.Blocks.Interfaces.partialBooleanComparison;
equation
  y = u1 <= u2;
end LessEqual;
block ZeroCrossing "y true at the instants u crosses zero while enable is true"
  extends Modelica.Blocks.Interfaces.partialBooleanSO;
  Modelica.Blocks.Interfaces.RealInput u;
  Modelica.Blocks.Interfaces.BooleanInput enable "crossings count only while it is true";
protected
  Boolean disable = not enable;
  Boolean u_pos;
initial equation
  pre(u_pos) = false;
  pre(enable) = false;
  pre(disable) = not pre(enable);
equation
  u_pos = enable and u >= 0;
  y = change(u_pos) and not edge(enable) and not edge(disable);
end ZeroCrossing;
block LogicalSwitch "y = if u2 then u1 else u3, of Booleans"
  extends Modelica.Blocks.Interfaces.partialBooleanSI3SO;
equation
  y = if u2 then u1 else u3;
end LogicalSwitch;
block Switch "y = if u2 then u1 else u3: a Boolean chooses between two Reals"
  Modelica.Blocks.Interfaces.RealInput u1;
  Modelica.Blocks.Interfaces.BooleanInput u2;
  Modelica.Blocks.Interfaces.RealInput u3;
  Modelica.Blocks.Interfaces.RealOutput y;
equation
  y = if u2 then u1 else u3;
end Switch;
block Hysteresis "a Real to a Boolean with hysteresis: on above uHigh, off below uLow"
  parameter Real uLow(start = 0) "y switches to false when u falls below it";
  parameter Real uHigh(start = 1) "y switches to true when u rises above it";
  parameter Boolean pre_y_start = false "pre(y) at the start";
  Modelica.Blocks.Interfaces.RealInput u;
  Modelica.Blocks.Interfaces.BooleanOutput y;
initial equation
  pre(y) = pre_y_start;
equation
  assert(uHigh > uLow, "Hysteresis limits wrong (uHigh <= uLow)");
  y = not pre(y) and u > uHigh or pre(y) and u >= uLow;
end Hysteresis;
block OnOffController "y on while u is below reference - bandwidth/2, off above reference + bandwidth/2"
  Modelica.Blocks.Interfaces.RealInput reference "the set point";
  Modelica.Blocks.Interfaces.RealInput u "the measured value";
  Modelica.Blocks.Interfaces.BooleanOutput y "the actuator: on or off";
  parameter Real bandwidth(start = 0.1) "width of the band around the reference";
  parameter Boolean pre_y_start = false "pre(y) at the start";
initial equation
  pre(y) = pre_y_start;
equation
  y = pre(y) and (u < reference + bandwidth/2) or (u < reference - bandwidth/2);
end OnOffController;
block TriggeredTrapezoid "a trapezoid that rises while u is true and falls while it is false"
  parameter Real amplitude = 1 "height above the offset";
  parameter Modelica.Units.SI.Time rising(final min = 0) = 0 "time to rise by the amplitude";
  parameter Modelica.Units.SI.Time falling(final min = 0) = rising "time to fall by the amplitude";
  parameter Real offset = 0 "y while u has been false long enough";
  Modelica.Blocks.Interfaces.BooleanInput u;
  Modelica.Blocks.Interfaces.RealOutput y;
protected
  discrete Real endValue "where y is heading since the last edge of u";
  discrete Real rate "slope of y until it gets there";
  discrete Modelica.Units.SI.Time T "when it gets there";
equation
  y = if time < T then endValue - (T - time)*rate else endValue;
  when {initial(), u, not u} then
    endValue = if u then offset + amplitude else offset;
    rate = if u and (rising > 0) then amplitude/rising else if not u and (falling > 0) then -amplitude/falling else 0;
    T = if u and not (rising > 0) or not u and not (falling > 0) or not abs(amplitude) > 0 or initial() then time
      else time + (endValue - pre(y))/rate;
  end when;
end TriggeredTrapezoid;
block Timer "y: the time since u turned true (0 while u is false)"
  Modelica.Blocks.Interfaces.BooleanInput u;
  Modelica.Blocks.Interfaces.RealOutput y;
protected
  discrete Modelica.Units.SI.Time entryTime "when u turned true";
initial equation
  pre(entryTime) = 0;
equation
  when u then
    entryTime = time;
  end when;
  y = if u then time - entryTime else 0.0;
end Timer;
block RSFlipFlop "Q set by S, reset by R, kept in between; QI = not Q"
  parameter Boolean Qini = false "Q at the start";
  Modelica.Blocks.Interfaces.BooleanOutput Q;
  Modelica.Blocks.Interfaces.BooleanOutput QI;
  Modelica.Blocks.Logical.Nor nor;
  Modelica.Blocks.Logical.Nor nor1;
  Modelica.Blocks.Logical.Pre pre(pre_u_start = not (Qini));
  Modelica.Blocks.Interfaces.BooleanInput S;
  Modelica.Blocks.Interfaces.BooleanInput R;
equation
  connect(nor1.y, nor.u2);
  connect(nor1.y, Q);
  connect(nor.y, pre.u);
  connect(pre.y, nor1.u1);
  connect(pre.y, QI);
  connect(S, nor.u1);
  connect(R, nor1.u2);
end RSFlipFlop;
block TerminateSimulation "ends the run successfully when condition turns true"
  Modelica.Blocks.Interfaces.BooleanOutput condition = false "the run ends when it turns true";
  parameter String terminationText = "... End condition reached" "the note the run ends with";
equation
  when condition then
    terminate(terminationText);
  end when;
end TerminateSimulation;
