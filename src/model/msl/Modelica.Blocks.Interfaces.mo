within Modelica.Blocks.Interfaces;
partial block SO "one output"
  Modelica.Blocks.Interfaces.RealOutput y;
end SO;
partial block MO "nout outputs"
  parameter Integer nout(min = 1) = 1;
  Modelica.Blocks.Interfaces.RealOutput y[nout];
end MO;
partial block SISO "one input, one output"
  Modelica.Blocks.Interfaces.RealInput u;
  Modelica.Blocks.Interfaces.RealOutput y;
end SISO;
partial block SI2SO "two inputs, one output"
  Modelica.Blocks.Interfaces.RealInput u1;
  Modelica.Blocks.Interfaces.RealInput u2;
  Modelica.Blocks.Interfaces.RealOutput y;
end SI2SO;
partial block MISO "nin inputs, one output"
  parameter Integer nin = 1;
  Modelica.Blocks.Interfaces.RealInput u[nin];
  Modelica.Blocks.Interfaces.RealOutput y;
end MISO;
partial block MIMO "nin inputs, nout outputs"
  parameter Integer nin = 1;
  parameter Integer nout = 1;
  Modelica.Blocks.Interfaces.RealInput u[nin];
  Modelica.Blocks.Interfaces.RealOutput y[nout];
end MIMO;
partial block SignalSource "one output, with an offset and a start time"
  extends Modelica.Blocks.Interfaces.SO;
  parameter Real offset = 0;
  parameter Modelica.Units.SI.Time startTime = 0;
end SignalSource;
