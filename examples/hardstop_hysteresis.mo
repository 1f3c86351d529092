// The mechanical system with a translational hard stop: an ideal velocity
// source moves body1, which carries the case C of a hard stop; body2, the
// slider R, is coupled to it only through the stops (gaps of 0.1 m each
// way) and is held back by a viscous damper to the ground. Plotting body2's
// position against body1's gives a hysteresis loop: a parallelogram of
// width upper_bnd - lower_bnd = 0.2 m.
model HardStopHysteresis "Hysteresis of a body driven through a hard stop"
  Modelica.Blocks.Sources.Cosine vRef(amplitude=0.5, f=1/(2*Modelica.Constants.pi))
    "velocity of body1: x1 = 0.5 sin(t)";
  Modelica.Mechanics.Translational.Sources.Speed drive(exact=true) "ideal velocity source";
  Modelica.Mechanics.Translational.Components.Mass body1(m=1) "driven body, carries the case";
  Flange.Components.HardStop hardStop(upper_bnd=0.1, lower_bnd=-0.1)
    "Simscape-style hard stop, full stiffness and damping (stiff_up = stiff_low = 1e6 N/m, D = 150 N.s/m)";
  Modelica.Mechanics.Translational.Components.Mass body2(m=1, s(fixed=true), v(fixed=true))
    "the slider, pushed along by the stops";
  Modelica.Mechanics.Translational.Components.Damper damper(d=10) "viscous drag of body2";
  Modelica.Mechanics.Translational.Components.Fixed ground;
equation
  connect(vRef.y, drive.v_ref);
  connect(drive.flange, body1.flange_a);
  connect(body1.flange_b, hardStop.C);
  connect(hardStop.R, body2.flange_a);
  connect(body2.flange_b, damper.flange_a);
  connect(damper.flange_b, ground.flange);
  annotation (experiment(StopTime=12.566370614359172, Interval=0.005, Tolerance=1e-6));
end HardStopHysteresis;
