within Modelica.Mechanics.Translational.Examples;
model Friction "Use of model Stop"
  extends Modelica.Icons.Example;
  // stop1 is pushed back and forth by a sine force between far-away stops;
  // stop2 is thrown against its left stop by a spring; a mass on a
  // SupportFriction with the same Stribeck characteristic (as a table) is
  // driven by the same force as stop1.
  Modelica.Mechanics.Translational.Components.MassWithStopAndFriction stop1(
    L=1,
    s(fixed=true),
    v(fixed=true),
    smax=25,
    smin=-25,
    m=1,
    F_prop=1,
    F_Coulomb=5,
    F_Stribeck=10,
    fexp=2) annotation (Placement(transformation(extent={{60,60},{80,80}})));
  Translational.Sources.Force force annotation (Placement(transformation(extent={{20,60},{40,80}})));
  Modelica.Blocks.Sources.Sine sineForce(amplitude=25, f=0.25)
    annotation (Placement(transformation(extent={{-20,60},{0,80}})));
  Modelica.Mechanics.Translational.Components.MassWithStopAndFriction stop2(
    L=1,
    smax=0.9,
    smin=-0.9,
    F_Coulomb=3,
    F_Stribeck=5,
    s(start=0, fixed=true),
    m=1,
    F_prop=1,
    fexp=2,
    v(start=-5, fixed=true)) annotation (Placement(transformation(extent={{42,-60},{62,-40}})));
  Translational.Components.Spring spring(s_rel0=1, c=500)
    annotation (Placement(transformation(extent={{2,-60},{22,-40}})));
  Translational.Components.Fixed fixed2(s0=-1.75)
    annotation (Placement(transformation(extent={{-40,-60},{-20,-40}})));
  Translational.Sources.Force force2 annotation (Placement(transformation(extent={{20,10},{40,30}})));
  Components.Mass mass(m=1, L=1, s(fixed=true), v(fixed=true))
    annotation (Placement(transformation(extent={{50,10},{70,30}})));
  Components.SupportFriction supportFriction(f_pos=
        Examples.Utilities.GenerateStribeckFrictionTable(
        F_prop=1,
        F_Coulomb=5,
        F_Stribeck=10,
        fexp=2,
        v_max=12,
        nTable=50)) annotation (Placement(transformation(extent={{80,10},{100,30}})));
equation
  connect(spring.flange_b, stop2.flange_a) annotation (Line(points={{22,-50},{42,-50}}, color={0,127,0}));
  connect(sineForce.y, force.f) annotation (Line(points={{1,70},{18,70}}, color={0,0,127}));
  connect(spring.flange_a, fixed2.flange) annotation (Line(points={{2,-50},{-30,-50}}, color={0,127,0}));
  connect(force.flange, stop1.flange_a) annotation (Line(points={{40,70},{60,70}}, color={0,127,0}));
  connect(force2.flange, mass.flange_a) annotation (Line(points={{40,20},{50,20}}, color={0,127,0}));
  connect(mass.flange_b, supportFriction.flange_a) annotation (Line(points={{70,20},{80,20}}, color={0,127,0}));
  connect(sineForce.y, force2.f) annotation (Line(points={{1,70},{10,70},{10,20},{18,20}}, color={0,0,127}));
  annotation (experiment(StopTime=5, Interval=0.001), Documentation(info="<html>
<p>Stick-slip of two sliding masses with Stribeck friction and hard stops, and of
a mass on a friction support with the same characteristic given as a table.</p>
</html>"));
end Friction;
