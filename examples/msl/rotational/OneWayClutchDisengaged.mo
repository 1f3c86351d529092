within Modelica.Mechanics.Rotational.Examples;
model OneWayClutchDisengaged "Drive train with disengaged one-way clutch"
  extends Modelica.Icons.Example;
  // The clutch of the one-way clutch stays disengaged: only its freewheel
  // acts. A sine torque around 0.3 N.m drives inertiaIn; inertiaOut carries
  // a constant load torque of -0.3 N.m and is carried along only while
  // inertiaIn would overtake it.
  Modelica.Mechanics.Rotational.Components.Inertia inertiaIn(J=1, phi(fixed=true, start=0), w(fixed=true, start=-0.5))
    annotation (Placement(transformation(extent={{-20,-10},{0,10}})));
  Modelica.Mechanics.Rotational.Components.Inertia inertiaOut(J=1, phi(fixed=true, start=0), w(fixed=true, start=0))
    annotation (Placement(transformation(extent={{40,-10},{60,10}})));
  Modelica.Mechanics.Rotational.Components.OneWayClutch oneWayClutch(
    peak=25,
    fn_max=3,
    startForward(fixed=true),
    stuck(fixed=true)) annotation (Placement(transformation(extent={{10,-10},{30,10}})));
  Modelica.Mechanics.Rotational.Sources.Torque torque
    annotation (Placement(transformation(extent={{-50,-10},{-30,10}})));
  Modelica.Mechanics.Rotational.Sources.ConstantTorque torqueLoad(tau_constant=-0.3)
    annotation (Placement(transformation(extent={{90,-10},{70,10}})));
  Modelica.Blocks.Sources.Sine signalTorque(amplitude=10, offset=0.3, f=2)
    annotation (Placement(transformation(extent={{-80,-10},{-60,10}})));
  Modelica.Blocks.Sources.Constant signalEngagement(k=0)
    annotation (Placement(transformation(extent={{-20,30},{0,50}})));
equation
  connect(torque.flange, inertiaIn.flange_a);
  connect(signalTorque.y, torque.tau);
  connect(inertiaIn.flange_b, oneWayClutch.flange_a);
  connect(oneWayClutch.flange_b, inertiaOut.flange_a);
  connect(signalEngagement.y, oneWayClutch.f_normalized);
  connect(inertiaOut.flange_b, torqueLoad.flange);
  annotation (experiment(StopTime=2, Interval=0.0005, Tolerance=1e-06), Documentation(info="<html>
<p>A drive train with a disengaged one-way clutch: its freewheel alone
(MSL Rotational.Examples.OneWayClutchDisengaged).</p>
</html>"));
end OneWayClutchDisengaged;
