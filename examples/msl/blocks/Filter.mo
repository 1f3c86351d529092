model Filter "MSL Blocks.Examples.Filter: one step through four analog low pass filters of order 3"
  parameter Integer order = 3 "order of the filters";
  parameter Modelica.Units.SI.Frequency f_cut = 2 "cut-off frequency";
  parameter Modelica.Blocks.Types.FilterType filterType = Modelica.Blocks.Types.FilterType.LowPass "low or high pass";
  parameter Modelica.Blocks.Types.Init init = Modelica.Blocks.Types.Init.SteadyState "initialisation of the filters";
  parameter Boolean normalized = true "3 dB down at f_cut";
  Modelica.Blocks.Sources.Step step(startTime = 0.1, offset = 0.1);
  Modelica.Blocks.Continuous.Filter CriticalDamping(analogFilter = Modelica.Blocks.Types.AnalogFilter.CriticalDamping,
    normalized = normalized, init = init, filterType = filterType, order = order, f_cut = f_cut, f_min = 0.8*f_cut);
  Modelica.Blocks.Continuous.Filter Bessel(analogFilter = Modelica.Blocks.Types.AnalogFilter.Bessel,
    normalized = normalized, init = init, filterType = filterType, order = order, f_cut = f_cut, f_min = 0.8*f_cut);
  Modelica.Blocks.Continuous.Filter Butterworth(analogFilter = Modelica.Blocks.Types.AnalogFilter.Butterworth,
    normalized = normalized, init = init, filterType = filterType, order = order, f_cut = f_cut, f_min = 0.8*f_cut);
  Modelica.Blocks.Continuous.Filter ChebyshevI(analogFilter = Modelica.Blocks.Types.AnalogFilter.ChebyshevI,
    normalized = normalized, init = init, filterType = filterType, order = order, f_cut = f_cut, f_min = 0.8*f_cut);
equation
  connect(step.y, CriticalDamping.u);
  connect(step.y, Bessel.u);
  connect(step.y, Butterworth.u);
  connect(step.y, ChebyshevI.u);
  annotation(experiment(StopTime = 0.9));
end Filter;
