model Contacts "a mass between compliant and restitution stops, pushed by a sine"
  import MTC = Modelica.Mechanics.Translational.Components;
  Modelica.Blocks.Sources.Sine sine(amplitude = 30, f = 1.5);
  Modelica.Mechanics.Translational.Sources.Force force;
  MTC.Fixed ground;
  MTC.Mass body(m = 0.5, s(start = 0, fixed = true), v(start = 0, fixed = true));
  MTC.ElastoGap gap(c = 1e5, d = 20, s_rel0 = 0.1);
  Flange.Components.HardStop stop(upper_bnd = 0.08, lower_bnd = -0.2);
  Flange.Components.SymmetricHardStop sym(b = 0.3, c = 1e6, d = 100);
  MTC.Mass body2(m = 0.1, s(start = 0.25, fixed = true), v(fixed = true));
equation
  connect(sine.y, force.f);
  connect(force.flange, body.flange_a);
  connect(body.flange_b, gap.flange_a);
  connect(gap.flange_b, ground.flange);
  connect(ground.flange, stop.C);
  connect(stop.R, body.flange_a);
  connect(body.flange_b, sym.flange_a);
  connect(sym.flange_b, body2.flange_a);
  annotation(experiment(StopTime = 2, Interval = 0.002, Tolerance = 1e-7));
end Contacts;
