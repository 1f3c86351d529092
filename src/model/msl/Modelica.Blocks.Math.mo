within Modelica.Blocks.Math;
block Gain "y = k*u"
  parameter Real k(start = 1, unit = "1") "gain";
  Modelica.Blocks.Interfaces.RealInput u;
  Modelica.Blocks.Interfaces.RealOutput y;
equation
  y = k*u;
end Gain;
block MatrixGain "y = K*u, a matrix times the input vector"
  parameter Real K[:, :] = [1, 0; 0, 1] "gain matrix (size(K, 1) outputs, size(K, 2) inputs)";
  extends Modelica.Blocks.Interfaces.MIMO(final nin = size(K, 2), final nout = size(K, 1));
equation
  y = K*u;
end MatrixGain;
block MultiSum "y = k[1]*u[1] + ... + k[nu]*u[nu]; 0 without inputs"
  extends Modelica.Blocks.Interfaces.PartialRealMISO;
  parameter Real k[nu] = fill(1, nu) "weights of the inputs";
equation
  if size(u, 1) > 0 then
    y = k*u;
  else
    y = 0;
  end if;
end MultiSum;
block MultiProduct "y = u[1]*...*u[nu]; 0 without inputs"
  extends Modelica.Blocks.Interfaces.PartialRealMISO;
equation
  if size(u, 1) > 0 then
    y = product(u);
  else
    y = 0;
  end if;
end MultiProduct;
block Add "y = k1*u1 + k2*u2"
  extends Modelica.Blocks.Interfaces.SI2SO;
  parameter Real k1 = +1 "weight of u1";
  parameter Real k2 = +1 "weight of u2";
equation
  y = k1*u1 + k2*u2;
end Add;
block Add3 "y = k1*u1 + k2*u2 + k3*u3"
  parameter Real k1 = +1 "weight of u1";
  parameter Real k2 = +1 "weight of u2";
  parameter Real k3 = +1 "weight of u3";
  Modelica.Blocks.Interfaces.RealInput u1;
  Modelica.Blocks.Interfaces.RealInput u2;
  Modelica.Blocks.Interfaces.RealInput u3;
  Modelica.Blocks.Interfaces.RealOutput y;
equation
  y = k1*u1 + k2*u2 + k3*u3;
end Add3;
block Sum "y = k*u, the weighted sum of the input vector"
  extends Modelica.Blocks.Interfaces.MISO;
  parameter Real k[nin] = ones(nin) "weights of the inputs";
equation
  y = k*u;
end Sum;
block Feedback "y = u1 - u2: the reference u1 less the measured u2"
  Modelica.Blocks.Interfaces.RealInput u1 "reference";
  Modelica.Blocks.Interfaces.RealInput u2 "feedback";
  Modelica.Blocks.Interfaces.RealOutput y;
equation
  y = u1 - u2;
end Feedback;
block Product "y = u1*u2"
  extends Modelica.Blocks.Interfaces.SI2SO;
equation
  y = u1*u2;
end Product;
block Division "y = u1/u2"
  extends Modelica.Blocks.Interfaces.SI2SO;
equation
  y = u1/u2;
end Division;
block Abs "y = |u|; with generateEvent, u = 0 is an event"
  extends Modelica.Blocks.Interfaces.SISO;
  parameter Boolean generateEvent = false "locate the zero crossings of u as events";
equation
  y = if generateEvent then (if u >= 0 then u else -u) else (if noEvent(u >= 0) then u else -u);
end Abs;
block Sign "y = 1, 0 or -1 as u is positive, zero or negative"
  extends Modelica.Blocks.Interfaces.SISO;
  parameter Boolean generateEvent = false "locate the zero crossings of u as events";
equation
  y = if generateEvent then (if u > 0 then 1 elseif u < 0 then -1 else 0)
    else (if noEvent(u > 0) then 1 elseif noEvent(u < 0) then -1 else 0);
end Sign;
block Sqrt "y = sqrt(u), u >= 0"
  extends Modelica.Blocks.Interfaces.SISO;
equation
  y = sqrt(u);
end Sqrt;
block Sin "y = sin(u)"
  extends Modelica.Blocks.Interfaces.SISO(u(unit = "rad"));
equation
  y = sin(u);
end Sin;
block Cos "y = cos(u)"
  extends Modelica.Blocks.Interfaces.SISO(u(unit = "rad"));
equation
  y = cos(u);
end Cos;
block Tan "y = tan(u)"
  extends Modelica.Blocks.Interfaces.SISO(u(unit = "rad"));
equation
  y = tan(u);
end Tan;
block Asin "y = asin(u), |u| <= 1"
  extends Modelica.Blocks.Interfaces.SISO(y(unit = "rad"));
equation
  y = asin(u);
end Asin;
block Acos "y = acos(u), |u| <= 1"
  extends Modelica.Blocks.Interfaces.SISO(y(unit = "rad"));
equation
  y = acos(u);
end Acos;
block Atan "y = atan(u)"
  extends Modelica.Blocks.Interfaces.SISO(y(unit = "rad"));
equation
  y = atan(u);
end Atan;
block Sinh "y = sinh(u)"
  extends Modelica.Blocks.Interfaces.SISO;
equation
  y = sinh(u);
end Sinh;
block Cosh "y = cosh(u)"
  extends Modelica.Blocks.Interfaces.SISO;
equation
  y = cosh(u);
end Cosh;
block Tanh "y = tanh(u)"
  extends Modelica.Blocks.Interfaces.SISO;
equation
  y = tanh(u);
end Tanh;
block Exp "y = e^u"
  extends Modelica.Blocks.Interfaces.SISO;
equation
  y = exp(u);
end Exp;
block Power "y = base^u"
  extends Modelica.Blocks.Interfaces.SISO;
  parameter Real base = Modelica.Constants.e "base of the power";
  parameter Boolean useExp = true "compute it as exp(u*log(base))";
equation
  y = if useExp then exp(u*log(base)) else base^u;
end Power;
block Log "y = log(u)/log(base), u > 0"
  extends Modelica.Blocks.Interfaces.SISO;
  parameter Real base = Modelica.Constants.e "base of the logarithm";
equation
  y = log(u)/log(base);
end Log;
block Log10 "y = log10(u), u > 0"
  extends Modelica.Blocks.Interfaces.SISO;
equation
  y = log10(u);
end Log10;
block Atan2 "y = atan2(u1, u2), the angle of the point (u2, u1)"
  extends Modelica.Blocks.Interfaces.SI2SO(y(unit = "rad"));
equation
  y = atan2(u1, u2);
end Atan2;
block WrapAngle "y = u wrapped into (-pi, pi], or [0, 2 pi) with positiveRange"
  extends Modelica.Blocks.Interfaces.SISO(u(unit = "rad"), y(unit = "rad"));
  parameter Boolean positiveRange = false "wrap into [0, 2 pi)";
protected
  Real r "u modulo 2 pi, in [0, 2 pi)";
equation
  /* as a function call computes it: no events at the wraps */
  r = noEvent(mod(u, 2*Modelica.Constants.pi));
  y = if positiveRange then r else noEvent(if r > Modelica.Constants.pi then r - 2*Modelica.Constants.pi else r);
end WrapAngle;
block Max "y = max(u1, u2)"
  extends Modelica.Blocks.Interfaces.SI2SO;
equation
  y = max(u1, u2);
end Max;
block Min "y = min(u1, u2)"
  extends Modelica.Blocks.Interfaces.SI2SO;
equation
  y = min(u1, u2);
end Min;
block MinMax "the smallest and the largest element of the input vector"
  parameter Integer nu(min = 0) = 0 "number of inputs";
  Modelica.Blocks.Interfaces.RealVectorInput u[nu];
  Modelica.Blocks.Interfaces.RealOutput yMax;
  Modelica.Blocks.Interfaces.RealOutput yMin;
equation
  yMax = max(u);
  yMin = min(u);
end MinMax;
block LinearDependency "y = y0 + k1*u1 + k2*u2"
  extends Modelica.Blocks.Interfaces.SI2SO;
  parameter Real y0 = 0 "offset";
  parameter Real k1 = 0 "weight of u1";
  parameter Real k2 = 0 "weight of u2";
equation
  y = y0 + k1*u1 + k2*u2;
end LinearDependency;
block RectangularToPolar "(u_re, u_im) to length y_abs and angle y_arg"
  Modelica.Blocks.Interfaces.RealInput u_re;
  Modelica.Blocks.Interfaces.RealInput u_im;
  Modelica.Blocks.Interfaces.RealOutput y_abs;
  Modelica.Blocks.Interfaces.RealOutput y_arg(unit = "rad");
equation
  y_abs = sqrt(u_re*u_re + u_im*u_im);
  y_arg = atan2(u_im, u_re);
end RectangularToPolar;
block PolarToRectangular "length u_abs and angle u_arg to (y_re, y_im)"
  Modelica.Blocks.Interfaces.RealInput u_abs;
  Modelica.Blocks.Interfaces.RealInput u_arg(unit = "rad");
  Modelica.Blocks.Interfaces.RealOutput y_re;
  Modelica.Blocks.Interfaces.RealOutput y_im;
equation
  y_re = u_abs*cos(u_arg);
  y_im = u_abs*sin(u_arg);
end PolarToRectangular;
block Mean "the mean of u over each period 1/f, held until the next period ends"
  extends Modelica.Blocks.Interfaces.SISO;
  parameter Modelica.Units.SI.Frequency f(start = 50) "1/f is the averaging period";
  parameter Real x0 = 0 "integral of u at the start";
  parameter Boolean yGreaterOrEqualZero = false "clip the output at 0 (for means that cannot be negative)";
protected
  Real x "integral of u over the running period";
  Modelica.Units.SI.Time t_period "time since the running period began";
  discrete Real y_last(start = 0) "the mean of the last period ended";
initial equation
  x = x0;
  t_period = 0;
equation
  /* The periods end at t0 + k/f, t0 the start of the run: flange knows no
   * parameters fixed at initialisation (the MSL's t0(fixed = false) with
   * sample(t0 + 1/f, 1/f)), so the time since the last end is a state of
   * its own, reset with x at the end of each period. */
  assert(f > 0, "the frequency f of a Mean must be positive");
  der(x) = u;
  der(t_period) = 1;
  when t_period >= 1/f then
    y_last = if not yGreaterOrEqualZero then f*pre(x) else max(0.0, f*pre(x));
    reinit(x, 0);
    reinit(t_period, 0);
  end when;
  y = y_last;
end Mean;
block RectifiedMean "the mean of |u| over each period 1/f"
  extends Modelica.Blocks.Interfaces.SISO;
  parameter Modelica.Units.SI.Frequency f(start = 50) "1/f is the averaging period";
  parameter Real x0 = 0 "integral of |u| at the start";
  Modelica.Blocks.Math.Mean mean(final f = f, final x0 = x0);
  Modelica.Blocks.Math.Abs abs1;
equation
  connect(u, abs1.u);
  connect(abs1.y, mean.u);
  y = mean.y; /* an equation, not a connect: u and y are then variables of the block, in the results */
end RectifiedMean;
block RootMeanSquare "sqrt of the mean of u^2 over each period 1/f"
  extends Modelica.Blocks.Interfaces.SISO;
  parameter Modelica.Units.SI.Frequency f(start = 50) "1/f is the averaging period";
  parameter Real x0 = 0 "integral of u^2 at the start";
  Modelica.Blocks.Math.MultiProduct product(nu = 2);
  Modelica.Blocks.Math.Mean mean(final f = f, final yGreaterOrEqualZero = true, final x0 = x0);
  Modelica.Blocks.Math.Sqrt sqrt1;
equation
  connect(u, product.u[1]);
  connect(u, product.u[2]);
  connect(product.y, mean.u);
  connect(mean.y, sqrt1.u);
  y = sqrt1.y; /* (as in RectifiedMean) */
end RootMeanSquare;
block ContinuousMean "the running mean of u since the start of the run"
  parameter Modelica.Units.SI.Time t_eps(min = 100*Modelica.Constants.eps) = 1e-7 "y = u until this time after the start";
  Modelica.Blocks.Interfaces.RealInput u;
  Modelica.Blocks.Interfaces.RealOutput y "mean of u";
protected
  Real mu "the mean";
  Modelica.Units.SI.Time t_run "time since the start";
initial equation
  mu = u;
  t_run = 0;
equation
  /* t_run stands for the MSL's time - t_0 (flange has no parameters fixed
   * at initialisation) */
  der(t_run) = 1;
  der(mu) = noEvent(if t_run >= t_eps then (u - mu)/t_run else 0);
  y = noEvent(if t_run >= t_eps then mu else u);
end ContinuousMean;
block Variance "the running variance of u since the start of the run"
  parameter Modelica.Units.SI.Time t_eps(min = 100*Modelica.Constants.eps) = 1e-7 "y = 0 until this time after the start";
  Modelica.Blocks.Interfaces.RealInput u;
  Modelica.Blocks.Interfaces.RealOutput y "variance of u";
protected
  Real mu "the mean";
  Real var "the variance";
  Modelica.Units.SI.Time t_run "time since the start";
initial equation
  mu = u;
  var = 0;
  t_run = 0;
equation
  der(t_run) = 1;
  der(mu) = noEvent(if t_run >= t_eps then (u - mu)/t_run else 0);
  der(var) = noEvent(if t_run >= t_eps then ((u - mu)^2 - var)/t_run else 0);
  y = noEvent(if t_run >= t_eps then max(var, 0) else 0);
end Variance;
block StandardDeviation "the running standard deviation of u since the start of the run"
  parameter Modelica.Units.SI.Time t_eps(min = 100*Modelica.Constants.eps) = 1e-7 "y = 0 until this time after the start";
  Modelica.Blocks.Interfaces.RealInput u;
  Modelica.Blocks.Interfaces.RealOutput y "standard deviation of u";
  Modelica.Blocks.Math.Variance variance(t_eps = t_eps);
  Modelica.Blocks.Math.Sqrt sqrt1;
equation
  connect(u, variance.u);
  connect(variance.y, sqrt1.u);
  y = sqrt1.y; /* (as in RectifiedMean) */
end StandardDeviation;
block InverseBlockConstraints "u1 = u2 and y1 = y2: turns a block around for an inverse model"
  Modelica.Blocks.Interfaces.RealInput u1 "equal to u2";
  Modelica.Blocks.Interfaces.RealInput u2 "equal to u1";
  Modelica.Blocks.Interfaces.RealOutput y1 "equal to y2";
  Modelica.Blocks.Interfaces.RealOutput y2 "equal to y1";
equation
  u1 = u2;
  y1 = y2;
end InverseBlockConstraints;
