/* h5.c - placeholder until the HDF5 half lands (branch h5). */
#include "table.h"
#include "util/diag.h"

int sw_table_write_h5(const sw_table *t, const char *path, fl_diag *d)
{
    (void)t;
    fl_err(d, fl_noloc, "%s: HDF5 output is not built yet", path);
    return -1;
}

int sw_table_read_h5(const char *path, sw_table *t, fl_diag *d)
{
    (void)t;
    fl_err(d, fl_noloc, "%s: HDF5 input is not built yet", path);
    return -1;
}
