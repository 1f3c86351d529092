within Modelica.Mechanics.Rotational.Examples;
model Friction "Drive train with clutch and brake"
  extends Modelica.Icons.Example;
  // inertia3 (100 rad/s) drives inertia2 and inertia1 (90 rad/s) through a
  // clutch that is always engaged; a sine torque acts on inertia3 until
  // t = 0.5 s, when it stops and the brake on inertia1 is applied.
  parameter Modelica.Units.SI.Time startTime=0.5 "Start time of step";
  Modelica.Mechanics.Rotational.Sources.Torque torque(useSupport=true)
    annotation (Placement(transformation(extent={{-90,-10},{-70,10}})));
  Modelica.Mechanics.Rotational.Components.Inertia inertia3(
    J=1,
    phi(start=0, fixed=true),
    w(start=100, fixed=true))
    annotation (Placement(transformation(extent={{-60,-10},{-40,10}})));
  Modelica.Mechanics.Rotational.Components.Clutch clutch(fn_max=160)
    annotation (Placement(transformation(extent={{-30,-10},{-10,10}})));
  Modelica.Mechanics.Rotational.Components.Inertia inertia2(
    J=0.05,
    phi(start=0, fixed=true),
    w(start=90, fixed=true))
    annotation (Placement(transformation(extent={{0,-10},{20,10}})));
  Modelica.Mechanics.Rotational.Components.SpringDamper spring(c=160, d=1)
    annotation (Placement(transformation(extent={{30,-10},{50,10}})));
  Modelica.Mechanics.Rotational.Components.Inertia inertia1(
    J=1,
    phi(start=0, fixed=true),
    w(start=90, fixed=true))
    annotation (Placement(transformation(extent={{90,-10},{110,10}})));
  Modelica.Mechanics.Rotational.Components.Brake brake(fn_max=1600, useSupport=true)
    annotation (Placement(transformation(extent={{60,-10},{80,10}})));
  Modelica.Blocks.Sources.Constant const(k=1)
    annotation (Placement(transformation(origin={-25,35}, extent={{-5,-5},{15,15}}, rotation=270)));
  Modelica.Blocks.Sources.Step step(startTime=startTime)
    annotation (Placement(transformation(origin={65,35}, extent={{-5,-5},{15,15}}, rotation=270)));
  Modelica.Blocks.Sources.Step step2(height=-1, offset=1, startTime=startTime)
    annotation (Placement(transformation(extent={{-160,-30},{-140,-10}})));
  Modelica.Blocks.Sources.Sine sine(amplitude=200, f=50/Modelica.Constants.pi)
    annotation (Placement(transformation(extent={{-160,10},{-140,30}})));
  Modelica.Blocks.Math.Product product
    annotation (Placement(transformation(extent={{-120,-10},{-100,10}})));
  Modelica.Mechanics.Rotational.Components.Fixed fixed
    annotation (Placement(transformation(extent={{-10,-30},{10,-10}})));
equation
  connect(torque.flange, inertia3.flange_a);
  connect(inertia3.flange_b, clutch.flange_a);
  connect(clutch.flange_b, inertia2.flange_a);
  connect(inertia2.flange_b, spring.flange_a);
  connect(spring.flange_b, brake.flange_a);
  connect(brake.flange_b, inertia1.flange_a);
  connect(sine.y, product.u1);
  connect(step2.y, product.u2);
  connect(product.y, torque.tau);
  connect(const.y, clutch.f_normalized);
  connect(step.y, brake.f_normalized);
  connect(torque.support, fixed.flange);
  connect(brake.support, fixed.flange);
  annotation (experiment(StopTime=3, Interval=0.0005, Tolerance=1e-06), Documentation(info="<html>
<p>A drive train with a frictional clutch and a brake (MSL Rotational.Examples.Friction).</p>
</html>"));
end Friction;
