within Modelica.Mechanics.Translational.Interfaces;
partial model PartialTwoFlanges "two flanges"
  Modelica.Mechanics.Translational.Interfaces.Flange_a flange_a;
  Modelica.Mechanics.Translational.Interfaces.Flange_b flange_b;
end PartialTwoFlanges;
partial model PartialRigid "two flanges rigidly at distance L, centre s"
  extends Modelica.Mechanics.Translational.Interfaces.PartialTwoFlanges;
  Modelica.Units.SI.Position s "position of the centre";
  parameter Modelica.Units.SI.Length L(start = 0) "distance of flange_b from flange_a";
equation
  flange_a.s = s - L/2;
  flange_b.s = s + L/2;
end PartialRigid;
partial model PartialCompliant "a force f between two flanges, s_rel apart"
  extends Modelica.Mechanics.Translational.Interfaces.PartialTwoFlanges;
  Modelica.Units.SI.Position s_rel(start = 0);
  Modelica.Units.SI.Force f "tension (positive pulls the flanges together)";
equation
  s_rel = flange_b.s - flange_a.s;
  flange_b.f = f;
  flange_a.f = -f;
end PartialCompliant;
partial model PartialCompliantWithRelativeStates "PartialCompliant with the relative velocity"
  extends Modelica.Mechanics.Translational.Interfaces.PartialTwoFlanges;
  parameter StateSelect stateSelect = StateSelect.prefer;
  parameter Modelica.Units.SI.Distance s_nominal = 1e-4;
  Modelica.Units.SI.Position s_rel(start = 0, stateSelect = stateSelect, nominal = s_nominal);
  Modelica.Units.SI.Velocity v_rel(start = 0, stateSelect = stateSelect);
  Modelica.Units.SI.Force f;
equation
  s_rel = flange_b.s - flange_a.s;
  v_rel = der(s_rel);
  flange_b.f = f;
  flange_a.f = -f;
end PartialCompliantWithRelativeStates;
partial model PartialElementaryOneFlangeAndSupport2 "one flange and an optional support"
  parameter Boolean useSupport = false;
  Modelica.Mechanics.Translational.Interfaces.Flange_b flange;
  Modelica.Mechanics.Translational.Interfaces.Support support if useSupport;
  Modelica.Units.SI.Length s "flange position relative to the support";
protected
  Modelica.Units.SI.Length s_support;
equation
  s = flange.s - s_support;
  if useSupport then
    support.s = s_support;
    support.f = -flange.f;
  else
    s_support = 0;
  end if;
end PartialElementaryOneFlangeAndSupport2;
partial model PartialElementaryTwoFlangesAndSupport2 "two flanges and an optional support"
  parameter Boolean useSupport = false;
  Modelica.Mechanics.Translational.Interfaces.Flange_a flange_a;
  Modelica.Mechanics.Translational.Interfaces.Flange_b flange_b;
  Modelica.Mechanics.Translational.Interfaces.Support support if useSupport;
  Modelica.Units.SI.Length s_a "flange_a relative to the support";
  Modelica.Units.SI.Length s_b "flange_b relative to the support";
protected
  Modelica.Units.SI.Length s_support;
equation
  s_a = flange_a.s - s_support;
  s_b = flange_b.s - s_support;
  if useSupport then
    support.s = s_support;
    support.f = -flange_a.f - flange_b.f;
  else
    s_support = 0;
  end if;
end PartialElementaryTwoFlangesAndSupport2;
partial model PartialForce "a force source: f is the force on the flange (the source pushes with -f)"
  extends Modelica.Mechanics.Translational.Interfaces.PartialElementaryOneFlangeAndSupport2;
  Modelica.Units.SI.Force f;
equation
  f = flange.f;
end PartialForce;
partial model PartialAbsoluteSensor "measures at one flange, no force"
  Modelica.Mechanics.Translational.Interfaces.Flange_a flange;
equation
  flange.f = 0;
end PartialAbsoluteSensor;
partial model PartialRelativeSensor "measures between two flanges, no net force"
  extends Modelica.Mechanics.Translational.Interfaces.PartialTwoFlanges;
equation
  flange_a.f + flange_b.f = 0;
end PartialRelativeSensor;
