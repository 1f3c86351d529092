within Modelica.Blocks.Routing;
block RealPassThrough "y = u"
  extends Modelica.Blocks.Interfaces.SISO;
equation
  y = u;
end RealPassThrough;
block Replicator "nout copies of the input"
  extends Modelica.Blocks.Interfaces.SIMO;
equation
  y = {u for i in 1:nout};
end Replicator;
block Multiplex "y = u: the n inputs as one vector"
  parameter Integer n(min = 0) = 0 "number of signals";
  Modelica.Blocks.Interfaces.RealVectorInput u[n];
  Modelica.Blocks.Interfaces.RealOutput y[n + 0];
equation
  y = u;
end Multiplex;
block DeMultiplex "y = u: one vector as n outputs"
  parameter Integer n(min = 0) = 0 "number of signals";
  Modelica.Blocks.Interfaces.RealInput u[n + 0];
  Modelica.Blocks.Interfaces.RealVectorOutput y[n];
equation
  y = u;
end DeMultiplex;
block Multiplex2 "the vectors u1 to u2 joined into one vector y"
  parameter Integer n1 = 1 "size of u1";
  parameter Integer n2 = 1 "size of u2";
  Modelica.Blocks.Interfaces.RealInput u1[n1];
  Modelica.Blocks.Interfaces.RealInput u2[n2];
  Modelica.Blocks.Interfaces.RealOutput y[n1 + n2];
equation
  y[1:n1] = u1;
  y[n1 + 1:n1 + n2] = u2;
end Multiplex2;
block Multiplex3 "the vectors u1 to u3 joined into one vector y"
  parameter Integer n1 = 1 "size of u1";
  parameter Integer n2 = 1 "size of u2";
  parameter Integer n3 = 1 "size of u3";
  Modelica.Blocks.Interfaces.RealInput u1[n1];
  Modelica.Blocks.Interfaces.RealInput u2[n2];
  Modelica.Blocks.Interfaces.RealInput u3[n3];
  Modelica.Blocks.Interfaces.RealOutput y[n1 + n2 + n3];
equation
  y[1:n1] = u1;
  y[n1 + 1:n1 + n2] = u2;
  y[n1 + n2 + 1:n1 + n2 + n3] = u3;
end Multiplex3;
block Multiplex4 "the vectors u1 to u4 joined into one vector y"
  parameter Integer n1 = 1 "size of u1";
  parameter Integer n2 = 1 "size of u2";
  parameter Integer n3 = 1 "size of u3";
  parameter Integer n4 = 1 "size of u4";
  Modelica.Blocks.Interfaces.RealInput u1[n1];
  Modelica.Blocks.Interfaces.RealInput u2[n2];
  Modelica.Blocks.Interfaces.RealInput u3[n3];
  Modelica.Blocks.Interfaces.RealInput u4[n4];
  Modelica.Blocks.Interfaces.RealOutput y[n1 + n2 + n3 + n4];
equation
  y[1:n1] = u1;
  y[n1 + 1:n1 + n2] = u2;
  y[n1 + n2 + 1:n1 + n2 + n3] = u3;
  y[n1 + n2 + n3 + 1:n1 + n2 + n3 + n4] = u4;
end Multiplex4;
block Multiplex5 "the vectors u1 to u5 joined into one vector y"
  parameter Integer n1 = 1 "size of u1";
  parameter Integer n2 = 1 "size of u2";
  parameter Integer n3 = 1 "size of u3";
  parameter Integer n4 = 1 "size of u4";
  parameter Integer n5 = 1 "size of u5";
  Modelica.Blocks.Interfaces.RealInput u1[n1];
  Modelica.Blocks.Interfaces.RealInput u2[n2];
  Modelica.Blocks.Interfaces.RealInput u3[n3];
  Modelica.Blocks.Interfaces.RealInput u4[n4];
  Modelica.Blocks.Interfaces.RealInput u5[n5];
  Modelica.Blocks.Interfaces.RealOutput y[n1 + n2 + n3 + n4 + n5];
equation
  y[1:n1] = u1;
  y[n1 + 1:n1 + n2] = u2;
  y[n1 + n2 + 1:n1 + n2 + n3] = u3;
  y[n1 + n2 + n3 + 1:n1 + n2 + n3 + n4] = u4;
  y[n1 + n2 + n3 + n4 + 1:n1 + n2 + n3 + n4 + n5] = u5;
end Multiplex5;
block Multiplex6 "the vectors u1 to u6 joined into one vector y"
  parameter Integer n1 = 1 "size of u1";
  parameter Integer n2 = 1 "size of u2";
  parameter Integer n3 = 1 "size of u3";
  parameter Integer n4 = 1 "size of u4";
  parameter Integer n5 = 1 "size of u5";
  parameter Integer n6 = 1 "size of u6";
  Modelica.Blocks.Interfaces.RealInput u1[n1];
  Modelica.Blocks.Interfaces.RealInput u2[n2];
  Modelica.Blocks.Interfaces.RealInput u3[n3];
  Modelica.Blocks.Interfaces.RealInput u4[n4];
  Modelica.Blocks.Interfaces.RealInput u5[n5];
  Modelica.Blocks.Interfaces.RealInput u6[n6];
  Modelica.Blocks.Interfaces.RealOutput y[n1 + n2 + n3 + n4 + n5 + n6];
equation
  y[1:n1] = u1;
  y[n1 + 1:n1 + n2] = u2;
  y[n1 + n2 + 1:n1 + n2 + n3] = u3;
  y[n1 + n2 + n3 + 1:n1 + n2 + n3 + n4] = u4;
  y[n1 + n2 + n3 + n4 + 1:n1 + n2 + n3 + n4 + n5] = u5;
  y[n1 + n2 + n3 + n4 + n5 + 1:n1 + n2 + n3 + n4 + n5 + n6] = u6;
end Multiplex6;
block DeMultiplex2 "the vector u cut into the vectors y1 to y2"
  parameter Integer n1 = 1 "size of y1";
  parameter Integer n2 = 1 "size of y2";
  Modelica.Blocks.Interfaces.RealInput u[n1 + n2];
  Modelica.Blocks.Interfaces.RealOutput y1[n1];
  Modelica.Blocks.Interfaces.RealOutput y2[n2];
equation
  y1 = u[1:n1];
  y2 = u[n1 + 1:n1 + n2];
end DeMultiplex2;
block DeMultiplex3 "the vector u cut into the vectors y1 to y3"
  parameter Integer n1 = 1 "size of y1";
  parameter Integer n2 = 1 "size of y2";
  parameter Integer n3 = 1 "size of y3";
  Modelica.Blocks.Interfaces.RealInput u[n1 + n2 + n3];
  Modelica.Blocks.Interfaces.RealOutput y1[n1];
  Modelica.Blocks.Interfaces.RealOutput y2[n2];
  Modelica.Blocks.Interfaces.RealOutput y3[n3];
equation
  y1 = u[1:n1];
  y2 = u[n1 + 1:n1 + n2];
  y3 = u[n1 + n2 + 1:n1 + n2 + n3];
end DeMultiplex3;
block DeMultiplex4 "the vector u cut into the vectors y1 to y4"
  parameter Integer n1 = 1 "size of y1";
  parameter Integer n2 = 1 "size of y2";
  parameter Integer n3 = 1 "size of y3";
  parameter Integer n4 = 1 "size of y4";
  Modelica.Blocks.Interfaces.RealInput u[n1 + n2 + n3 + n4];
  Modelica.Blocks.Interfaces.RealOutput y1[n1];
  Modelica.Blocks.Interfaces.RealOutput y2[n2];
  Modelica.Blocks.Interfaces.RealOutput y3[n3];
  Modelica.Blocks.Interfaces.RealOutput y4[n4];
equation
  y1 = u[1:n1];
  y2 = u[n1 + 1:n1 + n2];
  y3 = u[n1 + n2 + 1:n1 + n2 + n3];
  y4 = u[n1 + n2 + n3 + 1:n1 + n2 + n3 + n4];
end DeMultiplex4;
block DeMultiplex5 "the vector u cut into the vectors y1 to y5"
  parameter Integer n1 = 1 "size of y1";
  parameter Integer n2 = 1 "size of y2";
  parameter Integer n3 = 1 "size of y3";
  parameter Integer n4 = 1 "size of y4";
  parameter Integer n5 = 1 "size of y5";
  Modelica.Blocks.Interfaces.RealInput u[n1 + n2 + n3 + n4 + n5];
  Modelica.Blocks.Interfaces.RealOutput y1[n1];
  Modelica.Blocks.Interfaces.RealOutput y2[n2];
  Modelica.Blocks.Interfaces.RealOutput y3[n3];
  Modelica.Blocks.Interfaces.RealOutput y4[n4];
  Modelica.Blocks.Interfaces.RealOutput y5[n5];
equation
  y1 = u[1:n1];
  y2 = u[n1 + 1:n1 + n2];
  y3 = u[n1 + n2 + 1:n1 + n2 + n3];
  y4 = u[n1 + n2 + n3 + 1:n1 + n2 + n3 + n4];
  y5 = u[n1 + n2 + n3 + n4 + 1:n1 + n2 + n3 + n4 + n5];
end DeMultiplex5;
block DeMultiplex6 "the vector u cut into the vectors y1 to y6"
  parameter Integer n1 = 1 "size of y1";
  parameter Integer n2 = 1 "size of y2";
  parameter Integer n3 = 1 "size of y3";
  parameter Integer n4 = 1 "size of y4";
  parameter Integer n5 = 1 "size of y5";
  parameter Integer n6 = 1 "size of y6";
  Modelica.Blocks.Interfaces.RealInput u[n1 + n2 + n3 + n4 + n5 + n6];
  Modelica.Blocks.Interfaces.RealOutput y1[n1];
  Modelica.Blocks.Interfaces.RealOutput y2[n2];
  Modelica.Blocks.Interfaces.RealOutput y3[n3];
  Modelica.Blocks.Interfaces.RealOutput y4[n4];
  Modelica.Blocks.Interfaces.RealOutput y5[n5];
  Modelica.Blocks.Interfaces.RealOutput y6[n6];
equation
  y1 = u[1:n1];
  y2 = u[n1 + 1:n1 + n2];
  y3 = u[n1 + n2 + 1:n1 + n2 + n3];
  y4 = u[n1 + n2 + n3 + 1:n1 + n2 + n3 + n4];
  y5 = u[n1 + n2 + n3 + n4 + 1:n1 + n2 + n3 + n4 + n5];
  y6 = u[n1 + n2 + n3 + n4 + n5 + 1:n1 + n2 + n3 + n4 + n5 + n6];
end DeMultiplex6;
block ExtractSignal "y[i] = u[extract[i]]: chosen inputs, in a chosen order"
  extends Modelica.Blocks.Interfaces.MIMO;
  parameter Integer extract[nout] = 1:nout "the input each output takes";
equation
  for i in 1:nout loop
    y[i] = u[extract[i]];
  end for;
end ExtractSignal;
block Extractor "y = u[index], the element an Integer input chooses"
  extends Modelica.Blocks.Interfaces.MISO;
  parameter Boolean allowOutOfRange = false "an index outside 1..nin gives outOfRangeValue";
  parameter Real outOfRangeValue = 1e10 "the output for an index out of range";
  Modelica.Blocks.Interfaces.IntegerInput index;
protected
  Real k[nin] "1 at the chosen element, 0 elsewhere";
equation
  when {initial(), change(index)} then
    k = {if index == i then 1 else 0 for i in 1:nin};
  end when;
  y = if not allowOutOfRange or index > 0 and index <= nin then k*u else outOfRangeValue;
end Extractor;
