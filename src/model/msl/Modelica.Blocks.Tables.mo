within Modelica.Blocks.Tables;
block CombiTable1Ds "one input u; output i interpolates table column columns[i] at u"
  parameter Boolean tableOnFile = false "true: the table comes from fileName";
  parameter Real table[:, :] = fill(0.0, 0, 2) "rows of (u, values...), u strictly increasing";
  parameter String tableName = "NoName" "name of the table in a text file";
  parameter String fileName = "NoName" "file of the table (MSL text format, or CSV by its extension), relative to the model file";
  parameter String delimiter = "," "column separator of a CSV file";
  parameter Integer nHeaderLines = 0 "lines skipped at the top of a CSV file";
  parameter Boolean verboseRead = true "report reading the file (accepted; flange prints nothing)";
  parameter Integer columns[:] = 2:size(table, 2) "table column of each output";
  parameter Modelica.Blocks.Types.Smoothness smoothness = Modelica.Blocks.Types.Smoothness.LinearSegments "interpolation between rows";
  parameter Modelica.Blocks.Types.Extrapolation extrapolation = Modelica.Blocks.Types.Extrapolation.LastTwoPoints "outside the table's range of u";
  parameter Boolean verboseExtrapolation = false "warn when u leaves the table's range";
  final parameter Integer nout = size(columns, 1) "number of outputs";
  final parameter Real u_min = Modelica.Blocks.Tables.Internal.getTable1DAbscissaUmin(tableID) "smallest u of the table";
  final parameter Real u_max = Modelica.Blocks.Tables.Internal.getTable1DAbscissaUmax(tableID) "largest u of the table";
  Modelica.Blocks.Interfaces.RealInput u "where the table is read";
  Modelica.Blocks.Interfaces.RealOutput y[nout] "the columns at u";
protected
  parameter Integer tableID = Modelica.Blocks.Tables.Internal.initTable1D(tableOnFile, table, tableName, fileName, delimiter, nHeaderLines, columns, smoothness, extrapolation) "the table, kept by flange";
equation
  if verboseExtrapolation and (extrapolation == Modelica.Blocks.Types.Extrapolation.LastTwoPoints or extrapolation == Modelica.Blocks.Types.Extrapolation.HoldLastPoint) then
    assert(noEvent(u >= u_min), "Extrapolation warning: u is below u_min, the smallest abscissa of the table", AssertionLevel.warning);
    assert(noEvent(u <= u_max), "Extrapolation warning: u is above u_max, the largest abscissa of the table", AssertionLevel.warning);
  end if;
  for i in 1:nout loop
    y[i] = Modelica.Blocks.Tables.Internal.getTable1DValue(tableID, i, u);
  end for;
end CombiTable1Ds;

block CombiTable1Dv "n inputs u[i]; output i interpolates table column columns[i] at u[i]"
  parameter Boolean tableOnFile = false "true: the table comes from fileName";
  parameter Real table[:, :] = fill(0.0, 0, 2) "rows of (u, values...), u strictly increasing";
  parameter String tableName = "NoName" "name of the table in a text file";
  parameter String fileName = "NoName" "file of the table (MSL text format, or CSV by its extension), relative to the model file";
  parameter String delimiter = "," "column separator of a CSV file";
  parameter Integer nHeaderLines = 0 "lines skipped at the top of a CSV file";
  parameter Boolean verboseRead = true "report reading the file (accepted; flange prints nothing)";
  parameter Integer columns[:] = 2:size(table, 2) "table column of each output";
  parameter Modelica.Blocks.Types.Smoothness smoothness = Modelica.Blocks.Types.Smoothness.LinearSegments "interpolation between rows";
  parameter Modelica.Blocks.Types.Extrapolation extrapolation = Modelica.Blocks.Types.Extrapolation.LastTwoPoints "outside the table's range of u";
  parameter Boolean verboseExtrapolation = false "warn when an input leaves the table's range";
  final parameter Integer n = size(columns, 1) "number of inputs and outputs";
  final parameter Real u_min = Modelica.Blocks.Tables.Internal.getTable1DAbscissaUmin(tableID) "smallest u of the table";
  final parameter Real u_max = Modelica.Blocks.Tables.Internal.getTable1DAbscissaUmax(tableID) "largest u of the table";
  Modelica.Blocks.Interfaces.RealInput u[n] "where each column is read";
  Modelica.Blocks.Interfaces.RealOutput y[n] "the columns at their inputs";
protected
  parameter Integer tableID = Modelica.Blocks.Tables.Internal.initTable1D(tableOnFile, table, tableName, fileName, delimiter, nHeaderLines, columns, smoothness, extrapolation) "the table, kept by flange";
equation
  if verboseExtrapolation and (extrapolation == Modelica.Blocks.Types.Extrapolation.LastTwoPoints or extrapolation == Modelica.Blocks.Types.Extrapolation.HoldLastPoint) then
    for i in 1:n loop
      assert(noEvent(u[i] >= u_min), "Extrapolation warning: an input is below u_min, the smallest abscissa of the table", AssertionLevel.warning);
      assert(noEvent(u[i] <= u_max), "Extrapolation warning: an input is above u_max, the largest abscissa of the table", AssertionLevel.warning);
    end for;
  end if;
  for i in 1:n loop
    y[i] = Modelica.Blocks.Tables.Internal.getTable1DValue(tableID, i, u[i]);
  end for;
end CombiTable1Dv;

block CombiTable2Ds "two inputs u1, u2; y interpolates the matrix [0, u2 grid; u1 grid, values]"
  parameter Boolean tableOnFile = false "true: the table comes from fileName";
  parameter Real table[:, :] = fill(0.0, 0, 2) "[0, u2 grid; u1 grid, values], both grids strictly increasing";
  parameter String tableName = "NoName" "name of the table in a text file";
  parameter String fileName = "NoName" "file of the table (MSL text format, or CSV by its extension), relative to the model file";
  parameter String delimiter = "," "column separator of a CSV file";
  parameter Integer nHeaderLines = 0 "lines skipped at the top of a CSV file";
  parameter Boolean verboseRead = true "report reading the file (accepted; flange prints nothing)";
  parameter Modelica.Blocks.Types.Smoothness smoothness = Modelica.Blocks.Types.Smoothness.LinearSegments "LinearSegments (bilinear) or ConstantSegments";
  parameter Modelica.Blocks.Types.Extrapolation extrapolation = Modelica.Blocks.Types.Extrapolation.LastTwoPoints "outside the table's grid";
  parameter Boolean verboseExtrapolation = false "warn when an input leaves the table's grid";
  final parameter Real u_min[2] = Modelica.Blocks.Tables.Internal.getTable2DAbscissaUmin(tableID) "smallest u1 and u2 of the table";
  final parameter Real u_max[2] = Modelica.Blocks.Tables.Internal.getTable2DAbscissaUmax(tableID) "largest u1 and u2 of the table";
  Modelica.Blocks.Interfaces.RealInput u1 "first input (rows)";
  Modelica.Blocks.Interfaces.RealInput u2 "second input (columns)";
  Modelica.Blocks.Interfaces.RealOutput y "the table at (u1, u2)";
protected
  parameter Integer tableID = Modelica.Blocks.Tables.Internal.initTable2D(tableOnFile, table, tableName, fileName, delimiter, nHeaderLines, smoothness, extrapolation) "the table, kept by flange";
equation
  if verboseExtrapolation and (extrapolation == Modelica.Blocks.Types.Extrapolation.LastTwoPoints or extrapolation == Modelica.Blocks.Types.Extrapolation.HoldLastPoint) then
    assert(noEvent(u1 >= u_min[1] and u1 <= u_max[1]), "Extrapolation warning: u1 is outside the table's range [u_min[1], u_max[1]]", AssertionLevel.warning);
    assert(noEvent(u2 >= u_min[2] and u2 <= u_max[2]), "Extrapolation warning: u2 is outside the table's range [u_min[2], u_max[2]]", AssertionLevel.warning);
  end if;
  y = Modelica.Blocks.Tables.Internal.getTable2DValue(tableID, u1, u2);
end CombiTable2Ds;

package Internal "the look-up functions; their bodies are C (symbolic/func_native.c)"
  function getTable1DValue "column columns[icol] of table tableID at u"
    input Integer tableID;
    input Integer icol;
    input Real u;
    output Real y;
  end getTable1DValue;

  function getTable1DAbscissaUmin "smallest abscissa of table tableID"
    input Integer tableID;
    output Real uMin;
  end getTable1DAbscissaUmin;

  function getTable1DAbscissaUmax "largest abscissa of table tableID"
    input Integer tableID;
    output Real uMax;
  end getTable1DAbscissaUmax;

  function getTable2DValue "the 2D table tableID at (u1, u2)"
    input Integer tableID;
    input Real u1;
    input Real u2;
    output Real y;
  end getTable2DValue;

  function getTable2DAbscissaUmin "smallest u1 and u2 of table tableID"
    input Integer tableID;
    output Real uMin[2];
  end getTable2DAbscissaUmin;

  function getTable2DAbscissaUmax "largest u1 and u2 of table tableID"
    input Integer tableID;
    output Real uMax[2];
  end getTable2DAbscissaUmax;
end Internal;
