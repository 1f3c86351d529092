/* fmi3.c - every function of the FMI 3.0 API over the instance of inst.c:
 * Co-Simulation (no event mode, no early return, no intermediate update)
 * and Model Exchange; Float64, Int32 and Boolean variables (value reference
 * = table index + 1; 0 is time). Scheduled Execution, clocks, the other
 * integer and float types, String and Binary variables, dependencies,
 * directional and adjoint derivatives, configuration mode and output
 * derivatives return fmi3Error with the reason in the log. */
#include <stdio.h>
#include <stdlib.h>

#include "fmi/fmi3abi.h"
#include "fmi/inst.h"

_Static_assert(sizeof(fmi3ValueReference) == sizeof(unsigned), "value references are 32-bit unsigned");

static void fmi3_log(fmu_inst *in, int status, const char *category, const char *message)
{
    fmi3LogMessageCallback logger = (fmi3LogMessageCallback)(void (*)(void))in->logger;
    logger(in->env, (fmi3Status)status, category, message);
}

const char *fmi3GetVersion(void)
{
    return "3.0";
}

FMU_API(fmi3Status, fmi3SetDebugLogging,
        (fmi3Instance instance, fmi3Boolean loggingOn, size_t nCategories, const fmi3String categories[]),
        (instance, loggingOn, nCategories, categories), instance, fmi3Error)
{
    return (fmi3Status)fmu_set_logging(instance, loggingOn, nCategories, categories);
}

static fmi3Instance instantiate(int cs, fmi3String name, fmi3String token, fmi3String resourcePath,
                                fmi3Boolean loggingOn, fmi3InstanceEnvironment env, fmi3LogMessageCallback logMessage,
                                int event_mode_used)
{
    fmu_inst proto = {0};
    proto.fmi = 3;
    proto.cs = cs;
    proto.name = (char *)(name ? name : "");
    proto.event_mode_used = event_mode_used;
    if (logMessage) {
        proto.logger = (void *)(void (*)(void))logMessage;
        proto.env = env;
        proto.log = fmi3_log;
    }
    return fmu_new(&proto, token, resourcePath, loggingOn);
}

fmi3Instance fmi3InstantiateModelExchange(fmi3String instanceName, fmi3String instantiationToken,
                                          fmi3String resourcePath, fmi3Boolean visible, fmi3Boolean loggingOn,
                                          fmi3InstanceEnvironment env, fmi3LogMessageCallback logMessage)
{
    (void)visible;
    return instantiate(0, instanceName, instantiationToken, resourcePath, loggingOn, env, logMessage, 0);
}

fmi3Instance fmi3InstantiateCoSimulation(fmi3String instanceName, fmi3String instantiationToken,
                                         fmi3String resourcePath, fmi3Boolean visible, fmi3Boolean loggingOn,
                                         fmi3Boolean eventModeUsed, fmi3Boolean earlyReturnAllowed,
                                         const fmi3ValueReference requiredIntermediateVariables[],
                                         size_t nRequiredIntermediateVariables, fmi3InstanceEnvironment env,
                                         fmi3LogMessageCallback logMessage,
                                         fmi3IntermediateUpdateCallback intermediateUpdate)
{
    (void)visible;
    (void)earlyReturnAllowed;
    (void)requiredIntermediateVariables;
    (void)nRequiredIntermediateVariables;
    (void)intermediateUpdate;
    if (eventModeUsed) {
        if (logMessage)
            logMessage(env, fmi3Error, "logStatusError",
                       "error: fmi3InstantiateCoSimulation: event mode is not supported (hasEventMode is false)");
        return NULL;
    }
    return instantiate(1, instanceName, instantiationToken, resourcePath, loggingOn, env, logMessage, 0);
}

fmi3Instance fmi3InstantiateScheduledExecution(fmi3String instanceName, fmi3String instantiationToken,
                                               fmi3String resourcePath, fmi3Boolean visible, fmi3Boolean loggingOn,
                                               fmi3InstanceEnvironment env, fmi3LogMessageCallback logMessage,
                                               fmi3ClockUpdateCallback clockUpdate,
                                               fmi3LockPreemptionCallback lockPreemption,
                                               fmi3UnlockPreemptionCallback unlockPreemption)
{
    (void)instanceName;
    (void)instantiationToken;
    (void)resourcePath;
    (void)visible;
    (void)loggingOn;
    (void)clockUpdate;
    (void)lockPreemption;
    (void)unlockPreemption;
    if (logMessage)
        logMessage(env, fmi3Error, "logStatusError",
                   "error: fmi3InstantiateScheduledExecution: flange's FMUs do not support Scheduled Execution");
    return NULL;
}

void fmi3FreeInstance(fmi3Instance instance)
{
    fmu_inst *in = fmu_check(instance);
    if (in) fmu_free(in);
}

FMU_API(fmi3Status, fmi3EnterInitializationMode,
        (fmi3Instance instance, fmi3Boolean toleranceDefined, fmi3Float64 tolerance, fmi3Float64 startTime,
         fmi3Boolean stopTimeDefined, fmi3Float64 stopTime),
        (instance, toleranceDefined, tolerance, startTime, stopTimeDefined, stopTime), instance, fmi3Error)
{
    if (fmu_setup(instance, toleranceDefined, tolerance, startTime, stopTimeDefined, stopTime)) return fmi3Error;
    return (fmi3Status)fmu_enter_init(instance);
}

FMU_API(fmi3Status, fmi3ExitInitializationMode, (fmi3Instance instance), (instance), instance, fmi3Error)
{
    return (fmi3Status)fmu_exit_init(instance);
}

FMU_API(fmi3Status, fmi3EnterEventMode, (fmi3Instance instance), (instance), instance, fmi3Error)
{
    fmu_inst *in = instance;
    if (in->cs) return (fmi3Status)fmu_error(in, "fmi3EnterEventMode: Co-Simulation without event mode");
    return (fmi3Status)fmu_enter_event(in);
}

FMU_API(fmi3Status, fmi3Terminate, (fmi3Instance instance), (instance), instance, fmi3Error)
{
    return (fmi3Status)fmu_terminate(instance);
}

FMU_API(fmi3Status, fmi3Reset, (fmi3Instance instance), (instance), instance, fmi3Error)
{
    return (fmi3Status)fmu_reset(instance);
}

/* ---- variables ------------------------------------------------------------ */

static int scalars(fmu_inst *in, const char *fn, size_t nvr, size_t nValues)
{
    if (nvr != nValues)
        return fmu_error(in, "%s: %zu values for %zu value references (flange's FMUs have no arrays)", fn, nValues, nvr);
    return FMU_OK;
}

FMU_API(fmi3Status, fmi3GetFloat64,
        (fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, fmi3Float64 values[], size_t nValues),
        (instance, vrs, nvr, values, nValues), instance, fmi3Error)
{
    if (scalars(instance, "fmi3GetFloat64", nvr, nValues)) return fmi3Error;
    return (fmi3Status)fmu_get_real(instance, vrs, nvr, values, 1);
}

FMU_API(fmi3Status, fmi3SetFloat64,
        (fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, const fmi3Float64 values[], size_t nValues),
        (instance, vrs, nvr, values, nValues), instance, fmi3Error)
{
    if (scalars(instance, "fmi3SetFloat64", nvr, nValues)) return fmi3Error;
    return (fmi3Status)fmu_set_real(instance, vrs, nvr, values, 1);
}

FMU_API(fmi3Status, fmi3GetInt32,
        (fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, fmi3Int32 values[], size_t nValues),
        (instance, vrs, nvr, values, nValues), instance, fmi3Error)
{
    if (scalars(instance, "fmi3GetInt32", nvr, nValues)) return fmi3Error;
    return (fmi3Status)fmu_get_int(instance, vrs, nvr, values, 1);
}

FMU_API(fmi3Status, fmi3SetInt32,
        (fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, const fmi3Int32 values[], size_t nValues),
        (instance, vrs, nvr, values, nValues), instance, fmi3Error)
{
    if (scalars(instance, "fmi3SetInt32", nvr, nValues)) return fmi3Error;
    return (fmi3Status)fmu_set_int(instance, vrs, nvr, values, 1);
}

FMU_API(fmi3Status, fmi3GetBoolean,
        (fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, fmi3Boolean values[], size_t nValues),
        (instance, vrs, nvr, values, nValues), instance, fmi3Error)
{
    if (scalars(instance, "fmi3GetBoolean", nvr, nValues)) return fmi3Error;
    for (size_t i = 0; i < nvr; i++) {
        int b;
        if (fmu_get_bool(instance, vrs + i, 1, &b, 1)) return fmi3Error;
        values[i] = b != 0;
    }
    return fmi3OK;
}

FMU_API(fmi3Status, fmi3SetBoolean,
        (fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, const fmi3Boolean values[], size_t nValues),
        (instance, vrs, nvr, values, nValues), instance, fmi3Error)
{
    if (scalars(instance, "fmi3SetBoolean", nvr, nValues)) return fmi3Error;
    if (nvr && !values) return (fmi3Status)fmu_error(instance, "fmi3SetBoolean: NULL values");
    for (size_t i = 0; i < nvr; i++) {
        int b = values[i] ? 1 : 0;
        if (fmu_set_bool(instance, vrs + i, 1, &b, 1)) return fmi3Error;
    }
    return fmi3OK;
}

/* the types no variable of a flange FMU has: nothing to get or set */
static fmi3Status no_type(fmu_inst *in, const char *fn, size_t nvr)
{
    if (nvr == 0) return fmi3OK;
    return (fmi3Status)fmu_error(in, "%s: flange's FMUs have no variables of this type (only Float64, Int32 and "
                                     "Boolean)", fn);
}

#define NO_TYPE(NAME, T)                                                                                          \
    FMU_API(fmi3Status, fmi3Get##NAME,                                                                            \
            (fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, T values[], size_t nValues),       \
            (instance, vrs, nvr, values, nValues), instance, fmi3Error)                                            \
    {                                                                                                             \
        return no_type(instance, "fmi3Get" #NAME, nvr);                                                          \
    }                                                                                                             \
    FMU_API(fmi3Status, fmi3Set##NAME,                                                                            \
            (fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, const T values[], size_t nValues), \
            (instance, vrs, nvr, values, nValues), instance, fmi3Error)                                            \
    {                                                                                                             \
        return no_type(instance, "fmi3Set" #NAME, nvr);                                                           \
    }

NO_TYPE(Float32, fmi3Float32)
NO_TYPE(Int8, fmi3Int8)
NO_TYPE(UInt8, fmi3UInt8)
NO_TYPE(Int16, fmi3Int16)
NO_TYPE(UInt16, fmi3UInt16)
NO_TYPE(UInt32, fmi3UInt32)
NO_TYPE(Int64, fmi3Int64)
NO_TYPE(UInt64, fmi3UInt64)
NO_TYPE(String, fmi3String)

FMU_API(fmi3Status, fmi3GetBinary,
        (fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, size_t valueSizes[], fmi3Binary values[],
         size_t nValues),
        (instance, vrs, nvr, valueSizes, values, nValues), instance, fmi3Error)
{
    return no_type(instance, "fmi3GetBinary", nvr);
}

FMU_API(fmi3Status, fmi3SetBinary,
        (fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, const size_t valueSizes[],
         const fmi3Binary values[], size_t nValues),
        (instance, vrs, nvr, valueSizes, values, nValues), instance, fmi3Error)
{
    return no_type(instance, "fmi3SetBinary", nvr);
}

FMU_API(fmi3Status, fmi3GetClock, (fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, fmi3Clock values[]),
        (instance, vrs, nvr, values), instance, fmi3Error)
{
    return (fmi3Status)fmu_error(instance, "fmi3GetClock: flange's FMUs have no clocks");
}

FMU_API(fmi3Status, fmi3SetClock,
        (fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, const fmi3Clock values[]),
        (instance, vrs, nvr, values), instance, fmi3Error)
{
    return (fmi3Status)fmu_error(instance, "fmi3SetClock: flange's FMUs have no clocks");
}

/* ---- dependencies and partial derivatives --------------------------------- */

FMU_API(fmi3Status, fmi3GetNumberOfVariableDependencies,
        (fmi3Instance instance, fmi3ValueReference vr, size_t *nDependencies), (instance, vr, nDependencies), instance,
        fmi3Error)
{
    return (fmi3Status)fmu_error(instance, "fmi3GetNumberOfVariableDependencies: not supported (the model "
                                           "description declares no dependencies: every unknown depends on all knowns)");
}

FMU_API(fmi3Status, fmi3GetVariableDependencies,
        (fmi3Instance instance, fmi3ValueReference dependent, size_t elementIndicesOfDependent[],
         fmi3ValueReference independents[], size_t elementIndicesOfIndependents[],
         fmi3DependencyKind dependencyKinds[], size_t nDependencies),
        (instance, dependent, elementIndicesOfDependent, independents, elementIndicesOfIndependents, dependencyKinds,
         nDependencies),
        instance, fmi3Error)
{
    return (fmi3Status)fmu_error(instance, "fmi3GetVariableDependencies: not supported (the model description "
                                           "declares no dependencies: every unknown depends on all knowns)");
}

FMU_API(fmi3Status, fmi3GetDirectionalDerivative,
        (fmi3Instance instance, const fmi3ValueReference unknowns[], size_t nUnknowns,
         const fmi3ValueReference knowns[], size_t nKnowns, const fmi3Float64 seed[], size_t nSeed,
         fmi3Float64 sensitivity[], size_t nSensitivity),
        (instance, unknowns, nUnknowns, knowns, nKnowns, seed, nSeed, sensitivity, nSensitivity), instance, fmi3Error)
{
    return (fmi3Status)fmu_error(instance, "fmi3GetDirectionalDerivative: not supported by flange's FMUs "
                                           "(providesDirectionalDerivatives is false)");
}

FMU_API(fmi3Status, fmi3GetAdjointDerivative,
        (fmi3Instance instance, const fmi3ValueReference unknowns[], size_t nUnknowns,
         const fmi3ValueReference knowns[], size_t nKnowns, const fmi3Float64 seed[], size_t nSeed,
         fmi3Float64 sensitivity[], size_t nSensitivity),
        (instance, unknowns, nUnknowns, knowns, nKnowns, seed, nSeed, sensitivity, nSensitivity), instance, fmi3Error)
{
    return (fmi3Status)fmu_error(instance, "fmi3GetAdjointDerivative: not supported by flange's FMUs "
                                           "(providesAdjointDerivatives is false)");
}

/* ---- configuration mode and clocks -------------------------------------------- */

#define UNSUPPORTED(NAME, PARAMS, ARGS, WHY)                                                                      \
    FMU_API(fmi3Status, NAME, PARAMS, ARGS, instance, fmi3Error)                                                  \
    {                                                                                                             \
        return (fmi3Status)fmu_error(instance, #NAME ": " WHY);                                                    \
    }

UNSUPPORTED(fmi3EnterConfigurationMode, (fmi3Instance instance), (instance),
            "flange's FMUs have no structural parameters to configure")
UNSUPPORTED(fmi3ExitConfigurationMode, (fmi3Instance instance), (instance),
            "flange's FMUs have no structural parameters to configure")
UNSUPPORTED(fmi3GetIntervalDecimal,
            (fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, fmi3Float64 intervals[],
             fmi3IntervalQualifier qualifiers[]),
            (instance, vrs, nvr, intervals, qualifiers), "flange's FMUs have no clocks")
UNSUPPORTED(fmi3GetIntervalFraction,
            (fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, fmi3UInt64 counters[],
             fmi3UInt64 resolutions[], fmi3IntervalQualifier qualifiers[]),
            (instance, vrs, nvr, counters, resolutions, qualifiers), "flange's FMUs have no clocks")
UNSUPPORTED(fmi3GetShiftDecimal,
            (fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, fmi3Float64 shifts[]),
            (instance, vrs, nvr, shifts), "flange's FMUs have no clocks")
UNSUPPORTED(fmi3GetShiftFraction,
            (fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, fmi3UInt64 counters[],
             fmi3UInt64 resolutions[]),
            (instance, vrs, nvr, counters, resolutions), "flange's FMUs have no clocks")
UNSUPPORTED(fmi3SetIntervalDecimal,
            (fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, const fmi3Float64 intervals[]),
            (instance, vrs, nvr, intervals), "flange's FMUs have no clocks")
UNSUPPORTED(fmi3SetIntervalFraction,
            (fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, const fmi3UInt64 counters[],
             const fmi3UInt64 resolutions[]),
            (instance, vrs, nvr, counters, resolutions), "flange's FMUs have no clocks")
UNSUPPORTED(fmi3SetShiftDecimal,
            (fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, const fmi3Float64 shifts[]),
            (instance, vrs, nvr, shifts), "flange's FMUs have no clocks")
UNSUPPORTED(fmi3SetShiftFraction,
            (fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, const fmi3UInt64 counters[],
             const fmi3UInt64 resolutions[]),
            (instance, vrs, nvr, counters, resolutions), "flange's FMUs have no clocks")
UNSUPPORTED(fmi3EvaluateDiscreteStates, (fmi3Instance instance), (instance),
            "flange's FMUs have no clocked partitions (discrete states change at events, fmi3UpdateDiscreteStates)")
UNSUPPORTED(fmi3ActivateModelPartition,
            (fmi3Instance instance, fmi3ValueReference clockReference, fmi3Float64 activationTime),
            (instance, clockReference, activationTime), "flange's FMUs do not support Scheduled Execution")
UNSUPPORTED(fmi3GetOutputDerivatives,
            (fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, const fmi3Int32 orders[],
             fmi3Float64 values[], size_t nValues),
            (instance, vrs, nvr, orders, values, nValues), "not supported (maxOutputDerivativeOrder is 0)")

/* ---- events and Model Exchange --------------------------------------------------- */

FMU_API(fmi3Status, fmi3UpdateDiscreteStates,
        (fmi3Instance instance, fmi3Boolean *discreteStatesNeedUpdate, fmi3Boolean *terminateSimulation,
         fmi3Boolean *nominalsOfContinuousStatesChanged, fmi3Boolean *valuesOfContinuousStatesChanged,
         fmi3Boolean *nextEventTimeDefined, fmi3Float64 *nextEventTime),
        (instance, discreteStatesNeedUpdate, terminateSimulation, nominalsOfContinuousStatesChanged,
         valuesOfContinuousStatesChanged, nextEventTimeDefined, nextEventTime),
        instance, fmi3Error)
{
    int changed, term, next_defined;
    double next;
    if (fmu_update_discrete(instance, &changed, &term, &next_defined, &next)) return fmi3Error;
    if (discreteStatesNeedUpdate) *discreteStatesNeedUpdate = false;
    if (terminateSimulation) *terminateSimulation = term != 0;
    if (nominalsOfContinuousStatesChanged) *nominalsOfContinuousStatesChanged = false;
    if (valuesOfContinuousStatesChanged) *valuesOfContinuousStatesChanged = changed != 0;
    if (nextEventTimeDefined) *nextEventTimeDefined = next_defined != 0;
    if (nextEventTime) *nextEventTime = next;
    return fmi3OK;
}

FMU_API(fmi3Status, fmi3EnterContinuousTimeMode, (fmi3Instance instance), (instance), instance, fmi3Error)
{
    return (fmi3Status)fmu_enter_cont(instance);
}

FMU_API(fmi3Status, fmi3CompletedIntegratorStep,
        (fmi3Instance instance, fmi3Boolean noSetFMUStatePriorToCurrentPoint, fmi3Boolean *enterEventMode,
         fmi3Boolean *terminateSimulation),
        (instance, noSetFMUStatePriorToCurrentPoint, enterEventMode, terminateSimulation), instance, fmi3Error)
{
    int ev = 0, term = 0;
    if (fmu_completed_step(instance, &ev, &term)) return fmi3Error;
    if (enterEventMode) *enterEventMode = ev != 0;
    if (terminateSimulation) *terminateSimulation = term != 0;
    return fmi3OK;
}

FMU_API(fmi3Status, fmi3SetTime, (fmi3Instance instance, fmi3Float64 time), (instance, time), instance, fmi3Error)
{
    return (fmi3Status)fmu_set_time(instance, time);
}

FMU_API(fmi3Status, fmi3SetContinuousStates,
        (fmi3Instance instance, const fmi3Float64 continuousStates[], size_t nContinuousStates),
        (instance, continuousStates, nContinuousStates), instance, fmi3Error)
{
    return (fmi3Status)fmu_set_states(instance, continuousStates, nContinuousStates);
}

FMU_API(fmi3Status, fmi3GetContinuousStateDerivatives,
        (fmi3Instance instance, fmi3Float64 derivatives[], size_t nContinuousStates),
        (instance, derivatives, nContinuousStates), instance, fmi3Error)
{
    return (fmi3Status)fmu_get_derivatives(instance, derivatives, nContinuousStates);
}

FMU_API(fmi3Status, fmi3GetEventIndicators, (fmi3Instance instance, fmi3Float64 eventIndicators[], size_t n),
        (instance, eventIndicators, n), instance, fmi3Error)
{
    return (fmi3Status)fmu_get_indicators(instance, eventIndicators, n);
}

FMU_API(fmi3Status, fmi3GetContinuousStates, (fmi3Instance instance, fmi3Float64 continuousStates[], size_t n),
        (instance, continuousStates, n), instance, fmi3Error)
{
    return (fmi3Status)fmu_get_states(instance, continuousStates, n);
}

FMU_API(fmi3Status, fmi3GetNominalsOfContinuousStates, (fmi3Instance instance, fmi3Float64 nominals[], size_t n),
        (instance, nominals, n), instance, fmi3Error)
{
    return (fmi3Status)fmu_get_nominals(instance, nominals, n);
}

FMU_API(fmi3Status, fmi3GetNumberOfEventIndicators, (fmi3Instance instance, size_t *nEventIndicators),
        (instance, nEventIndicators), instance, fmi3Error)
{
    if (!nEventIndicators) return (fmi3Status)fmu_error(instance, "fmi3GetNumberOfEventIndicators: NULL argument");
    *nEventIndicators = (size_t)fmu_nindicators(instance);
    return fmi3OK;
}

FMU_API(fmi3Status, fmi3GetNumberOfContinuousStates, (fmi3Instance instance, size_t *nContinuousStates),
        (instance, nContinuousStates), instance, fmi3Error)
{
    if (!nContinuousStates) return (fmi3Status)fmu_error(instance, "fmi3GetNumberOfContinuousStates: NULL argument");
    *nContinuousStates = (size_t)fmu_nstates(instance);
    return fmi3OK;
}

/* ---- Co-Simulation ------------------------------------------------------------------ */

FMU_API(fmi3Status, fmi3EnterStepMode, (fmi3Instance instance), (instance), instance, fmi3Error)
{
    fmu_inst *in = instance;
    if (in->cs && in->phase == FMU_STEP) return fmi3OK;
    return (fmi3Status)fmu_error(in, "fmi3EnterStepMode: only Co-Simulation with event mode enters step mode "
                                     "(flange's FMUs have no event mode in Co-Simulation)");
}

FMU_API(fmi3Status, fmi3DoStep,
        (fmi3Instance instance, fmi3Float64 currentCommunicationPoint, fmi3Float64 communicationStepSize,
         fmi3Boolean noSetFMUStatePriorToCurrentPoint, fmi3Boolean *eventHandlingNeeded,
         fmi3Boolean *terminateSimulation, fmi3Boolean *earlyReturn, fmi3Float64 *lastSuccessfulTime),
        (instance, currentCommunicationPoint, communicationStepSize, noSetFMUStatePriorToCurrentPoint,
         eventHandlingNeeded, terminateSimulation, earlyReturn, lastSuccessfulTime),
        instance, fmi3Error)
{
    fmu_inst *in = instance;
    int rc = fmu_do_step(in, currentCommunicationPoint, communicationStepSize);
    if (eventHandlingNeeded) *eventHandlingNeeded = false;
    if (earlyReturn) *earlyReturn = false;
    if (terminateSimulation) *terminateSimulation = in->terminated != 0;
    if (lastSuccessfulTime) *lastSuccessfulTime = in->begun ? in->last_time : currentCommunicationPoint;
    if (rc == FMU_DISCARD) {
        /* FMI 3: terminate() inside the step is a successful step that asks to stop */
        return fmi3OK;
    }
    return (fmi3Status)rc;
}

/* ---- FMU states --------------------------------------------------------------------- */

FMU_API(fmi3Status, fmi3GetFMUState, (fmi3Instance instance, fmi3FMUState *state), (instance, state), instance,
        fmi3Error)
{
    return (fmi3Status)fmu_state_get(instance, state);
}

FMU_API(fmi3Status, fmi3SetFMUState, (fmi3Instance instance, fmi3FMUState state), (instance, state), instance,
        fmi3Error)
{
    return (fmi3Status)fmu_state_set(instance, state);
}

FMU_API(fmi3Status, fmi3FreeFMUState, (fmi3Instance instance, fmi3FMUState *state), (instance, state), instance,
        fmi3Error)
{
    return (fmi3Status)fmu_state_free(instance, state);
}

FMU_API(fmi3Status, fmi3SerializedFMUStateSize, (fmi3Instance instance, fmi3FMUState state, size_t *size),
        (instance, state, size), instance, fmi3Error)
{
    return (fmi3Status)fmu_state_size(instance, state, size);
}

FMU_API(fmi3Status, fmi3SerializeFMUState,
        (fmi3Instance instance, fmi3FMUState state, fmi3Byte serializedState[], size_t size),
        (instance, state, serializedState, size), instance, fmi3Error)
{
    return (fmi3Status)fmu_state_serialize(instance, state, serializedState, size);
}

FMU_API(fmi3Status, fmi3DeserializeFMUState,
        (fmi3Instance instance, const fmi3Byte serializedState[], size_t size, fmi3FMUState *state),
        (instance, serializedState, size, state), instance, fmi3Error)
{
    return (fmi3Status)fmu_state_deserialize(instance, serializedState, size, state);
}
