// Modelica.Mechanics.Rotational.Examples.First (MSL 4.1.0), written for
// flange: a motor inertia driven by a sine torque, a gear (ratio 10) whose
// housing is connected to the fixed support, a spring to the load and a
// damper in the gear's bearing. The gear ties three flanges (its support
// among them): flange keeps that relation as a constraint with the gear's
// torque as unknown, differentiated twice (both shafts have inertia).
model First "First example: simple drive train"
  parameter Modelica.Units.SI.Torque amplitude = 10 "Amplitude of driving torque";
  parameter Modelica.Units.SI.Frequency f = 5 "Frequency of driving torque";
  parameter Modelica.Units.SI.Inertia Jmotor(min = 0) = 0.1 "Motor inertia";
  parameter Modelica.Units.SI.Inertia Jload(min = 0) = 2 "Load inertia";
  parameter Real ratio = 10 "Gear ratio";
  parameter Real damping = 10 "Damping in bearing of gear";
  Modelica.Mechanics.Rotational.Components.Fixed fixed;
  Modelica.Mechanics.Rotational.Sources.Torque torque(useSupport = true);
  Modelica.Mechanics.Rotational.Components.Inertia inertia1(J = Jmotor);
  Modelica.Mechanics.Rotational.Components.IdealGear idealGear(ratio = ratio, useSupport = true);
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
  connect(idealGear.support, fixed.flange);
  connect(torque.flange, inertia1.flange_a);
  annotation(experiment(StopTime = 1, Interval = 0.0005, Tolerance = 1e-06));
end First;
