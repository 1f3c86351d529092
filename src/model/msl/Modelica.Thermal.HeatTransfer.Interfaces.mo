within Modelica.Thermal.HeatTransfer.Interfaces;
partial model PartialElementaryConditionalHeatPortWithoutT "the loss power of a component"
  parameter Boolean useHeatPort = false "a heat port (not available in flange)";
  Modelica.Units.SI.Power lossPower "loss power leaving the component as heat";
equation
  assert(not useHeatPort, "flange has no heat ports: useHeatPort must be false");
end PartialElementaryConditionalHeatPortWithoutT;
partial model PartialElementaryConditionalHeatPort "the loss power of a component"
  parameter Boolean useHeatPort = false "a heat port (not available in flange)";
  parameter Modelica.Units.SI.Temperature T = 293.15 "fixed temperature";
  Modelica.Units.SI.Power lossPower "loss power leaving the component as heat";
  Modelica.Units.SI.Temperature TheatPort = T;
equation
  assert(not useHeatPort, "flange has no heat ports: useHeatPort must be false");
end PartialElementaryConditionalHeatPort;
