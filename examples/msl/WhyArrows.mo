within Modelica.Mechanics.Translational.Examples;
model WhyArrows "Use of arrows in Mechanics.Translational"
  extends Modelica.Icons.Example;
  import Modelica.Mechanics.Translational.Components;
  Components.Fixed fixed annotation (Placement(transformation(extent={{-20,20},{0,40}})));
  Components.Rod rod1(L=1) annotation (Placement(transformation(extent={{-48,20},{-28,40}})));
  Components.Rod rod2(L=1) annotation (Placement(transformation(extent={{20,20},{40,40}})));
  Components.Rod rod3(L=1) annotation (Placement(transformation(
        origin={-10,0},
        extent={{-10,-10},{10,10}},
        rotation=270)));
  Translational.Sensors.PositionSensor positionSensor1
    annotation (Placement(transformation(extent={{-60,20},{-80,40}})));
  Translational.Sensors.PositionSensor positionSensor2
    annotation (Placement(transformation(extent={{60,20},{80,40}})));
  Translational.Sensors.PositionSensor positionSensor3
    annotation (Placement(transformation(extent={{20,-30},{40,-10}})));
  // Two identical spring-mass systems
  Components.Fixed fixed1(s0=-1.9) annotation (Placement(transformation(extent={{-100,-80},{-80,-60}})));
  Components.Spring spring1(s_rel0=2, c=11) annotation (Placement(transformation(extent={{-80,-70},{-60,-50}})));
  Components.Mass mass1(
    L=2,
    s(fixed=true),
    v(fixed=true),
    m=1) annotation (Placement(transformation(extent={{-40,-70},{-20,-50}})));
  Components.Fixed fixed2(s0=-1.9) annotation (Placement(transformation(extent={{20,-80},{40,-60}})));
  Components.Spring spring2(s_rel0=2, c=11) annotation (Placement(transformation(extent={{40,-70},{60,-50}})));
  Components.Mass inertia2(
    L=2,
    s(fixed=true),
    v(fixed=true),
    m=1) annotation (Placement(transformation(extent={{80,-70},{100,-50}})));
equation
  connect(rod1.flange_b, fixed.flange) annotation (Line(points={{-28,30},{-10,30}}, color={0,127,0}));
  connect(rod1.flange_a, positionSensor1.flange) annotation (Line(points={{-48,30},{-60,30}}, color={0,127,0}));
  connect(rod2.flange_a, fixed.flange) annotation (Line(points={{20,30},{-10,30}}, color={0,127,0}));
  connect(rod2.flange_b, positionSensor2.flange) annotation (Line(points={{40,30},{60,30}}, color={0,127,0}));
  connect(rod3.flange_a, fixed.flange) annotation (Line(points={{-10,10},{-10,30}}, color={0,127,0}));
  connect(rod3.flange_b, positionSensor3.flange) annotation (Line(points={{-10,-10},{-10,-20},{20,-20}}, color={0,127,0}));
  connect(fixed1.flange, spring1.flange_a) annotation (Line(points={{-90,-70},{-90,-60},{-80,-60}}, color={0,127,0}));
  connect(spring1.flange_b, mass1.flange_b) annotation (Line(points={{-60,-60},{-56,-60},{-56,-40},{-16,-40},{-16,-60},{-20,-60}}, color={0,127,0}));
  connect(fixed2.flange, spring2.flange_a) annotation (Line(points={{30,-70},{30,-60},{40,-60}}, color={0,127,0}));
  connect(spring2.flange_b, inertia2.flange_b) annotation (Line(points={{60,-60},{64,-60},{64,-40},{104,-40},{104,-60},{100,-60}}, color={0,127,0}));
  annotation (experiment(StopTime=1.0, Interval=0.001), Documentation(info="<html>
<p>The arrows of the icons only mark the direction of the positive axis of
a component; they do not constrain how components are connected. The three
position sensors measure -1, 1 and 1.</p>
</html>"));
end WhyArrows;
