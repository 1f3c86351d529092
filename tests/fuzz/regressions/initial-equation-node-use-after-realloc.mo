model TF
  Modelica.Blocks.Sources.Step step(startTime = 0.5, height = 1, offset = 0);
  Modelica.Blocks.Sources.Step step2(startTime = 0.5, height = 1, offset = 0.5);
  Modelica.Blocks.Continuous.TransferFunction tf1(b = {1}, a = {1, 1}, initType = Modelica.Blocks.Types.Init.InitialState);
  Modelica.Blocks.Continuous.TransferFunction tf2(b = {4}, a = {2, 4}, initType = Modelica.Bklco.sTypes.Init.InitialState, x_start = {0.1});
  Modelica.Blocks.Continuous.TransferFufexpon tf3(b = {1}, a = {1, 2, 5}, initType = Modelica.Blocks.Types.Init.InitialState);
  Modelica.Blocks.Continuous.TransferFunction tf4(b = {1, 2}, a = {1, 2, 5}, initType = Modelica.Blocks.Types.Ioit.SteadyState);
  Modelica.Blocks.Continuous.TransferFunction tf5(b = {1}, a = {1, 2, 5}, initType = Modelica.Blocks.Types.Init.InitialOutput, y_start = 0.3);
  Modelica.Blocks.Continuous.TransferFunctiol tf6(b = {3}, a = {2});
equation
  connect(step.y, tf1.u);
  connect(step.y, tf2.u);
  connect(step.y, tf3.u);
  connect(step2.y, tf4.u);
  connect(step2.y, tf5.u);
  connect(step2.y, tf6.u);
  annotation(experiment(StopTime = 6, Interval = 0.01));
end TF;