model Signals "every signal source drives a force on its own mass"
  import Modelica.Blocks.Sources;
  import MT = Modelica.Mechanics.Translational;
  Sources.Step step(height = 2, offset = -1, startTime = 0.1);
  Sources.Ramp ramp(height = 3, duration = 0.4, startTime = 0.2);
  Sources.Pulse pulse(amplitude = 5, width = 30, period = 0.25, nperiod = 3);
  Sources.Trapezoid trap(amplitude = 4, rising = 0.05, width = 0.1, falling = 0.05, period = 0.3);
  Sources.ExpSine expsine(amplitude = 2, f = 5, damping = 3);
  Sources.TimeTable tt(table = [0, 0; 0.5, 1; 0.5, 2; 1, 0]);
  Sources.CombiTimeTable combi(table = [0, 1, 2; 0.3, -1, 4; 1, 0, 0], columns = {2, 3},
    smoothness = Modelica.Blocks.Types.Smoothness.ConstantSegments,
    extrapolation = Modelica.Blocks.Types.Extrapolation.Periodic);
  MT.Sources.Force f1, f2, f3, f4, f5, f6, f7;
  MT.Components.Mass m1(m = 1, s(fixed = true), v(fixed = true)), m2(m = 1, s(fixed = true), v(fixed = true)),
    m3(m = 1, s(fixed = true), v(fixed = true)), m4(m = 1, s(fixed = true), v(fixed = true)),
    m5(m = 1, s(fixed = true), v(fixed = true)), m6(m = 1, s(fixed = true), v(fixed = true)),
    m7(m = 1, s(fixed = true), v(fixed = true));
equation
  connect(step.y, f1.f); connect(f1.flange, m1.flange_a);
  connect(ramp.y, f2.f); connect(f2.flange, m2.flange_a);
  connect(pulse.y, f3.f); connect(f3.flange, m3.flange_a);
  connect(trap.y, f4.f); connect(f4.flange, m4.flange_a);
  connect(expsine.y, f5.f); connect(f5.flange, m5.flange_a);
  connect(tt.y, f6.f); connect(f6.flange, m6.flange_a);
  connect(combi.y[2], f7.f); connect(f7.flange, m7.flange_a);
  annotation(experiment(StopTime = 1, Interval = 0.005));
end Signals;
