/* cmd_simulate.c - "flange simulate", "flange check" and "flange components". */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct sim_args {
    const char *model_file;
    const char *out;
    const char *model_name;
    double start, stop, interval, tolerance;
    int has_start, has_stop, has_interval, has_tolerance;
    const char **params;
    int nparams;
    char **globs;
    int nglobs;
    int solver;
    int quiet;
    int energy;
    int no_contact_events;
} sim_args;

static const char simulate_usage[] =
    "usage: flange simulate MODEL.mo [-o OUT.csv] [--model NAME] [--start T] [--stop T] [--interval H]\n"
    "                       [--tolerance R] [--vars GLOB,...] [--param NAME=VALUE ...]\n"
    "                       [--solver auto|dense|klu] [--energy] [--no-contact-events] [--quiet]";
static const char check_usage[] = "usage: flange check MODEL.mo [--model NAME] [--param NAME=VALUE ...]";

static int usage_error(const char *usage, const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int usage_error(const char *usage, const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "flange %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fprintf(stderr, "%s\n", usage);
    return 2;
}

/* "--name value" or "--name=value"; returns the value or NULL (no match). */
static const char *option_value(int argc, char **argv, int *i, const char *name, int *missing)
{
    size_t n = strlen(name);
    const char *arg = argv[*i];
    if (strncmp(arg, name, n) != 0) return NULL;
    if (arg[n] == '=') return arg + n + 1;
    if (arg[n] != '\0') return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}

static int parse_number(const char *s, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(x)) return -1;
    *out = x;
    return 0;
}

static void free_args(sim_args *a)
{
    for (int i = 0; i < a->nglobs; i++) free(a->globs[i]);
    free(a->globs);
    free(a->params);
}

static void add_globs(sim_args *a, const char *list)
{
    const char *p = list;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (n) {
            a->globs = realloc(a->globs, sizeof(char *) * (size_t)(a->nglobs + 1));
            char *g = malloc(n + 1);
            if (!a->globs || !g) {
                fputs("flange: out of memory\n", stderr);
                exit(1);
            }
            memcpy(g, p, n);
            g[n] = '\0';
            a->globs[a->nglobs++] = g;
        }
        p += n + (comma ? 1 : 0);
    }
}

/* Parses arguments of simulate (full = 1) or check (full = 0). */
static int parse_args(int argc, char **argv, sim_args *a, int full)
{
    const char *usage = full ? simulate_usage : check_usage;
    const char *cmd = full ? "simulate" : "check";
    memset(a, 0, sizeof *a);
    a->params = calloc((size_t)argc, sizeof(char *));
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *v;
        int missing = 0;
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            printf("%s\n", usage);
            return 1;
        }
        if (arg[0] != '-' || arg[1] == '\0') {
            if (a->model_file) return usage_error(usage, cmd, "more than one model file ('%s' and '%s')", a->model_file, arg);
            a->model_file = arg;
            continue;
        }
        if ((v = option_value(argc, argv, &i, "--model", &missing))) {
            a->model_name = v;
        } else if ((v = option_value(argc, argv, &i, "--param", &missing))) {
            if (!strchr(v, '=')) return usage_error(usage, cmd, "--param needs NAME=VALUE, got '%s'", v);
            a->params[a->nparams++] = v;
        } else if (full && ((v = option_value(argc, argv, &i, "-o", &missing)) ||
                            (v = option_value(argc, argv, &i, "--output", &missing)))) {
            a->out = v;
        } else if (full && (v = option_value(argc, argv, &i, "--vars", &missing))) {
            add_globs(a, v);
        } else if (full && (v = option_value(argc, argv, &i, "--solver", &missing))) {
            if (strcmp(v, "auto") == 0) a->solver = FL_SOLVER_AUTO;
            else if (strcmp(v, "dense") == 0) a->solver = FL_SOLVER_DENSE;
            else if (strcmp(v, "klu") == 0) a->solver = FL_SOLVER_KLU;
            else return usage_error(usage, cmd, "--solver must be auto, dense or klu, not '%s'", v);
        } else if (full && strcmp(arg, "--quiet") == 0) {
            a->quiet = 1;
        } else if (full && strcmp(arg, "--energy") == 0) {
            a->energy = 1;
        } else if (full && strcmp(arg, "--no-contact-events") == 0) {
            a->no_contact_events = 1;
        } else if (full) {
            static const char *const names[] = {"--start", "--stop", "--interval", "--tolerance"};
            double *dst[] = {&a->start, &a->stop, &a->interval, &a->tolerance};
            int *has[] = {&a->has_start, &a->has_stop, &a->has_interval, &a->has_tolerance};
            int k;
            for (k = 0; k < 4; k++) {
                if ((v = option_value(argc, argv, &i, names[k], &missing))) {
                    if (parse_number(v, dst[k])) return usage_error(usage, cmd, "%s needs a number, got '%s'", names[k], v);
                    *has[k] = 1;
                    break;
                }
                if (missing) break;
            }
            if (k == 4 && !missing) return usage_error(usage, cmd, "unknown option '%s'", arg);
        } else if (!missing) {
            return usage_error(usage, cmd, "unknown option '%s'", arg);
        }
        if (missing) return usage_error(usage, cmd, "option %s needs a value", arg);
    }
    if (!a->model_file) return usage_error(usage, cmd, "no model file given");
    return 0;
}

/* Load and compile the model named by the arguments (NULL on errors). */
static fl_system *load(const sim_args *a, fl_model **m, fl_diag *d)
{
    fl_load_opts lo;
    memset(&lo, 0, sizeof lo);
    lo.model_name = a->model_name;
    lo.params = a->params;
    lo.nparams = a->nparams;
    *m = fl_model_load_file(a->model_file, &lo, d);
    return *m ? fl_compile(*m, d) : NULL;
}

int cmd_check(int argc, char **argv)
{
    sim_args a;
    int rc = parse_args(argc, argv, &a, 0);
    if (rc) {
        free_args(&a);
        return rc == 1 ? 0 : rc;
    }
    fl_diag *d = fl_diag_new();
    fl_model *m;
    fl_system *sys = load(&a, &m, d);
    cli_print_diags(d);
    if (sys) fl_system_describe(sys, stdout);
    rc = sys ? 0 : 1;
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
    free_args(&a);
    return rc;
}

int cmd_components(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        puts("usage: flange components\n\nLists every component class with its ports, parameters (default, unit) and variables.");
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "flange components: unexpected argument '%s'\nusage: flange components\n", argv[1]);
        return 2;
    }
    fl_components_print(stdout);
    return 0;
}

int cmd_simulate(int argc, char **argv)
{
    sim_args a;
    int rc = parse_args(argc, argv, &a, 1);
    if (rc) {
        free_args(&a);
        return rc == 1 ? 0 : rc;
    }
    fl_diag *d = fl_diag_new();
    fl_model *m;
    fl_system *sys = load(&a, &m, d);
    fl_sim *sim = sys ? fl_sim_new(sys, d) : NULL;
    char *default_out = NULL;
    const char *out = a.out;
    if (sim) {
        fl_sim_opts o = fl_sim_default_opts(sys);
        if (a.has_start) o.start_time = a.start;
        if (a.has_stop) o.stop_time = a.stop;
        if (a.has_interval) o.interval = a.interval;
        else if (a.has_start || a.has_stop) o.interval = (o.stop_time - o.start_time) / 500;
        if (a.has_tolerance) o.tolerance = a.tolerance;
        o.solver = a.solver;
        o.quiet = a.quiet;
        o.energy = a.energy;
        o.no_contact_events = a.no_contact_events;
        if (!out) {
            default_out = malloc(strlen(fl_model_name(m)) + 5);
            if (!default_out) return 1;
            sprintf(default_out, "%s.csv", fl_model_name(m));
            out = default_out;
        }
        rc = fl_sim_run_csv(sim, &o, out, (const char *const *)a.globs, a.nglobs, d);
        cli_print_diags(d);
        if (rc == 0 && !a.quiet) {
            fl_stats st = fl_sim_stats(sim);
            fprintf(stderr, "flange: wrote %s (%ld output points); %ld steps, %ld residual and %ld Jacobian "
                            "evaluations, %ld time and %ld state events, %s linear solver\n",
                    out, st.outputs, st.steps, st.res_evals, st.jac_evals, st.time_events, st.state_events,
                    st.linear_solver);
        }
        if (rc == 0 && a.energy) {
            fl_stats st = fl_sim_stats(sim);
            double thr = st.e_throughput > 0 ? st.e_throughput : 1;
            printf("energy balance at t = %g: kinetic %.9g J + stored %.9g J + dissipated %.9g J (of which impacts "
                   "%.9g J) - work of sources %.9g J; worst drift %.3g J = %.3g of the throughput %.9g J\n",
                   o.stop_time, st.e_kinetic, st.e_potential, st.e_dissipated + st.e_impacts, st.e_impacts, st.e_work,
                   st.e_drift_max, st.e_drift_max / thr, st.e_throughput);
            /* a balance off by a percent means the solution itself is wrong */
            if (st.e_drift_max > 1e-2 * thr)
                fprintf(stderr,
                        "flange: warning: the energy balance does not close (drift %.3g of the throughput): the "
                        "steps do not resolve the motion at this tolerance%s\n",
                        st.e_drift_max / thr,
                        o.no_contact_events ? " (contacts are stepped through: try without --no-contact-events)" : "");
        }
        rc = rc ? 1 : 0;
    } else {
        cli_print_diags(d);
        rc = 1;
    }
    free(default_out);
    fl_sim_free(sim);
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
    free_args(&a);
    return rc;
}
