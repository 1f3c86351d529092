// Components written as equations, next to flange's own classes: a
// hardening spring on the MSL's PartialCompliant, an air drag law computed
// by a function, and a few variables of the model itself that watch the
// energy. The README's "Writing your own components" walks through it.
model UserComponents "a mass on a hardening spring, slowed by air drag"
  model HardeningSpring "f = c s_rel + c3 s_rel^3"
    extends Modelica.Mechanics.Translational.Interfaces.PartialCompliant;
    parameter Modelica.Units.SI.TranslationalSpringConstant c = 1e3 "linear stiffness";
    parameter Real c3(unit = "N/m3") = 1e6 "cubic stiffness";
    Modelica.Units.SI.Energy energy "stored energy";
  equation
    f = c*s_rel + c3*s_rel^3;
    energy = c*s_rel^2/2 + c3*s_rel^4/4;
  end HardeningSpring;

  function dragForce "quadratic drag: opposes the speed"
    input Modelica.Units.SI.Velocity v;
    input Real k "drag coefficient (N.s2/m2)";
    output Modelica.Units.SI.Force f;
  algorithm
    f := -k*v*abs(v);
  end dragForce;

  model AirDrag "drag on a flange, against the support"
    extends Modelica.Mechanics.Translational.Interfaces.PartialElementaryOneFlangeAndSupport2;
    parameter Real k = 0.5 "drag coefficient (N.s2/m2)";
    Modelica.Units.SI.Velocity v "speed of the flange";
    Modelica.Units.SI.Force f "drag force on the flange";
  equation
    v = der(s);
    f = dragForce(v, k);
    flange.f = -f;
  end AirDrag;

  Modelica.Mechanics.Translational.Components.Fixed fixed;
  HardeningSpring spring(c = 1e3, c3 = 1e6);
  Modelica.Mechanics.Translational.Components.Mass mass(m = 2, s(start = 0.1, fixed = true), v(start = 0, fixed = true));
  AirDrag drag(k = 0.5);
  Modelica.Units.SI.Energy energy "kinetic plus stored energy";
  Modelica.Units.SI.Power dragPower "power the drag takes out";
equation
  connect(fixed.flange, spring.flange_a);
  connect(spring.flange_b, mass.flange_a);
  connect(mass.flange_b, drag.flange);
  energy = mass.m*mass.v^2/2 + spring.energy;
  dragPower = -drag.f*drag.v;
  annotation(experiment(StopTime = 2, Interval = 0.002));
end UserComponents;
