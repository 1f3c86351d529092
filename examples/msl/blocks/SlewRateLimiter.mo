within Modelica.Blocks.Examples;
model SlewRateLimiter "A position step smoothed to a limited speed and acceleration"
  extends Modelica.Icons.Example;
  parameter Modelica.Units.SI.Velocity vMax = 2 "speed limit";
  parameter Modelica.Units.SI.Acceleration aMax = 20 "acceleration limit";
  // the reference: a unit step at 0.1 s
  Modelica.Blocks.Sources.Step positionStep(startTime = 0.1);
  // the step with its slope held to vMax, its derivative, that with its
  // slope held to 20 (the acceleration), and the speed integrated back to
  // a position; a is the acceleration
  Modelica.Blocks.Nonlinear.SlewRateLimiter limit_v(initType = Modelica.Blocks.Types.Init.InitialOutput,
    Rising = vMax, y_start = positionStep.offset, Td = 0.0001);
  Modelica.Blocks.Continuous.Der v;
  Modelica.Blocks.Nonlinear.SlewRateLimiter limit_a(initType = Modelica.Blocks.Types.Init.InitialOutput,
    y_start = 0, Rising = 20, Td = 0.0001);
  Modelica.Blocks.Continuous.Integrator positionSmoothed(k = 1,
    initType = Modelica.Blocks.Types.Init.InitialOutput, y_start = positionStep.offset);
  Modelica.Blocks.Continuous.Der a;
  Modelica.Units.SI.Position s = positionStep.y "reference position";
  Modelica.Units.SI.Position sSmoothed = positionSmoothed.y "smoothed position";
  Modelica.Units.SI.Velocity vLimited = limit_a.y "limited speed";
  Modelica.Units.SI.Acceleration aLimited = a.y "limited acceleration";
equation
  connect(positionStep.y, limit_v.u);
  connect(limit_v.y, v.u);
  connect(v.y, limit_a.u);
  connect(limit_a.y, positionSmoothed.u);
  connect(limit_a.y, a.u);
  annotation(experiment(StartTime = 0, StopTime = 1, Interval = 0.0005, Tolerance = 1e-6));
end SlewRateLimiter;
