within Modelica.Mechanics.Rotational.Examples;
model Backlash "Example to demonstrate backlash"
  extends Modelica.Icons.Example;
  // Three inertias start at 90 degrees on a spring-damper (top) and on
  // backlashes of 45 degrees with the same spring and damper, each shaft
  // fixed at the other side: the free play lowers the eigenfrequency, and
  // the contact torque never pulls. ElastoBacklash limits the damping
  // torque to the spring torque (no jump at the touch); ElastoBacklash2
  // applies the full damping, so its torque jumps when contact starts.
  Modelica.Mechanics.Rotational.Components.Fixed fixed1;
  Modelica.Mechanics.Rotational.Components.SpringDamper springDamper(
    c=20E3,
    d=50,
    phi_nominal=1);
  Modelica.Mechanics.Rotational.Components.Inertia inertia1(
    J=5,
    w(fixed=true, start=0),
    phi(fixed=true, displayUnit="deg", start=1.570796326794897));
  Modelica.Mechanics.Rotational.Components.Fixed fixed2;
  Modelica.Mechanics.Rotational.Components.ElastoBacklash elastoBacklash(
    c=20E3,
    d=50,
    b(displayUnit="deg") = 0.7853981633974483,
    phi_nominal=1);
  Modelica.Mechanics.Rotational.Components.Inertia inertia2(
    J=5,
    w(fixed=true, start=0),
    phi(fixed=true, start=1.570796326794897, displayUnit="deg"));
  Modelica.Mechanics.Rotational.Components.Fixed fixed3;
  Modelica.Mechanics.Rotational.Components.ElastoBacklash2 elastoBacklash2(
    c=20E3,
    d=50,
    phi_nominal=1,
    b(displayUnit="deg") = 0.78539816339745);
  Modelica.Mechanics.Rotational.Components.Inertia inertia3(
    J=5,
    w(fixed=true, start=0),
    phi(fixed=true, start=1.570796326794897, displayUnit="deg"));
equation
  connect(springDamper.flange_b, inertia1.flange_a);
  connect(elastoBacklash.flange_b, inertia2.flange_a);
  connect(fixed1.flange, springDamper.flange_a);
  connect(fixed2.flange, elastoBacklash.flange_a);
  connect(elastoBacklash2.flange_b, inertia3.flange_a);
  connect(fixed3.flange, elastoBacklash2.flange_a);
  annotation (experiment(StopTime=1, Interval=0.0005, Tolerance=1e-06));
end Backlash;
