/* cmd_plot.c - "flange plot": pictures of result files (PNG, SVG, PDF). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char plot_usage[] =
    "usage: flange plot RESULT.csv|RESULT.mat [RESULT...] --y VAR[,VAR...] [--x VAR] [-o FILE.png|.svg|.pdf]\n"
    "                   [--title T] [--layout stacked|overlay] [--size WxH] [--quiet]";

static const char plot_help[] =
    "\n"
    "Plots signals of a result file: over time, or over another signal with --x\n"
    "(a phase plot). VAR may be a glob ('*' within a name component, '**' across\n"
    "them). overlay (default) draws every signal in one panel; stacked draws one\n"
    "panel per unit (positions, velocities, forces, ...). Axis labels carry the\n"
    "units from RESULT.csv.units, which flange simulate writes beside the CSV\n"
    "(a MAT result carries them in its descriptions).\n"
    "Several results are overlaid: every signal from every file (each pattern\n"
    "must match in each of them), each over its own time, the legend naming\n"
    "'FILE: VAR' (FILE without its directory, or with as much of the path as\n"
    "tells the files apart). A signal's unit must agree between the files.\n"
    "The format follows the extension of FILE (default: the first RESULT with\n"
    "the extension .png); --size is in pixels for PNG and points for SVG and\n"
    "PDF (default 900x600).";

static int parse_size(const char *s, int *w, int *h)
{
    char *end;
    long a = strtol(s, &end, 10);
    if (end == s || (*end != 'x' && *end != 'X')) return -1;
    const char *p = end + 1;
    long b = strtol(p, &end, 10);
    if (end == p || *end) return -1;
    if (a <= 0 || b <= 0 || a > 100000 || b > 100000) return -1;
    *w = (int)a;
    *h = (int)b;
    return 0;
}

int cmd_plot(int argc, char **argv)
{
    const char *cmd = "plot", *out = NULL, *x = NULL, *title = NULL;
    cli_list y = {0};
    /* the result files: arguments as given (a name may hold a comma) */
    const char **files = calloc((size_t)argc, sizeof(char *));
    int nfiles = 0;
    if (!files) {
        fputs("flange: out of memory\n", stderr);
        return 1;
    }
    fl_plot_opts o;
    memset(&o, 0, sizeof o);
    int quiet = 0, rc = -1;
    for (int i = 1; i < argc && rc < 0; i++) {
        const char *arg = argv[i], *v;
        int missing = 0;
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            printf("%s\n%s\n", plot_usage, plot_help);
            rc = 0;
        } else if (arg[0] != '-' || arg[1] == '\0') {
            files[nfiles++] = arg;
        } else if ((v = cli_option(argc, argv, &i, "--y", &missing))) {
            cli_list_add(&y, v);
        } else if ((v = cli_option(argc, argv, &i, "--x", &missing))) {
            x = v;
        } else if ((v = cli_option(argc, argv, &i, "-o", &missing)) ||
                   (v = cli_option(argc, argv, &i, "--output", &missing))) {
            out = v;
        } else if ((v = cli_option(argc, argv, &i, "--title", &missing))) {
            title = v;
        } else if ((v = cli_option(argc, argv, &i, "--layout", &missing))) {
            if (strcmp(v, "stacked") == 0) o.layout = FL_PLOT_STACKED;
            else if (strcmp(v, "overlay") == 0) o.layout = FL_PLOT_OVERLAY;
            else rc = cli_usage_error(cmd, plot_usage, "--layout must be stacked or overlay, not '%s'", v);
        } else if ((v = cli_option(argc, argv, &i, "--size", &missing))) {
            if (parse_size(v, &o.width, &o.height))
                rc = cli_usage_error(cmd, plot_usage, "--size needs WIDTHxHEIGHT in pixels, e.g. 900x600, not '%s'", v);
        } else if (strcmp(arg, "--quiet") == 0) {
            quiet = 1;
        } else if (!missing) {
            rc = cli_usage_error(cmd, plot_usage, "unknown option '%s'", arg);
        }
        if (missing) rc = cli_usage_error(cmd, plot_usage, "option %s needs a value", arg);
    }
    if (rc < 0 && nfiles == 0) rc = cli_usage_error(cmd, plot_usage, "no result file given");
    if (rc < 0 && y.n == 0)
        rc = cli_usage_error(cmd, plot_usage, "which signals? give them with --y (e.g. --y 'mass*.s')");
    char msg[512];
    if (rc < 0 && out && cli_picture_name_error(out, msg, sizeof msg)) rc = cli_usage_error(cmd, plot_usage, "%s", msg);
    /* the default picture: named after the first result */
    char *default_out = NULL;
    if (rc < 0 && !out) {
        const char *csv = files[0];
        size_t n = strlen(csv);
        if (n > 4 && (strcmp(csv + n - 4, ".csv") == 0 || cli_result_is_mat(csv))) n -= 4;
        default_out = malloc(n + 5);
        if (!default_out) {
            fputs("flange: out of memory\n", stderr);
            rc = 1;
        } else {
            memcpy(default_out, csv, n);
            strcpy(default_out + n, ".png");
            out = default_out;
        }
    }
    for (int i = 0; rc < 0 && i < nfiles; i++)
        if (cli_same_file(out, files[i]))
            rc = cli_usage_error(cmd, plot_usage, "%s%s would overwrite the result file %s",
                                 default_out ? "the picture " : "-o ", out, files[i]);
    if (rc >= 0) { /* help shown, a usage error or no memory */
        free(default_out);
        cli_list_free(&y);
        free(files);
        return rc;
    }
    cli_catch_signals(); /* no temporary picture outlives an interrupted plot */
    o.y = (const char *const *)y.v;
    o.ny = y.n;
    o.x = x;
    o.title = title;
    fl_diag *d = fl_diag_new();
    rc = fl_plot_results(files, nfiles, out, &o, d);
    cli_print_diags(d);
    if (rc == 0 && !quiet) fprintf(stderr, "flange: wrote %s\n", out);
    fl_diag_free(d);
    free(default_out);
    cli_list_free(&y);
    free(files);
    return rc ? 1 : 0;
}
