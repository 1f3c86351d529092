within Modelica.Mechanics.Rotational.Examples;
model LossyGearDemo3 "Example that failed in the previous version of the LossyGear version"
  extends Modelica.Icons.Example;
  // Two small inertias spinning at 10 rad/s through a gear of ratio 1 with
  // mesh efficiency 0.25 and bearing friction: nothing drives, so the
  // friction stops them in 0.02 s; which side drives is not obvious
  // (tau_eta sits at zero while rolling). The load step at 0.5 s is too
  // small to break the gear loose.
  Modelica.Mechanics.Rotational.Components.LossyGear gear(ratio=1, lossTable=[0,0.25,0.25,0.625,2.5],
    useSupport=false);
  Modelica.Mechanics.Rotational.Components.Inertia Inertia1(w(start=10), J=0.001);
  Modelica.Mechanics.Rotational.Sources.Torque torque1(useSupport=false);
  Modelica.Mechanics.Rotational.Sources.Torque torque2(useSupport=false);
  Modelica.Blocks.Sources.Step step(height=0);
  Modelica.Blocks.Sources.Step step1(startTime=0.5, height=1, offset=0);
  Modelica.Mechanics.Rotational.Components.Inertia Inertia2(J=0.001, phi(fixed=true, start=0),
    w(start=10, fixed=true));
equation
  connect(Inertia1.flange_b, gear.flange_a);
  connect(torque1.flange, Inertia1.flange_a);
  connect(step.y, torque1.tau);
  connect(gear.flange_b, Inertia2.flange_a);
  connect(Inertia2.flange_b, torque2.flange);
  connect(step1.y, torque2.tau);
  annotation (experiment(StartTime=0, StopTime=1, Interval=0.0005, Tolerance=1e-06));
end LossyGearDemo3;
