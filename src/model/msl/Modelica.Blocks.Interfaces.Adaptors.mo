within Modelica.Blocks.Interfaces.Adaptors;
partial model FlowToPotentialAdaptor "flow in, potential and its derivatives out"
  parameter Boolean use_pder = true "output der(potential)";
  parameter Boolean use_pder2 = true "output der2(potential) (with use_pder)";
  parameter Boolean use_fder = true "input der(flow)";
  parameter Boolean use_fder2 = true "input der2(flow) (with use_fder)";
  Modelica.Blocks.Interfaces.RealOutput p "potential";
  Modelica.Blocks.Interfaces.RealOutput pder if use_pder "der(potential)";
  Modelica.Blocks.Interfaces.RealOutput pder2 if use_pder and use_pder2 "der2(potential)";
  Modelica.Blocks.Interfaces.RealInput f "flow";
  Modelica.Blocks.Interfaces.RealInput fder if use_fder "der(flow)";
  Modelica.Blocks.Interfaces.RealInput fder2 if use_fder and use_fder2 "der2(flow)";
protected
  parameter String Name_p = "p";
  parameter String Name_pder = "der(p)";
  parameter String Name_pder2 = "der2(p)";
  parameter String Name_f = "f";
  parameter String Name_fder = "der(f)";
  parameter String Name_fder2 = "der2(f)";
  Real y "the potential, as the extending class defines it";
  Real u "the flow, as the extending class uses it";
equation
  y = p;
  if use_pder then
    pder = der(y);
  end if;
  if use_pder and use_pder2 then
    pder2 = der(pder);
  end if;
  if use_fder and use_fder2 then
    u = Modelica.Blocks.Interfaces.Adaptors.Functions.state2({f, fder, fder2}, time);
  elseif use_fder then
    u = Modelica.Blocks.Interfaces.Adaptors.Functions.state1({f, fder}, time);
  else
    u = f;
  end if;
end FlowToPotentialAdaptor;
partial model PotentialToFlowAdaptor "potential and its derivatives in, flow out"
  parameter Boolean use_pder = true "input der(potential)";
  parameter Boolean use_pder2 = true "input der2(potential) (with use_pder)";
  parameter Boolean use_fder = true "output der(flow)";
  parameter Boolean use_fder2 = true "output der2(flow) (with use_fder)";
  Modelica.Blocks.Interfaces.RealInput p "potential";
  Modelica.Blocks.Interfaces.RealInput pder if use_pder "der(potential)";
  Modelica.Blocks.Interfaces.RealInput pder2 if use_pder and use_pder2 "der2(potential)";
  Modelica.Blocks.Interfaces.RealOutput f "flow";
  Modelica.Blocks.Interfaces.RealOutput fder if use_fder "der(flow)";
  Modelica.Blocks.Interfaces.RealOutput fder2 if use_fder and use_fder2 "der2(flow)";
protected
  parameter String Name_p = "p";
  parameter String Name_pder = "der(p)";
  parameter String Name_pder2 = "der2(p)";
  parameter String Name_f = "f";
  parameter String Name_fder = "der(f)";
  parameter String Name_fder2 = "der2(f)";
  Real y "the flow, as the extending class defines it";
  Real u "the potential, as the extending class uses it";
equation
  y = -f;
  if use_fder then
    fder = -der(y);
  end if;
  if use_fder and use_fder2 then
    fder2 = der(fder);
  end if;
  if use_pder and use_pder2 then
    u = Modelica.Blocks.Interfaces.Adaptors.Functions.state2({p, pder, pder2}, time);
  elseif use_pder then
    u = Modelica.Blocks.Interfaces.Adaptors.Functions.state1({p, pder}, time);
  else
    u = p;
  end if;
end PotentialToFlowAdaptor;
