// A drive train on the rotational side with a gear written as equations (fuzz seed)
model First
  model Gear
    parameter Real ratio = 1;
    parameter Boolean useSupport = false;
    Modelica.Mechanics.Rotational.Interfaces.Flange_a flange_a;
    Modelica.Mechanics.Rotational.Interfaces.Flange_b flange_b;
    Modelica.Mechanics.Rotational.Interfaces.Support support if useSupport;
    Real phi_a, phi_b;
  protected
    Real phi_support;
  equation
    phi_support = 0;
    phi_a = flange_a.phi - phi_support;
    phi_b = flange_b.phi - phi_support;
    phi_a = ratio*phi_b;
    0 = ratio*flange_a.tau + flange_b.tau;
  end Gear;
  parameter Real amplitude = 10;
  parameter Real f = 5;
  parameter Real Jmotor = 0.1;
  parameter Real Jload = 2;
  parameter Real ratio = 10;
  parameter Real damping = 10;
  Modelica.Mechanics.Rotational.Components.Fixed fixed;
  Modelica.Mechanics.Rotational.Sources.Torque torque(useSupport = true);
  Modelica.Mechanics.Rotational.Components.Inertia inertia1(J = Jmotor);
  Gear idealGear(ratio = ratio);
  Modelica.Mechanics.Rotational.Components.Inertia inertia2(J = 2, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  Modelica.Mechanics.Rotational.Components.Spring spring(c = 1.e4, phi_rel(fixed = true));
  Modelica.Mechanics.Rotational.Components.Inertia inertia3(J = Jload, w(fixed = true, start = 0));
  Modelica.Mechanics.Rotational.Components.Damper damper(d = damping);
  Modelica.Blocks.Sources.Sine sine(amplitude = amplitude, f = f);
equation
  connect(inertia1.flange_b, idealGear.flange_a);
  connect(idealGear.flange_b, inertia2.flange_a);
  connect(inertia2.flange_b, spring.flange_a);
  connect(spring.flange_b, inertia3.flange_a);
  connect(damper.flange_a, inertia2.flange_b);
  connect(damper.flange_b, fixed.flange);
  connect(sine.y, torque.tau);
  connect(torque.support, fixed.flange);
  connect(torque.flange, inertia1.flange_a);
  annotation(experiment(StopTime = 1.0, Interval = 0.001));
end First;
