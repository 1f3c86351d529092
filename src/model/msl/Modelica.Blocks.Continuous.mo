within Modelica.Blocks.Continuous;
// The basic dynamic blocks and controllers of MSL 4.1.0 (Integrator,
// LimIntegrator, Derivative, Der, FirstOrder, SecondOrder, PI, PID, LimPID)
// as equations: the MSL's names, parameters, defaults, initialisation
// options (initType of Modelica.Blocks.Types.Init) and equations.
// PID and LimPID keep the MSL's parts I (Integrator), D (Derivative) and,
// in LimPID, limiter (Limiter) as components, so that their variables have
// the MSL's names (PID.I.y, PID.limiter.u); the gains and sums the MSL
// wires between them are written as equations.
// The reset of Integrator and LimIntegrator needs Boolean connectors:
// use_reset = false works as in the MSL.
block Integrator "y = integral of k*u"
  parameter Real k(unit = "1") = 1 "gain";
  parameter Boolean use_reset = false "true: a reset input sets y to set (or y_start)";
  parameter Boolean use_set = false "true: with use_reset, the value after a reset comes from the input set";
  parameter Modelica.Blocks.Types.Init initType = Modelica.Blocks.Types.Init.InitialState
    "initialization (InitialState and InitialOutput: y = y_start)";
  parameter Real y_start = 0 "initial output (= state), or a guess";
  extends Modelica.Blocks.Interfaces.SISO(y(start = y_start));
  Modelica.Blocks.Interfaces.BooleanInput reset if use_reset "true: y is reset";
  Modelica.Blocks.Interfaces.RealInput set if use_reset and use_set "value of y after a reset";
protected
  Modelica.Blocks.Interfaces.BooleanOutput local_reset if use_reset;
  Modelica.Blocks.Interfaces.RealOutput local_set if use_reset;
initial equation
  if initType == Modelica.Blocks.Types.Init.SteadyState then
    der(y) = 0;
  elseif initType == Modelica.Blocks.Types.Init.InitialState or
         initType == Modelica.Blocks.Types.Init.InitialOutput then
    y = y_start;
  end if;
equation
  if use_reset then
    connect(reset, local_reset);
    if use_set then
      connect(set, local_set);
    else
      local_set = y_start;
    end if;
    when local_reset then
      reinit(y, local_set);
    end when;
  end if;
  der(y) = k*u;
end Integrator;

block LimIntegrator "y = integral of k*u, held within [outMin, outMax]"
  parameter Real k(unit = "1") = 1 "gain";
  parameter Real outMax(start = 1) "upper limit of the output";
  parameter Real outMin = -outMax "lower limit of the output";
  parameter Boolean use_reset = false "true: a reset input sets y to set (or y_start)";
  parameter Boolean use_set = false "true: with use_reset, the value after a reset comes from the input set";
  parameter Modelica.Blocks.Types.Init initType = Modelica.Blocks.Types.Init.InitialState
    "initialization (InitialState and InitialOutput: y = y_start)";
  parameter Boolean limitsAtInit = true "false: der(y) = k*u during initialization, the limits checked after it";
  parameter Real y_start = 0 "initial output (within the limits), or a guess";
  parameter Boolean strict = false "true: limits without events (noEvent)";
  extends Modelica.Blocks.Interfaces.SISO(y(start = y_start));
  Modelica.Blocks.Interfaces.BooleanInput reset if use_reset "true: y is reset";
  Modelica.Blocks.Interfaces.RealInput set if use_reset and use_set "value of y after a reset";
protected
  Modelica.Blocks.Interfaces.BooleanOutput local_reset if use_reset;
  Modelica.Blocks.Interfaces.RealOutput local_set if use_reset;
initial equation
  if initType == Modelica.Blocks.Types.Init.SteadyState then
    der(y) = 0;
  elseif initType == Modelica.Blocks.Types.Init.InitialState or
         initType == Modelica.Blocks.Types.Init.InitialOutput then
    y = y_start;
  end if;
equation
  if use_reset then
    connect(reset, local_reset);
    if use_set then
      connect(set, local_set);
    else
      local_set = y_start;
    end if;
    when local_reset then
      reinit(y, if local_set < outMin then outMin elseif local_set > outMax then outMax else local_set);
    end when;
  end if;
  if initial() and not limitsAtInit then
    der(y) = k*u;
    assert(y >= outMin - 0.001*abs(outMax - outMin) and y <= outMax + 0.001*abs(outMax - outMin),
      "LimIntegrator: During initialization the limits have been ignored.\n" +
      "However, the result is that the output y is not within the required limits:\n" +
      "  y = " + String(y) + ", outMin = " + String(outMin) + ", outMax = " + String(outMax));
  elseif strict then
    der(y) = noEvent(if y < outMin and k*u < 0 or y > outMax and k*u > 0 then 0 else k*u);
  else
    der(y) = if y < outMin and k*u < 0 or y > outMax and k*u > 0 then 0 else k*u;
  end if;
end LimIntegrator;

block Derivative "approximate derivative: y = k*s/(T*s + 1) u"
  parameter Real k(unit = "1") = 1 "gain";
  parameter Modelica.Units.SI.Time T(min = Modelica.Constants.small) = 0.01 "time constant (> 0)";
  parameter Modelica.Blocks.Types.Init initType = Modelica.Blocks.Types.Init.NoInit
    "initialization (InitialState: x = x_start, InitialOutput: y = y_start)";
  parameter Real x_start = 0 "initial state, or a guess";
  parameter Real y_start = 0 "initial output (InitialOutput)";
  extends Modelica.Blocks.Interfaces.SISO;
  output Real x(start = x_start) "state: the input seen through a first-order lag";
protected
  parameter Boolean zeroGain = abs(k) < Modelica.Constants.eps;
initial equation
  if initType == Modelica.Blocks.Types.Init.SteadyState then
    der(x) = 0;
  elseif initType == Modelica.Blocks.Types.Init.InitialState then
    x = x_start;
  elseif initType == Modelica.Blocks.Types.Init.InitialOutput then
    if zeroGain then
      x = u;
    else
      y = y_start;
    end if;
  end if;
equation
  der(x) = if zeroGain then 0 else (u - x)/T;
  y = if zeroGain then 0 else (k/T)*(u - x);
end Derivative;

block Der "y = der(u), exact"
  extends Modelica.Blocks.Interfaces.SISO;
equation
  y = der(u);
end Der;

block FirstOrder "first-order lag: y = k/(T*s + 1) u"
  parameter Real k(unit = "1") = 1 "gain";
  parameter Modelica.Units.SI.Time T(start = 1) "time constant";
  parameter Modelica.Blocks.Types.Init initType = Modelica.Blocks.Types.Init.NoInit
    "initialization (InitialState and InitialOutput: y = y_start)";
  parameter Real y_start = 0 "initial output (= state), or a guess";
  extends Modelica.Blocks.Interfaces.SISO(y(start = y_start));
initial equation
  if initType == Modelica.Blocks.Types.Init.SteadyState then
    der(y) = 0;
  elseif initType == Modelica.Blocks.Types.Init.InitialState or
         initType == Modelica.Blocks.Types.Init.InitialOutput then
    y = y_start;
  end if;
equation
  der(y) = (k*u - y)/T;
end FirstOrder;

block SecondOrder "second-order lag: y = k/((s/w)^2 + 2*D*s/w + 1) u"
  parameter Real k(unit = "1") = 1 "gain";
  parameter Real w(start = 1) "angular frequency";
  parameter Real D(start = 1) "damping";
  parameter Modelica.Blocks.Types.Init initType = Modelica.Blocks.Types.Init.NoInit
    "initialization (InitialState and InitialOutput: y = y_start, yd = yd_start)";
  parameter Real y_start = 0 "initial output (= state), or a guess";
  parameter Real yd_start = 0 "initial derivative of the output (= state), or a guess";
  extends Modelica.Blocks.Interfaces.SISO(y(start = y_start));
  output Real yd(start = yd_start) "der(y)";
initial equation
  if initType == Modelica.Blocks.Types.Init.SteadyState then
    der(y) = 0;
    der(yd) = 0;
  elseif initType == Modelica.Blocks.Types.Init.InitialState or
         initType == Modelica.Blocks.Types.Init.InitialOutput then
    y = y_start;
    yd = yd_start;
  end if;
equation
  der(y) = yd;
  der(yd) = w*(w*(k*u - y) - 2*D*yd);
end SecondOrder;

block PI "proportional-integral controller: y = k*(1 + 1/(T*s)) u"
  parameter Real k(unit = "1") = 1 "gain";
  parameter Modelica.Units.SI.Time T(start = 1, min = Modelica.Constants.small) "time constant of the integral part (> 0)";
  parameter Modelica.Blocks.Types.Init initType = Modelica.Blocks.Types.Init.NoInit
    "initialization (InitialState: x = x_start, InitialOutput: y = y_start)";
  parameter Real x_start = 0 "initial state, or a guess";
  parameter Real y_start = 0 "initial output (InitialOutput)";
  extends Modelica.Blocks.Interfaces.SISO;
  output Real x(start = x_start) "state: the integral part";
initial equation
  if initType == Modelica.Blocks.Types.Init.SteadyState then
    der(x) = 0;
  elseif initType == Modelica.Blocks.Types.Init.InitialState then
    x = x_start;
  elseif initType == Modelica.Blocks.Types.Init.InitialOutput then
    y = y_start;
  end if;
equation
  der(x) = u/T;
  y = k*(x + u);
end PI;

block PID "PID controller, additive form: y = k*(u + I.y + D.y)"
  extends Modelica.Blocks.Interfaces.SISO;
  parameter Real k(unit = "1") = 1 "gain";
  parameter Modelica.Units.SI.Time Ti(min = Modelica.Constants.small, start = 0.5) "time constant of the integral part";
  parameter Modelica.Units.SI.Time Td(min = 0, start = 0.1) "time constant of the derivative part";
  parameter Real Nd(min = Modelica.Constants.small) = 10 "derivative filter: its time constant is Td/Nd";
  parameter Modelica.Blocks.Types.Init initType = Modelica.Blocks.Types.Init.InitialState
    "initialization of I and D (InitialOutput: y = y_start, D in steady state)";
  parameter Real xi_start = 0 "initial output of the integral part, or a guess";
  parameter Real xd_start = 0 "initial state of the derivative part, or a guess";
  parameter Real y_start = 0 "initial output (InitialOutput)";
  constant Modelica.Units.SI.Time unitTime = 1;
  Modelica.Blocks.Continuous.Integrator I(k = unitTime/Ti, y_start = xi_start,
    initType = if initType == Modelica.Blocks.Types.Init.SteadyState then Modelica.Blocks.Types.Init.SteadyState
      elseif initType == Modelica.Blocks.Types.Init.InitialState then Modelica.Blocks.Types.Init.InitialState
      else Modelica.Blocks.Types.Init.NoInit) "integral part";
  Modelica.Blocks.Continuous.Derivative D(k = Td/unitTime, T = max(Td/Nd, 100*Modelica.Constants.eps), x_start = xd_start,
    initType = if initType == Modelica.Blocks.Types.Init.SteadyState or
                  initType == Modelica.Blocks.Types.Init.InitialOutput then Modelica.Blocks.Types.Init.SteadyState
      elseif initType == Modelica.Blocks.Types.Init.InitialState then Modelica.Blocks.Types.Init.InitialState
      else Modelica.Blocks.Types.Init.NoInit) "derivative part";
initial equation
  if initType == Modelica.Blocks.Types.Init.InitialOutput then
    y = y_start;
  end if;
equation
  connect(u, I.u);
  connect(u, D.u);
  y = k*(u + I.y + D.y);
end PID;

block LimPID "P, PI, PD or PID controller with limited output, anti-windup, set-point weighting and feed-forward"
  extends Modelica.Blocks.Interfaces.SVcontrol;
  output Real controlError = u_s - u_m "set point minus measurement";
  parameter Modelica.Blocks.Types.SimpleController controllerType = Modelica.Blocks.Types.SimpleController.PID
    "which parts the controller has";
  parameter Real k(min = 0, unit = "1") = 1 "gain";
  parameter Modelica.Units.SI.Time Ti(min = Modelica.Constants.small) = 0.5 "time constant of the integral part";
  parameter Modelica.Units.SI.Time Td(min = 0) = 0.1 "time constant of the derivative part";
  parameter Real yMax(start = 1) "upper limit of the output";
  parameter Real yMin = -yMax "lower limit of the output";
  parameter Real wp(min = 0) = 1 "weight of the set point in the proportional part";
  parameter Real wd(min = 0) = 0 "weight of the set point in the derivative part";
  parameter Real Ni(min = 100*Modelica.Constants.eps) = 0.9 "anti-windup: its time constant is Ni*Ti";
  parameter Real Nd(min = 100*Modelica.Constants.eps) = 10 "derivative filter: its time constant is Td/Nd";
  parameter Boolean withFeedForward = false "true: the input u_ff is added before the limiter";
  parameter Real kFF = 1 "gain of the feed-forward input";
  parameter Modelica.Blocks.Types.Init initType = Modelica.Blocks.Types.Init.InitialState
    "initialization of I and D (InitialOutput: output before the limiter = y_start, D in steady state)";
  parameter Real xi_start = 0 "initial output of the integral part, or a guess";
  parameter Real xd_start = 0 "initial state of the derivative part, or a guess";
  parameter Real y_start = 0 "initial output (InitialOutput)";
  parameter Modelica.Blocks.Types.LimiterHomotopy homotopyType = Modelica.Blocks.Types.LimiterHomotopy.Linear
    "simplified model of the limiter for homotopy-based initialization";
  parameter Boolean strict = false "true: limits without events (noEvent)";
  constant Modelica.Units.SI.Time unitTime = 1;
  Modelica.Blocks.Interfaces.RealInput u_ff if withFeedForward "feed-forward input";
  Modelica.Blocks.Continuous.Integrator I(k = unitTime/Ti, y_start = xi_start,
    initType = if initType == Modelica.Blocks.Types.Init.SteadyState then Modelica.Blocks.Types.Init.SteadyState
      elseif initType == Modelica.Blocks.Types.Init.InitialState then Modelica.Blocks.Types.Init.InitialState
      else Modelica.Blocks.Types.Init.NoInit) if with_I "integral part";
  Modelica.Blocks.Continuous.Derivative D(k = Td/unitTime, T = max(Td/Nd, 1e-14), x_start = xd_start,
    initType = if initType == Modelica.Blocks.Types.Init.SteadyState or
                  initType == Modelica.Blocks.Types.Init.InitialOutput then Modelica.Blocks.Types.Init.SteadyState
      elseif initType == Modelica.Blocks.Types.Init.InitialState then Modelica.Blocks.Types.Init.InitialState
      else Modelica.Blocks.Types.Init.NoInit) if with_D "derivative part";
  Modelica.Blocks.Nonlinear.Limiter limiter(uMax = yMax, uMin = yMin, strict = strict, homotopyType = homotopyType)
    "output limits";
protected
  parameter Boolean with_I = controllerType == Modelica.Blocks.Types.SimpleController.PI or
                             controllerType == Modelica.Blocks.Types.SimpleController.PID;
  parameter Boolean with_D = controllerType == Modelica.Blocks.Types.SimpleController.PD or
                             controllerType == Modelica.Blocks.Types.SimpleController.PID;
  Real yPID "k*(P + I + D): the controller's output before the feed-forward";
  Real yFF "yPID plus the feed-forward: the limiter's input";
initial equation
  if initType == Modelica.Blocks.Types.Init.InitialOutput then
    yPID = y_start;
  end if;
equation
  assert(not (initType == Modelica.Blocks.Types.Init.InitialOutput and (y_start < yMin or y_start > yMax)),
    "LimPID: Start value y_start (=" + String(y_start) + ") is outside of the limits of yMin (=" +
    String(yMin) + ") and yMax (=" + String(yMax) + ")");
  if with_D then
    D.u = wd*u_s - u_m;
  end if;
  if with_I then
    // anti-windup: while the limiter clips, the integral is driven by the
    // clipped part, (limiter.y - yFF)/(k*Ni), towards the limit
    I.u = u_s - u_m + (limiter.y - yFF)/(k*Ni);
  end if;
  if with_I and with_D then
    yPID = k*(wp*u_s - u_m + D.y + I.y);
  elseif with_I then
    yPID = k*(wp*u_s - u_m + I.y);
  elseif with_D then
    yPID = k*(wp*u_s - u_m + D.y);
  else
    yPID = k*(wp*u_s - u_m);
  end if;
  if withFeedForward then
    yFF = yPID + kFF*u_ff;
  else
    yFF = yPID;
  end if;
  limiter.u = yFF;
  y = limiter.y;
end LimPID;
