/* version.c - the library's version at run time, which a program compares
 * with the FLANGE_VERSION of the header it was compiled with. */
#include "flange.h"

const char *fl_version(void)
{
    return FLANGE_VERSION;
}

int fl_version_number(void)
{
    return FLANGE_VERSION_NUMBER;
}
