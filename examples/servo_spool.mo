// A position servo: the spool of a valve, held by a centring spring, is
// moved by a voice-coil actuator (a force source) whose force a LimPID
// computes from the position error, limited to +-20 N. The spool can only
// travel +-1 mm in its sleeve (a hard stop). The reference, a trapezoid
// from 0 up to 1.5 mm and back, asks for more than the stroke: the spool runs
// into the upper stop, the controller saturates, and its anti-windup keeps
// the integral part from running away, so that the spool leaves the stop
// as soon as the reference comes back into the stroke.
model ServoSpool "A spool positioned by a PID controller through a force actuator, against its end stops"
  parameter Modelica.Units.SI.Mass m = 0.02 "spool mass";
  parameter Modelica.Units.SI.TranslationalSpringConstant c = 2000 "centring spring";
  parameter Modelica.Units.SI.TranslationalDampingConstant d = 5 "viscous friction in the sleeve";
  parameter Modelica.Units.SI.Position stroke = 1e-3 "free travel each way from the centre";
  parameter Modelica.Units.SI.Force fMax = 20 "largest actuator force";

  Modelica.Blocks.Sources.Trapezoid reference(amplitude = 1.5e-3, rising = 0.01, width = 0.04, falling = 0.01,
    period = 0.1, startTime = 0.01) "commanded spool position";
  Modelica.Blocks.Continuous.LimPID controller(controllerType = Modelica.Blocks.Types.SimpleController.PID,
    k = 2e4, Ti = 0.01, Td = 0.002, yMax = fMax) "position controller: force from the position error";
  Modelica.Mechanics.Translational.Sources.Force actuator "voice coil";
  Modelica.Mechanics.Translational.Components.Mass spool(m = m, s(start = 0, fixed = true), v(start = 0, fixed = true));
  Modelica.Mechanics.Translational.Components.Spring spring(c = c) "centring spring";
  Modelica.Mechanics.Translational.Components.Damper friction(d = d);
  Flange.Components.HardStop endStops(upper_bnd = stroke, lower_bnd = -stroke, stiff_up = 1e7, stiff_low = 1e7,
    D_up = 200, D_low = 200) "the ends of the sleeve";
  Modelica.Mechanics.Translational.Components.Fixed sleeve;
  Modelica.Mechanics.Translational.Sensors.PositionSensor positionSensor;
  Modelica.Units.SI.Position sRef = reference.y "commanded position";
  Modelica.Units.SI.Force fDemand = controller.limiter.u "force the controller asks for, before its limit";
equation
  connect(reference.y, controller.u_s);
  connect(positionSensor.s, controller.u_m);
  connect(controller.y, actuator.f);
  connect(actuator.flange, spool.flange_a);
  connect(spool.flange_b, positionSensor.flange);
  connect(spool.flange_b, spring.flange_a);
  connect(spring.flange_b, sleeve.flange);
  connect(spool.flange_b, friction.flange_a);
  connect(friction.flange_b, sleeve.flange);
  connect(spool.flange_b, endStops.R);
  connect(endStops.C, sleeve.flange);
  annotation(experiment(StopTime = 0.2, Interval = 1e-4, Tolerance = 1e-6));
end ServoSpool;
