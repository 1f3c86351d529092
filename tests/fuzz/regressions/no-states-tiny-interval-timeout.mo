model T
  Modelica.Blocks.Sources.Ramp ramp(height = 8, duration = 0.4, startTime = 1.2);
  Modelica.Blocks.Sources.Trapezoid trap(amplitude = 6, rising = 0.04, width = 1.1, falling .flange_a);
  annotation(experiment(Interval = 21e-9, Interpartialval = 0.005));
end T;
