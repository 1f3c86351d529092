/* abi_types.c - built by tests/cli/fmu_abi.sh: the official FMI headers
 * beside a copy of flange's (src/fmi/fmi2abi.h, fmi3abi.h) whose fmi2/fmi3
 * prefixes the script renamed to flx2/flx3, so both sets of types live in one
 * translation unit. Static assertions compare sizes, alignments,
 * signedness, struct member offsets and enumeration values; main() compares
 * the few string constants. */
#include <stddef.h>
#include <string.h>

#include "fmi2Functions.h"
#include "fmi3Functions.h"
#include "flx2abi.h"
#include "flx3abi.h"

#define SAME_TYPE(a, b)                                                                                \
    _Static_assert(sizeof(a) == sizeof(b), "size of " #a);                                           \
    _Static_assert(_Alignof(a) == _Alignof(b), "alignment of " #a)
#define SAME_SCALAR(a, b)                                                                              \
    SAME_TYPE(a, b);                                                                                   \
    _Static_assert(((a)-1 < (a)0) == ((b)-1 < (b)0), "signedness of " #a);                           \
    _Static_assert(((a)0.5 == 0) == ((b)0.5 == 0), "integer or floating " #a)
#define SAME_MEMBER(s1, s2, m)                                                                         \
    _Static_assert(offsetof(s1, m) == offsetof(s2, m), "offset of " #s1 "." #m);                     \
    _Static_assert(sizeof(((s1 *)0)->m) == sizeof(((s2 *)0)->m), "size of " #s1 "." #m)
#define SAME_VALUE(a, b) _Static_assert((long long)(a) == (long long)(b), "value of " #a)

/* ---- FMI 2.0 ---- */
SAME_TYPE(fmi2Component, flx2Component);
SAME_TYPE(fmi2ComponentEnvironment, flx2ComponentEnvironment);
SAME_TYPE(fmi2FMUstate, flx2FMUstate);
SAME_SCALAR(fmi2ValueReference, flx2ValueReference);
SAME_SCALAR(fmi2Real, flx2Real);
SAME_SCALAR(fmi2Integer, flx2Integer);
SAME_SCALAR(fmi2Boolean, flx2Boolean);
SAME_SCALAR(fmi2Char, flx2Char);
SAME_SCALAR(fmi2Byte, flx2Byte);
SAME_TYPE(fmi2String, flx2String);
SAME_VALUE(fmi2True, flx2True);
SAME_VALUE(fmi2False, flx2False);
SAME_TYPE(fmi2Status, flx2Status);
SAME_VALUE(fmi2OK, flx2OK);
SAME_VALUE(fmi2Warning, flx2Warning);
SAME_VALUE(fmi2Discard, flx2Discard);
SAME_VALUE(fmi2Error, flx2Error);
SAME_VALUE(fmi2Fatal, flx2Fatal);
SAME_VALUE(fmi2Pending, flx2Pending);
SAME_TYPE(fmi2Type, flx2Type);
SAME_VALUE(fmi2ModelExchange, flx2ModelExchange);
SAME_VALUE(fmi2CoSimulation, flx2CoSimulation);
SAME_TYPE(fmi2StatusKind, flx2StatusKind);
SAME_VALUE(fmi2DoStepStatus, flx2DoStepStatus);
SAME_VALUE(fmi2PendingStatus, flx2PendingStatus);
SAME_VALUE(fmi2LastSuccessfulTime, flx2LastSuccessfulTime);
SAME_VALUE(fmi2Terminated, flx2Terminated);
SAME_TYPE(fmi2CallbackFunctions, flx2CallbackFunctions);
SAME_MEMBER(fmi2CallbackFunctions, flx2CallbackFunctions, logger);
SAME_MEMBER(fmi2CallbackFunctions, flx2CallbackFunctions, allocateMemory);
SAME_MEMBER(fmi2CallbackFunctions, flx2CallbackFunctions, freeMemory);
SAME_MEMBER(fmi2CallbackFunctions, flx2CallbackFunctions, stepFinished);
SAME_MEMBER(fmi2CallbackFunctions, flx2CallbackFunctions, componentEnvironment);
SAME_TYPE(fmi2EventInfo, flx2EventInfo);
SAME_MEMBER(fmi2EventInfo, flx2EventInfo, newDiscreteStatesNeeded);
SAME_MEMBER(fmi2EventInfo, flx2EventInfo, terminateSimulation);
SAME_MEMBER(fmi2EventInfo, flx2EventInfo, nominalsOfContinuousStatesChanged);
SAME_MEMBER(fmi2EventInfo, flx2EventInfo, valuesOfContinuousStatesChanged);
SAME_MEMBER(fmi2EventInfo, flx2EventInfo, nextEventTimeDefined);
SAME_MEMBER(fmi2EventInfo, flx2EventInfo, nextEventTime);

/* ---- FMI 3.0 ---- */
SAME_TYPE(fmi3Instance, flx3Instance);
SAME_TYPE(fmi3InstanceEnvironment, flx3InstanceEnvironment);
SAME_TYPE(fmi3FMUState, flx3FMUState);
SAME_SCALAR(fmi3ValueReference, flx3ValueReference);
SAME_SCALAR(fmi3Float32, flx3Float32);
SAME_SCALAR(fmi3Float64, flx3Float64);
SAME_SCALAR(fmi3Int8, flx3Int8);
SAME_SCALAR(fmi3UInt8, flx3UInt8);
SAME_SCALAR(fmi3Int16, flx3Int16);
SAME_SCALAR(fmi3UInt16, flx3UInt16);
SAME_SCALAR(fmi3Int32, flx3Int32);
SAME_SCALAR(fmi3UInt32, flx3UInt32);
SAME_SCALAR(fmi3Int64, flx3Int64);
SAME_SCALAR(fmi3UInt64, flx3UInt64);
SAME_TYPE(fmi3Boolean, flx3Boolean);
SAME_SCALAR(fmi3Char, flx3Char);
SAME_SCALAR(fmi3Byte, flx3Byte);
SAME_TYPE(fmi3String, flx3String);
SAME_TYPE(fmi3Binary, flx3Binary);
SAME_TYPE(fmi3Clock, flx3Clock);
SAME_VALUE(fmi3True, flx3True);
SAME_VALUE(fmi3False, flx3False);
SAME_TYPE(fmi3Status, flx3Status);
SAME_VALUE(fmi3OK, flx3OK);
SAME_VALUE(fmi3Warning, flx3Warning);
SAME_VALUE(fmi3Discard, flx3Discard);
SAME_VALUE(fmi3Error, flx3Error);
SAME_VALUE(fmi3Fatal, flx3Fatal);
SAME_TYPE(fmi3DependencyKind, flx3DependencyKind);
SAME_VALUE(fmi3Independent, flx3Independent);
SAME_VALUE(fmi3Constant, flx3Constant);
SAME_VALUE(fmi3Fixed, flx3Fixed);
SAME_VALUE(fmi3Tunable, flx3Tunable);
SAME_VALUE(fmi3Discrete, flx3Discrete);
SAME_VALUE(fmi3Dependent, flx3Dependent);
SAME_TYPE(fmi3IntervalQualifier, flx3IntervalQualifier);
SAME_VALUE(fmi3IntervalNotYetKnown, flx3IntervalNotYetKnown);
SAME_VALUE(fmi3IntervalUnchanged, flx3IntervalUnchanged);
SAME_VALUE(fmi3IntervalChanged, flx3IntervalChanged);
SAME_TYPE(fmi3LogMessageCallback, flx3LogMessageCallback);
SAME_TYPE(fmi3IntermediateUpdateCallback, flx3IntermediateUpdateCallback);

int main(void)
{
    /* the version strings the runtime returns are checked by fmu_threads;
     * here the constants of the official headers themselves */
    return strcmp(fmi2TypesPlatform, "default") != 0 || strcmp(fmi2Version, "2.0") != 0 ||
           strcmp(fmi3Version, "3.0") != 0;
}
