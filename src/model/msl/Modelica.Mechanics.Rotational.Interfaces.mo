within Modelica.Mechanics.Rotational.Interfaces;
// The partial classes of Modelica.Mechanics.Rotational.Interfaces (MSL 4.1.0:
// names, variables and equations) that components written in Modelica
// extend. The connectors themselves (Flange_a, Flange_b, Support) are built
// into flange. Where the MSL binds a conditional support connector by
// modifiers (support(phi = phi_support, tau = ...) if useSupport) or grounds
// it through a conditional Fixed, these classes say the same with
// if-equations: the support angle is then a known zero without a support, so
// that a gear, rack or wheel without one folds into flange's rigid bodies
// (reflected inertia) instead of becoming a constraint among three flanges.
// Every name is a full path: the text must mean the same in any model.
partial model PartialTwoFlanges "two flanges"
  Modelica.Mechanics.Rotational.Interfaces.Flange_a flange_a "flange of left shaft";
  Modelica.Mechanics.Rotational.Interfaces.Flange_b flange_b "flange of right shaft";
end PartialTwoFlanges;
partial model PartialOneFlangeAndSupport "one flange and a support, for models built of components"
  parameter Boolean useSupport = false "= true, if support flange enabled, otherwise implicitly grounded";
  Modelica.Mechanics.Rotational.Interfaces.Flange_b flange "flange of shaft";
  Modelica.Mechanics.Rotational.Interfaces.Support support if useSupport "support/housing of component";
protected
  Modelica.Mechanics.Rotational.Interfaces.Support internalSupport "the support, or the ground without one";
  Modelica.Mechanics.Rotational.Components.Fixed fixed if not useSupport;
equation
  connect(support, internalSupport);
  connect(internalSupport, fixed.flange);
end PartialOneFlangeAndSupport;
partial model PartialTwoFlangesAndSupport "two flanges and a support, for models built of components"
  parameter Boolean useSupport = false "= true, if support flange enabled, otherwise implicitly grounded";
  Modelica.Mechanics.Rotational.Interfaces.Flange_a flange_a "flange of left shaft";
  Modelica.Mechanics.Rotational.Interfaces.Flange_b flange_b "flange of right shaft";
  Modelica.Mechanics.Rotational.Interfaces.Support support if useSupport "support/housing of component";
protected
  Modelica.Mechanics.Rotational.Interfaces.Support internalSupport "the support, or the ground without one";
  Modelica.Mechanics.Rotational.Components.Fixed fixed if not useSupport;
equation
  connect(support, internalSupport);
  connect(internalSupport, fixed.flange);
end PartialTwoFlangesAndSupport;
partial model PartialCompliant "a torque tau between two flanges, phi_rel apart"
  Modelica.Units.SI.Angle phi_rel(start = 0) "relative rotation angle (= flange_b.phi - flange_a.phi)";
  Modelica.Units.SI.Torque tau "torque between flanges (= flange_b.tau)";
  Modelica.Mechanics.Rotational.Interfaces.Flange_a flange_a "left flange of compliant 1-dim. rotational component";
  Modelica.Mechanics.Rotational.Interfaces.Flange_b flange_b "right flange of compliant 1-dim. rotational component";
equation
  phi_rel = flange_b.phi - flange_a.phi;
  flange_b.tau = tau;
  flange_a.tau = -tau;
end PartialCompliant;
partial model PartialCompliantWithRelativeStates "PartialCompliant with the relative angle and speed as preferred states"
  Modelica.Units.SI.Angle phi_rel(start = 0, stateSelect = stateSelect, nominal = if phi_nominal >= Modelica.Constants.eps then phi_nominal else 1) "relative rotation angle (= flange_b.phi - flange_a.phi)";
  Modelica.Units.SI.AngularVelocity w_rel(start = 0, stateSelect = stateSelect) "relative angular velocity (= der(phi_rel))";
  Modelica.Units.SI.AngularAcceleration a_rel(start = 0) "relative angular acceleration (= der(w_rel))";
  Modelica.Units.SI.Torque tau "torque between flanges (= flange_b.tau)";
  Modelica.Mechanics.Rotational.Interfaces.Flange_a flange_a "left flange of compliant 1-dim. rotational component";
  Modelica.Mechanics.Rotational.Interfaces.Flange_b flange_b "right flange of compliant 1-dim. rotational component";
  parameter Modelica.Units.SI.Angle phi_nominal(min = 0.0) = 1e-4 "nominal value of phi_rel (used for scaling)";
  parameter StateSelect stateSelect = StateSelect.prefer "priority to use phi_rel and w_rel as states";
equation
  phi_rel = flange_b.phi - flange_a.phi;
  w_rel = der(phi_rel);
  a_rel = der(w_rel);
  flange_b.tau = tau;
  flange_a.tau = -tau;
end PartialCompliantWithRelativeStates;
partial model PartialElementaryOneFlangeAndSupport2 "one flange and an optional support, for models written as equations"
  parameter Boolean useSupport = false "= true, if support flange enabled, otherwise implicitly grounded";
  Modelica.Mechanics.Rotational.Interfaces.Flange_b flange "flange of shaft";
  Modelica.Mechanics.Rotational.Interfaces.Support support if useSupport "support/housing of component";
protected
  Modelica.Units.SI.Angle phi_support "absolute angle of support flange";
equation
  if useSupport then
    support.phi = phi_support;
    support.tau = -flange.tau;
  else
    phi_support = 0;
  end if;
end PartialElementaryOneFlangeAndSupport2;
partial model PartialElementaryTwoFlangesAndSupport2 "two flanges and an optional support, for models written as equations"
  parameter Boolean useSupport = false "= true, if support flange enabled, otherwise implicitly grounded";
  Modelica.Mechanics.Rotational.Interfaces.Flange_a flange_a "flange of left shaft";
  Modelica.Mechanics.Rotational.Interfaces.Flange_b flange_b "flange of right shaft";
  Modelica.Mechanics.Rotational.Interfaces.Support support if useSupport "support/housing of component";
protected
  Modelica.Units.SI.Angle phi_support "absolute angle of support flange";
equation
  if useSupport then
    support.phi = phi_support;
    support.tau = -flange_a.tau - flange_b.tau;
  else
    phi_support = 0;
  end if;
end PartialElementaryTwoFlangesAndSupport2;
model InternalSupport "adapter for a conditional support connector (tau from the torque balance of the model using it)"
  input Modelica.Units.SI.Torque tau "external support torque (= flange.tau)";
  Modelica.Units.SI.Angle phi "external support angle (= flange.phi)";
  Modelica.Mechanics.Rotational.Interfaces.Flange_a flange "internal support flange";
equation
  flange.tau = tau;
  flange.phi = phi;
end InternalSupport;
partial model PartialElementaryRotationalToTranslational "a rotational flange driving a translational one, each with an optional support"
  parameter Boolean useSupportR = false "= true, if rotational support flange enabled, otherwise implicitly grounded";
  parameter Boolean useSupportT = false "= true, if translational support flange enabled, otherwise implicitly grounded";
  Modelica.Mechanics.Rotational.Interfaces.Flange_a flangeR "flange of rotational shaft";
  Modelica.Mechanics.Translational.Interfaces.Flange_b flangeT "flange of translational rod";
  Modelica.Mechanics.Rotational.Interfaces.Support supportR if useSupportR "rotational support/housing of component";
  Modelica.Mechanics.Translational.Interfaces.Support supportT if useSupportT "translational support/housing of component";
protected
  // The MSL's InternalSupport components without their flange: the angle
  // and torque (position and force) of a support, bound to the support
  // connector when there is one and at zero otherwise, under the MSL's
  // names (internalSupportR.phi, internalSupportT.s).
  model SupportR "angle and torque of the rotational support"
    input Modelica.Units.SI.Torque tau "support torque (= -flangeR.tau)";
    Modelica.Units.SI.Angle phi "support angle";
  end SupportR;
  model SupportT "position and force of the translational support"
    input Modelica.Units.SI.Force f "support force (= -flangeT.f)";
    Modelica.Units.SI.Position s "support position";
  end SupportT;
  Modelica.Mechanics.Rotational.Interfaces.PartialElementaryRotationalToTranslational.SupportR internalSupportR(tau = -flangeR.tau);
  Modelica.Mechanics.Rotational.Interfaces.PartialElementaryRotationalToTranslational.SupportT internalSupportT(f = -flangeT.f);
equation
  if useSupportR then
    supportR.phi = internalSupportR.phi;
    supportR.tau = internalSupportR.tau;
  else
    internalSupportR.phi = 0;
  end if;
  if useSupportT then
    supportT.s = internalSupportT.s;
    supportT.f = internalSupportT.f;
  else
    internalSupportT.s = 0;
  end if;
end PartialElementaryRotationalToTranslational;
partial model PartialTorque "a torque source: the torque acts at the flange and, reversed, at the support"
  extends Modelica.Mechanics.Rotational.Interfaces.PartialElementaryOneFlangeAndSupport2;
  Modelica.Units.SI.Angle phi "angle of flange with respect to support (= flange.phi - support.phi)";
equation
  phi = flange.phi - phi_support;
end PartialTorque;
partial model PartialAbsoluteSensor "measures at one flange, no torque"
  Modelica.Mechanics.Rotational.Interfaces.Flange_a flange "flange of shaft from which sensor information shall be measured";
equation
  0 = flange.tau;
end PartialAbsoluteSensor;
partial model PartialRelativeSensor "measures between two flanges, no net torque"
  Modelica.Mechanics.Rotational.Interfaces.Flange_a flange_a "left flange of shaft";
  Modelica.Mechanics.Rotational.Interfaces.Flange_b flange_b "right flange of shaft";
equation
  0 = flange_a.tau + flange_b.tau;
end PartialRelativeSensor;
