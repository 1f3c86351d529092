model ForceInput "A mass pushed by an input force against an elastic stop (FMU input and output)"
  Modelica.Blocks.Interfaces.RealInput f(unit = "N") "force on the mass";
  Modelica.Blocks.Interfaces.RealOutput s(unit = "m") "position of the mass";
  Modelica.Mechanics.Translational.Sources.Force force;
  Modelica.Mechanics.Translational.Components.Mass mass(m = 1, s(start = 0, fixed = true), v(start = 0, fixed = true));
  Modelica.Mechanics.Translational.Components.ElastoGap gap(c = 1e4, d = 20, s_rel0 = 0);
  Modelica.Mechanics.Translational.Components.Fixed fixed(s0 = 0.5);
  Modelica.Mechanics.Translational.Sensors.PositionSensor ps;
equation
  connect(f, force.f);
  connect(force.flange, mass.flange_a);
  connect(mass.flange_b, gap.flange_a);
  connect(gap.flange_b, fixed.flange);
  connect(ps.flange, mass.flange_a);
  connect(ps.s, s);
  annotation(experiment(StopTime = 3, Interval = 1e-3));
end ForceInput;
