/* fmi2.c - every function of the FMI 2.0 API (Co-Simulation and Model
 * Exchange) over the instance of inst.c. Value references are the indices
 * of the variable table (fmu.h). What flange does not provide (directional
 * derivatives, input and output derivatives, asynchronous steps, String
 * variables) returns fmi2Error with the reason in the log. */
#include <stdarg.h>
#include <stdio.h>

#include "fmi/fmi2abi.h"
#include "fmi/inst.h"

_Static_assert(sizeof(fmi2ValueReference) == sizeof(unsigned), "value references are unsigned int");

static void fmi2_log(fmu_inst *in, int status, const char *category, const char *message)
{
    fmi2CallbackLogger logger = (fmi2CallbackLogger)(void (*)(void))in->logger;
    /* the message is a format to the logger: pass it as an argument */
    logger(in->env, in->name, (fmi2Status)status, category, "%s", message);
}

const char *fmi2GetTypesPlatform(void)
{
    return "default";
}

const char *fmi2GetVersion(void)
{
    return "2.0";
}

FMU_API(fmi2Status, fmi2SetDebugLogging,
        (fmi2Component c, fmi2Boolean loggingOn, size_t nCategories, const fmi2String categories[]),
        (c, loggingOn, nCategories, categories), c, fmi2Error)
{
    return (fmi2Status)fmu_set_logging(c, loggingOn != fmi2False, nCategories, categories);
}

fmi2Component fmi2Instantiate(fmi2String instanceName, fmi2Type fmuType, fmi2String fmuGUID,
                              fmi2String fmuResourceLocation, const fmi2CallbackFunctions *functions,
                              fmi2Boolean visible, fmi2Boolean loggingOn)
{
    (void)visible;
    fmu_inst proto = {0};
    proto.fmi = 2;
    proto.name = (char *)(instanceName ? instanceName : "");
    if (functions && functions->logger) {
        proto.logger = (void *)(void (*)(void))functions->logger;
        proto.env = functions->componentEnvironment;
        proto.log = fmi2_log;
    }
    if (fmuType != fmi2CoSimulation && fmuType != fmi2ModelExchange) {
        if (proto.logger)
            functions->logger(proto.env, proto.name, fmi2Error, "logStatusError",
                              "error: fmi2Instantiate: unknown interface type %d", (int)fmuType);
        return NULL;
    }
    proto.cs = fmuType == fmi2CoSimulation;
    return fmu_new(&proto, fmuGUID, fmuResourceLocation, loggingOn != fmi2False);
}

void fmi2FreeInstance(fmi2Component c)
{
    fmu_inst *in = fmu_check(c);
    if (in) fmu_free(in);
}

FMU_API(fmi2Status, fmi2SetupExperiment,
        (fmi2Component c, fmi2Boolean toleranceDefined, fmi2Real tolerance, fmi2Real startTime,
         fmi2Boolean stopTimeDefined, fmi2Real stopTime),
        (c, toleranceDefined, tolerance, startTime, stopTimeDefined, stopTime), c, fmi2Error)
{
    return (fmi2Status)fmu_setup(c, toleranceDefined != fmi2False, tolerance, startTime, stopTimeDefined != fmi2False,
                                 stopTime);
}

FMU_API(fmi2Status, fmi2EnterInitializationMode, (fmi2Component c), (c), c, fmi2Error)
{
    return (fmi2Status)fmu_enter_init(c);
}

FMU_API(fmi2Status, fmi2ExitInitializationMode, (fmi2Component c), (c), c, fmi2Error)
{
    return (fmi2Status)fmu_exit_init(c);
}

FMU_API(fmi2Status, fmi2Terminate, (fmi2Component c), (c), c, fmi2Error)
{
    return (fmi2Status)fmu_terminate(c);
}

FMU_API(fmi2Status, fmi2Reset, (fmi2Component c), (c), c, fmi2Error)
{
    return (fmi2Status)fmu_reset(c);
}

/* ---- variables ------------------------------------------------------------ */

FMU_API(fmi2Status, fmi2GetReal, (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Real value[]),
        (c, vr, nvr, value), c, fmi2Error)
{
    return (fmi2Status)fmu_get_real(c, vr, nvr, value, 0);
}

FMU_API(fmi2Status, fmi2GetInteger, (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Integer value[]),
        (c, vr, nvr, value), c, fmi2Error)
{
    return (fmi2Status)fmu_get_int(c, vr, nvr, value, 0);
}

FMU_API(fmi2Status, fmi2GetBoolean, (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Boolean value[]),
        (c, vr, nvr, value), c, fmi2Error)
{
    return (fmi2Status)fmu_get_bool(c, vr, nvr, value, 0);
}

FMU_API(fmi2Status, fmi2GetString, (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2String value[]),
        (c, vr, nvr, value), c, fmi2Error)
{
    (void)vr;
    (void)value;
    if (nvr == 0) return fmi2OK;
    return (fmi2Status)fmu_error(c, "fmi2GetString: the FMU has no String variables");
}

FMU_API(fmi2Status, fmi2SetReal,
        (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Real value[]), (c, vr, nvr, value), c,
        fmi2Error)
{
    return (fmi2Status)fmu_set_real(c, vr, nvr, value, 0);
}

FMU_API(fmi2Status, fmi2SetInteger,
        (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Integer value[]), (c, vr, nvr, value),
        c, fmi2Error)
{
    return (fmi2Status)fmu_set_int(c, vr, nvr, value, 0);
}

FMU_API(fmi2Status, fmi2SetBoolean,
        (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Boolean value[]), (c, vr, nvr, value),
        c, fmi2Error)
{
    return (fmi2Status)fmu_set_bool(c, vr, nvr, value, 0);
}

FMU_API(fmi2Status, fmi2SetString,
        (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2String value[]), (c, vr, nvr, value),
        c, fmi2Error)
{
    (void)vr;
    (void)value;
    if (nvr == 0) return fmi2OK;
    return (fmi2Status)fmu_error(c, "fmi2SetString: the FMU has no String variables");
}

/* ---- FMU states ------------------------------------------------------------- */

FMU_API(fmi2Status, fmi2GetFMUstate, (fmi2Component c, fmi2FMUstate *state), (c, state), c, fmi2Error)
{
    return (fmi2Status)fmu_state_get(c, state);
}

FMU_API(fmi2Status, fmi2SetFMUstate, (fmi2Component c, fmi2FMUstate state), (c, state), c, fmi2Error)
{
    return (fmi2Status)fmu_state_set(c, state);
}

FMU_API(fmi2Status, fmi2FreeFMUstate, (fmi2Component c, fmi2FMUstate *state), (c, state), c, fmi2Error)
{
    return (fmi2Status)fmu_state_free(c, state);
}

FMU_API(fmi2Status, fmi2SerializedFMUstateSize, (fmi2Component c, fmi2FMUstate state, size_t *size), (c, state, size),
        c, fmi2Error)
{
    return (fmi2Status)fmu_state_size(c, state, size);
}

FMU_API(fmi2Status, fmi2SerializeFMUstate, (fmi2Component c, fmi2FMUstate state, fmi2Byte bytes[], size_t size),
        (c, state, bytes, size), c, fmi2Error)
{
    return (fmi2Status)fmu_state_serialize(c, state, bytes, size);
}

FMU_API(fmi2Status, fmi2DeSerializeFMUstate,
        (fmi2Component c, const fmi2Byte bytes[], size_t size, fmi2FMUstate *state), (c, bytes, size, state), c,
        fmi2Error)
{
    return (fmi2Status)fmu_state_deserialize(c, bytes, size, state);
}

FMU_API(fmi2Status, fmi2GetDirectionalDerivative,
        (fmi2Component c, const fmi2ValueReference unknowns[], size_t nUnknown, const fmi2ValueReference knowns[],
         size_t nKnown, const fmi2Real dvKnown[], fmi2Real dvUnknown[]),
        (c, unknowns, nUnknown, knowns, nKnown, dvKnown, dvUnknown), c, fmi2Error)
{
    return (fmi2Status)fmu_error(c, "fmi2GetDirectionalDerivative: not supported by flange's FMUs "
                                    "(providesDirectionalDerivative is false)");
}

/* ---- Model Exchange ----------------------------------------------------------- */

FMU_API(fmi2Status, fmi2EnterEventMode, (fmi2Component c), (c), c, fmi2Error)
{
    return (fmi2Status)fmu_enter_event(c);
}

FMU_API(fmi2Status, fmi2NewDiscreteStates, (fmi2Component c, fmi2EventInfo *info), (c, info), c, fmi2Error)
{
    if (!info) return (fmi2Status)fmu_error(c, "fmi2NewDiscreteStates: NULL eventInfo");
    int changed, term, next_defined;
    double next;
    if (fmu_update_discrete(c, &changed, &term, &next_defined, &next)) return fmi2Error;
    info->newDiscreteStatesNeeded = fmi2False;
    info->terminateSimulation = term ? fmi2True : fmi2False;
    info->nominalsOfContinuousStatesChanged = fmi2False;
    info->valuesOfContinuousStatesChanged = changed ? fmi2True : fmi2False;
    info->nextEventTimeDefined = next_defined ? fmi2True : fmi2False;
    info->nextEventTime = next;
    return fmi2OK;
}

FMU_API(fmi2Status, fmi2EnterContinuousTimeMode, (fmi2Component c), (c), c, fmi2Error)
{
    return (fmi2Status)fmu_enter_cont(c);
}

FMU_API(fmi2Status, fmi2CompletedIntegratorStep,
        (fmi2Component c, fmi2Boolean noSetFMUStatePriorToCurrentPoint, fmi2Boolean *enterEventMode,
         fmi2Boolean *terminateSimulation),
        (c, noSetFMUStatePriorToCurrentPoint, enterEventMode, terminateSimulation), c, fmi2Error)
{
    int ev = 0, term = 0;
    if (fmu_completed_step(c, &ev, &term)) return fmi2Error;
    if (enterEventMode) *enterEventMode = ev ? fmi2True : fmi2False;
    if (terminateSimulation) *terminateSimulation = term ? fmi2True : fmi2False;
    return fmi2OK;
}

FMU_API(fmi2Status, fmi2SetTime, (fmi2Component c, fmi2Real time), (c, time), c, fmi2Error)
{
    return (fmi2Status)fmu_set_time(c, time);
}

FMU_API(fmi2Status, fmi2SetContinuousStates, (fmi2Component c, const fmi2Real x[], size_t nx), (c, x, nx), c,
        fmi2Error)
{
    return (fmi2Status)fmu_set_states(c, x, nx);
}

FMU_API(fmi2Status, fmi2GetDerivatives, (fmi2Component c, fmi2Real derivatives[], size_t nx), (c, derivatives, nx), c,
        fmi2Error)
{
    return (fmi2Status)fmu_get_derivatives(c, derivatives, nx);
}

FMU_API(fmi2Status, fmi2GetEventIndicators, (fmi2Component c, fmi2Real eventIndicators[], size_t ni),
        (c, eventIndicators, ni), c, fmi2Error)
{
    return (fmi2Status)fmu_get_indicators(c, eventIndicators, ni);
}

FMU_API(fmi2Status, fmi2GetContinuousStates, (fmi2Component c, fmi2Real x[], size_t nx), (c, x, nx), c, fmi2Error)
{
    return (fmi2Status)fmu_get_states(c, x, nx);
}

FMU_API(fmi2Status, fmi2GetNominalsOfContinuousStates, (fmi2Component c, fmi2Real x_nominal[], size_t nx),
        (c, x_nominal, nx), c, fmi2Error)
{
    return (fmi2Status)fmu_get_nominals(c, x_nominal, nx);
}

/* ---- Co-Simulation ------------------------------------------------------------ */

FMU_API(fmi2Status, fmi2SetRealInputDerivatives,
        (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Integer order[], const fmi2Real value[]),
        (c, vr, nvr, order, value), c, fmi2Error)
{
    return (fmi2Status)fmu_error(c, "fmi2SetRealInputDerivatives: not supported (canInterpolateInputs is false: "
                                    "inputs are held constant over a step)");
}

FMU_API(fmi2Status, fmi2GetRealOutputDerivatives,
        (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Integer order[], fmi2Real value[]),
        (c, vr, nvr, order, value), c, fmi2Error)
{
    return (fmi2Status)fmu_error(c, "fmi2GetRealOutputDerivatives: not supported (maxOutputDerivativeOrder is 0)");
}

FMU_API(fmi2Status, fmi2DoStep,
        (fmi2Component c, fmi2Real currentCommunicationPoint, fmi2Real communicationStepSize,
         fmi2Boolean noSetFMUStatePriorToCurrentPoint),
        (c, currentCommunicationPoint, communicationStepSize, noSetFMUStatePriorToCurrentPoint), c, fmi2Error)
{
    return (fmi2Status)fmu_do_step(c, currentCommunicationPoint, communicationStepSize);
}

FMU_API(fmi2Status, fmi2CancelStep, (fmi2Component c), (c), c, fmi2Error)
{
    return (fmi2Status)fmu_error(c, "fmi2CancelStep: steps are never asynchronous here (fmi2DoStep does not return "
                                    "fmi2Pending)");
}

FMU_API(fmi2Status, fmi2GetStatus, (fmi2Component c, const fmi2StatusKind s, fmi2Status *value), (c, s, value), c,
        fmi2Error)
{
    fmu_inst *in = c;
    if (!value) return (fmi2Status)fmu_error(in, "fmi2GetStatus: NULL value");
    if (s == fmi2DoStepStatus) {
        *value = in->terminated ? fmi2Discard : fmi2OK;
        return fmi2OK;
    }
    return fmi2Discard;
}

FMU_API(fmi2Status, fmi2GetRealStatus, (fmi2Component c, const fmi2StatusKind s, fmi2Real *value), (c, s, value), c,
        fmi2Error)
{
    fmu_inst *in = c;
    if (!value) return (fmi2Status)fmu_error(in, "fmi2GetRealStatus: NULL value");
    if (s == fmi2LastSuccessfulTime) {
        *value = in->begun ? in->last_time : in->start;
        return fmi2OK;
    }
    return fmi2Discard;
}

FMU_API(fmi2Status, fmi2GetIntegerStatus, (fmi2Component c, const fmi2StatusKind s, fmi2Integer *value), (c, s, value),
        c, fmi2Error)
{
    (void)s;
    (void)value;
    return fmi2Discard;
}

FMU_API(fmi2Status, fmi2GetBooleanStatus, (fmi2Component c, const fmi2StatusKind s, fmi2Boolean *value), (c, s, value),
        c, fmi2Error)
{
    fmu_inst *in = c;
    if (!value) return (fmi2Status)fmu_error(in, "fmi2GetBooleanStatus: NULL value");
    if (s == fmi2Terminated) {
        *value = in->terminated ? fmi2True : fmi2False;
        return fmi2OK;
    }
    return fmi2Discard;
}

FMU_API(fmi2Status, fmi2GetStringStatus, (fmi2Component c, const fmi2StatusKind s, fmi2String *value), (c, s, value),
        c, fmi2Error)
{
    if (s == fmi2PendingStatus && value) {
        *value = "";
        return fmi2OK;
    }
    return fmi2Discard;
}
