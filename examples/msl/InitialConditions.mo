within Modelica.Mechanics.Translational.Examples;
model InitialConditions "Setting of initial conditions"
  extends Modelica.Icons.Example;
  // Upper chain: positions of the masses fixed directly.
  Translational.Components.Fixed fixed2(s0=1)
    annotation (Placement(transformation(extent={{-100,60},{-80,80}})));
  Translational.Components.Spring s2(s_rel0=2, c=1e3)
    annotation (Placement(transformation(extent={{-60,60},{-40,80}})));
  Translational.Components.Mass m3(
    L=3,
    s(start=4.5, fixed=true),
    v(fixed=true),
    m=1) annotation (Placement(transformation(extent={{-20,60},{0,80}})));
  Translational.Components.SpringDamper sd2(
    s_rel0=4,
    c=111,
    d=1) annotation (Placement(transformation(extent={{20,60},{40,80}})));
  Translational.Components.Mass m4(
    L=5,
    s(start=12.5, fixed=true),
    v(fixed=true),
    m=1) annotation (Placement(transformation(extent={{60,60},{80,80}})));
  // Lower chain: relative quantities of the compliant elements fixed instead.
  Translational.Components.Fixed fixed1(s0=-1)
    annotation (Placement(transformation(extent={{-100,-20},{-80,0}})));
  Translational.Components.Spring s1(
    s_rel0=1,
    c=1e3,
    s_rel(start=0.5, fixed=true))
    annotation (Placement(transformation(extent={{-60,-20},{-40,0}})));
  Translational.Components.Mass m1(
    L=1,
    v(fixed=true),
    m=1) annotation (Placement(transformation(extent={{-20,-20},{0,0}})));
  Translational.Components.SpringDamper sd1(
    s_rel0=1,
    c=111,
    d=1,
    s_rel(start=1, fixed=true),
    v_rel(fixed=true))
    annotation (Placement(transformation(extent={{20,-20},{40,0}})));
  Translational.Components.Mass m2(L=2, m=1)
    annotation (Placement(transformation(extent={{60,-20},{80,0}})));
equation
  connect(fixed2.flange, s2.flange_a) annotation (Line(points={{-90,70},{-60,70}}, color={0,127,0}));
  connect(s2.flange_b, m3.flange_a) annotation (Line(points={{-40,70},{-20,70}}, color={0,127,0}));
  connect(m3.flange_b, sd2.flange_a) annotation (Line(points={{0,70},{20,70}}, color={0,127,0}));
  connect(sd2.flange_b, m4.flange_a) annotation (Line(points={{40,70},{60,70}}, color={0,127,0}));
  connect(fixed1.flange, s1.flange_a) annotation (Line(points={{-90,-10},{-60,-10}}, color={0,127,0}));
  connect(s1.flange_b, m1.flange_a) annotation (Line(points={{-40,-10},{-20,-10}}, color={0,127,0}));
  connect(m1.flange_b, sd1.flange_a) annotation (Line(points={{0,-10},{20,-10}}, color={0,127,0}));
  connect(sd1.flange_b, m2.flange_a) annotation (Line(points={{40,-10},{60,-10}}, color={0,127,0}));
  annotation (experiment(StopTime=5.0, Interval=0.001), Documentation(info="<html>
<p>Initial conditions can be given on the absolute states of masses
(<code>s</code>, <code>v</code>) or on the relative quantities of compliant
elements (<code>s_rel</code>, <code>v_rel</code>). The upper chain starts in
equilibrium; the lower one is released from a compressed spring.</p>
</html>"));
end InitialConditions;
