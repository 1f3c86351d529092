/* cmd_compare.c - "flange compare": checks a result CSV against a reference CSV with the MSL tube test. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char compare_usage[] =
    "usage: flange compare RESULT.csv|.mat REFERENCE.csv|.mat [--signals FILE] [--tol TOL]";

int cmd_compare(int argc, char **argv)
{
    const char *cmd = "compare", *files[2] = {NULL, NULL};
    int nfiles = 0, options_done = 0;
    const char *signals = NULL, *v;
    double tol = 2e-3;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        int missing = 0;
        if (options_done || arg[0] != '-' || arg[1] == '\0') {
            if (nfiles == 2) return cli_usage_error(cmd, compare_usage, "too many arguments: '%s'", arg);
            files[nfiles++] = arg;
        } else if (strcmp(arg, "--") == 0) {
            options_done = 1;
        } else if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            printf("%s\n\n"
                   "Checks that every signal of RESULT.csv lies in a tube around REFERENCE.csv\n"
                   "of half-width TOL*(time span) in time and TOL*(value range) in value, as the\n"
                   "MSL regression tests do. FILE lists the signals, one per line (default: all\n"
                   "trajectories of the reference). TOL defaults to 2e-3. A file named *.mat is\n"
                   "read as a MAT v4 result (Dymola's, OpenModelica's or flange's layout).\n"
                   "Exit status: 0 all signals pass, 1 some fail, 2 usage or file error.\n",
                   compare_usage);
            return 0;
        } else if ((v = cli_option(argc, argv, &i, "--tol", &missing))) {
            if (cli_number(v, &tol)) return cli_usage_error(cmd, compare_usage, "--tol: '%s' is not a number", v);
            if (!(tol > 0 && tol < 1))
                return cli_usage_error(cmd, compare_usage, "--tol must be between 0 and 1 (exclusive), got %s", v);
        } else if ((v = cli_option(argc, argv, &i, "--signals", &missing))) {
            if (*v == '\0') return cli_usage_error(cmd, compare_usage, "--signals needs a file name");
            signals = v;
        } else if (!missing) {
            return cli_usage_error(cmd, compare_usage, "unknown option '%s'", arg);
        }
        if (missing) return cli_usage_error(cmd, compare_usage, "option %s needs a value", arg);
    }
    if (nfiles < 2)
        return cli_usage_error(cmd, compare_usage, "%s",
                               nfiles == 0 ? "missing RESULT.csv and REFERENCE.csv" : "missing REFERENCE.csv");

    fl_diag *d = fl_diag_new();
    int rc = fl_compare_csv(files[0], files[1], signals, tol, stdout, d);
    fflush(stdout);
    cli_print_diags(d);
    fl_diag_free(d);
    return rc == 0 ? 0 : rc == 1 ? 1 : 2;
}
