model InverseModel "MSL Blocks.Examples.InverseModel: a first-order plant inverted, its input computed from a filtered sine"
  Modelica.Blocks.Continuous.FirstOrder firstOrder1(k = 1, T = 0.3, initType = Modelica.Blocks.Types.Init.SteadyState);
  Modelica.Blocks.Sources.Sine sine(f = 2, offset = 1, startTime = 0.2);
  Modelica.Blocks.Math.InverseBlockConstraints inverseBlockConstraints;
  Modelica.Blocks.Continuous.FirstOrder firstOrder2(k = 1, T = 0.3, initType = Modelica.Blocks.Types.Init.SteadyState);
  Modelica.Blocks.Math.Feedback feedback;
  Modelica.Blocks.Continuous.CriticalDamping criticalDamping(n = 1, f = 50*sine.f);
equation
  connect(firstOrder1.y, inverseBlockConstraints.u2);
  connect(inverseBlockConstraints.y2, firstOrder1.u);
  connect(firstOrder2.y, feedback.u1);
  connect(sine.y, criticalDamping.u);
  connect(criticalDamping.y, inverseBlockConstraints.u1);
  connect(sine.y, feedback.u2);
  connect(inverseBlockConstraints.y1, firstOrder2.u);
  annotation(experiment(StopTime = 1.0));
end InverseModel;
