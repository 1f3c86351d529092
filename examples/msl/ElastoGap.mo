within Modelica.Mechanics.Translational.Examples;
model ElastoGap "Demonstrate usage of ElastoGap"
  extends Modelica.Icons.Example;
  // Two masses held between springs and between elasto-gaps: the gaps only
  // push, so the second mass moves freely while -0.5 m < s < 0.5 m.
  parameter SI.TranslationalDampingConstant d=1.5 "Damping constant";
  Translational.Components.Fixed fixed
    annotation (Placement(transformation(extent={{-10,-10},{10,10}})));
  Translational.Components.Rod rod1(L=2)
    annotation (Placement(transformation(extent={{-32,-10},{-12,10}})));
  Translational.Components.Rod rod2(L=2)
    annotation (Placement(transformation(extent={{12,-10},{32,10}})));
  Translational.Components.SpringDamper springDamper1(
    c=10,
    s_rel0=1,
    d=1.5,
    s_rel(fixed=false, start=1))
    annotation (Placement(transformation(extent={{-60,10},{-40,30}})));
  Translational.Components.SpringDamper springDamper2(
    c=10,
    s_rel0=1,
    d=1.5,
    s_rel(fixed=false, start=1))
    annotation (Placement(transformation(extent={{40,10},{60,30}})));
  Translational.Components.Mass mass1(
    m=1,
    s(fixed=true, start=2),
    L=0,
    v(fixed=true)) annotation (Placement(transformation(extent={{-10,40},{10,60}})));
  Translational.Components.ElastoGap elastoGap1(
    c=10,
    s_rel(fixed=false, start=1.5),
    s_rel0=1.5,
    d=1.5) annotation (Placement(transformation(extent={{-60,-30},{-40,-10}})));
  Translational.Components.ElastoGap elastoGap2(
    c=10,
    s_rel(fixed=false, start=1.5),
    s_rel0=1.5,
    d=1.5) annotation (Placement(transformation(extent={{40,-30},{60,-10}})));
  Translational.Components.Mass mass2(
    m=1,
    s(fixed=true, start=2),
    L=0,
    v(fixed=true)) annotation (Placement(transformation(extent={{-10,-60},{10,-40}})));
equation
  connect(rod1.flange_b, fixed.flange) annotation (Line(points={{-12,0},{0,0}}, color={0,127,0}));
  connect(fixed.flange, rod2.flange_a) annotation (Line(points={{0,0},{12,0}}, color={0,127,0}));
  connect(springDamper1.flange_a, rod1.flange_a) annotation (Line(points={{-60,20},{-70,20},{-70,0},{-32,0}}, color={0,127,0}));
  connect(springDamper1.flange_b, mass1.flange_a) annotation (Line(points={{-40,20},{-30,20},{-30,50},{-10,50}}, color={0,127,0}));
  connect(mass1.flange_b, springDamper2.flange_a) annotation (Line(points={{10,50},{30,50},{30,20},{40,20}}, color={0,127,0}));
  connect(springDamper2.flange_b, rod2.flange_b) annotation (Line(points={{60,20},{70,20},{70,0},{32,0}}, color={0,127,0}));
  connect(elastoGap1.flange_a, rod1.flange_a) annotation (Line(points={{-60,-20},{-70,-20},{-70,0},{-32,0}}, color={0,127,0}));
  connect(elastoGap1.flange_b, mass2.flange_a) annotation (Line(points={{-40,-20},{-30,-20},{-30,-50},{-10,-50}}, color={0,127,0}));
  connect(mass2.flange_b, elastoGap2.flange_a) annotation (Line(points={{10,-50},{30,-50},{30,-20},{40,-20}}, color={0,127,0}));
  connect(elastoGap2.flange_b, rod2.flange_b) annotation (Line(points={{60,-20},{70,-20},{70,0},{32,0}}, color={0,127,0}));
  annotation (experiment(StopTime=5, Interval=0.01), Documentation(info="<html>
<p>The upper mass is held by two spring-dampers; the lower one sits between
two elasto-gaps, which only push (and never pull) while compressed.</p>
</html>"));
end ElastoGap;
