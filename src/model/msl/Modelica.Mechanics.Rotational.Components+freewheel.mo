within Modelica.Mechanics.Rotational.Components;
// FreeWheel of Modelica.Mechanics.Rotational.Components (MSL 4.1.0: names,
// parameters, defaults and sign conventions): the ideal freewheel, built as
// the MSL builds its ideal diode. Why Modelica text: the law is a
// piecewise-linear damper on w_rel = der(flange_a.phi) - der(flange_b.phi),
// tau = w_rel/tauRes while flange_a drives (w_rel > 0: the flanges are
// coupled up to a residual slip) and tau = wRes*w_rel while it does not
// (free: only a residual friction); the switch is a state event on w_rel,
// which the equation layer handles. Every name is a full path.

model FreeWheel "Ideal freewheel"
  extends Modelica.Mechanics.Rotational.Interfaces.PartialTwoFlanges;
  Modelica.Units.SI.AngularVelocity w_rel(start = 0) "relative angular velocity (= flange_a.w - flange_b.w)";
  Modelica.Units.SI.Torque tau "torque between flanges (= flange_a.tau)";
  Boolean free(start = false) "indicates freewheeling";
  Real s(start = 0) "auxiliary variable";
  parameter Modelica.Units.SI.Torque tauRes = 1e-5 "residual friction coefficient";
  parameter Modelica.Units.SI.AngularVelocity wRes = 1e-5 "residual relative velocity coefficient";
equation
  w_rel = der(flange_a.phi) - der(flange_b.phi);
  tau = flange_a.tau;
  tau = -flange_b.tau;
  free = w_rel <= 0;
  // s in rad/s while free, in N.m while coupled (the MSL's unit constants are 1)
  w_rel = s*(if free then 1 else tauRes);
  tau = s*(if free then wRes else 1);
end FreeWheel;
