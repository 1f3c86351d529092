/* cmd_fmu.c - "flange fmu": export a model as an FMU (fl_fmu_export). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

static const char fmu_usage[] =
    "usage: flange fmu MODEL.mo [--model NAME] [--fmi 2|3] [--param NAME=VALUE ...] -o MODEL.fmu";

static const char fmu_help[] =
    "\n"
    "Exports a model as an FMU (Functional Mock-up Unit) for Co-Simulation and Model\n"
    "Exchange: FMI 2.0 (the default) or FMI 3.0 with --fmi 3, for x86_64 Linux.\n"
    "The FMU holds the model text and a copy of flange's FMU binary, which loads and\n"
    "compiles the model when the importer instantiates it and simulates it with the\n"
    "same code as flange simulate.\n"
    "\n"
    "  --model NAME         the model to export when the file holds several\n"
    "  --fmi 2|3            the FMI version (default 2)\n"
    "  --param NAME=VALUE   a parameter value baked into the FMU (a number)\n"
    "  -o MODEL.fmu         the FMU to write (written whole or not at all)\n"
    "\n"
    "Variables: every model variable by its Modelica name; the components' Real,\n"
    "Integer and Boolean parameters (tunable when flange can change them during a run,\n"
    "fixed otherwise); top-level RealInput/RealOutput connectors as inputs and outputs;\n"
    "the continuous states _x.NAME, their derivatives der(_x.NAME) and (FMI 3) the event\n"
    "indicators _z[k]. Not supported yet: array, Integer and Boolean connectors, plain\n"
    "'input Real' at the top level, libraries (--lib, MODELICAPATH), table files named\n"
    "by an absolute path. The FMU's binary is flange_fmu.so, looked up in\n"
    "$FLANGE_FMU_TEMPLATE, beside this program, then in ../lib/flange/.\n";

static int ends_with_fmu(const char *s)
{
    size_t n = strlen(s);
    return n >= 4 && strcasecmp(s + n - 4, ".fmu") == 0;
}

int cmd_fmu(int argc, char **argv)
{
    const char *cmd = "fmu", *v;
    const char *model = NULL, *out = NULL;
    fl_fmu_opts o;
    memset(&o, 0, sizeof o);
    o.fmi = 2;
    const char **params = calloc((size_t)argc, sizeof *params);
    int np = 0, rc = 2;
    if (!params) {
        fputs("flange fmu: out of memory\n", stderr);
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        int missing = 0;
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            printf("%s\n%s", fmu_usage, fmu_help);
            free(params);
            return 0;
        }
        if (arg[0] != '-' || arg[1] == '\0') {
            if (model) {
                rc = cli_usage_error(cmd, fmu_usage, "more than one model file ('%s' and '%s')", model, arg);
                goto out;
            }
            model = arg;
        } else if ((v = cli_option(argc, argv, &i, "--model", &missing))) {
            o.model_name = v;
        } else if ((v = cli_option(argc, argv, &i, "--fmi", &missing))) {
            if (strcmp(v, "2") != 0 && strcmp(v, "3") != 0) {
                rc = cli_usage_error(cmd, fmu_usage, "--fmi must be 2 or 3, not '%s'", v);
                goto out;
            }
            o.fmi = v[0] - '0';
        } else if ((v = cli_option(argc, argv, &i, "--param", &missing))) {
            if (!strchr(v, '=')) {
                rc = cli_usage_error(cmd, fmu_usage, "--param needs NAME=VALUE, got '%s'", v);
                goto out;
            }
            params[np++] = v;
        } else if ((v = cli_option(argc, argv, &i, "-o", &missing)) ||
                   (v = cli_option(argc, argv, &i, "--output", &missing))) {
            out = v;
        } else if (!missing) {
            rc = cli_usage_error(cmd, fmu_usage, "unknown option '%s'", arg);
            goto out;
        }
        if (missing) {
            rc = cli_usage_error(cmd, fmu_usage, "option %s needs a value", arg);
            goto out;
        }
    }
    if (!model) {
        rc = cli_usage_error(cmd, fmu_usage, "no model file given");
        goto out;
    }
    if (!out) {
        rc = cli_usage_error(cmd, fmu_usage, "no output file: give -o MODEL.fmu");
        goto out;
    }
    if (!ends_with_fmu(out)) {
        rc = cli_usage_error(cmd, fmu_usage, "-o %s: the name of an FMU ends in .fmu", out);
        goto out;
    }
    if (cli_same_file(out, model)) {
        rc = cli_usage_error(cmd, fmu_usage, "-o %s would overwrite the model file %s", out, model);
        goto out;
    }
    o.params = params;
    o.nparams = np;
    cli_catch_signals();
    fl_diag *d = fl_diag_new();
    rc = fl_fmu_export(model, &o, out, d) ? 1 : 0;
    cli_print_diags(d);
    fl_diag_free(d);
    if (!rc) fprintf(stderr, "flange: wrote %s (FMI %d.0, Co-Simulation and Model Exchange)\n", out, o.fmi);
out:
    free(params);
    return rc;
}
