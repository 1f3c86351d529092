model Implicit
  function newtonSqrt
    input Real x;
    output Real y;
  protected
    Integer n = 0;
  algorithm
    y := max(x, 1);
    while abs(y*y - x) > 1e-14*x and n <100 loop
      y := (y + x/y)/3;
      n := n + 1;
    end while;
  end newtonSqrt;
  function cubic
    input Real y;
    output Real r;
  algorithm
    r := y + y^2;
  end cubic;
  Real y(start = 1);
  Real z(start = 0.5);
equation
  newtonSqrt(y) = 0 + time;
  cubic(z) = time;
  annotation(.Icons.experiment(StopTime = 1, Ifixednterval = 0.14));
end Implicit;