// The model's own parameters as FMU parameters (tests/fmu/fmu_params.sh,
// tests/cli/fmu_export.sh, tests/cli/fmu_fmusim.sh): a critically damped
// mass on a spring (c = 100 N/m, d = 20 N.s/m, m = 1 kg) pushed by a
// constant force that the top-level parameters set; at the stop time it
// rests at s = n*k/c if push, else 0 (the transient has decayed below 1e-14).
// sel (an enumeration: an FMU Integer) has no effect on the result.
model Params "a damped mass pushed by n*k newtons if push"
  parameter Real k(unit = "N") = 10 "force of one push";
  parameter Integer n = 3 "number of pushes";
  parameter Boolean push = true "whether the force acts";
  parameter StateSelect sel = StateSelect.default "state selection of the mass (an enumeration)";
  Modelica.Mechanics.Translational.Components.Mass mass(m = 1, s(start = 0, fixed = true), v(start = 0, fixed = true),
    stateSelect = sel);
  Modelica.Mechanics.Translational.Components.Spring spring(c = 100);
  Modelica.Mechanics.Translational.Components.Damper damper(d = 20);
  Modelica.Mechanics.Translational.Components.Fixed fixed;
  Modelica.Mechanics.Translational.Sources.ConstantForce force(f_constant = if push then n*k else 0);
equation
  connect(spring.flange_a, fixed.flange);
  connect(damper.flange_a, fixed.flange);
  connect(spring.flange_b, mass.flange_a);
  connect(damper.flange_b, mass.flange_a);
  connect(force.flange, mass.flange_b);
  annotation(experiment(StopTime = 4));
end Params;

// The same with a RealInput (an extra force) and a RealOutput (the position):
// exported inside the generated wrapper, where the parameters are
// fmu_model.k, fmu_model.n, fmu_model.push.
model ParamsIn "Params with an input force u and the position as the output y"
  extends Params;
  Modelica.Blocks.Interfaces.RealInput u(unit = "N", start = 5) "extra force";
  Modelica.Blocks.Interfaces.RealOutput y(unit = "m") "position of the mass";
  Modelica.Mechanics.Translational.Sources.Force extra;
  Modelica.Mechanics.Translational.Sensors.PositionSensor ps;
equation
  connect(u, extra.f);
  connect(extra.flange, mass.flange_b);
  connect(ps.flange, mass.flange_b);
  connect(ps.s, y);
end ParamsIn;

// A parameter of the model itself that its equations read: d is a tunable
// FMU parameter (fl_sim_set_param reaches it in the instance of the
// top-level equations, and it moves no other parameter).
model ParamsEq "a mass on a spring, its damping force an equation of d"
  parameter Real d(unit = "N.s/m") = 20 "damping";
  Modelica.Mechanics.Translational.Components.Mass mass(m = 1, s(start = 0.1, fixed = true), v(start = 0, fixed = true));
  Modelica.Mechanics.Translational.Components.Spring spring(c = 100);
  Modelica.Mechanics.Translational.Components.Fixed fixed;
  Modelica.Mechanics.Translational.Sources.Force damping;
equation
  damping.f = -d*mass.v;
  connect(spring.flange_a, fixed.flange);
  connect(spring.flange_b, mass.flange_a);
  connect(damping.flange, mass.flange_b);
  annotation(experiment(StopTime = 2));
end ParamsEq;
