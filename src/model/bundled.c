/* bundled.c - MSL interface classes that user models extend, written as
 * Modelica text on the equation layer and parsed once per process.
 *
 * A user component extends Modelica.Mechanics.Translational.Interfaces.
 * PartialCompliant (or another partial class listed below) and gets
 * exactly its variables and equations; the signal block interfaces of
 * Modelica.Blocks.Interfaces likewise. The connectors themselves (Flange_a,
 * RealInput, ...) stay built in. Every name inside these texts is a full
 * path, so that they resolve the same from any model. */
#include "bundled.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "parse/ast.h"

static const char translational_text[] =
    "within Modelica.Mechanics.Translational.Interfaces;\n"
    "partial model PartialTwoFlanges \"two flanges\"\n"
    "  Modelica.Mechanics.Translational.Interfaces.Flange_a flange_a;\n"
    "  Modelica.Mechanics.Translational.Interfaces.Flange_b flange_b;\n"
    "end PartialTwoFlanges;\n"
    "partial model PartialRigid \"two flanges rigidly at distance L, centre s\"\n"
    "  extends Modelica.Mechanics.Translational.Interfaces.PartialTwoFlanges;\n"
    "  Modelica.Units.SI.Position s \"position of the centre\";\n"
    "  parameter Modelica.Units.SI.Length L(start = 0) \"distance of flange_b from flange_a\";\n"
    "equation\n"
    "  flange_a.s = s - L/2;\n"
    "  flange_b.s = s + L/2;\n"
    "end PartialRigid;\n"
    "partial model PartialCompliant \"a force f between two flanges, s_rel apart\"\n"
    "  extends Modelica.Mechanics.Translational.Interfaces.PartialTwoFlanges;\n"
    "  Modelica.Units.SI.Position s_rel(start = 0);\n"
    "  Modelica.Units.SI.Force f \"tension (positive pulls the flanges together)\";\n"
    "equation\n"
    "  s_rel = flange_b.s - flange_a.s;\n"
    "  flange_b.f = f;\n"
    "  flange_a.f = -f;\n"
    "end PartialCompliant;\n"
    "partial model PartialCompliantWithRelativeStates \"PartialCompliant with the relative velocity\"\n"
    "  extends Modelica.Mechanics.Translational.Interfaces.PartialTwoFlanges;\n"
    "  parameter StateSelect stateSelect = StateSelect.prefer;\n"
    "  parameter Modelica.Units.SI.Distance s_nominal = 1e-4;\n"
    "  Modelica.Units.SI.Position s_rel(start = 0, stateSelect = stateSelect, nominal = s_nominal);\n"
    "  Modelica.Units.SI.Velocity v_rel(start = 0, stateSelect = stateSelect);\n"
    "  Modelica.Units.SI.Force f;\n"
    "equation\n"
    "  s_rel = flange_b.s - flange_a.s;\n"
    "  v_rel = der(s_rel);\n"
    "  flange_b.f = f;\n"
    "  flange_a.f = -f;\n"
    "end PartialCompliantWithRelativeStates;\n"
    "partial model PartialElementaryOneFlangeAndSupport2 \"one flange and an optional support\"\n"
    "  parameter Boolean useSupport = false;\n"
    "  Modelica.Mechanics.Translational.Interfaces.Flange_b flange;\n"
    "  Modelica.Mechanics.Translational.Interfaces.Support support if useSupport;\n"
    "  Modelica.Units.SI.Length s \"flange position relative to the support\";\n"
    "protected\n"
    "  Modelica.Units.SI.Length s_support;\n"
    "equation\n"
    "  s = flange.s - s_support;\n"
    "  if useSupport then\n"
    "    support.s = s_support;\n"
    "    support.f = -flange.f;\n"
    "  else\n"
    "    s_support = 0;\n"
    "  end if;\n"
    "end PartialElementaryOneFlangeAndSupport2;\n"
    "partial model PartialElementaryTwoFlangesAndSupport2 \"two flanges and an optional support\"\n"
    "  parameter Boolean useSupport = false;\n"
    "  Modelica.Mechanics.Translational.Interfaces.Flange_a flange_a;\n"
    "  Modelica.Mechanics.Translational.Interfaces.Flange_b flange_b;\n"
    "  Modelica.Mechanics.Translational.Interfaces.Support support if useSupport;\n"
    "  Modelica.Units.SI.Length s_a \"flange_a relative to the support\";\n"
    "  Modelica.Units.SI.Length s_b \"flange_b relative to the support\";\n"
    "protected\n"
    "  Modelica.Units.SI.Length s_support;\n"
    "equation\n"
    "  s_a = flange_a.s - s_support;\n"
    "  s_b = flange_b.s - s_support;\n"
    "  if useSupport then\n"
    "    support.s = s_support;\n"
    "    support.f = -flange_a.f - flange_b.f;\n"
    "  else\n"
    "    s_support = 0;\n"
    "  end if;\n"
    "end PartialElementaryTwoFlangesAndSupport2;\n"
    "partial model PartialForce \"a force source: f is the force on the flange (the source pushes with -f)\"\n"
    "  extends Modelica.Mechanics.Translational.Interfaces.PartialElementaryOneFlangeAndSupport2;\n"
    "  Modelica.Units.SI.Force f;\n"
    "equation\n"
    "  f = flange.f;\n"
    "end PartialForce;\n"
    "partial model PartialAbsoluteSensor \"measures at one flange, no force\"\n"
    "  Modelica.Mechanics.Translational.Interfaces.Flange_a flange;\n"
    "equation\n"
    "  flange.f = 0;\n"
    "end PartialAbsoluteSensor;\n"
    "partial model PartialRelativeSensor \"measures between two flanges, no net force\"\n"
    "  extends Modelica.Mechanics.Translational.Interfaces.PartialTwoFlanges;\n"
    "equation\n"
    "  flange_a.f + flange_b.f = 0;\n"
    "end PartialRelativeSensor;\n";

static const char blocks_text[] =
    "within Modelica.Blocks.Interfaces;\n"
    "partial block SO \"one output\"\n"
    "  Modelica.Blocks.Interfaces.RealOutput y;\n"
    "end SO;\n"
    "partial block MO \"nout outputs\"\n"
    "  parameter Integer nout(min = 1) = 1;\n"
    "  Modelica.Blocks.Interfaces.RealOutput y[nout];\n"
    "end MO;\n"
    "partial block SISO \"one input, one output\"\n"
    "  Modelica.Blocks.Interfaces.RealInput u;\n"
    "  Modelica.Blocks.Interfaces.RealOutput y;\n"
    "end SISO;\n"
    "partial block SI2SO \"two inputs, one output\"\n"
    "  Modelica.Blocks.Interfaces.RealInput u1;\n"
    "  Modelica.Blocks.Interfaces.RealInput u2;\n"
    "  Modelica.Blocks.Interfaces.RealOutput y;\n"
    "end SI2SO;\n"
    "partial block MISO \"nin inputs, one output\"\n"
    "  parameter Integer nin = 1;\n"
    "  Modelica.Blocks.Interfaces.RealInput u[nin];\n"
    "  Modelica.Blocks.Interfaces.RealOutput y;\n"
    "end MISO;\n"
    "partial block MIMO \"nin inputs, nout outputs\"\n"
    "  parameter Integer nin = 1;\n"
    "  parameter Integer nout = 1;\n"
    "  Modelica.Blocks.Interfaces.RealInput u[nin];\n"
    "  Modelica.Blocks.Interfaces.RealOutput y[nout];\n"
    "end MIMO;\n"
    "partial block SignalSource \"one output, with an offset and a start time\"\n"
    "  extends Modelica.Blocks.Interfaces.SO;\n"
    "  parameter Real offset = 0;\n"
    "  parameter Modelica.Units.SI.Time startTime = 0;\n"
    "end SignalSource;\n";


/* The signal adaptors of Modelica.Blocks.Interfaces.Adaptors: a flange
 * seen as signals, for models exported as input/output blocks (FMUs). The
 * optional derivative connectors follow the MSL's parameters; a potential
 * given with its derivatives drives the flange through state1/state2
 * (flatten.c), so that no derivative of an input is taken numerically. */
static const char adaptors_text[] =
    "within Modelica.Blocks.Interfaces.Adaptors;\n"
    "partial model FlowToPotentialAdaptor \"flow in, potential and its derivatives out\"\n"
    "  parameter Boolean use_pder = true \"output der(potential)\";\n"
    "  parameter Boolean use_pder2 = true \"output der2(potential) (with use_pder)\";\n"
    "  parameter Boolean use_fder = true \"input der(flow)\";\n"
    "  parameter Boolean use_fder2 = true \"input der2(flow) (with use_fder)\";\n"
    "  Modelica.Blocks.Interfaces.RealOutput p \"potential\";\n"
    "  Modelica.Blocks.Interfaces.RealOutput pder if use_pder \"der(potential)\";\n"
    "  Modelica.Blocks.Interfaces.RealOutput pder2 if use_pder and use_pder2 \"der2(potential)\";\n"
    "  Modelica.Blocks.Interfaces.RealInput f \"flow\";\n"
    "  Modelica.Blocks.Interfaces.RealInput fder if use_fder \"der(flow)\";\n"
    "  Modelica.Blocks.Interfaces.RealInput fder2 if use_fder and use_fder2 \"der2(flow)\";\n"
    "protected\n"
    "  parameter String Name_p = \"p\";\n"
    "  parameter String Name_pder = \"der(p)\";\n"
    "  parameter String Name_pder2 = \"der2(p)\";\n"
    "  parameter String Name_f = \"f\";\n"
    "  parameter String Name_fder = \"der(f)\";\n"
    "  parameter String Name_fder2 = \"der2(f)\";\n"
    "  Real y \"the potential, as the extending class defines it\";\n"
    "  Real u \"the flow, as the extending class uses it\";\n"
    "equation\n"
    "  y = p;\n"
    "  if use_pder then\n"
    "    pder = der(y);\n"
    "  end if;\n"
    "  if use_pder and use_pder2 then\n"
    "    pder2 = der(pder);\n"
    "  end if;\n"
    "  if use_fder and use_fder2 then\n"
    "    u = Modelica.Blocks.Interfaces.Adaptors.Functions.state2({f, fder, fder2}, time);\n"
    "  elseif use_fder then\n"
    "    u = Modelica.Blocks.Interfaces.Adaptors.Functions.state1({f, fder}, time);\n"
    "  else\n"
    "    u = f;\n"
    "  end if;\n"
    "end FlowToPotentialAdaptor;\n"
    "partial model PotentialToFlowAdaptor \"potential and its derivatives in, flow out\"\n"
    "  parameter Boolean use_pder = true \"input der(potential)\";\n"
    "  parameter Boolean use_pder2 = true \"input der2(potential) (with use_pder)\";\n"
    "  parameter Boolean use_fder = true \"output der(flow)\";\n"
    "  parameter Boolean use_fder2 = true \"output der2(flow) (with use_fder)\";\n"
    "  Modelica.Blocks.Interfaces.RealInput p \"potential\";\n"
    "  Modelica.Blocks.Interfaces.RealInput pder if use_pder \"der(potential)\";\n"
    "  Modelica.Blocks.Interfaces.RealInput pder2 if use_pder and use_pder2 \"der2(potential)\";\n"
    "  Modelica.Blocks.Interfaces.RealOutput f \"flow\";\n"
    "  Modelica.Blocks.Interfaces.RealOutput fder if use_fder \"der(flow)\";\n"
    "  Modelica.Blocks.Interfaces.RealOutput fder2 if use_fder and use_fder2 \"der2(flow)\";\n"
    "protected\n"
    "  parameter String Name_p = \"p\";\n"
    "  parameter String Name_pder = \"der(p)\";\n"
    "  parameter String Name_pder2 = \"der2(p)\";\n"
    "  parameter String Name_f = \"f\";\n"
    "  parameter String Name_fder = \"der(f)\";\n"
    "  parameter String Name_fder2 = \"der2(f)\";\n"
    "  Real y \"the flow, as the extending class defines it\";\n"
    "  Real u \"the potential, as the extending class uses it\";\n"
    "equation\n"
    "  y = -f;\n"
    "  if use_fder then\n"
    "    fder = -der(y);\n"
    "  end if;\n"
    "  if use_fder and use_fder2 then\n"
    "    fder2 = der(fder);\n"
    "  end if;\n"
    "  if use_pder and use_pder2 then\n"
    "    u = Modelica.Blocks.Interfaces.Adaptors.Functions.state2({p, pder, pder2}, time);\n"
    "  elseif use_pder then\n"
    "    u = Modelica.Blocks.Interfaces.Adaptors.Functions.state1({p, pder}, time);\n"
    "  else\n"
    "    u = p;\n"
    "  end if;\n"
    "end PotentialToFlowAdaptor;\n";

/* The heat port of lossy components, without heat transfer: flange has no
 * thermal side, so the port can only be absent (useHeatPort = false); the
 * loss power is an ordinary variable of the component. */
static const char thermal_text[] =
    "within Modelica.Thermal.HeatTransfer.Interfaces;\n"
    "partial model PartialElementaryConditionalHeatPortWithoutT \"the loss power of a component\"\n"
    "  parameter Boolean useHeatPort = false \"a heat port (not available in flange)\";\n"
    "  Modelica.Units.SI.Power lossPower \"loss power leaving the component as heat\";\n"
    "equation\n"
    "  assert(not useHeatPort, \"flange has no heat ports: useHeatPort must be false\");\n"
    "end PartialElementaryConditionalHeatPortWithoutT;\n"
    "partial model PartialElementaryConditionalHeatPort \"the loss power of a component\"\n"
    "  parameter Boolean useHeatPort = false \"a heat port (not available in flange)\";\n"
    "  parameter Modelica.Units.SI.Temperature T = 293.15 \"fixed temperature\";\n"
    "  Modelica.Units.SI.Power lossPower \"loss power leaving the component as heat\";\n"
    "  Modelica.Units.SI.Temperature TheatPort = T;\n"
    "equation\n"
    "  assert(not useHeatPort, \"flange has no heat ports: useHeatPort must be false\");\n"
    "end PartialElementaryConditionalHeatPort;\n";

/* The translational adaptors built on them. */
static const char components_text[] =
    "within Modelica.Mechanics.Translational.Components;\n"
    "model GeneralForceToPositionAdaptor \"force in; position, speed and acceleration of the flange out\"\n"
    "  extends Modelica.Blocks.Interfaces.Adaptors.FlowToPotentialAdaptor(final use_fder = false,\n"
    "    final use_fder2 = false, final Name_p = \"s\", final Name_pder = \"v\", final Name_pder2 = \"a\");\n"
    "  Modelica.Mechanics.Translational.Interfaces.Flange_a flange;\n"
    "equation\n"
    "  y = flange.s;\n"
    "  u = flange.f;\n"
    "end GeneralForceToPositionAdaptor;\n"
    "model GeneralPositionToForceAdaptor \"position (with speed and acceleration) in; force of the flange out\"\n"
    "  extends Modelica.Blocks.Interfaces.Adaptors.PotentialToFlowAdaptor(final use_fder = false,\n"
    "    final use_fder2 = false, final Name_p = \"s\", final Name_pder = \"v\", final Name_pder2 = \"a\");\n"
    "  Modelica.Mechanics.Translational.Interfaces.Flange_b flange;\n"
    "equation\n"
    "  y = flange.f;\n"
    "  u = flange.s;\n"
    "end GeneralPositionToForceAdaptor;\n";

#define NFILES 5
static fl_file_ast *files[NFILES];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void parse_all(void)
{
    fl_diag *d = fl_diag_new();
    files[0] = fl_parse(translational_text, "<flange: Modelica.Mechanics.Translational.Interfaces>", d);
    files[1] = fl_parse(blocks_text, "<flange: Modelica.Blocks.Interfaces>", d);
    files[2] = fl_parse(adaptors_text, "<flange: Modelica.Blocks.Interfaces.Adaptors>", d);
    files[3] = fl_parse(components_text, "<flange: Modelica.Mechanics.Translational.Components>", d);
    files[4] = fl_parse(thermal_text, "<flange: Modelica.Thermal.HeatTransfer.Interfaces>", d);
    fl_diag_free(d);
}

const fl_class_ast *fl_bundled_class(const char *path)
{
    pthread_once(&once, parse_all);
    const char *dot = strrchr(path, '.');
    if (!dot) return NULL;
    size_t plen = (size_t)(dot - path);
    for (int k = 0; k < NFILES; k++) {
        const fl_file_ast *f = files[k];
        if (!f || !f->within || strlen(f->within) != plen || strncmp(f->within, path, plen) != 0) continue;
        for (size_t i = 0; i < f->classes.n; i++)
            if (strcmp(f->classes.v[i]->name, dot + 1) == 0) return f->classes.v[i];
    }
    return NULL;
}
