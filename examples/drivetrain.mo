// A small electric actuator: a motor torque turns a motor inertia, a 20:1
// gear and a pinion that drives a rack; the rack pushes a valve spool
// (held by a return spring, damped by the oil) against the end stop of its
// bore 8 mm away. The motor pushes for 0.8 s: the spool runs into the stop
// and stays there, the motor torque held by the stop through the whole
// drivetrain; then the torque is released and the spring returns the spool,
// which swings through the centre until the damping settles it.
// Gear and rack fold the whole drivetrain into one rigid body about the
// motor shaft (`flange check`): J = 1e-6 + 1e-5/20^2 + 0.3 (0.01/20)^2 =
// 1.1e-6 kg.m2, which the spool feels as 1.1e-6 (20/0.01)^2 = 4.4 kg - the
// motor's inertia dominates the spool's 0.3 kg.
model Drivetrain "Motor torque, gear, rack and pinion, a spool against its end stop"
  parameter Modelica.Units.SI.Torque tauMax = 0.02 "motor torque while pushing";
  parameter Real gearRatio = 20 "motor turns per pinion turn";
  parameter Modelica.Units.SI.Length r = 0.01 "pinion radius";
  parameter Modelica.Units.SI.Length stroke = 8e-3 "free travel of the spool to its stop";

  Modelica.Blocks.Sources.Trapezoid command(amplitude = tauMax, rising = 0.02, width = 0.76, falling = 0.02,
    period = 10, nperiod = 1, startTime = 0.05) "motor torque command";
  Modelica.Mechanics.Rotational.Sources.Torque motorTorque;
  Modelica.Mechanics.Rotational.Components.Inertia motor(J = 1e-6, phi(start = 0, fixed = true),
    w(start = 0, fixed = true));
  Modelica.Mechanics.Rotational.Components.IdealGear gear(ratio = gearRatio);
  Modelica.Mechanics.Rotational.Components.Inertia pinion(J = 1e-5);
  Modelica.Mechanics.Rotational.Components.IdealGearR2T rack(ratio = 1/r) "rack and pinion: phi = s/r";
  Modelica.Mechanics.Translational.Components.Mass spool(m = 0.3);
  Modelica.Mechanics.Translational.Components.Spring returnSpring(c = 2000);
  Modelica.Mechanics.Translational.Components.Damper oil(d = 40);
  Flange.Components.HardStop endStop(upper_bnd = stroke, lower_bnd = -stroke, stiff_up = 2e6, stiff_low = 2e6,
    D_up = 400, D_low = 400) "the ends of the bore";
  Modelica.Mechanics.Translational.Components.Fixed housing;
  Modelica.Units.SI.Position x = spool.s "spool travel";
  Modelica.Units.SI.Force fStop = endStop.F "force on the end stop";
equation
  connect(command.y, motorTorque.tau);
  connect(motorTorque.flange, motor.flange_a);
  connect(motor.flange_b, gear.flange_a);
  connect(gear.flange_b, pinion.flange_a);
  connect(pinion.flange_b, rack.flangeR);
  connect(rack.flangeT, spool.flange_a);
  connect(spool.flange_b, returnSpring.flange_a);
  connect(returnSpring.flange_b, housing.flange);
  connect(spool.flange_b, oil.flange_a);
  connect(oil.flange_b, housing.flange);
  connect(spool.flange_b, endStop.R);
  connect(endStop.C, housing.flange);
  annotation(experiment(StopTime = 1.5, Interval = 1e-3));
end Drivetrain;
