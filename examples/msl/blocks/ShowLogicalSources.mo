// Modelica.Blocks.Examples.ShowLogicalSources: the Boolean sources side by
// side; booleanExpression is given the expression pulse.y and step.y.
model ShowLogicalSources "the Boolean sources of Modelica.Blocks.Sources"
  Modelica.Blocks.Sources.BooleanTable table(table = {2, 4, 6, 8});
  Modelica.Blocks.Sources.BooleanConstant const;
  Modelica.Blocks.Sources.BooleanStep step(startTime = 4);
  Modelica.Blocks.Sources.BooleanPulse pulse(period = 1.5);
  Modelica.Blocks.Sources.SampleTrigger sample(period = 0.5);
  Modelica.Blocks.Sources.BooleanExpression booleanExpression(y = pulse.y and step.y);
  annotation(experiment(StartTime = 0, StopTime = 10, Interval = 0.002, Tolerance = 1e-6));
end ShowLogicalSources;
