model Levers "levers with ratios: masses, a stop, friction, a sensor and prescribed motion through them"
  import MTC = Modelica.Mechanics.Translational.Components;
  import MTS = Modelica.Mechanics.Translational.Sources;
  model Lever
    extends Modelica.Mechanics.Translational.Interfaces.PartialTwoFlanges;
    parameter Real r = 2;
    parameter Real c = 0;
  equation
    flange_b.s = r*flange_a.s + c;
    flange_a.f + r*flange_b.f = 0;
  end Lever;
  model MassLever
    extends Modelica.Mechanics.Translational.Interfaces.PartialTwoFlanges;
    parameter Real r = -0.5;
    parameter Real m = 1;
    Real s;
    Real v;
  equation
    flange_b.s = r*flange_a.s;
    s = flange_b.s;
    v = der(s);
    m*r*der(v) = flange_a.f + r*flange_b.f;
  end MassLever;
  Modelica.Blocks.Sources.Sine sine(amplitude = 0.1, f = 2);
  MTS.Position pos(exact = true);
  Lever l1(r = 3, c = 0.1);
  MTC.Mass m1(m = 1);
  MTC.Fixed fixed;
  MTC.Spring spring(c = 100);
  MTC.Mass a(m = 1, s(start = 0.1, fixed = true), v(fixed = true));
  MassLever l2(m = 2);
  MTC.MassWithStopAndFriction b(m = 1, smax = 1, smin = -1, F_Coulomb = 1, F_Stribeck = 1, F_prop = 0.1, fexp = 2, L = 0);
  Flange.Components.HardStop hs(hs_model = Flange.Types.HardStopModel.RESTITUTION, upper_bnd = 0.05, lower_bnd = -0.05);
  Modelica.Mechanics.Translational.Sensors.PositionSensor ps;
  MTS.Force force;
equation
  connect(sine.y, pos.s_ref);
  connect(pos.flange, l1.flange_a);
  connect(l1.flange_b, m1.flange_a);
  connect(fixed.flange, spring.flange_a);
  connect(spring.flange_b, a.flange_a);
  connect(a.flange_b, l2.flange_a);
  connect(l2.flange_b, b.flange_a);
  connect(b.flange_b, hs.R);
  connect(hs.C, fixed.flange);
  connect(ps.flange, m1.flange_b);
  connect(ps.s, force.f);
  connect(force.flange, a.flange_a);
  annotation(experiment(StopTime = 1));
end Levers;
