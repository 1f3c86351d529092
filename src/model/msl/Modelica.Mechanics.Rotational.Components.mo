within Modelica.Mechanics.Rotational.Components;
// The kinematic couplings of Modelica.Mechanics.Rotational.Components (MSL
// 4.1.0: names, parameters, defaults and sign conventions): ideal gears, the
// planetary gear, the couplings of a shaft to a translational flange (rack
// and pinion, rolling wheel), InitializeFlange and the signal adaptors.
// Why Modelica text: each is a linear kinematic relation with constant
// coefficients and a torque balance. flange's equation layer folds a
// relation between two flanges into its rigid bodies (a gear or a wheel
// without support reflects the inertia behind it as J*ratio^2 or m*r^2,
// index 1); a relation among three or more (a gear on a support that moves,
// the planetary gear) stays a constraint whose torque is an unknown, the
// relation differentiated as far as the bodies need (index reduction).
// Every name is a full path: the text must mean the same in any model.

model IdealGear "Ideal gear without inertia"
  extends Modelica.Mechanics.Rotational.Interfaces.PartialElementaryTwoFlangesAndSupport2;
  parameter Real ratio(start = 1) "transmission ratio (flange_a.phi/flange_b.phi)";
  Modelica.Units.SI.Angle phi_a "angle between left shaft flange and support";
  Modelica.Units.SI.Angle phi_b "angle between right shaft flange and support";
equation
  phi_a = flange_a.phi - phi_support;
  phi_b = flange_b.phi - phi_support;
  phi_a = ratio*phi_b;
  0 = ratio*flange_a.tau + flange_b.tau;
end IdealGear;

model IdealPlanetary "Ideal planetary gear box"
  parameter Real ratio(start = 100/50) "number of ring_teeth/sun_teeth (e.g., ratio=100/50)";
  Modelica.Mechanics.Rotational.Interfaces.Flange_a sun "flange of sun shaft";
  Modelica.Mechanics.Rotational.Interfaces.Flange_a carrier "flange of carrier shaft";
  Modelica.Mechanics.Rotational.Interfaces.Flange_b ring "flange of ring shaft";
equation
  (1 + ratio)*carrier.phi = sun.phi + ratio*ring.phi;
  ring.tau = ratio*sun.tau;
  carrier.tau = -(1 + ratio)*sun.tau;
end IdealPlanetary;

model IdealGearR2T "Gearbox transforming rotational into translational motion"
  extends Modelica.Mechanics.Rotational.Interfaces.PartialElementaryRotationalToTranslational;
  parameter Real ratio(final unit = "rad/m", start = 1) "transmission ratio (flangeR.phi/flangeT.s)";
equation
  (flangeR.phi - internalSupportR.phi) = ratio*(flangeT.s - internalSupportT.s);
  0 = ratio*flangeR.tau + flangeT.f;
end IdealGearR2T;

model IdealRollingWheel "Simple 1-dim. model of an ideal rolling wheel without inertia"
  extends Modelica.Mechanics.Rotational.Interfaces.PartialElementaryRotationalToTranslational;
  parameter Modelica.Units.SI.Distance radius(start = 0.3) "wheel radius";
equation
  (flangeR.phi - internalSupportR.phi)*radius = (flangeT.s - internalSupportT.s);
  0 = radius*flangeT.f + flangeR.tau;
end IdealRollingWheel;

model InitializeFlange "Initializes a flange with pre-defined angle, speed and angular acceleration"
  parameter Boolean use_phi_start = true "= true, if initial angle is defined by input phi_start, otherwise not initialized";
  parameter Boolean use_w_start = true "= true, if initial speed is defined by input w_start, otherwise not initialized";
  parameter Boolean use_a_start = true "= true, if initial angular acceleration is defined by input a_start, otherwise not initialized";
  parameter StateSelect stateSelect = StateSelect.default "priority to use flange angle and speed as states";
  Modelica.Blocks.Interfaces.RealInput phi_start(unit = "rad") if use_phi_start "initial angle of flange";
  Modelica.Blocks.Interfaces.RealInput w_start(unit = "rad/s") if use_w_start "initial speed of flange";
  Modelica.Blocks.Interfaces.RealInput a_start(unit = "rad/s2") if use_a_start "initial angular acceleration of flange";
  Modelica.Mechanics.Rotational.Interfaces.Flange_b flange "flange that is initialized";
  Modelica.Units.SI.Angle phi_flange(stateSelect = stateSelect) = flange.phi "flange angle";
  Modelica.Units.SI.AngularVelocity w_flange(stateSelect = stateSelect) = der(phi_flange) "= der(phi_flange)";
initial equation
  // (the MSL sets these in conditional sub-models: one if-equation each here)
  if use_phi_start then
    flange.phi = phi_start;
  end if;
  if use_w_start then
    w_flange = w_start;
  end if;
  if use_a_start then
    der(w_flange) = a_start;
  end if;
equation
  flange.tau = 0;
end InitializeFlange;

model TorqueToAngleAdaptor "Signal adaptor for a rotational flange: torque in; angle, speed and acceleration out"
  parameter Boolean use_w = true "= true, enable the output connector w (angular velocity)";
  parameter Boolean use_a = true "= true, enable the output connector a (angular acceleration)";
  Modelica.Mechanics.Rotational.Interfaces.Flange_a flange;
  Modelica.Blocks.Interfaces.RealOutput phi(unit = "rad") "flange moves with angle phi due to torque tau";
  Modelica.Blocks.Interfaces.RealOutput w(unit = "rad/s") if use_w "flange moves with speed w due to torque tau";
  Modelica.Blocks.Interfaces.RealOutput a(unit = "rad/s2") if use_a "flange moves with angular acceleration a due to torque tau";
  Modelica.Blocks.Interfaces.RealInput tau(unit = "N.m") "torque to drive the flange";
equation
  phi = flange.phi;
  if use_w then
    w = der(phi);
  end if;
  // (the MSL differentiates w, which is zero without use_w)
  if use_a and use_w then
    a = der(w);
  elseif use_a then
    a = 0;
  end if;
  flange.tau = tau;
end TorqueToAngleAdaptor;

model AngleToTorqueAdaptor "Signal adaptor for a rotational flange: angle, speed and acceleration in; torque out"
  parameter Boolean use_w = true "= true, enable the input connector w (angular velocity)";
  parameter Boolean use_a = true "= true, enable the input connector a (angular acceleration)";
  Modelica.Mechanics.Rotational.Interfaces.Flange_b flange;
  Modelica.Blocks.Interfaces.RealInput phi(unit = "rad") "angle to drive the flange";
  Modelica.Blocks.Interfaces.RealInput w(unit = "rad/s") if use_w or use_a "speed to drive the flange (w=der(phi) required)";
  Modelica.Blocks.Interfaces.RealInput a(unit = "rad/s2") if use_a "angular acceleration to drive the flange (a = der(w) required)";
  Modelica.Blocks.Interfaces.RealOutput tau(unit = "N.m") "torque needed to drive the flange according to phi, w, a";
equation
  // (the MSL moves the flange with Sources.Move and measures the torque with
  // a TorqueSensor: the flange follows phi, with w and a as its derivatives)
  if use_a then
    flange.phi = Modelica.Blocks.Interfaces.Adaptors.Functions.state2({phi, w, a}, time);
  elseif use_w then
    flange.phi = Modelica.Blocks.Interfaces.Adaptors.Functions.state1({phi, w}, time);
  else
    flange.phi = phi;
  end if;
  tau = -flange.tau;
end AngleToTorqueAdaptor;

model GeneralTorqueToAngleAdaptor "Signal adaptor for a rotational flange: torque in; angle, speed and acceleration out"
  extends Modelica.Blocks.Interfaces.Adaptors.FlowToPotentialAdaptor(final Name_p = "phi", final Name_pder = "w",
    final Name_pder2 = "a", final Name_f = "tau", final Name_fder = "der(tau)", final Name_fder2 = "der2(tau)",
    final use_fder = false, final use_fder2 = false);
  Modelica.Mechanics.Rotational.Interfaces.Flange_a flange;
equation
  y = flange.phi "output = potential = angle";
  u = flange.tau "input = flow = torque";
end GeneralTorqueToAngleAdaptor;

model GeneralAngleToTorqueAdaptor "Signal adaptor for a rotational flange: angle, speed and acceleration in; torque out"
  extends Modelica.Blocks.Interfaces.Adaptors.PotentialToFlowAdaptor(final Name_p = "phi", final Name_pder = "w",
    final Name_pder2 = "a", final Name_f = "tau", final Name_fder = "der(tau)", final Name_fder2 = "der2(tau)",
    final use_fder = false, final use_fder2 = false);
  Modelica.Mechanics.Rotational.Interfaces.Flange_b flange;
equation
  y = flange.tau "output = flow = torque";
  u = flange.phi "input = potential = angle";
end GeneralAngleToTorqueAdaptor;
