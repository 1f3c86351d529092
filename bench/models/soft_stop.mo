model SoftStop "a mass shaken by a sine force between soft, damped SymmetricHardStop faces"
  Modelica.Mechanics.Translational.Components.Fixed fixed;
  Flange.Components.SymmetricHardStop hs(b=0.2, c=1e4, d=20);
  Modelica.Mechanics.Translational.Components.Mass mass(m=1, s(fixed=true), v(start=1, fixed=true));
  Modelica.Mechanics.Translational.Sources.Force force;
  Modelica.Blocks.Sources.Sine sine(amplitude=5, f=2);
equation
  connect(fixed.flange, hs.flange_a);
  connect(hs.flange_b, mass.flange_a);
  connect(sine.y, force.f);
  connect(force.flange, mass.flange_b);
  annotation(experiment(StopTime=20));
end SoftStop;
