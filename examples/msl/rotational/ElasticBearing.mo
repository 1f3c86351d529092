// Modelica.Mechanics.Rotational.Examples.ElasticBearing (MSL 4.1.0),
// written for flange: the gear's housing is not fixed but an inertia held by
// a spring-damper, so the gear ties three moving flanges (shaft, load side,
// housing) together; flange keeps that relation as a constraint with its
// torque as unknown (the load side of the gear is massless between the gear
// and a spring, so the constraint on the angles itself determines it).
model ElasticBearing "Example to show possible usage of support flange"
  Modelica.Mechanics.Rotational.Components.Inertia shaft(phi(fixed = true, start = 0), J = 1, w(fixed = true, start = 0));
  Modelica.Mechanics.Rotational.Components.Inertia load(J = 50, w(fixed = true, start = 0));
  Modelica.Mechanics.Rotational.Components.Spring spring(c = 1e3, phi_rel(fixed = true));
  Modelica.Mechanics.Rotational.Components.Fixed fixed;
  Modelica.Mechanics.Rotational.Components.SpringDamper springDamper(c = 1e5, d = 5, phi_rel(fixed = true), w_rel(fixed = true, nominal = 1e-4));
  Modelica.Mechanics.Rotational.Sources.Torque torque(useSupport = true);
  Modelica.Blocks.Sources.Ramp ramp(duration = 5, height = 100);
  Modelica.Mechanics.Rotational.Components.IdealGear idealGear(ratio = 3, useSupport = true);
  Modelica.Mechanics.Rotational.Components.Inertia housing(J = 5);
  Modelica.Mechanics.Rotational.Sensors.MultiSensor multiSensor;
equation
  connect(torque.flange, shaft.flange_a);
  connect(spring.flange_b, load.flange_a);
  connect(springDamper.flange_a, fixed.flange);
  connect(shaft.flange_b, idealGear.flange_a);
  connect(idealGear.flange_b, spring.flange_a);
  connect(idealGear.support, housing.flange_b);
  connect(ramp.y, torque.tau);
  connect(fixed.flange, torque.support);
  connect(housing.flange_a, multiSensor.flange_b);
  connect(multiSensor.flange_a, springDamper.flange_b);
  annotation(experiment(StopTime = 10, Interval = 0.005, Tolerance = 1e-06));
end ElasticBearing;
