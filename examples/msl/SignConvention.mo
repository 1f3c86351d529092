within Modelica.Mechanics.Translational.Examples;
model SignConvention "Examples for the used sign conventions"
  extends Modelica.Icons.Example;
  // Three ways to push a 1 kg mass with +1 N: at flange_a, pulling at
  // flange_b, and with the source attached the other way round.
  Translational.Components.Mass mass1(
    L=1,
    s(fixed=true),
    v(fixed=true),
    m=1) annotation (Placement(transformation(extent={{40,60},{60,80}})));
  Translational.Sources.Force force1
    annotation (Placement(transformation(extent={{-4,60},{16,80}})));
  Modelica.Blocks.Sources.Constant constant1(k=1)
    annotation (Placement(transformation(extent={{-44,60},{-24,80}})));
  Translational.Components.Mass mass2(
    L=1,
    s(fixed=true),
    v(fixed=true),
    m=1) annotation (Placement(transformation(extent={{40,0},{60,20}})));
  Translational.Sources.Force force2
    annotation (Placement(transformation(extent={{16,0},{-4,20}})));
  Modelica.Blocks.Sources.Constant constant2(k=1)
    annotation (Placement(transformation(extent={{-44,0},{-24,20}})));
  Translational.Components.Mass mass3(
    L=1,
    s(fixed=true),
    v(fixed=true),
    m=1) annotation (Placement(transformation(extent={{-40,-60},{-20,-40}})));
  Translational.Sources.Force force3(useSupport=false)
    annotation (Placement(transformation(extent={{20,-60},{0,-40}})));
  Modelica.Blocks.Sources.Constant constant3(k=1)
    annotation (Placement(transformation(extent={{60,-60},{40,-40}})));
  Translational.Components.Fixed fixed
    annotation (Placement(transformation(extent={{0,-80},{20,-60}})));
equation
  connect(constant1.y, force1.f)
    annotation (Line(points={{-23,70},{-6,70}}, color={0,0,127}));
  connect(force1.flange, mass1.flange_a)
    annotation (Line(points={{16,70},{40,70}}, color={0,127,0}));
  connect(constant2.y, force2.f)
    annotation (Line(points={{-23,10},{-10,10},{-10,30},{24,30},{24,10},{18,10}}, color={0,0,127}));
  connect(force2.flange, mass2.flange_b)
    annotation (Line(points={{-4,10},{-10,10},{-10,-10},{70,-10},{70,10},{60,10}}, color={0,127,0}));
  connect(constant3.y, force3.f)
    annotation (Line(points={{39,-50},{22,-50}}, color={0,0,127}));
  connect(mass3.flange_b, force3.flange)
    annotation (Line(points={{-20,-50},{0,-50}}, color={0,127,0}));
  // force3 has no support (useSupport=false): this connection is removed
  connect(fixed.flange, force3.support)
    annotation (Line(points={{10,-70},{10,-60}}, color={0,127,0}));
  annotation (experiment(StopTime=1.0, Interval=0.001), Documentation(info="<html>
<p>All three masses move in the <em>positive</em> direction: a force source
delivers <code>f</code> to the body at its flange, whichever flange of the
mass it is connected to (&quot;a&quot; or &quot;b&quot;).</p>
</html>"));
end SignConvention;
