/* fmi2abi.h - the binary interface of FMI 2.0 as flange's FMU runtime
 * (src/fmi/fmi2.c) implements it: the C types, the status and kind
 * enumerations, the callback and event structures, and the functions an
 * importer looks up in the shared object. Written for flange from the FMI
 * 2.0 standard; the names and layouts are the standard's, so an importer
 * compiled against the Modelica Association's headers calls these
 * functions directly (tests/fmu/abi_check.sh checks the layouts against
 * those headers where ../shared holds them). Internal. */
#ifndef FL_FMI2ABI_H
#define FL_FMI2ABI_H

#include <stddef.h>

#ifndef FL_FMI2ABI_NO_TYPES
/* handles: the instance, the importer's context, a saved FMU state */
typedef void *fmi2Component;
typedef void *fmi2ComponentEnvironment;
typedef void *fmi2FMUstate;
/* scalar types */
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean; /* fmi2True / fmi2False */
typedef char fmi2Char;
typedef const fmi2Char *fmi2String;
typedef char fmi2Byte;

#define fmi2True 1
#define fmi2False 0

typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;
typedef enum { fmi2ModelExchange, fmi2CoSimulation } fmi2Type;
typedef enum { fmi2DoStepStatus, fmi2PendingStatus, fmi2LastSuccessfulTime, fmi2Terminated } fmi2StatusKind;

/* the importer's services: the logger takes a printf format in message */
typedef void (*fmi2CallbackLogger)(fmi2ComponentEnvironment env, fmi2String instanceName, fmi2Status status,
                                   fmi2String category, fmi2String message, ...);
typedef void *(*fmi2CallbackAllocateMemory)(size_t nobj, size_t size);
typedef void (*fmi2CallbackFreeMemory)(void *obj);
typedef void (*fmi2StepFinished)(fmi2ComponentEnvironment env, fmi2Status status);

typedef struct {
    fmi2CallbackLogger logger;
    fmi2CallbackAllocateMemory allocateMemory;
    fmi2CallbackFreeMemory freeMemory;
    fmi2StepFinished stepFinished;
    fmi2ComponentEnvironment componentEnvironment;
} fmi2CallbackFunctions;

/* what an event iteration step (fmi2NewDiscreteStates) reports */
typedef struct {
    fmi2Boolean newDiscreteStatesNeeded;
    fmi2Boolean terminateSimulation;
    fmi2Boolean nominalsOfContinuousStatesChanged;
    fmi2Boolean valuesOfContinuousStatesChanged;
    fmi2Boolean nextEventTimeDefined;
    fmi2Real nextEventTime;
} fmi2EventInfo;
#endif

#ifndef FL_FMI_EXPORT
#define FL_FMI_EXPORT __attribute__((visibility("default")))
#endif

typedef const fmi2ValueReference fl_fmi2_vrs[]; /* shorthand for the argument lists below */

/* common to both interface types */
FL_FMI_EXPORT const char *fmi2GetTypesPlatform(void);
FL_FMI_EXPORT const char *fmi2GetVersion(void);
FL_FMI_EXPORT fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean loggingOn, size_t nCategories,
                                             const fmi2String categories[]);
FL_FMI_EXPORT fmi2Component fmi2Instantiate(fmi2String instanceName, fmi2Type fmuType, fmi2String fmuGUID,
                                            fmi2String fmuResourceLocation,
                                            const fmi2CallbackFunctions *functions, fmi2Boolean visible,
                                            fmi2Boolean loggingOn);
FL_FMI_EXPORT void fmi2FreeInstance(fmi2Component c);
FL_FMI_EXPORT fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean toleranceDefined, fmi2Real tolerance,
                                             fmi2Real startTime, fmi2Boolean stopTimeDefined, fmi2Real stopTime);
FL_FMI_EXPORT fmi2Status fmi2EnterInitializationMode(fmi2Component c);
FL_FMI_EXPORT fmi2Status fmi2ExitInitializationMode(fmi2Component c);
FL_FMI_EXPORT fmi2Status fmi2Terminate(fmi2Component c);
FL_FMI_EXPORT fmi2Status fmi2Reset(fmi2Component c);
FL_FMI_EXPORT fmi2Status fmi2GetReal(fmi2Component c, fl_fmi2_vrs vr, size_t nvr, fmi2Real value[]);
FL_FMI_EXPORT fmi2Status fmi2GetInteger(fmi2Component c, fl_fmi2_vrs vr, size_t nvr, fmi2Integer value[]);
FL_FMI_EXPORT fmi2Status fmi2GetBoolean(fmi2Component c, fl_fmi2_vrs vr, size_t nvr, fmi2Boolean value[]);
FL_FMI_EXPORT fmi2Status fmi2GetString(fmi2Component c, fl_fmi2_vrs vr, size_t nvr, fmi2String value[]);
FL_FMI_EXPORT fmi2Status fmi2SetReal(fmi2Component c, fl_fmi2_vrs vr, size_t nvr, const fmi2Real value[]);
FL_FMI_EXPORT fmi2Status fmi2SetInteger(fmi2Component c, fl_fmi2_vrs vr, size_t nvr, const fmi2Integer value[]);
FL_FMI_EXPORT fmi2Status fmi2SetBoolean(fmi2Component c, fl_fmi2_vrs vr, size_t nvr, const fmi2Boolean value[]);
FL_FMI_EXPORT fmi2Status fmi2SetString(fmi2Component c, fl_fmi2_vrs vr, size_t nvr, const fmi2String value[]);
FL_FMI_EXPORT fmi2Status fmi2GetFMUstate(fmi2Component c, fmi2FMUstate *state);
FL_FMI_EXPORT fmi2Status fmi2SetFMUstate(fmi2Component c, fmi2FMUstate state);
FL_FMI_EXPORT fmi2Status fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate *state);
FL_FMI_EXPORT fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate state, size_t *size);
FL_FMI_EXPORT fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate state, fmi2Byte bytes[], size_t size);
FL_FMI_EXPORT fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte bytes[], size_t size,
                                                 fmi2FMUstate *state);
FL_FMI_EXPORT fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, fl_fmi2_vrs unknowns, size_t nUnknown,
                                                      fl_fmi2_vrs knowns, size_t nKnown,
                                                      const fmi2Real dvKnown[], fmi2Real dvUnknown[]);
/* Model Exchange */
FL_FMI_EXPORT fmi2Status fmi2EnterEventMode(fmi2Component c);
FL_FMI_EXPORT fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo *eventInfo);
FL_FMI_EXPORT fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c);
FL_FMI_EXPORT fmi2Status fmi2CompletedIntegratorStep(fmi2Component c, fmi2Boolean noSetFMUStatePriorToCurrentPoint,
                                                     fmi2Boolean *enterEventMode, fmi2Boolean *terminateSimulation);
FL_FMI_EXPORT fmi2Status fmi2SetTime(fmi2Component c, fmi2Real time);
FL_FMI_EXPORT fmi2Status fmi2SetContinuousStates(fmi2Component c, const fmi2Real x[], size_t nx);
FL_FMI_EXPORT fmi2Status fmi2GetDerivatives(fmi2Component c, fmi2Real derivatives[], size_t nx);
FL_FMI_EXPORT fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real eventIndicators[], size_t ni);
FL_FMI_EXPORT fmi2Status fmi2GetContinuousStates(fmi2Component c, fmi2Real x[], size_t nx);
FL_FMI_EXPORT fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component c, fmi2Real x_nominal[], size_t nx);
/* Co-Simulation */
FL_FMI_EXPORT fmi2Status fmi2SetRealInputDerivatives(fmi2Component c, fl_fmi2_vrs vr, size_t nvr,
                                                     const fmi2Integer order[], const fmi2Real value[]);
FL_FMI_EXPORT fmi2Status fmi2GetRealOutputDerivatives(fmi2Component c, fl_fmi2_vrs vr, size_t nvr,
                                                      const fmi2Integer order[], fmi2Real value[]);
FL_FMI_EXPORT fmi2Status fmi2DoStep(fmi2Component c, fmi2Real currentCommunicationPoint,
                                    fmi2Real communicationStepSize, fmi2Boolean noSetFMUStatePriorToCurrentPoint);
FL_FMI_EXPORT fmi2Status fmi2CancelStep(fmi2Component c);
FL_FMI_EXPORT fmi2Status fmi2GetStatus(fmi2Component c, const fmi2StatusKind s, fmi2Status *value);
FL_FMI_EXPORT fmi2Status fmi2GetRealStatus(fmi2Component c, const fmi2StatusKind s, fmi2Real *value);
FL_FMI_EXPORT fmi2Status fmi2GetIntegerStatus(fmi2Component c, const fmi2StatusKind s, fmi2Integer *value);
FL_FMI_EXPORT fmi2Status fmi2GetBooleanStatus(fmi2Component c, const fmi2StatusKind s, fmi2Boolean *value);
FL_FMI_EXPORT fmi2Status fmi2GetStringStatus(fmi2Component c, const fmi2StatusKind s, fmi2String *value);

#endif
