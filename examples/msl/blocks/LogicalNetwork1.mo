// Modelica.Blocks.Examples.LogicalNetwork1: two Boolean tables drive a small
// network of logical blocks; the Pre block closes the loop from Or1 back to
// And1, so Or1 latches once table1 is true.
model LogicalNetwork1 "a network of logical blocks with a feedback through Pre"
  Modelica.Blocks.Sources.BooleanTable table2(table = {1, 3, 5, 7});
  Modelica.Blocks.Sources.BooleanTable table1(table = {2, 4, 6, 8});
  Modelica.Blocks.Logical.Not Not1;
  Modelica.Blocks.Logical.And And1;
  Modelica.Blocks.Logical.Or Or1;
  Modelica.Blocks.Logical.Pre Pre1;
equation
  connect(table2.y, Not1.u);
  connect(And1.y, Or1.u2);
  connect(table1.y, Or1.u1);
  connect(Not1.y, And1.u1);
  connect(Pre1.y, And1.u2);
  connect(Or1.y, Pre1.u);
  annotation(experiment(StartTime = 0, StopTime = 10, Interval = 0.002, Tolerance = 1e-6));
end LogicalNetwork1;
