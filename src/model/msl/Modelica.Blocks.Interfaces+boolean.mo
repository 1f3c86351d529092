within Modelica.Blocks.Interfaces;
partial block BooleanSISO "Boolean in, Boolean out"
  Modelica.Blocks.Interfaces.BooleanInput u;
  Modelica.Blocks.Interfaces.BooleanOutput y;
end BooleanSISO;
partial block BooleanMIMOs "n Boolean inputs, as many Boolean outputs"
  parameter Integer n = 1;
  Modelica.Blocks.Interfaces.BooleanInput u[n];
  Modelica.Blocks.Interfaces.BooleanOutput y[n];
end BooleanMIMOs;
partial block MI2BooleanMOs "two Real vectors in, one Boolean vector out, all of size n"
  parameter Integer n = 1;
  Modelica.Blocks.Interfaces.RealInput u1[n];
  Modelica.Blocks.Interfaces.RealInput u2[n];
  Modelica.Blocks.Interfaces.BooleanOutput y[n];
end MI2BooleanMOs;
partial block SI2BooleanSO "two Reals in, a Boolean out"
  Modelica.Blocks.Interfaces.RealInput u1;
  Modelica.Blocks.Interfaces.RealInput u2;
  Modelica.Blocks.Interfaces.BooleanOutput y;
end SI2BooleanSO;
partial block BooleanSignalSource "a Boolean source"
  Modelica.Blocks.Interfaces.BooleanOutput y;
end BooleanSignalSource;
partial block IntegerSO "one Integer output"
  Modelica.Blocks.Interfaces.IntegerOutput y;
end IntegerSO;
partial block IntegerMO "nout Integer outputs"
  parameter Integer nout(min = 1) = 1;
  Modelica.Blocks.Interfaces.IntegerOutput y[nout];
end IntegerMO;
partial block IntegerSignalSource "an Integer source with an offset and a start time"
  extends Modelica.Blocks.Interfaces.IntegerSO;
  parameter Integer offset = 0;
  parameter Modelica.Units.SI.Time startTime = 0;
end IntegerSignalSource;
partial block IntegerSIBooleanSO "Integer in, Boolean out"
  Modelica.Blocks.Interfaces.IntegerInput u;
  Modelica.Blocks.Interfaces.BooleanOutput y;
end IntegerSIBooleanSO;
partial block IntegerMIBooleanMOs "n Integer inputs, as many Boolean outputs"
  parameter Integer n = 1;
  Modelica.Blocks.Interfaces.IntegerInput u[n];
  Modelica.Blocks.Interfaces.BooleanOutput y[n];
end IntegerMIBooleanMOs;
partial block PartialIntegerSISO "Integer in, Integer out"
  Modelica.Blocks.Interfaces.IntegerInput u;
  Modelica.Blocks.Interfaces.IntegerOutput y;
end PartialIntegerSISO;
partial block PartialIntegerMISO "nu Integer inputs, one Integer output"
  parameter Integer nu(min = 0) = 0;
  Modelica.Blocks.Interfaces.IntegerVectorInput u[nu];
  Modelica.Blocks.Interfaces.IntegerOutput y;
end PartialIntegerMISO;
partial block PartialBooleanMISO "nu Boolean inputs, one Boolean output"
  parameter Integer nu(min = 0) = 0;
  Modelica.Blocks.Interfaces.BooleanVectorInput u[nu];
  Modelica.Blocks.Interfaces.BooleanOutput y;
end PartialBooleanMISO;
partial block partialBooleanSISO "Boolean in, Boolean out (the Logical blocks)"
  Modelica.Blocks.Interfaces.BooleanInput u;
  Modelica.Blocks.Interfaces.BooleanOutput y;
end partialBooleanSISO;
partial block partialBooleanSI2SO "two Booleans in, one out"
  Modelica.Blocks.Interfaces.BooleanInput u1;
  Modelica.Blocks.Interfaces.BooleanInput u2;
  Modelica.Blocks.Interfaces.BooleanOutput y;
end partialBooleanSI2SO;
partial block partialBooleanSI3SO "three Booleans in, one out"
  Modelica.Blocks.Interfaces.BooleanInput u1;
  Modelica.Blocks.Interfaces.BooleanInput u2;
  Modelica.Blocks.Interfaces.BooleanInput u3;
  Modelica.Blocks.Interfaces.BooleanOutput y;
end partialBooleanSI3SO;
partial block partialBooleanSI "a Boolean input"
  Modelica.Blocks.Interfaces.BooleanInput u;
end partialBooleanSI;
partial block partialBooleanSO "a Boolean output"
  Modelica.Blocks.Interfaces.BooleanOutput y;
end partialBooleanSO;
partial block partialBooleanSource "a Boolean output (the Boolean sources)"
  Modelica.Blocks.Interfaces.BooleanOutput y;
end partialBooleanSource;
partial block partialBooleanThresholdComparison "a Real compared with a threshold: a Boolean"
  parameter Real threshold = 0;
  Modelica.Blocks.Interfaces.RealInput u;
  Modelica.Blocks.Interfaces.BooleanOutput y;
end partialBooleanThresholdComparison;
partial block partialBooleanComparison "two Reals compared: a Boolean"
  Modelica.Blocks.Interfaces.RealInput u1;
  Modelica.Blocks.Interfaces.RealInput u2;
  Modelica.Blocks.Interfaces.BooleanOutput y;
end partialBooleanComparison;
