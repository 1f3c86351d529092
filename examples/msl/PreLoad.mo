within Modelica.Mechanics.Translational.Examples;
model PreLoad "Preload of a spool using ElastoGap models."
  extends Modelica.Icons.Example;
  // A spool valve: a preloaded spring between two plates, held in a housing
  // by contact elements, is moved by a slowly varying force.
  Translational.Components.ElastoGap innerContactA(
    c=1000e3,
    d=250,
    s_rel0=0.001) annotation (Placement(transformation(extent={{-48,34},{-28,54}})));
  Translational.Components.ElastoGap innerContactB(
    c=1000e3,
    d=250,
    s_rel0=0.001) annotation (Placement(transformation(extent={{30,34},{50,54}})));
  Translational.Components.Mass spool(
    L=0.19,
    m=0.150,
    s(start=0.01475, fixed=true),
    v(fixed=true)) annotation (Placement(transformation(extent={{0,-40},{40,0}})));
  Translational.Components.Fixed fixedLe(s0=-0.0955)
    annotation (Placement(transformation(extent={{-78,-10},{-58,10}})));
  Translational.Components.Mass springPlateA(
    m=10e-3,
    L=0.002,
    s(start=-0.093, fixed=true),
    v(fixed=true)) annotation (Placement(transformation(extent={{-40,70},{-20,90}})));
  Translational.Components.Mass springPlateB(
    m=10e-3,
    s(start=-0.06925, fixed=true),
    L=0.002,
    v(fixed=true)) annotation (Placement(transformation(extent={{40,70},{60,90}})));
  Translational.Components.Spring spring(c=20e3, s_rel0=0.025)
    annotation (Placement(transformation(extent={{0,70},{20,90}})));
  Translational.Components.ElastoGap outerContactA(
    c=1000e3,
    d=250,
    s_rel0=0.0015) annotation (Placement(transformation(extent={{-72,70},{-52,90}})));
  Translational.Components.ElastoGap outerContactB(
    c=1000e3,
    d=250,
    s_rel0=0.0015) annotation (Placement(transformation(extent={{72,70},{92,90}})));
  Translational.Components.Rod rod1(L=0.007)
    annotation (Placement(transformation(extent={{-40,44},{-20,64}})));
  Translational.Components.Damper friction(d=2500)
    annotation (Placement(transformation(extent={{-50,-30},{-30,-10}})));
  Translational.Sources.Force force
    annotation (Placement(transformation(extent={{-30,-70},{-10,-50}})));
  Modelica.Blocks.Sources.Sine sineForce(amplitude=150, f=0.01)
    annotation (Placement(transformation(extent={{-70,-70},{-50,-50}})));
  Translational.Components.Rod housing(L=0.0305)
    annotation (Placement(transformation(extent={{0,100},{20,120}})));
  Translational.Components.Rod rod3(L=0.00575)
    annotation (Placement(transformation(extent={{-20,10},{0,30}})));
  Translational.Components.Rod rod4(L=0.00575)
    annotation (Placement(transformation(extent={{20,10},{40,30}})));
  Translational.Components.Rod rod2(L=0.007)
    annotation (Placement(transformation(extent={{40,44},{60,64}})));
equation
  connect(outerContactA.flange_b, springPlateA.flange_a) annotation (Line(points={{-52,80},{-40,80}}, color={0,127,0}));
  connect(springPlateA.flange_b, spring.flange_a) annotation (Line(points={{-20,80},{0,80}}, color={0,127,0}));
  connect(spring.flange_b, springPlateB.flange_a) annotation (Line(points={{20,80},{40,80}}, color={0,127,0}));
  connect(springPlateB.flange_b, outerContactB.flange_a) annotation (Line(points={{60,80},{72,80}}, color={0,127,0}));
  connect(outerContactB.flange_b, housing.flange_b) annotation (Line(points={{92,80},{96,80},{96,110},{20,110}}, color={0,127,0}));
  connect(springPlateA.flange_b, rod1.flange_a) annotation (Line(points={{-20,80},{-14,80},{-14,64},{-46,64},{-46,54},{-40,54}}, color={0,127,0}));
  connect(innerContactA.flange_a, rod3.flange_a) annotation (Line(points={{-48,44},{-54,44},{-54,20},{-20,20}}, color={0,127,0}));
  connect(innerContactA.flange_b, rod1.flange_b) annotation (Line(points={{-28,44},{-14,44},{-14,54},{-20,54}}, color={0,127,0}));
  connect(rod2.flange_a, innerContactB.flange_a) annotation (Line(points={{40,54},{24,54},{24,44},{30,44}}, color={0,127,0}));
  connect(rod4.flange_b, innerContactB.flange_b) annotation (Line(points={{40,20},{56,20},{56,44},{50,44}}, color={0,127,0}));
  connect(friction.flange_b, rod3.flange_a) annotation (Line(points={{-30,-20},{-24,-20},{-24,20},{-20,20}}, color={0,127,0}));
  connect(rod3.flange_b, rod4.flange_a) annotation (Line(points={{0,20},{20,20}}, color={0,127,0}));
  connect(fixedLe.flange, housing.flange_a) annotation (Line(points={{-68,0},{-80,0},{-80,110},{0,110}}, color={0,127,0}));
  connect(rod2.flange_b, springPlateB.flange_a) annotation (Line(points={{60,54},{66,54},{66,64},{34,64},{34,80},{40,80}}, color={0,127,0}));
  connect(spool.flange_a, rod4.flange_a) annotation (Line(points={{0,-20},{-8,-20},{-8,4},{14,4},{14,20},{20,20}}, color={0,127,0}));
  connect(sineForce.y, force.f) annotation (Line(points={{-49,-60},{-32,-60}}, color={0,0,127}));
  connect(force.flange, spool.flange_a) annotation (Line(points={{-10,-60},{-4,-60},{-4,-20},{0,-20}}, color={0,127,0}));
  connect(outerContactA.flange_a, fixedLe.flange) annotation (Line(points={{-72,80},{-80,80},{-80,0},{-68,0}}, color={0,127,0}));
  connect(friction.flange_a, fixedLe.flange) annotation (Line(points={{-50,-20},{-80,-20},{-80,0},{-68,0}}, color={0,127,0}));
  annotation (experiment(StopTime=100, Interval=0.1), Documentation(info="<html>
<p>When the spool is moved by the force, the preloaded spring is compressed
between the spring plates; the plates are held in the housing by contacts
(ElastoGap) with a small clearance.</p>
</html>"));
end PreLoad;
