within Modelica.Mechanics.Rotational.Examples;
model LossyGearDemo1 "Example to show that gear efficiency may lead to stuck motion"
  extends Modelica.Icons.Example;
  // Two inertias joined by a gear of ratio 2 whose teeth transmit half the
  // torque in either direction (no bearing friction): a sine torque drives
  // Inertia1, a load ramping from -10 to -5 N.m pulls on Inertia2. The gear
  // rolls backward, sticks, rolls forward and sticks again (gear.mode).
  Modelica.Units.SI.Power PowerLoss = gear.flange_a.tau*der(gear.flange_a.phi)
    + gear.flange_b.tau*der(gear.flange_b.phi) "Power lost in the gear";
  Modelica.Mechanics.Rotational.Components.LossyGear gear(ratio=2, lossTable=[0, 0.5, 0.5, 0, 0], useSupport=true);
  Modelica.Mechanics.Rotational.Components.Inertia Inertia1(J=1);
  Modelica.Mechanics.Rotational.Components.Inertia Inertia2(J=1.5, phi(fixed=true, start=0, nominal=0.001),
    w(fixed=true, start=0, nominal=0.01));
  Modelica.Mechanics.Rotational.Sources.Torque torque1(useSupport=true);
  Modelica.Mechanics.Rotational.Sources.Torque torque2(useSupport=true);
  Modelica.Blocks.Sources.Sine DriveSine(amplitude=10, f=1);
  Modelica.Blocks.Sources.Ramp load(height=5, duration=2, offset=-10);
  Modelica.Mechanics.Rotational.Components.Fixed fixed;
equation
  connect(Inertia1.flange_b, gear.flange_a);
  connect(gear.flange_b, Inertia2.flange_a);
  connect(torque1.flange, Inertia1.flange_a);
  connect(torque2.flange, Inertia2.flange_b);
  connect(DriveSine.y, torque1.tau);
  connect(load.y, torque2.tau);
  connect(fixed.flange, gear.support);
  connect(fixed.flange, torque1.support);
  connect(fixed.flange, torque2.support);
  annotation (experiment(StartTime=0, StopTime=0.5, Interval=0.0005, Tolerance=1e-06));
end LossyGearDemo1;
