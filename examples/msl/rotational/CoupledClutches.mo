within Modelica.Mechanics.Rotational.Examples;
model CoupledClutches "Drive train with 3 dynamically coupled clutches"
  extends Modelica.Icons.Example;
  // Four inertias joined by three clutches. clutch1 is engaged from the
  // start with a normal force that falls as a cosine and becomes free at
  // t = 1.25 s; clutch2 is engaged at T2 = 0.4 s, clutch3 at T3 = 0.9 s. A
  // sine torque drives J1. The system has 2^3 configurations and every
  // clutch may slide forward, slide backward or be locked: the classic
  // stick-slip benchmark of Modelica tools.
  parameter Modelica.Units.SI.Frequency f=0.2 "Frequency of sine function to invoke clutch1";
  parameter Modelica.Units.SI.Time T2=0.4 "Time when clutch2 is invoked";
  parameter Modelica.Units.SI.Time T3=0.9 "Time when clutch3 is invoked";
  Modelica.Mechanics.Rotational.Components.Inertia J1(J=1, phi(fixed=true, start=0), w(start=10, fixed=true))
    annotation (Placement(transformation(extent={{-70,-10},{-50,10}})));
  Modelica.Mechanics.Rotational.Sources.Torque torque(useSupport=true)
    annotation (Placement(transformation(extent={{-100,-10},{-80,10}})));
  Modelica.Mechanics.Rotational.Components.Clutch clutch1(peak=1.1, fn_max=20)
    annotation (Placement(transformation(extent={{-40,-10},{-20,10}})));
  Modelica.Blocks.Sources.Sine sin1(amplitude=10, f=5)
    annotation (Placement(transformation(extent={{-130,-10},{-110,10}})));
  Modelica.Blocks.Sources.Step step1(startTime=T2)
    annotation (Placement(transformation(origin={25,35}, extent={{-5,-5},{15,15}}, rotation=270)));
  Modelica.Mechanics.Rotational.Components.Inertia J2(J=1, phi(fixed=true, start=0), w(fixed=true, start=0))
    annotation (Placement(transformation(extent={{-10,-10},{10,10}})));
  Modelica.Mechanics.Rotational.Components.Clutch clutch2(peak=1.1, fn_max=20)
    annotation (Placement(transformation(extent={{20,-10},{40,10}})));
  Modelica.Mechanics.Rotational.Components.Inertia J3(J=1, phi(fixed=true, start=0), w(fixed=true, start=0))
    annotation (Placement(transformation(extent={{50,-10},{70,10}})));
  Modelica.Mechanics.Rotational.Components.Clutch clutch3(peak=1.1, fn_max=20)
    annotation (Placement(transformation(extent={{80,-10},{100,10}})));
  Modelica.Mechanics.Rotational.Components.Inertia J4(J=1, phi(fixed=true, start=0), w(fixed=true, start=0))
    annotation (Placement(transformation(extent={{110,-10},{130,10}})));
  Modelica.Blocks.Sources.Sine sin2(amplitude=1, f=f, phase=1.570796326794897)
    annotation (Placement(transformation(origin={-35,35}, extent={{-5,-5},{15,15}}, rotation=270)));
  Modelica.Blocks.Sources.Step step2(startTime=T3)
    annotation (Placement(transformation(origin={85,35}, extent={{-5,-5},{15,15}}, rotation=270)));
  Modelica.Mechanics.Rotational.Components.Fixed fixed
    annotation (Placement(transformation(extent={{-100,-30},{-80,-10}})));
equation
  connect(torque.flange, J1.flange_a);
  connect(J1.flange_b, clutch1.flange_a);
  connect(clutch1.flange_b, J2.flange_a);
  connect(J2.flange_b, clutch2.flange_a);
  connect(clutch2.flange_b, J3.flange_a);
  connect(J3.flange_b, clutch3.flange_a);
  connect(clutch3.flange_b, J4.flange_a);
  connect(sin1.y, torque.tau);
  connect(sin2.y, clutch1.f_normalized);
  connect(step1.y, clutch2.f_normalized);
  connect(step2.y, clutch3.f_normalized);
  connect(fixed.flange, torque.support);
  annotation (experiment(StopTime=1.5, Interval=0.0005, Tolerance=1e-06), Documentation(info="<html>
<p>A drive train with three dynamically coupled clutches (MSL Rotational.Examples.CoupledClutches).</p>
</html>"));
end CoupledClutches;
