within;
package Rig "a package with a base model, extends and modifiers"
  partial model Base
    parameter Real k = 100 "stiffness";
    parameter Real mass = 2;
    Modelica.Mechanics.Translational.Components.Fixed ground(s0 = 0.1);
    Modelica.Mechanics.Translational.Components.Spring spring(c = k, s_rel0 = 0.5);
    Modelica.Mechanics.Translational.Components.Mass body(m = mass, L = 0.2, s(start = 1, fixed = true), v(fixed = true));
  equation
    connect(ground.flange, spring.flange_a);
    connect(spring.flange_b, body.flange_a);
  end Base;
  model Heavy
    extends Base(mass = 2 * 5, k = if mass > 1 then 1e3 else 10);
    Modelica.Mechanics.Translational.Components.Damper damper(d = sqrt(k * mass) / 10);
    Modelica.Mechanics.Translational.Sources.ConstantForce weight(f_constant = -mass * 9.81);
  equation
    connect(ground.flange, damper.flange_a);
    connect(damper.flange_b, body.flange_a);
    connect(weight.flange, body.flange_b);
    annotation(experiment(StartTime = 0, StopTime = 2, Interval = 0.01, Tolerance = 1e-8));
  end Heavy;
end Rig;
