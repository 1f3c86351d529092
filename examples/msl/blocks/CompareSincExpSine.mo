model CompareSincExpSine "a sinc signal next to two exponentially damped sines"
  Modelica.Blocks.Sources.Sinc sinc(f = 5);
  Modelica.Blocks.Sources.ExpSine expSine1(f = 5, damping = 5);
  Modelica.Blocks.Sources.ExpSine expSine2(f = 5, phase = Modelica.Constants.pi/2, damping = 5);
  annotation(experiment(StopTime = 1.0, Interval = 0.0001));
end CompareSincExpSine;
