within Modelica.Blocks.Interaction.Show;
block RealValue "shows a Real: the numberPort's value, or the expression number"
  parameter Boolean use_numberPort = true "show the value of numberPort (else number)";
  input Real number = 0.0 "what is shown without numberPort";
  parameter Integer significantDigits(min = 1) = 2 "digits shown";
  Modelica.Blocks.Interfaces.RealInput numberPort if use_numberPort;
  Modelica.Blocks.Interfaces.RealOutput showNumber;
equation
  if use_numberPort then
    connect(numberPort, showNumber);
  else
    showNumber = number;
  end if;
end RealValue;
block IntegerValue "shows an Integer: the numberPort's value, or the expression number"
  parameter Boolean use_numberPort = true "show the value of numberPort (else number)";
  input Integer number = 0 "what is shown without numberPort";
  Modelica.Blocks.Interfaces.IntegerInput numberPort if use_numberPort;
  Modelica.Blocks.Interfaces.IntegerOutput showNumber;
equation
  if use_numberPort then
    connect(numberPort, showNumber);
  else
    showNumber = number;
  end if;
end IntegerValue;
block BooleanValue "shows a Boolean: the activePort's value, or the expression active"
  parameter Boolean use_activePort = true "show the value of activePort (else active)";
  input Boolean active = false "what is shown without activePort";
  Modelica.Blocks.Interfaces.BooleanInput activePort if use_activePort;
  Modelica.Blocks.Interfaces.BooleanOutput showActive;
equation
  if use_activePort then
    connect(activePort, showActive);
  else
    showActive = active;
  end if;
end BooleanValue;
