within Modelica.Blocks.Interfaces;
// The interface of a single-variable controller (LimPID): a set point and a
// measurement in, the actuating signal out.
partial block SVcontrol "set point u_s and measurement u_m in, control signal y out"
  Modelica.Blocks.Interfaces.RealInput u_s "set point";
  Modelica.Blocks.Interfaces.RealInput u_m "measurement";
  Modelica.Blocks.Interfaces.RealOutput y "control signal";
end SVcontrol;
