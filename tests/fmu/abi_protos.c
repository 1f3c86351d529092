/* abi_protos.c - built by tests/cli/fmu_abi.sh where ../shared holds the
 * Modelica Association's FMI headers: it declares every function of
 * src/fmi/fmi2abi.h and fmi3abi.h a second time, after the official
 * declarations and over the official types, so the compiler refuses any
 * function whose parameters or result differ from the standard's. */
#include "fmi2Functions.h"
#include "fmi3Functions.h"
#define FL_FMI2ABI_NO_TYPES
#define FL_FMI3ABI_NO_TYPES
#include "fmi/fmi2abi.h"
#include "fmi/fmi3abi.h"

int main(void) { return 0; }
