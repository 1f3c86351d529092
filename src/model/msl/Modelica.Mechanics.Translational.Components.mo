within Modelica.Mechanics.Translational.Components;
model GeneralForceToPositionAdaptor "force in; position, speed and acceleration of the flange out"
  extends Modelica.Blocks.Interfaces.Adaptors.FlowToPotentialAdaptor(final use_fder = false,
    final use_fder2 = false, final Name_p = "s", final Name_pder = "v", final Name_pder2 = "a");
  Modelica.Mechanics.Translational.Interfaces.Flange_a flange;
equation
  y = flange.s;
  u = flange.f;
end GeneralForceToPositionAdaptor;
model GeneralPositionToForceAdaptor "position (with speed and acceleration) in; force of the flange out"
  extends Modelica.Blocks.Interfaces.Adaptors.PotentialToFlowAdaptor(final use_fder = false,
    final use_fder2 = false, final Name_p = "s", final Name_pder = "v", final Name_pder2 = "a");
  Modelica.Mechanics.Translational.Interfaces.Flange_b flange;
equation
  y = flange.f;
  u = flange.s;
end GeneralPositionToForceAdaptor;
model IdealGearR2T "Gearbox transforming rotational into translational motion"
  extends Modelica.Mechanics.Rotational.Components.IdealGearR2T;
end IdealGearR2T;
model IdealRollingWheel "Simple 1-dim. model of an ideal rolling wheel without inertia"
  extends Modelica.Mechanics.Rotational.Components.IdealRollingWheel;
end IdealRollingWheel;
