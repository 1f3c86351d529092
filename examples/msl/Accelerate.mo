within Modelica.Mechanics.Translational.Examples;
model Accelerate "Use of model accelerate."
  extends Modelica.Icons.Example;
  Modelica.Mechanics.Translational.Sources.Accelerate accelerate
    annotation (Placement(transformation(extent={{-40,20},{-20,40}})));
  Modelica.Mechanics.Translational.Components.Mass mass(L=1, m=1)
    annotation (Placement(transformation(extent={{0,20},{20,40}})));
  Modelica.Blocks.Sources.Constant constantAcc(k=1)
    annotation (Placement(transformation(extent={{-80,20},{-60,40}})));
equation
  connect(accelerate.flange, mass.flange_a) annotation (Line(points={{-20,30},{0,30}}, color={0,127,0}));
  connect(constantAcc.y, accelerate.a_ref) annotation (Line(points={{-59,30},{-42,30}}, color={0,0,127}));
  annotation (experiment(StopTime=1.0, Interval=0.001),
    Documentation(info="<html><p>A mass is accelerated by a prescribed constant acceleration of 1 m/s2.</p></html>"));
end Accelerate;
