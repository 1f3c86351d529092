within Modelica.Blocks.Continuous;
// The linear systems and filters of Modelica.Blocks.Continuous (MSL 4.1.0
// semantics: parameter names, defaults, initType, state names and scaling),
// and the coefficient functions of Internal.Filter they are designed with.
// Why Modelica text: the blocks are plain linear equations; written here
// they run on the equation layer like any user block, and the filter design
// is ordinary function code evaluated once when the parameters are.
// Every name is a full path: the text must mean the same in any model.

block TransferFunction "y = b(s)/a(s)*u, states of the controller canonical form"
  extends Modelica.Blocks.Interfaces.SISO;
  parameter Real b[:] = {1} "numerator, highest power of s first ({2, 3}: 2*s + 3)";
  parameter Real a[:] = {1} "denominator, highest power of s first ({5, 6}: 5*s + 6)";
  parameter Modelica.Blocks.Types.Init initType = Modelica.Blocks.Types.Init.NoInit "initialisation";
  parameter Real x_start[size(a, 1) - 1] = zeros(nx) "initial (or guess) values of x";
  parameter Real y_start = 0 "initial output (InitialOutput; derivatives of y start at zero)";
  output Real x[size(a, 1) - 1](start = x_start) "states, unscaled";
protected
  parameter Integer na = size(a, 1);
  parameter Integer nb = size(b, 1);
  parameter Integer nx = size(a, 1) - 1;
  parameter Integer nbb = if nb > na then nb else na;
  parameter Real bb[nbb] = Modelica.Blocks.Continuous.Internal.padLeft(b, nbb) "b with leading zeros to the length of a";
  parameter Real d = bb[1]/a[1] "direct feedthrough";
  parameter Real a_end = if a[end] > 100*Modelica.Constants.eps*sqrt(sum(a .* a)) then a[end] else 1.0 "scale of the states";
  Real x_scaled[nx] "the integrated states: x*a_end";
initial equation
  if initType == Modelica.Blocks.Types.Init.SteadyState then
    der(x_scaled) = zeros(nx);
  elseif initType == Modelica.Blocks.Types.Init.InitialState then
    x_scaled = x_start*a_end;
  elseif initType == Modelica.Blocks.Types.Init.InitialOutput then
    y = y_start;
    der(x_scaled[2:nx]) = zeros(nx - 1);
  end if;
equation
  assert(size(b, 1) <= size(a, 1), "Transfer function is not proper");
  if nx == 0 then
    y = d*u;
  else
    der(x_scaled[1]) = (-a[2:na]*x_scaled + a_end*u)/a[1];
    der(x_scaled[2:nx]) = x_scaled[1:nx - 1];
    y = ((bb[2:na] - d*a[2:na])*x_scaled)/a_end + d*u;
    x = x_scaled/a_end;
  end if;
end TransferFunction;

block StateSpace "der(x) = A*x + B*u, y = C*x + D*u"
  parameter Real A[:, size(A, 1)] = [1, 0; 0, 1] "system matrix";
  parameter Real B[size(A, 1), :] = [1; 1] "input matrix";
  parameter Real C[:, size(A, 1)] = [1, 1] "output matrix";
  parameter Real D[size(C, 1), size(B, 2)] = zeros(size(C, 1), size(B, 2)) "feedthrough matrix";
  parameter Modelica.Blocks.Types.Init initType = Modelica.Blocks.Types.Init.NoInit "initialisation";
  parameter Real x_start[nx] = zeros(nx) "initial (or guess) values of x";
  parameter Real y_start[ny] = zeros(ny) "initial outputs (InitialOutput; the states as steady as they can be)";
  extends Modelica.Blocks.Interfaces.MIMO(final nin = size(B, 2), final nout = size(C, 1));
  output Real x[size(A, 1)](start = x_start) "states";
protected
  parameter Integer nx = size(A, 1);
  parameter Integer ny = size(C, 1);
initial equation
  if initType == Modelica.Blocks.Types.Init.SteadyState then
    der(x) = zeros(nx);
  elseif initType == Modelica.Blocks.Types.Init.InitialState then
    x = x_start;
  elseif initType == Modelica.Blocks.Types.Init.InitialOutput then
    // (element by element: a function called from an equation returns numbers of known count)
    for i in 1:nx loop
      x[i] = Modelica.Blocks.Continuous.Internal.equalityLeastSquaresElement(A, -B*u, C, y_start - D*u, i);
    end for;
  end if;
equation
  der(x) = A*x + B*u;
  y = C*x + D*u;
end StateSpace;

block CriticalDamping "n identical first-order lags in series"
  extends Modelica.Blocks.Interfaces.SISO;
  parameter Integer n = 2 "order";
  parameter Modelica.Units.SI.Frequency f(start = 1) "cut-off frequency";
  parameter Boolean normalized = true "true: the gain at f is 3 dB down; false: each lag's corner is at f";
  parameter Modelica.Blocks.Types.Init initType = Modelica.Blocks.Types.Init.NoInit "initialisation";
  parameter Real x_start[n] = zeros(n) "initial (or guess) values of x";
  parameter Real y_start = 0.0 "initial output (InitialOutput; the other states steady)";
  output Real x[n](start = x_start) "output of each lag";
protected
  parameter Real alpha = if normalized then sqrt(2^(1/n) - 1) else 1.0 "corner of one lag over f";
  parameter Real w = 2*Modelica.Constants.pi*f/alpha "corner of one lag, rad/s";
initial equation
  if initType == Modelica.Blocks.Types.Init.SteadyState then
    der(x) = zeros(n);
  elseif initType == Modelica.Blocks.Types.Init.InitialState then
    x = x_start;
  elseif initType == Modelica.Blocks.Types.Init.InitialOutput then
    y = y_start;
    der(x[1:n - 1]) = zeros(n - 1);
  end if;
equation
  der(x[1]) = (u - x[1])*w;
  for i in 2:n loop
    der(x[i]) = (x[i - 1] - x[i])*w;
  end for;
  y = x[n];
end CriticalDamping;

block LowpassButterworth "Butterworth low pass: second-order sections and, for odd n, a first-order lag"
  extends Modelica.Blocks.Interfaces.SISO;
  parameter Integer n(min = 1) = 2 "order";
  parameter Modelica.Units.SI.Frequency f(start = 1) "cut-off frequency";
  parameter Modelica.Blocks.Types.Init initType = Modelica.Blocks.Types.Init.NoInit "initialisation";
  parameter Real x1_start[m] = zeros(m) "initial (or guess) values of x1 (der(x1) = x2)";
  parameter Real x2_start[m] = zeros(m) "initial (or guess) values of x2";
  parameter Real xr_start = 0.0 "initial (or guess) value of xr (odd n)";
  parameter Real y_start = 0.0 "initial output (InitialOutput; the sections steady)";
  output Real x1[m](start = x1_start) "outputs of the second-order sections";
  output Real x2[m](start = x2_start) "their derivatives";
  output Real xr(start = xr_start) "state of the first-order lag (odd n; 0 otherwise)";
protected
  parameter Integer m = integer(n/2) "second-order sections";
  parameter Boolean evenOrder = 2*m == n;
  parameter Real w = 2*Modelica.Constants.pi*f;
  Real z[m + 1] "input of each section, output of the last";
  Real polereal[m] "poles of the prototype (1 rad/s)";
  Real poleimag[m];
  Real realpol;
  Real k2[m];
  Real D[m] "damping of each section";
  Real w0[m] "natural frequency of each section";
  Real k1;
  Real T "time constant of the lag";
initial equation
  if initType == Modelica.Blocks.Types.Init.SteadyState then
    der(x1) = zeros(m);
    der(x2) = zeros(m);
    if not evenOrder then
      der(xr) = 0.0;
    end if;
  elseif initType == Modelica.Blocks.Types.Init.InitialState then
    x1 = x1_start;
    x2 = x2_start;
    if not evenOrder then
      xr = xr_start;
    end if;
  elseif initType == Modelica.Blocks.Types.Init.InitialOutput then
    // (MSL states der(x1) = 0 twice for an odd order, which leaves the
    // sections' x2 open; here the sections are steady and y fixes xr)
    y = y_start;
    der(x1) = zeros(m);
    if evenOrder then
      if m > 1 then
        der(x2[1:m - 1]) = zeros(m - 1);
      end if;
    else
      der(x2) = zeros(m);
    end if;
  end if;
equation
  k2 = ones(m);
  k1 = 1;
  z[1] = u;
  for i in 1:m loop
    polereal[i] = Modelica.Math.cos(Modelica.Constants.pi/2 + Modelica.Constants.pi/n*(i - 0.5));
    poleimag[i] = Modelica.Math.sin(Modelica.Constants.pi/2 + Modelica.Constants.pi/n*(i - 0.5));
    w0[i] = (polereal[i]^2 + poleimag[i]^2)*w;
    D[i] = -polereal[i]/w0[i]*w;
  end for;
  realpol = 1*w;
  T = 1/realpol;
  for i in 1:m loop
    der(x1[i]) = x2[i];
    der(x2[i]) = k2[i]*w0[i]^2*z[i] - 2*D[i]*w0[i]*x2[i] - w0[i]^2*x1[i];
    z[i + 1] = x1[i];
  end for;
  if evenOrder then
    xr = 0;
    y = z[m + 1];
  else
    der(xr) = (k1*z[m + 1] - xr)/T;
    y = xr;
  end if;
end LowpassButterworth;

block Filter "low, high, band pass or band stop of CriticalDamping, Bessel, Butterworth or ChebyshevI characteristic"
  extends Modelica.Blocks.Interfaces.SISO;
  parameter Modelica.Blocks.Types.AnalogFilter analogFilter = Modelica.Blocks.Types.AnalogFilter.CriticalDamping "characteristic";
  parameter Modelica.Blocks.Types.FilterType filterType = Modelica.Blocks.Types.FilterType.LowPass "low/high pass, band pass/stop";
  parameter Integer order(min = 1) = 2 "order";
  parameter Modelica.Units.SI.Frequency f_cut "cut-off frequency (upper band edge of band filters)";
  parameter Real gain = 1.0 "gain at zero frequency (low pass, band stop) or infinite (high pass), at the centre (band pass)";
  parameter Real A_ripple(unit = "dB") = 0.5 "pass band ripple of ChebyshevI (> 0)";
  parameter Modelica.Units.SI.Frequency f_min = 0 "lower band edge of band filters";
  parameter Boolean normalized = true "true: the gain at f_cut is 3 dB down";
  parameter Modelica.Blocks.Types.Init init = Modelica.Blocks.Types.Init.SteadyState "initialisation";
  final parameter Integer nx = if filterType == Modelica.Blocks.Types.FilterType.LowPass or filterType == Modelica.Blocks.Types.FilterType.HighPass then order else 2*order;
  parameter Real x_start[nx] = zeros(nx) "initial (or guess) values of x";
  parameter Real y_start = 0 "initial output (InitialOutput)";
  parameter Real u_nominal = 1.0 "nominal input: the states are scaled by it";
  Modelica.Blocks.Interfaces.RealOutput x[nx] "filter states";
protected
  parameter Integer ncr = if analogFilter == Modelica.Blocks.Types.AnalogFilter.CriticalDamping then order else mod(order, 2);
  parameter Integer nc0 = if analogFilter == Modelica.Blocks.Types.AnalogFilter.CriticalDamping then 0 else integer(order/2);
  parameter Integer na = if filterType == Modelica.Blocks.Types.FilterType.BandPass or filterType == Modelica.Blocks.Types.FilterType.BandStop then order elseif analogFilter == Modelica.Blocks.Types.AnalogFilter.CriticalDamping then 0 else integer(order/2) "second-order sections";
  parameter Integer nr = if filterType == Modelica.Blocks.Types.FilterType.BandPass or filterType == Modelica.Blocks.Types.FilterType.BandStop then 0 elseif analogFilter == Modelica.Blocks.Types.AnalogFilter.CriticalDamping then order else mod(order, 2) "first-order sections";
  parameter Integer nk = if filterType == Modelica.Blocks.Types.FilterType.LowPass then 0 else na;
  // (the enumerations as numbers for the design function: 1, 2, 3, 4 in declaration order)
  parameter Integer analogCode = if analogFilter == Modelica.Blocks.Types.AnalogFilter.CriticalDamping then 1 elseif analogFilter == Modelica.Blocks.Types.AnalogFilter.Bessel then 2 elseif analogFilter == Modelica.Blocks.Types.AnalogFilter.Butterworth then 3 else 4;
  parameter Integer typeCode = if filterType == Modelica.Blocks.Types.FilterType.LowPass then 1 elseif filterType == Modelica.Blocks.Types.FilterType.HighPass then 2 elseif filterType == Modelica.Blocks.Types.FilterType.BandPass then 3 else 4;
  // the whole design at once: r, a, b, ku, k1, k2 one after the other
  parameter Real design[nr + 3*na + 2*nk] = Modelica.Blocks.Continuous.Internal.Filter.Utilities.sections(analogCode, typeCode, order, f_cut, f_min, A_ripple, normalized);
  parameter Real r[nr] = {design[i] for i in 1:nr} "real poles";
  parameter Real a[na] = {design[nr + i] for i in 1:na} "real parts of the complex pole pairs";
  parameter Real b[na] = {design[nr + na + i] for i in 1:na} "their imaginary parts";
  parameter Real ku[na] = {design[nr + 2*na + i] for i in 1:na} "input gains of the sections";
  parameter Real k1[nk] = {design[nr + 3*na + i] for i in 1:nk} "output gains of x1 (not low pass)";
  parameter Real k2[nk] = {design[nr + 3*na + nk + i] for i in 1:nk} "output gains of x2 (not low pass)";
  Real uu[na + nr + 1] "input of each section, output of the last";
initial equation
  if init == Modelica.Blocks.Types.Init.InitialState then
    x = x_start;
  elseif init == Modelica.Blocks.Types.Init.SteadyState then
    der(x) = zeros(nx);
  elseif init == Modelica.Blocks.Types.Init.InitialOutput then
    y = y_start;
    if nx > 1 then
      der(x[1:nx - 1]) = zeros(nx - 1);
    end if;
  end if;
equation
  assert(u_nominal > 0, "u_nominal > 0 required");
  assert(filterType == Modelica.Blocks.Types.FilterType.LowPass or filterType == Modelica.Blocks.Types.FilterType.HighPass or f_min > 0, "f_min > 0 required for band pass and band stop filter");
  assert(A_ripple > 0, "A_ripple > 0 required");
  assert(f_cut > 0, "f_cut > 0 required");
  // real pole r:         der(x) = r*(x - u)
  // pole pair a +- j*b:  der(x1) = a*x1 - b*x2 + ku*u, der(x2) = b*x1 + a*x2
  uu[1] = u/u_nominal;
  for i in 1:nr loop
    der(x[i]) = r[i]*(x[i] - uu[i]);
  end for;
  for i in 1:na loop
    der(x[nr + 2*i - 1]) = a[i]*x[nr + 2*i - 1] - b[i]*x[nr + 2*i] + ku[i]*uu[nr + i];
    der(x[nr + 2*i]) = b[i]*x[nr + 2*i - 1] + a[i]*x[nr + 2*i];
  end for;
  // what each section passes on depends on the filter type
  if filterType == Modelica.Blocks.Types.FilterType.LowPass then
    for i in 1:nr loop
      uu[i + 1] = x[i];
    end for;
    for i in 1:na loop
      uu[nr + i + 1] = x[nr + 2*i];
    end for;
  elseif filterType == Modelica.Blocks.Types.FilterType.HighPass then
    for i in 1:nr loop
      uu[i + 1] = -x[i] + uu[i];
    end for;
    for i in 1:na loop
      uu[nr + i + 1] = k1[i]*x[nr + 2*i - 1] + k2[i]*x[nr + 2*i] + uu[nr + i];
    end for;
  elseif filterType == Modelica.Blocks.Types.FilterType.BandPass then
    for i in 1:na loop
      uu[nr + i + 1] = k1[i]*x[nr + 2*i - 1] + k2[i]*x[nr + 2*i];
    end for;
  else
    for i in 1:na loop
      uu[nr + i + 1] = k1[i]*x[nr + 2*i - 1] + k2[i]*x[nr + 2*i] + uu[nr + i];
    end for;
  end if;
  y = (gain*u_nominal)*uu[nr + na + 1];
end Filter;

package Internal "functions the blocks above are built with"
  function padLeft "v with leading zeros to length n (n >= size(v, 1))"
    input Real v[:];
    input Integer n;
    output Real w[n];
  algorithm
    w := zeros(n);
    for i in 1:size(v, 1) loop
      w[n - size(v, 1) + i] := v[i];
    end for;
  end padLeft;

  function solveLinear "x with M*x = r, by Gaussian elimination with partial pivoting"
    input Real M[:, size(M, 1)];
    input Real r[size(M, 1)];
    output Real x[size(M, 1)];
  protected
    Integer n = size(M, 1);
    Real T[size(M, 1), size(M, 1)] = M;
    Real s[size(M, 1)] = r;
    Integer p;
    Real h;
    Real f;
  algorithm
    for k in 1:n loop
      p := k;
      for i in k + 1:n loop
        if abs(T[i, k]) > abs(T[p, k]) then
          p := i;
        end if;
      end for;
      assert(abs(T[p, k]) > 0, "the linear system is singular");
      if p <> k then
        for j in 1:n loop
          h := T[k, j];
          T[k, j] := T[p, j];
          T[p, j] := h;
        end for;
        h := s[k];
        s[k] := s[p];
        s[p] := h;
      end if;
      for i in k + 1:n loop
        f := T[i, k]/T[k, k];
        for j in k:n loop
          T[i, j] := T[i, j] - f*T[k, j];
        end for;
        s[i] := s[i] - f*s[k];
      end for;
    end for;
    for k in n:-1:1 loop
      h := s[k];
      for j in k + 1:n loop
        h := h - T[k, j]*x[j];
      end for;
      x[k] := h/T[k, k];
    end for;
  end solveLinear;

  function equalityLeastSquares "x minimising |A*x - a| subject to B*x = b (through the optimality conditions)"
    input Real A[:, :];
    input Real a[size(A, 1)];
    input Real B[:, size(A, 2)];
    input Real b[size(B, 1)];
    output Real x[size(A, 2)];
  protected
    Integer nx = size(A, 2);
    Integer nb = size(B, 1);
    Real K[size(A, 2) + size(B, 1), size(A, 2) + size(B, 1)];
    Real rhs[size(A, 2) + size(B, 1)];
    Real sol[size(A, 2) + size(B, 1)];
  algorithm
    // [A'A  B'; B  0] [x; lambda] = [A'a; b]
    K := zeros(nx + nb, nx + nb);
    rhs := zeros(nx + nb);
    for i in 1:nx loop
      for j in 1:nx loop
        K[i, j] := sum(A[k, i]*A[k, j] for k in 1:size(A, 1));
      end for;
      for j in 1:nb loop
        K[i, nx + j] := B[j, i];
        K[nx + j, i] := B[j, i];
      end for;
      rhs[i] := sum(A[k, i]*a[k] for k in 1:size(A, 1));
    end for;
    for j in 1:nb loop
      rhs[nx + j] := b[j];
    end for;
    sol := Modelica.Blocks.Continuous.Internal.solveLinear(K, rhs);
    x := sol[1:nx];
  end equalityLeastSquares;

  function equalityLeastSquaresElement "element i of equalityLeastSquares(A, a, B, b)"
    input Real A[:, :];
    input Real a[size(A, 1)];
    input Real B[:, size(A, 2)];
    input Real b[size(B, 1)];
    input Integer i;
    output Real xi;
  protected
    Real x[size(A, 2)];
  algorithm
    x := Modelica.Blocks.Continuous.Internal.equalityLeastSquares(A, a, B, b);
    xi := x[i];
  end equalityLeastSquaresElement;

  package Filter "the design of Continuous.Filter: prototype low passes at 1 rad/s, transformed to the filter type"
    package base "prototype low passes with a cut-off of 1 rad/s: real poles cr (s + cr) and pairs (s^2 + c1*s + c0)"
      function CriticalDamping "order equal real poles"
        input Integer order(min = 1);
        input Boolean normalized = true "3 dB down at 1 rad/s";
        output Real cr[order];
      protected
        Real alpha;
      algorithm
        alpha := if normalized then sqrt(10^(3/10/order) - 1) else 1.0;
        for i in 1:order loop
          cr[i] := 1/alpha;
        end for;
      end CriticalDamping;

      function Bessel "poles of the Bessel (maximally flat delay) filter"
        input Integer order(min = 1);
        input Boolean normalized = true "3 dB down at 1 rad/s; else a group delay of 1 s";
        output Real cr[mod(order, 2)];
        output Real c0[integer(order/2)];
        output Real c1[integer(order/2)];
      protected
        Real den1[mod(order, 2)];
        Real den2[integer(order/2), 2];
        Real alpha;
      algorithm
        (den1, den2, alpha) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.BesselBaseCoefficients(order);
        if not normalized then
          for i in 1:size(den2, 1) loop
            den2[i, 1] := den2[i, 1]*alpha*alpha;
            den2[i, 2] := den2[i, 2]*alpha;
          end for;
          for i in 1:size(den1, 1) loop
            den1[i] := den1[i]*alpha;
          end for;
        end if;
        (cr, c0, c1) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.toHighestPowerOne(den1, den2);
      end Bessel;

      function Butterworth "poles of the Butterworth filter (3 dB down at 1 rad/s either way)"
        input Integer order(min = 1);
        input Boolean normalized = true "(no effect: the filter is normalized as it is)";
        output Real cr[mod(order, 2)];
        output Real c0[integer(order/2)];
        output Real c1[integer(order/2)];
      protected
        Real den1[mod(order, 2)];
        Real den2[integer(order/2), 2];
      algorithm
        for i in 1:size(den2, 1) loop
          den2[i, 1] := 1.0;
          den2[i, 2] := -2*Modelica.Math.cos(Modelica.Constants.pi*(0.5 + (i - 0.5)/order));
        end for;
        for i in 1:size(den1, 1) loop
          den1[i] := 1.0;
        end for;
        (cr, c0, c1) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.toHighestPowerOne(den1, den2);
      end Butterworth;

      function ChebyshevI "poles of the Chebyshev filter of type I (ripple in the pass band)"
        input Integer order(min = 1);
        input Real A_ripple = 0.5 "pass band ripple, dB";
        input Boolean normalized = true "3 dB down at 1 rad/s; else the band edge of the ripple";
        output Real cr[mod(order, 2)];
        output Real c0[integer(order/2)];
        output Real c1[integer(order/2)];
      protected
        Real epsilon;
        Real fac;
        Real alpha;
        Real q;
        Real den1[mod(order, 2)];
        Real den2[integer(order/2), 2];
      algorithm
        epsilon := sqrt(10^(A_ripple/10) - 1);
        // asinh(1/epsilon)/order (1/epsilon > 0)
        fac := log(1/epsilon + sqrt(1/epsilon^2 + 1))/order;
        for i in 1:size(den1, 1) loop
          den1[i] := 1/sinh(fac);
        end for;
        for i in 1:size(den2, 1) loop
          // the pair's angle: (2i - 1)*pi/(2*order) for an even order, i*pi/order for an odd one
          q := if size(den1, 1) == 0 then cos((2*i - 1)*Modelica.Constants.pi/(2*order)) else cos(i*Modelica.Constants.pi/order);
          den2[i, 1] := 1/(cosh(fac)^2 - q^2);
          den2[i, 2] := 2*den2[i, 1]*sinh(fac)*q;
        end for;
        if normalized then
          alpha := Modelica.Blocks.Continuous.Internal.Filter.Utilities.normalizationFactor(den1, den2);
          for i in 1:size(den2, 1) loop
            den2[i, 1] := den2[i, 1]*alpha*alpha;
            den2[i, 2] := den2[i, 2]*alpha;
          end for;
          for i in 1:size(den1, 1) loop
            den1[i] := den1[i]*alpha;
          end for;
        end if;
        (cr, c0, c1) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.toHighestPowerOne(den1, den2);
      end ChebyshevI;
    end base;

    package coefficients "the prototype moved to the cut-off frequency and filter type: cr, c0, c1 in rad/s"
      function lowPass "s -> s/w_cut"
        input Real cr_in[:];
        input Real c0_in[:];
        input Real c1_in[size(c0_in, 1)];
        input Modelica.Units.SI.Frequency f_cut;
        output Real cr[size(cr_in, 1)];
        output Real c0[size(c0_in, 1)];
        output Real c1[size(c0_in, 1)];
      protected
        Real w = 2*Modelica.Constants.pi*f_cut;
      algorithm
        assert(f_cut > 0, "Cut-off frequency f_cut must be positive");
        cr := w*cr_in;
        c1 := w*c1_in;
        c0 := w*w*c0_in;
      end lowPass;

      function highPass "s -> w_cut/s"
        input Real cr_in[:];
        input Real c0_in[:];
        input Real c1_in[size(c0_in, 1)];
        input Modelica.Units.SI.Frequency f_cut;
        output Real cr[size(cr_in, 1)];
        output Real c0[size(c0_in, 1)];
        output Real c1[size(c0_in, 1)];
      protected
        Real w = 2*Modelica.Constants.pi*f_cut;
      algorithm
        assert(f_cut > 0, "Cut-off frequency f_cut must be positive");
        for i in 1:size(cr_in, 1) loop
          cr[i] := w/cr_in[i];
        end for;
        for i in 1:size(c0_in, 1) loop
          c0[i] := w*w/c0_in[i];
          c1[i] := w*c1_in[i]/c0_in[i];
        end for;
      end highPass;

      function bandPass "s -> (s + 1/s)/w_band around the centre sqrt(f_min*f_max); pairs only"
        input Real cr_in[:];
        input Real c0_in[:];
        input Real c1_in[size(c0_in, 1)];
        input Modelica.Units.SI.Frequency f_min "lower band edge";
        input Modelica.Units.SI.Frequency f_max "upper band edge";
        output Real cr[0];
        output Real c0[size(cr_in, 1) + 2*size(c0_in, 1)];
        output Real c1[size(cr_in, 1) + 2*size(c0_in, 1)];
        output Real cn "numerator of every pair: cn*s";
      protected
        Real f0 = sqrt(f_min*f_max);
        Real w = 2*Modelica.Constants.pi*f0;
        Real w_band = (f_max - f_min)/f0;
        Real alpha;
        Real c;
        Integer j;
      algorithm
        assert(f_min > 0 and f_min < f_max, "Band frequencies f_min and f_max are wrong");
        for i in 1:size(cr_in, 1) loop
          c1[i] := w*cr_in[i]*w_band;
          c0[i] := w*w;
        end for;
        // a pair of the prototype becomes two pairs, at alpha and 1/alpha around the centre
        for i in 1:size(c0_in, 1) loop
          alpha := Modelica.Blocks.Continuous.Internal.Filter.Utilities.bandPassAlpha(c1_in[i], c0_in[i], w_band);
          c := c1_in[i]*w_band/(alpha + 1/alpha);
          j := size(cr_in, 1) + 2*i - 1;
          c1[j] := w*c/alpha;
          c1[j + 1] := w*c*alpha;
          c0[j] := w*w/alpha^2;
          c0[j + 1] := w*w*alpha^2;
        end for;
        cn := w_band*w;
      end bandPass;

      function bandStop "s -> w_band/(s + 1/s) around the centre sqrt(f_min*f_max); pairs only"
        input Real cr_in[:];
        input Real c0_in[:];
        input Real c1_in[size(c0_in, 1)];
        input Modelica.Units.SI.Frequency f_min "lower band edge";
        input Modelica.Units.SI.Frequency f_max "upper band edge";
        output Real cr[0];
        output Real c0[size(cr_in, 1) + 2*size(c0_in, 1)];
        output Real c1[size(cr_in, 1) + 2*size(c0_in, 1)];
      protected
        Real f0 = sqrt(f_min*f_max);
        Real w = 2*Modelica.Constants.pi*f0;
        Real w_band = (f_max - f_min)/f0;
        Real ww;
        Real alpha;
        Real c;
        Integer j;
      algorithm
        assert(f_min > 0 and f_min < f_max, "Band frequencies f_min and f_max are wrong");
        for i in 1:size(cr_in, 1) loop
          c1[i] := w*w_band/cr_in[i];
          c0[i] := w*w;
        end for;
        for i in 1:size(c0_in, 1) loop
          ww := w_band/c0_in[i];
          alpha := Modelica.Blocks.Continuous.Internal.Filter.Utilities.bandPassAlpha(c1_in[i], c0_in[i], ww);
          c := c1_in[i]*ww/(alpha + 1/alpha);
          j := size(cr_in, 1) + 2*i - 1;
          c1[j] := w*c/alpha;
          c1[j + 1] := w*c*alpha;
          c0[j] := w*w/alpha^2;
          c0[j + 1] := w*w*alpha^2;
        end for;
      end bandStop;
    end coefficients;

    package roots "the sections of the block: real poles r, pole pairs a +- j*b with input gain ku and output gains k1, k2"
      function lowPass "y = x of each real pole, y = x2 of each pair"
        input Real cr_in[:];
        input Real c0_in[:];
        input Real c1_in[size(c0_in, 1)];
        input Modelica.Units.SI.Frequency f_cut;
        output Real r[size(cr_in, 1)];
        output Real a[size(c0_in, 1)];
        output Real b[size(c0_in, 1)];
        output Real ku[size(c0_in, 1)];
      protected
        Real cr[size(cr_in, 1)];
        Real c0[size(c0_in, 1)];
        Real c1[size(c0_in, 1)];
      algorithm
        (cr, c0, c1) := Modelica.Blocks.Continuous.Internal.Filter.coefficients.lowPass(cr_in, c0_in, c1_in, f_cut);
        r := -cr;
        for i in 1:size(c0_in, 1) loop
          a[i] := -c1[i]/2;
          b[i] := sqrt(c0[i] - a[i]*a[i]);
          ku[i] := c0[i]/b[i];
        end for;
      end lowPass;

      function highPass "y = u - x of each real pole, y = k1*x1 + k2*x2 + u of each pair"
        input Real cr_in[:];
        input Real c0_in[:];
        input Real c1_in[size(c0_in, 1)];
        input Modelica.Units.SI.Frequency f_cut;
        output Real r[size(cr_in, 1)];
        output Real a[size(c0_in, 1)];
        output Real b[size(c0_in, 1)];
        output Real ku[size(c0_in, 1)];
        output Real k1[size(c0_in, 1)];
        output Real k2[size(c0_in, 1)];
      protected
        Real cr[size(cr_in, 1)];
        Real c0[size(c0_in, 1)];
        Real c1[size(c0_in, 1)];
        Real ba2;
      algorithm
        (cr, c0, c1) := Modelica.Blocks.Continuous.Internal.Filter.coefficients.highPass(cr_in, c0_in, c1_in, f_cut);
        r := -cr;
        for i in 1:size(c0_in, 1) loop
          a[i] := -c1[i]/2;
          b[i] := sqrt(c0[i] - a[i]*a[i]);
          ku[i] := c0[i]/b[i];
          k1[i] := 2*a[i]/ku[i];
          ba2 := (b[i]/a[i])^2;
          k2[i] := (1 - ba2)/(1 + ba2);
        end for;
      end highPass;

      function bandPass "y = k1*x1 + k2*x2 of each pair"
        input Real cr_in[:];
        input Real c0_in[:];
        input Real c1_in[size(c0_in, 1)];
        input Modelica.Units.SI.Frequency f_min;
        input Modelica.Units.SI.Frequency f_max;
        output Real a[size(cr_in, 1) + 2*size(c0_in, 1)];
        output Real b[size(cr_in, 1) + 2*size(c0_in, 1)];
        output Real ku[size(cr_in, 1) + 2*size(c0_in, 1)];
        output Real k1[size(cr_in, 1) + 2*size(c0_in, 1)];
        output Real k2[size(cr_in, 1) + 2*size(c0_in, 1)];
      protected
        Real cr[0];
        Real c0[size(cr_in, 1) + 2*size(c0_in, 1)];
        Real c1[size(cr_in, 1) + 2*size(c0_in, 1)];
        Real cn;
        Real bb;
      algorithm
        (cr, c0, c1, cn) := Modelica.Blocks.Continuous.Internal.Filter.coefficients.bandPass(cr_in, c0_in, c1_in, f_min, f_max);
        for i in 1:size(a, 1) loop
          a[i] := -c1[i]/2;
          bb := c0[i] - a[i]*a[i];
          assert(bb >= 0, "Not possible to use band pass filter, since transformation results in system that does not have conjugate complex poles. Try to use another analog filter for the band pass.");
          b[i] := sqrt(bb);
          ku[i] := c0[i]/b[i];
          k1[i] := cn/ku[i];
          k2[i] := cn*a[i]/(b[i]*ku[i]);
        end for;
      end bandPass;

      function bandStop "y = k1*x1 + k2*x2 + u of each pair"
        input Real cr_in[:];
        input Real c0_in[:];
        input Real c1_in[size(c0_in, 1)];
        input Modelica.Units.SI.Frequency f_min;
        input Modelica.Units.SI.Frequency f_max;
        output Real a[size(cr_in, 1) + 2*size(c0_in, 1)];
        output Real b[size(cr_in, 1) + 2*size(c0_in, 1)];
        output Real ku[size(cr_in, 1) + 2*size(c0_in, 1)];
        output Real k1[size(cr_in, 1) + 2*size(c0_in, 1)];
        output Real k2[size(cr_in, 1) + 2*size(c0_in, 1)];
      protected
        Real cr[0];
        Real c0[size(cr_in, 1) + 2*size(c0_in, 1)];
        Real c1[size(cr_in, 1) + 2*size(c0_in, 1)];
        Real bb;
      algorithm
        (cr, c0, c1) := Modelica.Blocks.Continuous.Internal.Filter.coefficients.bandStop(cr_in, c0_in, c1_in, f_min, f_max);
        for i in 1:size(a, 1) loop
          a[i] := -c1[i]/2;
          bb := c0[i] - a[i]*a[i];
          assert(bb >= 0, "Not possible to use band stop filter, since transformation results in system that does not have conjugate complex poles. Try to use another analog filter for the band stop filter.");
          b[i] := sqrt(bb);
          ku[i] := c0[i]/b[i];
          k1[i] := 2*a[i]/ku[i];
          k2[i] := (c0[i] + a[i]^2 - b[i]^2)/(b[i]*ku[i]);
        end for;
      end bandStop;
    end roots;

    package Utilities "helpers of the filter design"
      function sections "the sections of a Filter block, packed: r, a, b, ku, k1, k2 (the enumerations as 1..4)"
        input Integer analogFilter "1 CriticalDamping, 2 Bessel, 3 Butterworth, 4 ChebyshevI";
        input Integer filterType "1 LowPass, 2 HighPass, 3 BandPass, 4 BandStop";
        input Integer order;
        input Real f_cut;
        input Real f_min;
        input Real A_ripple;
        input Boolean normalized;
        output Real packed[:];
      protected
        Real cr[:];
        Real c0[:];
        Real c1[:];
        Real r[:];
        Real a[:];
        Real b[:];
        Real ku[:];
        Real k1[:];
        Real k2[:];
      algorithm
        assert(order >= 1, "the order of a filter must be at least 1");
        if analogFilter == 1 then
          cr := Modelica.Blocks.Continuous.Internal.Filter.base.CriticalDamping(order, normalized);
          c0 := zeros(0);
          c1 := zeros(0);
        elseif analogFilter == 2 then
          (cr, c0, c1) := Modelica.Blocks.Continuous.Internal.Filter.base.Bessel(order, normalized);
        elseif analogFilter == 3 then
          (cr, c0, c1) := Modelica.Blocks.Continuous.Internal.Filter.base.Butterworth(order, normalized);
        else
          (cr, c0, c1) := Modelica.Blocks.Continuous.Internal.Filter.base.ChebyshevI(order, A_ripple, normalized);
        end if;
        if filterType == 1 then
          (r, a, b, ku) := Modelica.Blocks.Continuous.Internal.Filter.roots.lowPass(cr, c0, c1, f_cut);
          k1 := zeros(0);
          k2 := zeros(0);
        elseif filterType == 2 then
          (r, a, b, ku, k1, k2) := Modelica.Blocks.Continuous.Internal.Filter.roots.highPass(cr, c0, c1, f_cut);
        elseif filterType == 3 then
          r := zeros(0);
          (a, b, ku, k1, k2) := Modelica.Blocks.Continuous.Internal.Filter.roots.bandPass(cr, c0, c1, f_min, f_cut);
        else
          r := zeros(0);
          (a, b, ku, k1, k2) := Modelica.Blocks.Continuous.Internal.Filter.roots.bandStop(cr, c0, c1, f_min, f_cut);
        end if;
        packed := cat(1, r, a, b, ku, k1, k2);
      end sections;

      function toHighestPowerOne "den1[i]*s + 1 -> s + cr[i]; den2[i, 1]*s^2 + den2[i, 2]*s + 1 -> s^2 + c1[i]*s + c0[i]"
        input Real den1[:];
        input Real den2[:, 2];
        output Real cr[size(den1, 1)];
        output Real c0[size(den2, 1)];
        output Real c1[size(den2, 1)];
      algorithm
        for i in 1:size(den1, 1) loop
          cr[i] := 1/den1[i];
        end for;
        for i in 1:size(den2, 1) loop
          c1[i] := den2[i, 2]/den2[i, 1];
          c0[i] := 1/den2[i, 1];
        end for;
      end toHighestPowerOne;

      function normalizationResidue "|H(j*alpha)| - 10^(-3/20) of H = 1/prod(den1[i]*p + 1)/prod(den2[i, 1]*p^2 + den2[i, 2]*p + 1)"
        input Real c1[:];
        input Real c2[:, 2];
        input Real alpha;
        output Real residue;
      protected
        Real A2 = 1 "|den(j*alpha)|^2";
      algorithm
        for i in 1:size(c1, 1) loop
          A2 := A2*(1 + (c1[i]*alpha)^2);
        end for;
        for i in 1:size(c2, 1) loop
          A2 := A2*(1 + (c2[i, 2]^2 - 2*c2[i, 1])*alpha^2 + (c2[i, 1]*alpha^2)^2);
        end for;
        residue := 1/sqrt(A2) - 10^(-3/20);
      end normalizationResidue;

      function normalizationFactor "the frequency alpha where the low pass den1, den2 is 3 dB down (replace p by alpha*p to move it to 1)"
        input Real c1[:] "[p] coefficients of c1[i]*p + 1";
        input Real c2[:, 2] "[p^2, p] coefficients of c2[i, 1]*p^2 + c2[i, 2]*p + 1";
        output Real alpha;
      protected
        Real lo = 0;
        Real hi = 1;
        Real mid;
        Integer k = 0;
      algorithm
        // the magnitude falls with the frequency: bracket the crossing, then halve
        while Modelica.Blocks.Continuous.Internal.Filter.Utilities.normalizationResidue(c1, c2, hi) >= 0 and k < 2000 loop
          lo := hi;
          hi := 1.1*hi;
          k := k + 1;
        end while;
        assert(k < 2000, "the filter does not fall to -3 dB");
        while hi - lo > 2*Modelica.Constants.eps*hi loop
          mid := (lo + hi)/2;
          if mid <= lo or mid >= hi then
            break;
          end if;
          if Modelica.Blocks.Continuous.Internal.Filter.Utilities.normalizationResidue(c1, c2, mid) >= 0 then
            lo := mid;
          else
            hi := mid;
          end if;
        end while;
        alpha := (lo + hi)/2;
      end normalizationFactor;

      function bandPassAlpha "alpha of the two pairs a pair 1/(p^2 + a*p + b) becomes under p -> (p + 1/p)/w"
        input Real a "coefficient of p";
        input Real b "coefficient of p^0";
        input Real w "relative band width";
        output Real alpha;
      protected
        Real lo = 0;
        Real hi = 1;
        Real z;
        Real res;
      algorithm
        assert(a^2/4 - b <= 0, "Band pass transformation cannot be computed");
        // z = alpha^2 in (0, 1) solves z^2 + (a*w*z/(1 + z))^2 - (2 + b*w^2)*z + 1 = 0,
        // positive at 0 and negative at 1
        while hi - lo > 2*Modelica.Constants.eps*hi loop
          z := (lo + hi)/2;
          if z <= lo or z >= hi then
            break;
          end if;
          res := z^2 + (a*w*z/(1 + z))^2 - (2 + b*w^2)*z + 1;
          if res > 0 then
            lo := z;
          else
            hi := z;
          end if;
        end while;
        alpha := sqrt((lo + hi)/2);
      end bandPassAlpha;

      function ddAdd "sum of two double-double numbers (hi + lo each)"
        input Real ah;
        input Real al;
        input Real bh;
        input Real bl;
        output Real h;
        output Real l;
      protected
        Real s;
        Real v;
        Real e;
      algorithm
        s := ah + bh;
        v := s - ah;
        e := (ah - (s - v)) + (bh - v) + al + bl;
        h := s + e;
        l := e - (h - s);
      end ddAdd;

      function ddMul "product of two double-double numbers (Dekker's splitting)"
        input Real ah;
        input Real al;
        input Real bh;
        input Real bl;
        output Real h;
        output Real l;
      protected
        Real p;
        Real t;
        Real a1;
        Real a2;
        Real b1;
        Real b2;
        Real e;
      algorithm
        p := ah*bh;
        t := 134217729.0*ah;
        a1 := t - (t - ah);
        a2 := ah - a1;
        t := 134217729.0*bh;
        b1 := t - (t - bh);
        b2 := bh - b1;
        e := ((a1*b1 - p) + a1*b2 + a2*b1) + a2*b2 + ah*bl + al*bh;
        h := p + e;
        l := e - (h - p);
      end ddMul;

      function besselValue "theta_n(z) and its derivative for a complex z, by the recurrence theta_k = (2k - 1)*theta_(k-1) + z^2*theta_(k-2) in double-double arithmetic"
        input Integer n;
        input Real zr;
        input Real zi;
        output Real vr "theta_n(z)";
        output Real vi;
        output Real dr "theta_n'(z)";
        output Real di;
      protected
        Real z2r[2];
        Real z2i[2];
        Real p0r[2];
        Real p0i[2];
        Real p1r[2];
        Real p1i[2];
        Real d0r[2];
        Real d0i[2];
        Real d1r[2];
        Real d1i[2];
        Real qr[2];
        Real qi[2];
        Real er[2];
        Real ei[2];
        Real t1[2];
        Real t2[2];
        Real c;
      algorithm
        // z^2 (z itself is a double)
        (t1[1], t1[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddMul(zr, 0, zr, 0);
        (t2[1], t2[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddMul(zi, 0, zi, 0);
        (z2r[1], z2r[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddAdd(t1[1], t1[2], -t2[1], -t2[2]);
        (t1[1], t1[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddMul(zr, 0, zi, 0);
        z2i := 2*t1;
        // theta_0 = 1, theta_1 = z + 1
        p0r := {1, 0};
        p0i := {0, 0};
        d0r := {0, 0};
        d0i := {0, 0};
        (p1r[1], p1r[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddAdd(zr, 0, 1, 0);
        p1i := {zi, 0};
        d1r := {1, 0};
        d1i := {0, 0};
        if n == 0 then
          p1r := p0r;
          p1i := p0i;
          d1r := d0r;
          d1i := d0i;
        end if;
        for k in 2:n loop
          c := 2*k - 1;
          // q = c*p1 + z2*p0
          (qr[1], qr[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddMul(p1r[1], p1r[2], c, 0);
          (qi[1], qi[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddMul(p1i[1], p1i[2], c, 0);
          (t1[1], t1[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddMul(z2r[1], z2r[2], p0r[1], p0r[2]);
          (t2[1], t2[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddMul(z2i[1], z2i[2], p0i[1], p0i[2]);
          (qr[1], qr[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddAdd(qr[1], qr[2], t1[1], t1[2]);
          (qr[1], qr[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddAdd(qr[1], qr[2], -t2[1], -t2[2]);
          (t1[1], t1[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddMul(z2r[1], z2r[2], p0i[1], p0i[2]);
          (t2[1], t2[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddMul(z2i[1], z2i[2], p0r[1], p0r[2]);
          (qi[1], qi[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddAdd(qi[1], qi[2], t1[1], t1[2]);
          (qi[1], qi[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddAdd(qi[1], qi[2], t2[1], t2[2]);
          // e = c*d1 + 2*z*p0 + z2*d0
          (er[1], er[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddMul(d1r[1], d1r[2], c, 0);
          (ei[1], ei[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddMul(d1i[1], d1i[2], c, 0);
          (t1[1], t1[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddMul(2*zr, 0, p0r[1], p0r[2]);
          (t2[1], t2[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddMul(2*zi, 0, p0i[1], p0i[2]);
          (er[1], er[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddAdd(er[1], er[2], t1[1], t1[2]);
          (er[1], er[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddAdd(er[1], er[2], -t2[1], -t2[2]);
          (t1[1], t1[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddMul(2*zr, 0, p0i[1], p0i[2]);
          (t2[1], t2[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddMul(2*zi, 0, p0r[1], p0r[2]);
          (ei[1], ei[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddAdd(ei[1], ei[2], t1[1], t1[2]);
          (ei[1], ei[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddAdd(ei[1], ei[2], t2[1], t2[2]);
          (t1[1], t1[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddMul(z2r[1], z2r[2], d0r[1], d0r[2]);
          (t2[1], t2[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddMul(z2i[1], z2i[2], d0i[1], d0i[2]);
          (er[1], er[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddAdd(er[1], er[2], t1[1], t1[2]);
          (er[1], er[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddAdd(er[1], er[2], -t2[1], -t2[2]);
          (t1[1], t1[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddMul(z2r[1], z2r[2], d0i[1], d0i[2]);
          (t2[1], t2[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddMul(z2i[1], z2i[2], d0r[1], d0r[2]);
          (ei[1], ei[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddAdd(ei[1], ei[2], t1[1], t1[2]);
          (ei[1], ei[2]) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.ddAdd(ei[1], ei[2], t2[1], t2[2]);
          p0r := p1r;
          p0i := p1i;
          d0r := d1r;
          d0i := d1i;
          p1r := qr;
          p1i := qi;
          d1r := er;
          d1i := ei;
        end for;
        vr := p1r[1] + p1r[2];
        vi := p1i[1] + p1i[2];
        dr := d1r[1] + d1r[2];
        di := d1i[1] + d1i[2];
      end besselValue;

      function besselRoots "the zeros of the reverse Bessel polynomial theta_n (Aberth's simultaneous iteration)"
        input Integer n;
        output Real zr[n];
        output Real zi[n];
      protected
        Real R = n/1.5 + 0.5;
        Real vr "theta_n at a zero's estimate";
        Real vi;
        Real dr;
        Real di;
        Real qr "p/p'";
        Real qi;
        Real sr "sum of 1/(z_i - z_j)";
        Real si;
        Real tr;
        Real ti;
        Real m;
        Real wr;
        Real wi;
        Real step;
        Real worst;
        Real best = Modelica.Constants.inf;
        Integer stale = 0;
        Integer it = 0;
      algorithm
        // start on an arc in the left half plane
        for k in 1:n loop
          zr[k] := R*cos(Modelica.Constants.pi/2 + Modelica.Constants.pi*(k - 0.5)/n) - 0.5;
          zi[k] := R*sin(Modelica.Constants.pi/2 + Modelica.Constants.pi*(k - 0.5)/n);
        end for;
        // until the corrections are at the rounding level, or stop shrinking
        while it < 500 and stale < 4 loop
          worst := 0;
          for i in 1:n loop
            (vr, vi, dr, di) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.besselValue(n, zr[i], zi[i]);
            m := dr*dr + di*di;
            qr := (vr*dr + vi*di)/m;
            qi := (vi*dr - vr*di)/m;
            sr := 0;
            si := 0;
            for j in 1:n loop
              if j <> i then
                tr := zr[i] - zr[j];
                ti := zi[i] - zi[j];
                m := tr*tr + ti*ti;
                sr := sr + tr/m;
                si := si - ti/m;
              end if;
            end for;
            // w = q/(1 - q*s)
            tr := 1 - (qr*sr - qi*si);
            ti := -(qr*si + qi*sr);
            m := tr*tr + ti*ti;
            wr := (qr*tr + qi*ti)/m;
            wi := (qi*tr - qr*ti)/m;
            zr[i] := zr[i] - wr;
            zi[i] := zi[i] - wi;
            step := sqrt(wr*wr + wi*wi)/sqrt(zr[i]*zr[i] + zi[i]*zi[i]);
            worst := max(worst, step);
          end for;
          it := it + 1;
          // converged, or (close to it) no longer shrinking: the rounding floor
          if worst < 1e-15 then
            stale := 4;
          elseif worst < 0.5*best then
            best := worst;
            stale := 0;
          elseif worst < 1e-8 then
            stale := stale + 1;
          end if;
        end while;
      end besselRoots;

      function BesselBaseCoefficients "the Bessel low pass 3 dB down at 1 rad/s: den1 (a*p + 1), den2 (b2*p^2 + b1*p + 1) and alpha = 1/(its 3 dB frequency with a group delay of 1 s)"
        input Integer order "1..41";
        output Real c1[mod(order, 2)] "[p] coefficients of a*p + 1";
        output Real c2[integer(order/2), 2] "[p^2, p] coefficients of b2*p^2 + b1*p + 1, the least damped pair last";
        output Real alpha "1/w0";
      protected
        Integer n = order;
        Integer m = integer(order/2);
        Real zr[order];
        Real zi[order];
        Integer idx[order];
        Integer h;
        Integer k;
        Real q;
        Real w0;
      algorithm
        assert(order >= 1 and order <= 41, "Input argument order (= " + String(order) + ") of Bessel filter is not in the range 1..41");
        (zr, zi) := Modelica.Blocks.Continuous.Internal.Filter.Utilities.besselRoots(n);
        // order the zeros by their imaginary part (insertion sort of an index)
        for i in 1:n loop
          idx[i] := i;
        end for;
        for i in 2:n loop
          h := idx[i];
          k := i - 1;
          while k >= 1 and zi[idx[k]] > zi[h] loop
            idx[k + 1] := idx[k];
            k := k - 1;
          end while;
          idx[k + 1] := h;
        end for;
        // the middle one is the real zero of an odd order; above it the upper half of the pairs
        if mod(n, 2) == 1 then
          c1[1] := -1/zr[idx[m + 1]];
        end if;
        for i in 1:m loop
          k := idx[n - m + i];
          q := zr[k]^2 + zi[k]^2;
          c2[i, 1] := 1/q;
          c2[i, 2] := -2*zr[k]/q;
        end for;
        // the factors of theta_n(p)/theta_n(0) describe the filter with a delay of 1 s; move its 3 dB point to 1 rad/s
        w0 := Modelica.Blocks.Continuous.Internal.Filter.Utilities.normalizationFactor(c1, c2);
        for i in 1:m loop
          c2[i, 1] := c2[i, 1]*w0*w0;
          c2[i, 2] := c2[i, 2]*w0;
        end for;
        for i in 1:size(c1, 1) loop
          c1[i] := c1[i]*w0;
        end for;
        alpha := 1/w0;
      end BesselBaseCoefficients;
    end Utilities;
  end Filter;
end Internal;
