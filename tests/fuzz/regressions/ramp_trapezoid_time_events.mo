model T
  Modelica.Blocks.Sources.Ramp ramp(height = 3, duration = 0.4, startTime = 0.2);
  Modelica.Blocks.Sources.Trapezoid trap(amplitude = 4, rising = 0.05, width = 0.1, falling = 0.05, period = 0.3);
  Modelica.Mechanics.Translational.Sources.Force f1, f2;
  Modelica.Mechanics.Translational.Components.Mass m1(m = 1, s(fixed = true), v(fixed = true)),
    m2(m = 1, s(fixed = true), v(fixed = true));
equation
  connect(ramp.y, f1.f); connect(f1.flange, m1.flange_a);
  connect(trap.y, f2.f); connect(f2.flange, m2.flange_a);
  annotation(experiment(StopTime = 1, Interval = 0.005));
end T;
