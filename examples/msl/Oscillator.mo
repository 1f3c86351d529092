within Modelica.Mechanics.Translational.Examples;
model Oscillator "Oscillator demonstrates the use of initial conditions"
  extends Modelica.Icons.Example;
  // Excited at its natural frequency sqrt(c/m) = 100 rad/s: mass1 resonates,
  // mass2 is damped.
  Modelica.Mechanics.Translational.Components.Mass mass1(
    L=1,
    s(start=-0.5, fixed=true),
    v(start=0.0, fixed=true),
    m=1) annotation (Placement(transformation(extent={{-20,40},{0,60}})));
  Modelica.Mechanics.Translational.Components.Spring spring1(s_rel0=1, c=10000)
    annotation (Placement(transformation(extent={{20,40},{40,60}})));
  Modelica.Mechanics.Translational.Components.Fixed fixed1(s0=1.0)
    annotation (Placement(transformation(extent={{60,40},{80,60}})));
  Modelica.Mechanics.Translational.Sources.Force force1
    annotation (Placement(transformation(extent={{-60,40},{-40,60}})));
  Modelica.Blocks.Sources.Sine sine1(f=15.9155)
    annotation (Placement(transformation(extent={{-100,40},{-80,60}})));
  Modelica.Mechanics.Translational.Components.Mass mass2(
    L=1,
    s(start=-0.5, fixed=true),
    v(start=0.0, fixed=true),
    m=1) annotation (Placement(transformation(extent={{-20,-40},{0,-20}})));
  Modelica.Mechanics.Translational.Components.Spring spring2(s_rel0=1, c=10000)
    annotation (Placement(transformation(extent={{20,-40},{40,-20}})));
  Modelica.Mechanics.Translational.Components.Fixed fixed2(s0=1.0)
    annotation (Placement(transformation(extent={{60,-40},{80,-20}})));
  Modelica.Mechanics.Translational.Sources.Force force2
    annotation (Placement(transformation(extent={{-60,-40},{-40,-20}})));
  Modelica.Blocks.Sources.Sine sine2(f=15.9155)
    annotation (Placement(transformation(extent={{-100,-40},{-80,-20}})));
  Modelica.Mechanics.Translational.Components.Damper damper1(d=10)
    annotation (Placement(transformation(extent={{20,-60},{40,-40}})));
equation
  connect(sine1.y, force1.f) annotation (Line(points={{-79,50},{-62,50}}, color={0,0,127}));
  connect(force1.flange, mass1.flange_a) annotation (Line(points={{-40,50},{-20,50}}, color={0,127,0}));
  connect(mass1.flange_b, spring1.flange_a) annotation (Line(points={{0,50},{20,50}}, color={0,127,0}));
  connect(spring1.flange_b, fixed1.flange) annotation (Line(points={{40,50},{70,50}}, color={0,127,0}));
  connect(sine2.y, force2.f) annotation (Line(points={{-79,-30},{-62,-30}}, color={0,0,127}));
  connect(force2.flange, mass2.flange_a) annotation (Line(points={{-40,-30},{-20,-30}}, color={0,127,0}));
  connect(mass2.flange_b, spring2.flange_a) annotation (Line(points={{0,-30},{20,-30}}, color={0,127,0}));
  connect(spring2.flange_b, fixed2.flange) annotation (Line(points={{40,-30},{70,-30}}, color={0,127,0}));
  connect(spring2.flange_a, damper1.flange_a) annotation (Line(points={{20,-30},{20,-50}}, color={0,127,0}));
  connect(damper1.flange_b, spring2.flange_b) annotation (Line(points={{40,-50},{40,-30}}, color={0,127,0}));
  annotation (experiment(StopTime=1.0, Interval=0.001), Documentation(info="<html>
<p>A spring-mass system excited at its natural frequency, without and with a
damper in parallel to the spring.</p>
</html>"));
end Oscillator;
