// Modelica.Blocks.Examples.PID_Controller (MSL 4.1.0), written for flange:
// a LimPID used as PI controller drives a motor inertia that moves a load
// inertia through a spring-damper against a constant load torque; the
// reference speed is the integral of a point-to-point motion profile. The
// drive starts in steady state (the controller by its initType, the drive
// by a fixed angle and acceleration of inertia1 and der(spring.w_rel) = 0).
model PID_Controller "Demonstrates the usage of a Continuous.LimPID controller"
  parameter Modelica.Units.SI.Angle driveAngle = 1.570796326794897 "Reference distance to move";
  Modelica.Blocks.Continuous.LimPID PI(k = 100, Ti = 0.1, yMax = 12, Ni = 0.1,
    initType = Modelica.Blocks.Types.Init.SteadyState,
    controllerType = Modelica.Blocks.Types.SimpleController.PI, Td = 0.1);
  Modelica.Mechanics.Rotational.Components.Inertia inertia1(phi(fixed = true, start = 0), J = 1, a(fixed = true, start = 0));
  Modelica.Mechanics.Rotational.Sources.Torque torque;
  Modelica.Mechanics.Rotational.Components.SpringDamper spring(c = 1e4, d = 100, stateSelect = StateSelect.prefer,
    w_rel(fixed = true));
  Modelica.Mechanics.Rotational.Components.Inertia inertia2(J = 2);
  Modelica.Blocks.Sources.KinematicPTP kinematicPTP(startTime = 0.5, deltaq = {driveAngle}, qd_max = {1}, qdd_max = {1});
  Modelica.Blocks.Continuous.Integrator integrator(initType = Modelica.Blocks.Types.Init.InitialState);
  Modelica.Mechanics.Rotational.Sensors.SpeedSensor speedSensor;
  Modelica.Mechanics.Rotational.Sources.ConstantTorque loadTorque(tau_constant = 10, useSupport = false);
initial equation
  der(spring.w_rel) = 0;
equation
  connect(spring.flange_b, inertia2.flange_a);
  connect(inertia1.flange_b, spring.flange_a);
  connect(torque.flange, inertia1.flange_a);
  connect(kinematicPTP.y[1], integrator.u);
  connect(speedSensor.flange, inertia1.flange_b);
  connect(loadTorque.flange, inertia2.flange_b);
  connect(PI.y, torque.tau);
  connect(speedSensor.w, PI.u_m);
  connect(integrator.y, PI.u_s);
  annotation(experiment(StopTime = 4, Interval = 0.0008, Tolerance = 1e-06));
end PID_Controller;
