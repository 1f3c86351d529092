within Modelica.Mechanics.Translational.Examples;
model Brake "Demonstrate braking of a translational moving mass"
  extends Modelica.Icons.Example;
  // Two identical masses move at 1 m/s; at t = 0.1 s both brakes are
  // applied with a normalized force of 2. brake has no support connector,
  // brake1 has one, connected to a fixed point: the motion is the same.
  Modelica.Mechanics.Translational.Components.Brake brake(fn_max=1, useSupport=false)
    annotation (Placement(transformation(extent={{6,40},{26,20}})));
  Modelica.Mechanics.Translational.Components.Mass mass1(m=1, s(fixed=true), v(start=1, fixed=true))
    annotation (Placement(transformation(extent={{-34,20},{-14,40}})));
  Modelica.Blocks.Sources.Step step(startTime=0.1, height=2)
    annotation (Placement(transformation(extent={{-10,-10},{10,10}}, rotation=-90, origin={0,70})));
  Modelica.Mechanics.Translational.Components.Brake brake1(fn_max=1, useSupport=true)
    annotation (Placement(transformation(extent={{6,-60},{26,-40}})));
  Modelica.Mechanics.Translational.Components.Mass mass2(m=1, s(fixed=true), v(start=1, fixed=true))
    annotation (Placement(transformation(extent={{-34,-60},{-14,-40}})));
  Modelica.Mechanics.Translational.Components.Fixed fixed
    annotation (Placement(transformation(extent={{6,-80},{26,-60}})));
equation
  connect(mass1.flange_b, brake.flange_a) annotation (Line(points={{-14,30},{6,30}}, color={0,127,0}));
  connect(step.y, brake.f_normalized) annotation (Line(points={{0,59},{0,50},{16,50},{16,41}}, color={0,0,127}));
  connect(mass2.flange_b, brake1.flange_a) annotation (Line(points={{-14,-50},{6,-50}}, color={0,127,0}));
  connect(fixed.flange, brake1.support) annotation (Line(points={{16,-70},{16,-60}}, color={0,127,0}));
  connect(step.y, brake1.f_normalized) annotation (Line(points={{0,59},{0,50},{-40,50},{-40,-30},{16,-30},{16,-39}}, color={0,0,127}));
  annotation (experiment(StopTime=2, Interval=0.001), Documentation(info="<html>
<p>Braking of two moving masses, one through a brake without support
(reacting against the ground) and one through a brake whose support is
connected to a fixed point.</p>
</html>"));
end Brake;
