// Modelica.Mechanics.Rotational.Examples.SimpleGearShift (MSL 4.1.0),
// written for flange: an automatic gear shift from a planetary gear, a
// brake and a clutch. At first the brake holds the ring: the load turns at
// 1/(1 + ratio) of the engine speed; at t = 2 s the brake releases the ring
// while the clutch locks ring and sun: the ratio becomes 1.
model SimpleGearShift "Simple Gearshift"
  output Modelica.Units.SI.AngularVelocity wEngine = engine.w "Speed of engine";
  output Modelica.Units.SI.AngularVelocity wLoad = load.w "Speed of load";
  output Real gearRatio = wLoad/max(wEngine, 1E-6) "gear ratio load/engine";
  Modelica.Mechanics.Rotational.Sources.TorqueStep torqueStep(offsetTorque = 0, startTime = 0.5, stepTorque = 20);
  Modelica.Mechanics.Rotational.Components.Inertia engine(J = 1);
  Modelica.Mechanics.Rotational.Components.IdealPlanetary idealPlanetary(ratio = 75/50);
  Modelica.Mechanics.Rotational.Components.Inertia load(J = 10, phi(fixed = true, start = 0), w(fixed = true, start = 0));
  Modelica.Mechanics.Rotational.Sources.QuadraticSpeedDependentTorque quadraticSpeedDependentTorque(
    w_nominal(displayUnit = "rpm") = 10.471975511966, tau_nominal = -20);
  Modelica.Mechanics.Rotational.Components.Clutch clutch(cgeo = 2, fn_max = 100, phi_rel(fixed = true), w_rel(fixed = true));
  Modelica.Mechanics.Rotational.Components.Brake brake(cgeo = 2, fn_max = 100);
  Modelica.Blocks.Math.Feedback feedback;
  Modelica.Blocks.Sources.Constant const1(k = 1);
  Modelica.Blocks.Sources.Ramp ramp(height = 1, offset = 0, startTime = 2, duration = 0.1);
equation
  connect(torqueStep.flange, engine.flange_a);
  connect(quadraticSpeedDependentTorque.flange, load.flange_b);
  connect(feedback.y, brake.f_normalized);
  connect(engine.flange_b, idealPlanetary.sun);
  connect(idealPlanetary.sun, clutch.flange_a);
  connect(idealPlanetary.ring, clutch.flange_b);
  connect(idealPlanetary.ring, brake.flange_a);
  connect(idealPlanetary.carrier, load.flange_a);
  connect(const1.y, feedback.u1);
  connect(feedback.u2, clutch.f_normalized);
  connect(ramp.y, clutch.f_normalized);
  annotation(experiment(StopTime = 5, Interval = 0.005, Tolerance = 1e-06));
end SimpleGearShift;
