within Modelica.Mechanics.Rotational.Examples;
model LossyGearDemo2 "Example to show combination of LossyGear and BearingFriction"
  extends Modelica.Icons.Example;
  // LossyGearDemo1 with bearing friction between the drive and Inertia1.
  // When the gear and the bearing are stuck at once, how they share the
  // holding torque is not determined; the MSL notes that a reliable
  // simulator should still get through.
  // Held back from examples/msl/rotational/: Inertia2.phi and Inertia2.w
  // pass the reference (tests/cli/rotational_lossygear_demo2.sh compares
  // those two), but its mode signals come from Dymola's residual speeds of
  // +-5e-11 rad/s while stuck and its own split of the holding torque, which
  // flange's rule for parallel locks does not imitate.
  Modelica.Units.SI.Power PowerLoss = gear.flange_a.tau*der(gear.flange_a.phi)
    + gear.flange_b.tau*der(gear.flange_b.phi) "Power lost in the gear";
  Modelica.Mechanics.Rotational.Components.LossyGear gear(ratio=2, lossTable=[0, 0.5, 0.5, 0, 0], useSupport=true);
  Modelica.Mechanics.Rotational.Components.Inertia Inertia1(J=1);
  Modelica.Mechanics.Rotational.Components.Inertia Inertia2(J=1.5, phi(fixed=true, start=0, nominal=1e-4),
    w(fixed=true, start=0, nominal=0.001));
  Modelica.Mechanics.Rotational.Sources.Torque torque1(useSupport=true);
  Modelica.Mechanics.Rotational.Sources.Torque torque2(useSupport=true);
  Modelica.Blocks.Sources.Sine DriveSine(amplitude=10, f=1);
  Modelica.Blocks.Sources.Ramp load(height=5, duration=2, offset=-10);
  Modelica.Mechanics.Rotational.Components.BearingFriction bearingFriction(tau_pos=[0, 0.5; 1, 1], useSupport=true);
  Modelica.Mechanics.Rotational.Components.Fixed fixed;
equation
  connect(torque2.flange, Inertia2.flange_b);
  connect(Inertia2.flange_a, gear.flange_b);
  connect(gear.flange_a, Inertia1.flange_b);
  connect(Inertia1.flange_a, bearingFriction.flange_b);
  connect(bearingFriction.flange_a, torque1.flange);
  connect(DriveSine.y, torque1.tau);
  connect(load.y, torque2.tau);
  connect(gear.support, fixed.flange);
  connect(fixed.flange, torque2.support);
  connect(fixed.flange, bearingFriction.support);
  connect(torque1.support, fixed.flange);
  annotation (experiment(StartTime=0, StopTime=0.5, Interval=0.0005, Tolerance=1e-06));
end LossyGearDemo2;
