within Modelica.Blocks.Sources;
block Sinc "y = offset + amplitude*sin(x)/x, x = 2 pi f (time - startTime), from startTime on"
  parameter Real amplitude = 1 "value at x = 0";
  parameter Modelica.Units.SI.Frequency f(start = 1) "frequency of the sine";
  extends Modelica.Blocks.Interfaces.SignalSource;
protected
  Modelica.Units.SI.Angle x = 2*Modelica.Constants.pi*f*(time - startTime);
equation
  /* x = 0 only at startTime itself: decided by value there (as a time
   * event eps after startTime it would count as passed already) */
  y = offset + (if time < startTime then 0 else amplitude*
    (if noEvent(time - startTime < Modelica.Constants.eps) then 1 else sin(x)/x));
end Sinc;
block SineVariableFrequencyAndAmplitude "y = offset + amplitude*sin(phi), der(phi) = 2 pi f: amplitude and f inputs or constants"
  extends Modelica.Blocks.Interfaces.SO;
  parameter Boolean useConstantAmplitude = false "amplitude from the parameter, not the input";
  parameter Real constantAmplitude = 1 "the amplitude when it is constant";
  parameter Boolean useConstantFrequency = false "frequency from the parameter, not the input";
  parameter Modelica.Units.SI.Frequency constantFrequency = 1 "the frequency when it is constant";
  parameter Real offset = 0 "added to the sine";
  Modelica.Units.SI.Angle phi(start = 0) "phase: its start value is the phase at the start";
  Modelica.Blocks.Interfaces.RealInput amplitude if not useConstantAmplitude;
  Modelica.Blocks.Interfaces.RealInput f(unit = "Hz") if not useConstantFrequency;
protected
  Modelica.Blocks.Interfaces.RealInput amplitude_internal "the amplitude in use";
  Modelica.Blocks.Interfaces.RealInput f_internal(unit = "Hz") "the frequency in use";
  Modelica.Blocks.Sources.Constant amplitude_constant(final k = constantAmplitude) if useConstantAmplitude;
  Modelica.Blocks.Sources.Constant f_constant(final k = constantFrequency) if useConstantFrequency;
equation
  der(phi) = 2*Modelica.Constants.pi*f_internal;
  y = offset + amplitude_internal*sin(phi);
  connect(f, f_internal);
  connect(amplitude, amplitude_internal);
  connect(amplitude_constant.y, amplitude_internal);
  connect(f_constant.y, f_internal);
end SineVariableFrequencyAndAmplitude;
block CosineVariableFrequencyAndAmplitude "y = offset + amplitude*cos(phi), der(phi) = 2 pi f: amplitude and f inputs or constants"
  extends Modelica.Blocks.Interfaces.SO;
  parameter Boolean useConstantAmplitude = false "amplitude from the parameter, not the input";
  parameter Real constantAmplitude = 1 "the amplitude when it is constant";
  parameter Boolean useConstantFrequency = false "frequency from the parameter, not the input";
  parameter Modelica.Units.SI.Frequency constantFrequency = 1 "the frequency when it is constant";
  parameter Real offset = 0 "added to the cosine";
  Modelica.Units.SI.Angle phi(start = 0) "phase: its start value is the phase at the start";
  Modelica.Blocks.Interfaces.RealInput amplitude if not useConstantAmplitude;
  Modelica.Blocks.Interfaces.RealInput f(unit = "Hz") if not useConstantFrequency;
protected
  Modelica.Blocks.Interfaces.RealInput amplitude_internal "the amplitude in use";
  Modelica.Blocks.Interfaces.RealInput f_internal(unit = "Hz") "the frequency in use";
  Modelica.Blocks.Sources.Constant amplitude_constant(final k = constantAmplitude) if useConstantAmplitude;
  Modelica.Blocks.Sources.Constant f_constant(final k = constantFrequency) if useConstantFrequency;
equation
  der(phi) = 2*Modelica.Constants.pi*f_internal;
  y = offset + amplitude_internal*cos(phi);
  connect(f, f_internal);
  connect(amplitude, amplitude_internal);
  connect(amplitude_constant.y, amplitude_internal);
  connect(f_constant.y, f_internal);
end CosineVariableFrequencyAndAmplitude;
