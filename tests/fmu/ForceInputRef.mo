// The reference for the FMU of ForceInput.mo (tests/cli/fmu_fmusim.sh loads
// both files as one text): its input driven by Step sources that give the
// force of tests/fmu/force.csv (0, 10 N from 0.5 s, -5 N from 1.5 s).
model ForceInputRef "ForceInput with its input from Step sources"
  ForceInput m;
  Modelica.Blocks.Sources.Step up(height = 10, startTime = 0.5);
  Modelica.Blocks.Sources.Step down(height = -15, startTime = 1.5);
  Modelica.Blocks.Math.Add add;
equation
  connect(up.y, add.u1);
  connect(down.y, add.u2);
  connect(add.y, m.f);
  annotation(experiment(StopTime = 3, Interval = 1e-3));
end ForceInputRef;
