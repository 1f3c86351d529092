model Modulation "amplitude and frequency modulation of a 100 Hz sine and cosine"
  Modelica.Blocks.Sources.SineVariableFrequencyAndAmplitude sine(useConstantAmplitude = true,
    useConstantFrequency = true, constantFrequency = 100, phi(fixed = true));
  Modelica.Blocks.Sources.Sine amplitude(amplitude = 0.5, f = 2, offset = 1);
  Modelica.Blocks.Sources.SineVariableFrequencyAndAmplitude sinAM(useConstantAmplitude = false,
    useConstantFrequency = true, constantFrequency = 100, phi(fixed = true));
  Modelica.Blocks.Sources.CosineVariableFrequencyAndAmplitude cosAM(useConstantAmplitude = false,
    useConstantFrequency = true, constantFrequency = 100, phi(fixed = true));
  Modelica.Blocks.Sources.Sine frequency(amplitude = 50, f = 2, offset = 100);
  Modelica.Blocks.Sources.SineVariableFrequencyAndAmplitude sinFM(useConstantAmplitude = true,
    useConstantFrequency = false, constantFrequency = 100, phi(fixed = true));
  Modelica.Blocks.Sources.CosineVariableFrequencyAndAmplitude cosFM(useConstantAmplitude = true,
    useConstantFrequency = false, constantFrequency = 100, phi(fixed = true));
equation
  connect(amplitude.y, sinAM.amplitude);
  connect(frequency.y, sinFM.f);
  connect(amplitude.y, cosAM.amplitude);
  connect(frequency.y, cosFM.f);
  annotation(experiment(StopTime = 1.0, Interval = 0.0001));
end Modulation;
