within Modelica.Blocks.Interfaces;
partial block PartialRealMISO "a vector of nu inputs, one output (the MultiSum family)"
  parameter Integer significantDigits(min = 1) = 3 "digits a diagram would show of y (no effect in flange)";
  parameter Integer nu(min = 0) = 0 "number of inputs";
  Modelica.Blocks.Interfaces.RealVectorInput u[nu];
  Modelica.Blocks.Interfaces.RealOutput y;
end PartialRealMISO;
partial block SIMO "one input, nout outputs"
  parameter Integer nout = 1;
  Modelica.Blocks.Interfaces.RealInput u;
  Modelica.Blocks.Interfaces.RealOutput y[nout];
end SIMO;
