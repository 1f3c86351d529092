model FilterWithRiseTime "MSL Blocks.Examples.FilterWithRiseTime: filters set by a rise time, f_cut = fac/(2*pi*riseTime)"
  parameter Integer order = 2 "order of the filters";
  parameter Modelica.Units.SI.Time riseTime = 2 "time to reach the step";
  Modelica.Blocks.Continuous.Filter filter_fac5(f_cut = 5/(2*Modelica.Constants.pi*riseTime), order = order);
  Modelica.Blocks.Sources.Step step(startTime = 1);
  Modelica.Blocks.Continuous.Filter filter_fac4(f_cut = 4/(2*Modelica.Constants.pi*riseTime), order = order);
  Modelica.Blocks.Continuous.Filter filter_fac3(f_cut = 3/(2*Modelica.Constants.pi*riseTime), order = order);
equation
  connect(step.y, filter_fac5.u);
  connect(step.y, filter_fac4.u);
  connect(step.y, filter_fac3.u);
  annotation(experiment(StopTime = 4));
end FilterWithRiseTime;
