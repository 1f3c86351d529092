/* fmi3abi.h - the binary interface of FMI 3.0 as flange's FMU runtime
 * (src/fmi/fmi3.c) implements it: the C types, the enumerations, the
 * callbacks and the functions an importer looks up in the shared object.
 * Written for flange from the FMI 3.0 standard; the names and layouts are
 * the standard's (tests/fmu/abi_check.sh compares them with the Modelica
 * Association's headers where ../shared holds them). Internal. */
#ifndef FL_FMI3ABI_H
#define FL_FMI3ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef FL_FMI3ABI_NO_TYPES
typedef void *fmi3Instance;
typedef void *fmi3InstanceEnvironment;
typedef void *fmi3FMUState;
typedef uint32_t fmi3ValueReference;
typedef float fmi3Float32;
typedef double fmi3Float64;
typedef int8_t fmi3Int8;
typedef uint8_t fmi3UInt8;
typedef int16_t fmi3Int16;
typedef uint16_t fmi3UInt16;
typedef int32_t fmi3Int32;
typedef uint32_t fmi3UInt32;
typedef int64_t fmi3Int64;
typedef uint64_t fmi3UInt64;
typedef bool fmi3Boolean;
typedef char fmi3Char;
typedef const fmi3Char *fmi3String;
typedef uint8_t fmi3Byte;
typedef const fmi3Byte *fmi3Binary;
typedef bool fmi3Clock;

#define fmi3True true
#define fmi3False false

typedef enum { fmi3OK, fmi3Warning, fmi3Discard, fmi3Error, fmi3Fatal } fmi3Status;
typedef enum {
    fmi3Independent,
    fmi3Constant,
    fmi3Fixed,
    fmi3Tunable,
    fmi3Discrete,
    fmi3Dependent
} fmi3DependencyKind;
typedef enum { fmi3IntervalNotYetKnown, fmi3IntervalUnchanged, fmi3IntervalChanged } fmi3IntervalQualifier;

/* the importer's callbacks (the logger takes the finished message) */
typedef void (*fmi3LogMessageCallback)(fmi3InstanceEnvironment env, fmi3Status status, fmi3String category,
                                       fmi3String message);
typedef void (*fmi3ClockUpdateCallback)(fmi3InstanceEnvironment env);
typedef void (*fmi3IntermediateUpdateCallback)(fmi3InstanceEnvironment env, fmi3Float64 intermediateUpdateTime,
                                               fmi3Boolean intermediateVariableSetRequested,
                                               fmi3Boolean intermediateVariableGetAllowed,
                                               fmi3Boolean intermediateStepFinished, fmi3Boolean canReturnEarly,
                                               fmi3Boolean *earlyReturnRequested, fmi3Float64 *earlyReturnTime);
typedef void (*fmi3LockPreemptionCallback)(void);
typedef void (*fmi3UnlockPreemptionCallback)(void);
#endif

#ifndef FL_FMI_EXPORT
#define FL_FMI_EXPORT __attribute__((visibility("default")))
#endif

/* shorthands for the argument lists below */
typedef const fmi3ValueReference fl_fmi3_vrs[];
#define FL_FMI3_GETSET(NAME, T)                                                                                  \
    FL_FMI_EXPORT fmi3Status fmi3Get##NAME(fmi3Instance instance, fl_fmi3_vrs vrs, size_t nvr, T values[],       \
                                           size_t nValues);                                                     \
    FL_FMI_EXPORT fmi3Status fmi3Set##NAME(fmi3Instance instance, fl_fmi3_vrs vrs, size_t nvr, const T values[], \
                                           size_t nValues);

/* inquiry, logging, instances */
FL_FMI_EXPORT const char *fmi3GetVersion(void);
FL_FMI_EXPORT fmi3Status fmi3SetDebugLogging(fmi3Instance instance, fmi3Boolean loggingOn, size_t nCategories,
                                             const fmi3String categories[]);
FL_FMI_EXPORT fmi3Instance fmi3InstantiateModelExchange(fmi3String instanceName, fmi3String instantiationToken,
                                                        fmi3String resourcePath, fmi3Boolean visible,
                                                        fmi3Boolean loggingOn, fmi3InstanceEnvironment env,
                                                        fmi3LogMessageCallback logMessage);
FL_FMI_EXPORT fmi3Instance fmi3InstantiateCoSimulation(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath, fmi3Boolean visible,
    fmi3Boolean loggingOn, fmi3Boolean eventModeUsed, fmi3Boolean earlyReturnAllowed,
    const fmi3ValueReference requiredIntermediateVariables[], size_t nRequiredIntermediateVariables,
    fmi3InstanceEnvironment env, fmi3LogMessageCallback logMessage, fmi3IntermediateUpdateCallback intermediateUpdate);
FL_FMI_EXPORT fmi3Instance fmi3InstantiateScheduledExecution(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath, fmi3Boolean visible,
    fmi3Boolean loggingOn, fmi3InstanceEnvironment env, fmi3LogMessageCallback logMessage,
    fmi3ClockUpdateCallback clockUpdate, fmi3LockPreemptionCallback lockPreemption,
    fmi3UnlockPreemptionCallback unlockPreemption);
FL_FMI_EXPORT void fmi3FreeInstance(fmi3Instance instance);

/* modes */
FL_FMI_EXPORT fmi3Status fmi3EnterInitializationMode(fmi3Instance instance, fmi3Boolean toleranceDefined,
                                                     fmi3Float64 tolerance, fmi3Float64 startTime,
                                                     fmi3Boolean stopTimeDefined, fmi3Float64 stopTime);
FL_FMI_EXPORT fmi3Status fmi3ExitInitializationMode(fmi3Instance instance);
FL_FMI_EXPORT fmi3Status fmi3EnterEventMode(fmi3Instance instance);
FL_FMI_EXPORT fmi3Status fmi3Terminate(fmi3Instance instance);
FL_FMI_EXPORT fmi3Status fmi3Reset(fmi3Instance instance);

/* values of variables, one pair per type */
FL_FMI3_GETSET(Float32, fmi3Float32)
FL_FMI3_GETSET(Float64, fmi3Float64)
FL_FMI3_GETSET(Int8, fmi3Int8)
FL_FMI3_GETSET(UInt8, fmi3UInt8)
FL_FMI3_GETSET(Int16, fmi3Int16)
FL_FMI3_GETSET(UInt16, fmi3UInt16)
FL_FMI3_GETSET(Int32, fmi3Int32)
FL_FMI3_GETSET(UInt32, fmi3UInt32)
FL_FMI3_GETSET(Int64, fmi3Int64)
FL_FMI3_GETSET(UInt64, fmi3UInt64)
FL_FMI3_GETSET(Boolean, fmi3Boolean)
FL_FMI3_GETSET(String, fmi3String)
FL_FMI_EXPORT fmi3Status fmi3GetBinary(fmi3Instance instance, fl_fmi3_vrs vrs, size_t nvr, size_t valueSizes[],
                                       fmi3Binary values[], size_t nValues);
FL_FMI_EXPORT fmi3Status fmi3SetBinary(fmi3Instance instance, fl_fmi3_vrs vrs, size_t nvr, const size_t valueSizes[],
                                       const fmi3Binary values[], size_t nValues);
FL_FMI_EXPORT fmi3Status fmi3GetClock(fmi3Instance instance, fl_fmi3_vrs vrs, size_t nvr, fmi3Clock values[]);
FL_FMI_EXPORT fmi3Status fmi3SetClock(fmi3Instance instance, fl_fmi3_vrs vrs, size_t nvr, const fmi3Clock values[]);

/* dependencies */
FL_FMI_EXPORT fmi3Status fmi3GetNumberOfVariableDependencies(fmi3Instance instance, fmi3ValueReference vr,
                                                             size_t *nDependencies);
FL_FMI_EXPORT fmi3Status fmi3GetVariableDependencies(fmi3Instance instance, fmi3ValueReference dependent,
                                                     size_t elementIndicesOfDependent[],
                                                     fmi3ValueReference independents[],
                                                     size_t elementIndicesOfIndependents[],
                                                     fmi3DependencyKind dependencyKinds[], size_t nDependencies);

/* FMU state */
FL_FMI_EXPORT fmi3Status fmi3GetFMUState(fmi3Instance instance, fmi3FMUState *state);
FL_FMI_EXPORT fmi3Status fmi3SetFMUState(fmi3Instance instance, fmi3FMUState state);
FL_FMI_EXPORT fmi3Status fmi3FreeFMUState(fmi3Instance instance, fmi3FMUState *state);
FL_FMI_EXPORT fmi3Status fmi3SerializedFMUStateSize(fmi3Instance instance, fmi3FMUState state, size_t *size);
FL_FMI_EXPORT fmi3Status fmi3SerializeFMUState(fmi3Instance instance, fmi3FMUState state, fmi3Byte bytes[],
                                               size_t size);
FL_FMI_EXPORT fmi3Status fmi3DeserializeFMUState(fmi3Instance instance, const fmi3Byte bytes[], size_t size,
                                                 fmi3FMUState *state);

/* partial derivatives */
FL_FMI_EXPORT fmi3Status fmi3GetDirectionalDerivative(fmi3Instance instance, fl_fmi3_vrs unknowns, size_t nUnknowns,
                                                      fl_fmi3_vrs knowns, size_t nKnowns, const fmi3Float64 seed[],
                                                      size_t nSeed, fmi3Float64 sensitivity[], size_t nSensitivity);
FL_FMI_EXPORT fmi3Status fmi3GetAdjointDerivative(fmi3Instance instance, fl_fmi3_vrs unknowns, size_t nUnknowns,
                                                  fl_fmi3_vrs knowns, size_t nKnowns, const fmi3Float64 seed[],
                                                  size_t nSeed, fmi3Float64 sensitivity[], size_t nSensitivity);

/* configuration mode and clocks */
FL_FMI_EXPORT fmi3Status fmi3EnterConfigurationMode(fmi3Instance instance);
FL_FMI_EXPORT fmi3Status fmi3ExitConfigurationMode(fmi3Instance instance);
FL_FMI_EXPORT fmi3Status fmi3GetIntervalDecimal(fmi3Instance instance, fl_fmi3_vrs vrs, size_t nvr,
                                                fmi3Float64 intervals[], fmi3IntervalQualifier qualifiers[]);
FL_FMI_EXPORT fmi3Status fmi3GetIntervalFraction(fmi3Instance instance, fl_fmi3_vrs vrs, size_t nvr,
                                                 fmi3UInt64 counters[], fmi3UInt64 resolutions[],
                                                 fmi3IntervalQualifier qualifiers[]);
FL_FMI_EXPORT fmi3Status fmi3GetShiftDecimal(fmi3Instance instance, fl_fmi3_vrs vrs, size_t nvr,
                                             fmi3Float64 shifts[]);
FL_FMI_EXPORT fmi3Status fmi3GetShiftFraction(fmi3Instance instance, fl_fmi3_vrs vrs, size_t nvr,
                                              fmi3UInt64 counters[], fmi3UInt64 resolutions[]);
FL_FMI_EXPORT fmi3Status fmi3SetIntervalDecimal(fmi3Instance instance, fl_fmi3_vrs vrs, size_t nvr,
                                                const fmi3Float64 intervals[]);
FL_FMI_EXPORT fmi3Status fmi3SetIntervalFraction(fmi3Instance instance, fl_fmi3_vrs vrs, size_t nvr,
                                                 const fmi3UInt64 counters[], const fmi3UInt64 resolutions[]);
FL_FMI_EXPORT fmi3Status fmi3SetShiftDecimal(fmi3Instance instance, fl_fmi3_vrs vrs, size_t nvr,
                                             const fmi3Float64 shifts[]);
FL_FMI_EXPORT fmi3Status fmi3SetShiftFraction(fmi3Instance instance, fl_fmi3_vrs vrs, size_t nvr,
                                              const fmi3UInt64 counters[], const fmi3UInt64 resolutions[]);
FL_FMI_EXPORT fmi3Status fmi3EvaluateDiscreteStates(fmi3Instance instance);
FL_FMI_EXPORT fmi3Status fmi3UpdateDiscreteStates(fmi3Instance instance, fmi3Boolean *discreteStatesNeedUpdate,
                                                  fmi3Boolean *terminateSimulation,
                                                  fmi3Boolean *nominalsOfContinuousStatesChanged,
                                                  fmi3Boolean *valuesOfContinuousStatesChanged,
                                                  fmi3Boolean *nextEventTimeDefined, fmi3Float64 *nextEventTime);

/* Model Exchange */
FL_FMI_EXPORT fmi3Status fmi3EnterContinuousTimeMode(fmi3Instance instance);
FL_FMI_EXPORT fmi3Status fmi3CompletedIntegratorStep(fmi3Instance instance,
                                                     fmi3Boolean noSetFMUStatePriorToCurrentPoint,
                                                     fmi3Boolean *enterEventMode, fmi3Boolean *terminateSimulation);
FL_FMI_EXPORT fmi3Status fmi3SetTime(fmi3Instance instance, fmi3Float64 time);
FL_FMI_EXPORT fmi3Status fmi3SetContinuousStates(fmi3Instance instance, const fmi3Float64 continuousStates[],
                                                 size_t nContinuousStates);
FL_FMI_EXPORT fmi3Status fmi3GetContinuousStateDerivatives(fmi3Instance instance, fmi3Float64 derivatives[],
                                                           size_t nContinuousStates);
FL_FMI_EXPORT fmi3Status fmi3GetEventIndicators(fmi3Instance instance, fmi3Float64 eventIndicators[],
                                                size_t nEventIndicators);
FL_FMI_EXPORT fmi3Status fmi3GetContinuousStates(fmi3Instance instance, fmi3Float64 continuousStates[],
                                                 size_t nContinuousStates);
FL_FMI_EXPORT fmi3Status fmi3GetNominalsOfContinuousStates(fmi3Instance instance, fmi3Float64 nominals[],
                                                           size_t nContinuousStates);
FL_FMI_EXPORT fmi3Status fmi3GetNumberOfEventIndicators(fmi3Instance instance, size_t *nEventIndicators);
FL_FMI_EXPORT fmi3Status fmi3GetNumberOfContinuousStates(fmi3Instance instance, size_t *nContinuousStates);

/* Co-Simulation */
FL_FMI_EXPORT fmi3Status fmi3EnterStepMode(fmi3Instance instance);
FL_FMI_EXPORT fmi3Status fmi3GetOutputDerivatives(fmi3Instance instance, fl_fmi3_vrs vrs, size_t nvr,
                                                  const fmi3Int32 orders[], fmi3Float64 values[], size_t nValues);
FL_FMI_EXPORT fmi3Status fmi3DoStep(fmi3Instance instance, fmi3Float64 currentCommunicationPoint,
                                    fmi3Float64 communicationStepSize, fmi3Boolean noSetFMUStatePriorToCurrentPoint,
                                    fmi3Boolean *eventHandlingNeeded, fmi3Boolean *terminateSimulation,
                                    fmi3Boolean *earlyReturn, fmi3Float64 *lastSuccessfulTime);
FL_FMI_EXPORT fmi3Status fmi3ActivateModelPartition(fmi3Instance instance, fmi3ValueReference clockReference,
                                                    fmi3Float64 activationTime);

#endif
