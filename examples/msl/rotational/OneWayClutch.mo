within Modelica.Mechanics.Rotational.Examples;
model OneWayClutch "Drive train with actively engaged one-way clutch"
  extends Modelica.Icons.Example;
  // A sine torque drives inertiaIn, which turns inertiaOut through a
  // one-way clutch: the freewheel carries inertiaOut along whenever
  // inertiaIn overtakes it, and the clutch, engaged by a pulse (0.3 s to
  // 0.95 s, then from 1.6 s), makes both turn together in either sense.
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
  Modelica.Blocks.Sources.Sine signalTorque(amplitude=10, f=3)
    annotation (Placement(transformation(extent={{-80,-10},{-60,10}})));
  Modelica.Blocks.Sources.Pulse signalEngagement(amplitude=1, width=50, period=1.3, startTime=0.3)
    annotation (Placement(transformation(extent={{-20,30},{0,50}})));
equation
  connect(torque.flange, inertiaIn.flange_a);
  connect(signalTorque.y, torque.tau);
  connect(inertiaIn.flange_b, oneWayClutch.flange_a);
  connect(oneWayClutch.flange_b, inertiaOut.flange_a);
  connect(signalEngagement.y, oneWayClutch.f_normalized);
  annotation (experiment(StopTime=2, Interval=0.0005, Tolerance=1e-06), Documentation(info="<html>
<p>A drive train with an actively engaged one-way clutch (MSL Rotational.Examples.OneWayClutch).</p>
</html>"));
end OneWayClutch;
