// Modelica.Mechanics.Translational.Examples.GenerationOfFMUs, with the
// input/output blocks of its Utilities package written here as a user
// would write them: masses and force laws wrapped in signal interfaces, as
// they would be exported as FMUs and connected again through signals.
model GenerationOfFMUs "Translational components as input/output blocks, connected through signals"
  model DirectMass "a mass driven by two forces; position, speed and acceleration out"
    parameter Modelica.Units.SI.Mass m(min = 0) = 1;
    Modelica.Mechanics.Translational.Components.Mass mass(m = m, s(start = 0, fixed = true), v(start = 0, fixed = true));
    Modelica.Mechanics.Translational.Sources.Force forceSource;
    Modelica.Mechanics.Translational.Components.GeneralForceToPositionAdaptor forceToPosition;
    Modelica.Blocks.Interfaces.RealInput fDrive(unit = "N") "force accelerating the mass";
    Modelica.Blocks.Interfaces.RealInput f(unit = "N") "force on the other side";
    Modelica.Blocks.Interfaces.RealOutput s(unit = "m");
    Modelica.Blocks.Interfaces.RealOutput v(unit = "m/s");
    Modelica.Blocks.Interfaces.RealOutput a(unit = "m/s2");
  equation
    connect(fDrive, forceSource.f);
    connect(forceSource.flange, mass.flange_a);
    connect(mass.flange_b, forceToPosition.flange);
    connect(forceToPosition.f, f);
    connect(forceToPosition.p, s);
    connect(forceToPosition.pder, v);
    connect(forceToPosition.pder2, a);
  end DirectMass;

  model InverseMass "a mass moved as its inputs say; the force that takes out"
    parameter Modelica.Units.SI.Mass m = 1;
    Modelica.Mechanics.Translational.Components.Mass mass(m = m);
    Modelica.Mechanics.Translational.Components.GeneralPositionToForceAdaptor positionToForce;
    Modelica.Blocks.Interfaces.RealInput s(unit = "m");
    Modelica.Blocks.Interfaces.RealInput v(unit = "m/s");
    Modelica.Blocks.Interfaces.RealInput a(unit = "m/s2");
    Modelica.Blocks.Interfaces.RealOutput f(unit = "N");
  equation
    connect(positionToForce.flange, mass.flange_a);
    connect(positionToForce.p, s);
    connect(positionToForce.pder, v);
    connect(positionToForce.pder2, a);
    connect(positionToForce.f, f);
  end InverseMass;

  model SpringDamperNoRelativeStates "spring and damper in parallel, without states of their own"
    extends Modelica.Mechanics.Translational.Interfaces.PartialCompliant;
    parameter Modelica.Units.SI.TranslationalSpringConstant c(min = 0, start = 1e5);
    parameter Modelica.Units.SI.TranslationalDampingConstant d(min = 0, start = 0);
    parameter Modelica.Units.SI.Length s_rel0 = 0;
    Modelica.Units.SI.Velocity v_rel(start = 0);
  equation
    v_rel = der(s_rel);
    f = c*(s_rel - s_rel0) + d*v_rel;
  end SpringDamperNoRelativeStates;

  model SpringDamper "a spring-damper between two flanges given as positions and speeds; its forces out"
    parameter Modelica.Units.SI.TranslationalSpringConstant c = 1e4;
    parameter Modelica.Units.SI.TranslationalDampingConstant d = 1;
    parameter Modelica.Units.SI.Length s_rel0 = 0;
    Modelica.Mechanics.Translational.Components.GeneralPositionToForceAdaptor positionToForce1(use_pder2 = false);
    Modelica.Mechanics.Translational.Components.GeneralPositionToForceAdaptor positionToForce2(use_pder2 = false);
    SpringDamperNoRelativeStates springDamper(c = c, d = d, s_rel0 = s_rel0);
    Modelica.Blocks.Interfaces.RealInput s1(unit = "m");
    Modelica.Blocks.Interfaces.RealInput v1(unit = "m/s");
    Modelica.Blocks.Interfaces.RealInput s2(unit = "m");
    Modelica.Blocks.Interfaces.RealInput v2(unit = "m/s");
    Modelica.Blocks.Interfaces.RealOutput f1(unit = "N");
    Modelica.Blocks.Interfaces.RealOutput f2(unit = "N");
  equation
    connect(positionToForce1.flange, springDamper.flange_a);
    connect(springDamper.flange_b, positionToForce2.flange);
    connect(positionToForce1.p, s1);
    connect(positionToForce1.pder, v1);
    connect(positionToForce2.p, s2);
    connect(positionToForce2.pder, v2);
    connect(positionToForce1.f, f1);
    connect(positionToForce2.f, f2);
  end SpringDamper;

  model Spring "a spring between two flanges given as positions; its forces out"
    parameter Modelica.Units.SI.TranslationalSpringConstant c = 1e4;
    parameter Modelica.Units.SI.Length s_rel0 = 0;
    Modelica.Mechanics.Translational.Components.GeneralPositionToForceAdaptor positionToForce1(use_pder = false, use_pder2 = false);
    Modelica.Mechanics.Translational.Components.GeneralPositionToForceAdaptor positionToForce2(use_pder = false, use_pder2 = false);
    Modelica.Mechanics.Translational.Components.Spring spring(c = c, s_rel0 = s_rel0);
    Modelica.Blocks.Interfaces.RealInput s1(unit = "m");
    Modelica.Blocks.Interfaces.RealInput s2(unit = "m");
    Modelica.Blocks.Interfaces.RealOutput f1(unit = "N");
    Modelica.Blocks.Interfaces.RealOutput f2(unit = "N");
  equation
    connect(positionToForce1.flange, spring.flange_a);
    connect(spring.flange_b, positionToForce2.flange);
    connect(positionToForce1.p, s1);
    connect(positionToForce2.p, s2);
    connect(positionToForce1.f, f1);
    connect(positionToForce2.f, f2);
  end Spring;

  Modelica.Blocks.Sources.Sine sine1(f = 2, amplitude = 10);
  DirectMass directMass(m = 1.1);
  InverseMass inverseMass(m = 2.2);
  SpringDamper springDamper(c = 1e4, d = 100);
  Modelica.Mechanics.Translational.Components.Mass mass2a(m = 1.1, s(fixed = true, start = 0), v(fixed = true, start = 0));
  Modelica.Mechanics.Translational.Sources.Force force2;
  Modelica.Mechanics.Translational.Components.GeneralForceToPositionAdaptor forceToPosition2a(use_pder2 = false);
  Modelica.Mechanics.Translational.Components.Mass mass2b(m = 2.2, s(fixed = true, start = 0), v(fixed = true, start = 0));
  Modelica.Mechanics.Translational.Components.GeneralForceToPositionAdaptor forceToPosition2b(use_pder2 = false);
  Spring spring(c = 1e4);
  Modelica.Mechanics.Translational.Components.Mass mass3a(m = 1.1, s(fixed = true, start = 0), v(fixed = true, start = 0));
  Modelica.Mechanics.Translational.Sources.Force force3;
  Modelica.Mechanics.Translational.Components.GeneralForceToPositionAdaptor forceToPosition3a(use_pder = false, use_pder2 = false);
  Modelica.Mechanics.Translational.Components.Mass mass3b(m = 2.2, s(fixed = true, start = 0), v(fixed = true, start = 0));
  Modelica.Mechanics.Translational.Components.GeneralForceToPositionAdaptor forceToPosition3b(use_pder = false, use_pder2 = false);
equation
  // two masses joined through signals: one computes the motion, the other follows it
  connect(sine1.y, directMass.fDrive);
  connect(directMass.s, inverseMass.s);
  connect(directMass.v, inverseMass.v);
  connect(directMass.a, inverseMass.a);
  connect(inverseMass.f, directMass.f);
  // a force law that needs positions and speeds
  connect(sine1.y, force2.f);
  connect(force2.flange, mass2a.flange_a);
  connect(mass2a.flange_b, forceToPosition2a.flange);
  connect(forceToPosition2b.flange, mass2b.flange_a);
  connect(forceToPosition2a.f, springDamper.f1);
  connect(springDamper.f2, forceToPosition2b.f);
  connect(forceToPosition2a.p, springDamper.s1);
  connect(forceToPosition2a.pder, springDamper.v1);
  connect(springDamper.s2, forceToPosition2b.p);
  connect(forceToPosition2b.pder, springDamper.v2);
  // a force law that needs positions only
  connect(sine1.y, force3.f);
  connect(force3.flange, mass3a.flange_a);
  connect(mass3a.flange_b, forceToPosition3a.flange);
  connect(forceToPosition3b.flange, mass3b.flange_a);
  connect(forceToPosition3a.f, spring.f1);
  connect(spring.f2, forceToPosition3b.f);
  connect(forceToPosition3a.p, spring.s1);
  connect(spring.s2, forceToPosition3b.p);
  annotation(experiment(StopTime = 1, Interval = 0.001));
end GenerationOfFMUs;
