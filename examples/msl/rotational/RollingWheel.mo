// Modelica.Mechanics.Rotational.Examples.RollingWheel (MSL 4.1.0), written
// for flange: a torque step accelerates an inertia (the wheel) and, through
// an ideal rolling wheel of radius 1 m, a mass (the vehicle) against a
// quadratic speed-dependent drag; the speed settles at 5 m/s.
model RollingWheel "Demonstrate coupling Rotational - Translational"
  Modelica.Mechanics.Rotational.Components.IdealRollingWheel idealRollingWheel(radius = 1);
  Modelica.Mechanics.Rotational.Components.Inertia inertia(J = 1, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  Modelica.Mechanics.Rotational.Sources.TorqueStep torque(stepTorque = 10, offsetTorque = 0, startTime = 0.1, useSupport = false);
  Modelica.Mechanics.Translational.Components.Mass mass(L = 0, m = 1);
  Modelica.Mechanics.Translational.Sources.QuadraticSpeedDependentForce quadraticSpeedDependentForce(f_nominal = -10, ForceDirection = false, v_nominal = 5);
equation
  connect(torque.flange, inertia.flange_a);
  connect(inertia.flange_b, idealRollingWheel.flangeR);
  connect(idealRollingWheel.flangeT, mass.flange_a);
  connect(quadraticSpeedDependentForce.flange, mass.flange_b);
  annotation(experiment(StopTime = 5, Interval = 0.0005, Tolerance = 1e-06));
end RollingWheel;
