/* cmd_compare.c - "flange compare": checks a result CSV against a reference CSV with the MSL tube test. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "flange.h"

static const char compare_usage[] =
    "usage: flange compare RESULT.csv REFERENCE.csv [--signals FILE] [--tol TOL]";

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("flange compare: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fprintf(stderr, "%s\n", compare_usage);
    return 2;
}

/* Matches "--name" (value in the next argument) and "--name=value". */
static int match_option(const char *arg, const char *name, const char **value)
{
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) return 0;
    if (arg[n] == '\0') {
        *value = NULL;
        return 1;
    }
    if (arg[n] == '=') {
        *value = arg + n + 1;
        return 1;
    }
    return 0;
}

int cmd_compare(int argc, char **argv)
{
    const char *files[2] = {NULL, NULL};
    int nfiles = 0, options_done = 0;
    const char *signals = NULL;
    double tol = 2e-3;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *val = NULL;
        if (options_done || arg[0] != '-' || arg[1] == '\0') {
            if (nfiles == 2) return usage_error("too many arguments: '%s'", arg);
            files[nfiles++] = arg;
        } else if (strcmp(arg, "--") == 0) {
            options_done = 1;
        } else if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            printf("%s\n\n"
                   "Checks that every signal of RESULT.csv lies in a tube around REFERENCE.csv\n"
                   "of half-width TOL*(time span) in time and TOL*(value range) in value, as the\n"
                   "MSL regression tests do. FILE lists the signals, one per line (default: all\n"
                   "columns of the reference). TOL defaults to 2e-3.\n"
                   "Exit status: 0 all signals pass, 1 some fail, 2 usage or file error.\n",
                   compare_usage);
            return 0;
        } else if (match_option(arg, "--signals", &val) || match_option(arg, "--tol", &val)) {
            int is_tol = arg[2] == 't';
            if (!val) {
                if (i + 1 >= argc) return usage_error("option %s needs a value", arg);
                val = argv[++i];
            }
            if (is_tol) {
                char *end;
                tol = strtod(val, &end);
                if (end == val || *end != '\0' || !isfinite(tol))
                    return usage_error("--tol: '%s' is not a number", val);
                if (!(tol > 0 && tol < 1))
                    return usage_error("--tol must be between 0 and 1 (exclusive), got %s", val);
            } else {
                if (*val == '\0') return usage_error("--signals needs a file name");
                signals = val;
            }
        } else {
            return usage_error("unknown option '%s'", arg);
        }
    }
    if (nfiles < 2)
        return usage_error(nfiles == 0 ? "missing RESULT.csv and REFERENCE.csv" : "missing REFERENCE.csv");

    fl_diag *d = fl_diag_new();
    int rc = fl_compare_csv(files[0], files[1], signals, tol, stdout, d);
    fflush(stdout);
    for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "%s\n", fl_diag_text(d, i));
    fl_diag_free(d);
    return rc == 0 ? 0 : rc == 1 ? 1 : 2;
}
