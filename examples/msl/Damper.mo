within Modelica.Mechanics.Translational.Examples;
model Damper "Use of damper models."
  extends Modelica.Icons.Example;
  Modelica.Mechanics.Translational.Components.Mass mass1(
    L=1,
    s(start=3, fixed=true),
    v(start=10, fixed=true),
    m=1) annotation (Placement(transformation(extent={{-80,40},{-60,60}})));
  Modelica.Mechanics.Translational.Components.Damper damper1(d=25)
    annotation (Placement(transformation(extent={{-20,40},{0,60}})));
  Modelica.Mechanics.Translational.Components.Fixed fixed1(s0=4.5)
    annotation (Placement(transformation(extent={{22,40},{42,60}})));
  Modelica.Mechanics.Translational.Components.Mass mass2(
    L=1,
    s(start=3, fixed=true),
    v(start=10, fixed=true),
    m=1) annotation (Placement(transformation(extent={{-80,-10},{-60,10}})));
  Modelica.Mechanics.Translational.Components.Damper damper2(d=25)
    annotation (Placement(transformation(extent={{-20,-10},{0,10}})));
  Modelica.Mechanics.Translational.Components.Fixed fixed2(s0=4.5)
    annotation (Placement(transformation(extent={{22,-10},{42,10}})));
  Modelica.Mechanics.Translational.Components.Mass mass3(
    L=1,
    s(start=3, fixed=true),
    v(start=10, fixed=true),
    m=1) annotation (Placement(transformation(extent={{-80,-60},{-60,-40}})));
  Modelica.Mechanics.Translational.Components.Fixed fixed3(s0=4.5)
    annotation (Placement(transformation(extent={{22,-60},{42,-40}})));
  Modelica.Mechanics.Translational.Components.Spring spring2(s_rel0=1, c=1)
    annotation (Placement(transformation(extent={{-20,-30},{0,-10}})));
  Modelica.Mechanics.Translational.Components.SpringDamper springDamper3(
    s_rel0=1,
    d=25,
    c=1) annotation (Placement(transformation(extent={{-20,-60},{0,-40}})));
equation
  connect(mass1.flange_b, damper1.flange_a) annotation (Line(points={{-60,50},{-20,50}}, color={0,127,0}));
  connect(mass2.flange_b, damper2.flange_a) annotation (Line(points={{-60,0},{-20,0}}, color={0,127,0}));
  connect(damper1.flange_b, fixed1.flange) annotation (Line(points={{0,50},{32,50}}, color={0,127,0}));
  connect(damper2.flange_b, fixed2.flange) annotation (Line(points={{0,0},{32,0}}, color={0,127,0}));
  connect(mass3.flange_b, springDamper3.flange_a) annotation (Line(points={{-60,-50},{-20,-50}}, color={0,127,0}));
  connect(springDamper3.flange_b, fixed3.flange) annotation (Line(points={{0,-50},{32,-50}}, color={0,127,0}));
  connect(damper2.flange_a, spring2.flange_a) annotation (Line(points={{-20,0},{-20,-20}}, color={0,127,0}));
  connect(damper2.flange_b, spring2.flange_b) annotation (Line(points={{0,0},{0,-20}}, color={0,127,0}));
  annotation (experiment(StopTime=1.0, Interval=0.001), Documentation(info="<html>
<p>A damper alone, a damper in parallel with a spring, and the combined
SpringDamper: the last two behave identically.</p>
</html>"));
end Damper;
