model FilterWithDifferentiation "MSL Blocks.Examples.FilterWithDifferentiation: a Bessel low pass differentiated three times"
  parameter Modelica.Units.SI.Frequency f_cut = 2 "cut-off frequency";
  Modelica.Blocks.Sources.Step step(startTime = 0.1, offset = 0.1);
  Modelica.Blocks.Continuous.Filter Bessel(f_cut = f_cut, filterType = Modelica.Blocks.Types.FilterType.LowPass,
    order = 3, analogFilter = Modelica.Blocks.Types.AnalogFilter.Bessel);
  Modelica.Blocks.Continuous.Der der1;
  Modelica.Blocks.Continuous.Der der2;
  Modelica.Blocks.Continuous.Der der3;
equation
  connect(step.y, Bessel.u);
  connect(Bessel.y, der1.u);
  connect(der1.y, der2.u);
  connect(der2.y, der3.u);
  annotation(experiment(StopTime = 0.9));
end FilterWithDifferentiation;
