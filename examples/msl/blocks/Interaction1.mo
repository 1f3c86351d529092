// Modelica.Blocks.Examples.Interaction1: tables shown by the blocks of
// Modelica.Blocks.Interaction.Show, and two radio buttons that release
// each other.
model Interaction1 "the Show blocks and two radio buttons"
  Modelica.Blocks.Interaction.Show.IntegerValue integerValue;
  Modelica.Blocks.Sources.IntegerTable integerTable(table = [0, 0; 1, 2; 2, 4; 3, 6; 4, 4; 6, 2]);
  Modelica.Blocks.Sources.TimeTable timeTable(table = [0, 0; 1, 2.1; 2, 4.2; 3, 6.3; 4, 4.2; 6, 2.1; 6, 2.1]);
  Modelica.Blocks.Interaction.Show.RealValue realValue;
  Modelica.Blocks.Sources.BooleanTable booleanTable(table = {1, 2, 3, 4, 5, 6, 7, 8, 9});
  Modelica.Blocks.Interaction.Show.BooleanValue booleanValue;
  Modelica.Blocks.Sources.RadioButtonSource start(buttonTimeTable = {1, 3}, reset = {stop.on});
  Modelica.Blocks.Sources.RadioButtonSource stop(buttonTimeTable = {2, 4}, reset = {start.on});
equation
  connect(integerTable.y, integerValue.numberPort);
  connect(timeTable.y, realValue.numberPort);
  connect(booleanTable.y, booleanValue.activePort);
  annotation(experiment(StartTime = 0, StopTime = 10, Interval = 0.002, Tolerance = 1e-6));
end Interaction1;
