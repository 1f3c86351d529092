/* cmd_simulate.c - "flange simulate", "flange check" and "flange components".
 * simulate runs a model to CSV (and a picture with --plot), shows one
 * progress line on a terminal, and ends with a summary of the run. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

typedef struct sim_args {
    const char *model_file;
    const char *class_name; /* a model of the libraries, instead of a file */
    const char **libs;      /* --lib, in order */
    int nlibs;
    const char *out;
    const char *model_name;
    const char *plot;
    double start, stop, interval, tolerance;
    int has_start, has_stop, has_interval, has_tolerance;
    long max_rows; /* --max-rows, 0: the library's limit */
    const char **params;
    int nparams;
    cli_list globs, plot_vars;
    int solver;
    int quiet;
    int energy;    /* print the energy balance (and write its totals) */
    int no_energy; /* skip the audit altogether (faster) */
    int contacts;  /* FL_CONTACTS_* */
    int stats;     /* a key=value line of counters and times on stdout */
    int strict_init; /* under-determined initial conditions are an error */
    int one_integrator; /* no grouped integration */
} sim_args;

static const char simulate_usage[] =
    "usage: flange simulate MODEL.mo|CLASS [--lib DIR ...] [-o OUT.csv|OUT.mat|-] [--model NAME] [--start T] [--stop T]\n"
    "                       [--interval H] [--tolerance R] [--max-rows N] [--vars GLOB,...] [--param NAME=VALUE ...]\n"
    "                       [--solver auto|dense|klu] [--plot FILE.png|.svg|.pdf [--plot-vars GLOB,...]]\n"
    "                       [--energy | --no-energy] [--contact-events | --no-contact-events] [--strict-init]\n"
    "                       [--one-integrator] [--stats] [--quiet]";
static const char check_usage[] =
    "usage: flange check MODEL.mo|CLASS [--lib DIR ...] [--model NAME] [--param NAME=VALUE ...] [--strict-init]";

static void free_args(sim_args *a)
{
    cli_list_free(&a->globs);
    cli_list_free(&a->plot_vars);
    free(a->params);
    free(a->libs);
}

/* A model argument that is no file but reads as a Modelica class name
 * ("Lib.Examples.Demo", or "Lib" beside a directory Lib) names a model of
 * the libraries, as in omc, when there are libraries (--lib, MODELICAPATH). */
static int is_class_name(const char *s, int nlibs)
{
    const char *mp = getenv("MODELICAPATH");
    if (!nlibs && (!mp || !*mp)) return 0;
    size_t n = strlen(s);
    struct stat st;
    if ((stat(s, &st) == 0 && !S_ISDIR(st.st_mode)) || (n > 3 && strcmp(s + n - 3, ".mo") == 0)) return 0;
    for (const char *p = s; *p; p++) {
        int start = p == s || p[-1] == '.';
        int letter = (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || *p == '_';
        if (!(letter || (!start && ((*p >= '0' && *p <= '9') || *p == '.')))) return 0;
    }
    return n && s[n - 1] != '.';
}

/* The result must not overwrite the model, under whatever name (checked
 * again once the default name <Model>.csv is known). */
static int check_not_model(const char *out, const char *model)
{
    char *units = malloc(strlen(out) + 7);
    if (units) sprintf(units, "%s.units", out);
    int same = cli_same_file(out, model) || (units && cli_same_file(units, model));
    free(units);
    if (!same) return 0;
    return cli_usage_error("simulate", simulate_usage, "-o %s would overwrite the model file %s", out, model);
}

/* What -o and --plot name: formats flange writes, not the model file, and
 * a result --plot can read back. */
static int check_output_names(const sim_args *a, const char *usage)
{
    const char *cmd = "simulate";
    char msg[512];
    int to_stdout = a->out && strcmp(a->out, "-") == 0;
    if (to_stdout && a->plot)
        return cli_usage_error(cmd, usage, "--plot reads the result back from its file: not with -o -");
    if (to_stdout && (a->stats || a->energy))
        return cli_usage_error(cmd, usage, "%s prints on standard output, where -o - writes the CSV",
                               a->stats ? "--stats" : "--energy");
    int same = a->out && !to_stdout && a->model_file ? check_not_model(a->out, a->model_file) : 0;
    if (same) return same;
    if (a->plot && a->model_file && cli_same_file(a->plot, a->model_file))
        return cli_usage_error(cmd, usage, "--plot %s would overwrite the model file %s", a->plot, a->model_file);
    if (a->out && !to_stdout && cli_result_name_error(a->out, msg, sizeof msg))
        return cli_usage_error(cmd, usage, "%s", msg);
    if (a->plot && cli_picture_name_error(a->plot, msg, sizeof msg)) return cli_usage_error(cmd, usage, "%s", msg);
    struct stat st;
    if (a->plot && a->out && !to_stdout && stat(a->out, &st) == 0 && !S_ISREG(st.st_mode))
        return cli_usage_error(cmd, usage, "--plot reads the result back from %s, which is not a regular file", a->out);
    return 0;
}

/* Parses arguments of simulate (full = 1) or check (full = 0). */
static int parse_args(int argc, char **argv, sim_args *a, int full)
{
    const char *usage = full ? simulate_usage : check_usage;
    const char *cmd = full ? "simulate" : "check";
    memset(a, 0, sizeof *a);
    a->params = calloc((size_t)argc, sizeof(char *));
    a->libs = calloc((size_t)argc, sizeof(char *));
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *v;
        int missing = 0;
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            printf("%s\n", usage);
            return 1;
        }
        if (arg[0] != '-' || arg[1] == '\0') {
            if (a->model_file) return cli_usage_error(cmd, usage, "more than one model file ('%s' and '%s')", a->model_file, arg);
            a->model_file = arg;
            continue;
        }
        if ((v = cli_option(argc, argv, &i, "--model", &missing))) {
            a->model_name = v;
        } else if ((v = cli_option(argc, argv, &i, "--lib", &missing))) {
            a->libs[a->nlibs++] = v;
        } else if ((v = cli_option(argc, argv, &i, "--param", &missing))) {
            if (!strchr(v, '=')) return cli_usage_error(cmd, usage, "--param needs NAME=VALUE, got '%s'", v);
            a->params[a->nparams++] = v;
        } else if (strcmp(arg, "--strict-init") == 0) {
            a->strict_init = 1;
        } else if (full && ((v = cli_option(argc, argv, &i, "-o", &missing)) ||
                            (v = cli_option(argc, argv, &i, "--output", &missing)))) {
            a->out = v;
        } else if (full && (v = cli_option(argc, argv, &i, "--vars", &missing))) {
            cli_list_add(&a->globs, v);
        } else if (full && (v = cli_option(argc, argv, &i, "--plot", &missing))) {
            a->plot = v;
        } else if (full && (v = cli_option(argc, argv, &i, "--plot-vars", &missing))) {
            cli_list_add(&a->plot_vars, v);
        } else if (full && (v = cli_option(argc, argv, &i, "--solver", &missing))) {
            if (strcmp(v, "auto") == 0) a->solver = FL_SOLVER_AUTO;
            else if (strcmp(v, "dense") == 0) a->solver = FL_SOLVER_DENSE;
            else if (strcmp(v, "klu") == 0) a->solver = FL_SOLVER_KLU;
            else return cli_usage_error(cmd, usage, "--solver must be auto, dense or klu, not '%s'", v);
        } else if (full && strcmp(arg, "--quiet") == 0) {
            a->quiet = 1;
        } else if (full && strcmp(arg, "--energy") == 0) {
            a->energy = 1;
        } else if (full && strcmp(arg, "--no-energy") == 0) {
            a->no_energy = 1;
        } else if (full && strcmp(arg, "--no-contact-events") == 0) {
            a->contacts = FL_CONTACTS_STEP;
        } else if (full && strcmp(arg, "--contact-events") == 0) {
            a->contacts = FL_CONTACTS_EVENTS;
        } else if (full && strcmp(arg, "--stats") == 0) {
            a->stats = 1;
        } else if (full && strcmp(arg, "--one-integrator") == 0) {
            a->one_integrator = 1;
        } else if (full && (v = cli_option(argc, argv, &i, "--max-rows", &missing))) {
            double n;
            if (cli_number(v, &n) || n < 1 || n != floor(n) || n > (double)LONG_MAX)
                return cli_usage_error(cmd, usage, "--max-rows needs a positive whole number, got '%s'", v);
            a->max_rows = (long)n;
        } else if (full) {
            static const char *const names[] = {"--start", "--stop", "--interval", "--tolerance"};
            double *dst[] = {&a->start, &a->stop, &a->interval, &a->tolerance};
            int *has[] = {&a->has_start, &a->has_stop, &a->has_interval, &a->has_tolerance};
            int k;
            for (k = 0; k < 4; k++) {
                if ((v = cli_option(argc, argv, &i, names[k], &missing))) {
                    if (cli_number(v, dst[k])) return cli_usage_error(cmd, usage, "%s needs a number, got '%s'", names[k], v);
                    if (k == 2 && !(a->interval > 0))
                        return cli_usage_error(cmd, usage, "--interval must be positive, got '%s'", v);
                    if (k == 3 && !(a->tolerance >= FL_TOLERANCE_MIN && a->tolerance <= FL_TOLERANCE_MAX))
                        return cli_usage_error(cmd, usage, "--tolerance must be between %g and %g, got '%s'",
                                               FL_TOLERANCE_MIN, FL_TOLERANCE_MAX, v);
                    *has[k] = 1;
                    break;
                }
                if (missing) break;
            }
            if (k == 4 && !missing) return cli_usage_error(cmd, usage, "unknown option '%s'", arg);
        } else if (!missing) {
            return cli_usage_error(cmd, usage, "unknown option '%s'", arg);
        }
        if (missing) return cli_usage_error(cmd, usage, "option %s needs a value", arg);
    }
    if (a->model_file && is_class_name(a->model_file, a->nlibs)) {
        if (a->model_name)
            return cli_usage_error(cmd, usage, "'%s' is no file: name the model as the argument or with --model, not both",
                                   a->model_file);
        a->class_name = a->model_file;
        a->model_file = NULL;
    } else if (!a->model_file && a->model_name) {
        a->class_name = a->model_name;
    }
    if (!a->model_file && !a->class_name) return cli_usage_error(cmd, usage, "no model file given");
    if (a->energy && a->no_energy) return cli_usage_error(cmd, usage, "--energy and --no-energy contradict each other");
    if (a->plot_vars.n && !a->plot) return cli_usage_error(cmd, usage, "--plot-vars needs --plot FILE");
    return full ? check_output_names(a, usage) : 0;
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Load and compile the model named by the arguments (NULL on errors). The
 * model description is freed as soon as it is compiled (the system does not
 * refer to it), so a big model's text-level data never coexists with the
 * solver's; *name receives a copy of the model's name, times[] the seconds
 * spent loading and compiling. */
static fl_system *load(const sim_args *a, char **name, double times[2], fl_diag *d)
{
    double t0 = wall_now();
    fl_load_opts lo;
    memset(&lo, 0, sizeof lo);
    lo.model_name = a->model_name;
    lo.params = a->params;
    lo.nparams = a->nparams;
    lo.libs = a->libs;
    lo.nlibs = a->nlibs;
    fl_model *m = a->class_name ? fl_model_load_class(a->class_name, &lo, d) : fl_model_load_file(a->model_file, &lo, d);
    fl_model_set_strict_init(m, a->strict_init);
    double t1 = wall_now();
    *name = NULL;
    if (m) {
        const char *mn = fl_model_name(m);
        *name = malloc(strlen(mn) + 1);
        if (*name) memcpy(*name, mn, strlen(mn) + 1);
    }
    fl_system *sys = m ? fl_compile_and_free(m, d) : NULL;
    times[0] = t1 - t0; /* read, parse, instantiate */
    times[1] = wall_now() - t1; /* compile */
    return sys;
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
    char *name;
    double times[2];
    fl_system *sys = load(&a, &name, times, d);
    cli_print_diags(d);
    if (sys) fl_system_describe(sys, stdout);
    rc = sys ? 0 : 1;
    fl_system_free(sys);
    free(name);
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

/* ---- progress line -------------------------------------------------------- */

typedef struct progress {
    double t0, t1;        /* model time span */
    double start, last;   /* wall clock */
    double after;         /* seconds before the first line */
    int shown;
    int tty;              /* stderr is a terminal: the progress line (never with --quiet) */
    int long_warned;
} progress;

/* A run expected to take longer than this is announced with a warning when
 * no progress line shows it, projected after `after` seconds but at least
 * LONG_RUN_SAMPLE (the first steps say little about the rest). */
#define LONG_RUN_SECONDS 60.0
#define LONG_RUN_SAMPLE 1.0

static void duration_text(char *out, size_t cap, double sec)
{
    if (sec < 120) snprintf(out, cap, "%.0f s", sec);
    else if (sec < 7200) snprintf(out, cap, "%.0f minutes", sec / 60);
    else if (sec < 2 * 86400) snprintf(out, cap, "%.0f hours", sec / 3600);
    else if (sec < 2 * 365 * 86400.0) snprintf(out, cap, "%.0f days", sec / 86400);
    else snprintf(out, cap, "%.2g years", sec / (365 * 86400.0));
}

/* Off a terminal a long run would otherwise start silently: a projection
 * of the whole run, once, if it is long. */
static void warn_long_run(progress *p, double t, double now)
{
    p->long_warned = 1;
    double frac = (t - p->t0) / (p->t1 - p->t0), spent = now - p->start;
    double rest = frac > 0 ? spent * (1 - frac) / frac : INFINITY;
    if (!(rest > LONG_RUN_SECONDS)) return;
    char left[64] = "";
    if (isfinite(rest)) {
        strcpy(left, ", about ");
        duration_text(left + 8, sizeof left - 8, rest);
        strcat(left, " to go");
    }
    fprintf(stderr, "warning: a long run: model time %.6g of %g s after %.1f s%s\n", t, p->t1, spent, left);
    fflush(stderr);
}

static int show_progress(void *user, double t, const struct fl_stats *st)
{
    progress *p = user;
    double now = wall_now();
    if (now - p->start < p->after) return 0;
    if (!p->tty) {
        if (!p->long_warned && now - p->start >= LONG_RUN_SAMPLE) warn_long_run(p, t, now);
        return 0;
    }
    if (now - p->last < 0.1) return 0;
    p->last = now;
    double frac = (t - p->t0) / (p->t1 - p->t0);
    char left[48] = "";
    if (frac > 0.01) {
        double rest = (now - p->start) * (1 - frac) / frac;
        snprintf(left, sizeof left, ", about %.0f s left", ceil(rest));
    }
    fprintf(stderr, "\rflange: t = %.6g of %g s (%.0f%%), %ld steps, %ld events%s\033[K", t, p->t1, 100 * frac,
            st->steps, st->state_events + st->time_events, left);
    fflush(stderr);
    p->shown = 1;
    return 0;
}

/* ---- summary ---------------------------------------------------------------- */

static void summary(const char *out, const char *plot, const fl_stats *st, const fl_sim_opts *o, double load,
                    double run)
{
    fprintf(stderr,
            "flange: wrote %s (%ld output points)%s%s. %ld steps, %ld residual and %ld Jacobian evaluations; "
            "%ld state events and %ld time events; %s linear solver; %.3g s (model %.3g s, run %.3g s)",
            out, st->outputs, plot ? " and " : "", plot ? plot : "", st->steps, st->res_evals, st->jac_evals,
            st->state_events, st->time_events, st->linear_solver, load + run, load, run);
    if (o->energy) {
        double thr = st->e_throughput > 0 ? st->e_throughput : 1;
        if (st->e_closed == 1)
            fprintf(stderr, "; the energy balance closes to %.2g of the throughput.\n", st->e_drift_max / thr);
        else
            fprintf(stderr,
                    "; the energy balance does NOT close (worst drift %.2g of the throughput, see the warning).\n",
                    st->e_drift_max / thr);
    } else {
        fputs("; energy audit off.\n", stderr);
    }
}

static void print_energy(const fl_stats *st, double t)
{
    double thr = st->e_throughput > 0 ? st->e_throughput : 1;
    printf("energy balance at t = %g: kinetic %.9g J + stored %.9g J + dissipated %.9g J (of which impacts "
           "%.9g J) - work of sources %.9g J; worst drift %.3g J = %.3g of the throughput %.9g J%s\n",
           t, st->e_kinetic, st->e_potential, st->e_dissipated + st->e_impacts, st->e_impacts, st->e_work,
           st->e_drift_max, st->e_drift_max / thr, st->e_throughput,
           st->e_closed == 1 ? "" : "; the balance does NOT close");
}

/* The picture of --plot: the chosen signals, or the motion of the bodies,
 * stacked by unit. */
static int plot_run(const sim_args *a, const fl_system *sys, const char *model, const char *csv, fl_diag *d)
{
    const char *motion[64];
    fl_plot_opts po;
    memset(&po, 0, sizeof po);
    po.layout = FL_PLOT_STACKED;
    po.title = model;
    if (a->plot_vars.n) {
        po.y = (const char *const *)a->plot_vars.v;
        po.ny = a->plot_vars.n;
    } else {
        po.ny = fl_system_motion_vars(sys, motion, 64);
        po.y = motion;
        if (po.ny == 0) {
            fprintf(stderr, "flange: %s: no component with mass to plot; choose signals with --plot-vars\n", model);
            return -1;
        }
    }
    return fl_plot_csv(csv, a->plot, &po, d);
}

/* Start and stop from the command line against each other and the model's
 * (the library checks the rest once more, for every caller). */
static int check_times(const sim_args *a, const fl_sim_opts *o)
{
    if (o->stop_time > o->start_time) return 0;
    if (a->has_stop)
        return cli_usage_error("simulate", simulate_usage, "--stop %g must be greater than the start time %g",
                               o->stop_time, o->start_time);
    return cli_usage_error("simulate", simulate_usage, "--start %g must be less than the stop time %g of the model",
                           o->start_time, o->stop_time);
}

static void size_text(char *out, size_t cap, double bytes)
{
    static const char *const unit[] = {"bytes", "kB", "MB", "GB", "TB", "PB"};
    int k = 0;
    while (bytes >= 1000 && k < 5) bytes /= 1000, k++;
    snprintf(out, cap, k && bytes < 10 ? "%.1f %s" : "%.0f %s", bytes, unit[k]);
}

/* Before a run fills a disk or takes ages to write: a warning, once and up
 * front, when the result will have more than a tenth of the row limit
 * (--max-rows), when it may exceed FLANGE_WARN_BYTES (default 1 GB), or
 * when it may not fit on its disk. Runs above the limit itself are refused
 * by the library. */
static void warn_large_output(const sim_args *a, fl_sim *sim, const fl_sim_opts *o, const char *out,
                              const char *const *globs, int nglobs)
{
    double rows, bytes;
    int cols;
    if (fl_sim_csv_size(sim, o, globs, nglobs, &rows, &cols, &bytes, NULL)) return; /* the run reports it */
    double warn_rows = (a->max_rows > 0 ? (double)a->max_rows : (double)FL_MAX_OUTPUTS_DEFAULT) / 10;
    const char *env = getenv("FLANGE_WARN_BYTES");
    double warn_bytes = env && atof(env) > 0 ? atof(env) : 1e9;
    double avail = INFINITY;
    struct stat st;
    if (strcmp(out, "-") != 0 && (stat(out, &st) != 0 || S_ISREG(st.st_mode))) {
        /* the directory the file goes to */
        const char *slash = strrchr(out, '/');
        char *dir = malloc(strlen(out) + 2);
        struct statvfs fs;
        if (dir) {
            if (!slash) strcpy(dir, ".");
            else if (slash == out) strcpy(dir, "/");
            else sprintf(dir, "%.*s", (int)(slash - out), out);
            if (statvfs(dir, &fs) == 0) avail = (double)fs.f_bavail * (double)fs.f_frsize;
            free(dir);
        }
    }
    if (rows <= warn_rows && bytes <= warn_bytes && bytes <= avail) return;
    char size[32], free_text[32];
    size_text(size, sizeof size, bytes);
    size_text(free_text, sizeof free_text, avail);
    fprintf(stderr, "warning: the result will have %.0f rows of %d columns, up to %s%s%s%s: a larger --interval or "
            "fewer --vars make it smaller\n",
            rows, cols, size, bytes > avail ? ", and its disk has only " : "", bytes > avail ? free_text : "",
            bytes > avail ? " free" : "");
    fflush(stderr);
}

int cmd_simulate(int argc, char **argv)
{
    sim_args a;
    int rc = parse_args(argc, argv, &a, 1);
    if (rc) {
        free_args(&a);
        return rc == 1 ? 0 : rc;
    }
    cli_catch_signals(); /* no temporary file outlives an interrupted run */
    fl_diag *d = fl_diag_new();
    char *name;
    double times[2] = {0, 0};
    double w0 = wall_now();
    fl_system *sys = load(&a, &name, times, d);
    fl_sim *sim = sys ? fl_sim_new(sys, d) : NULL;
    double w1 = wall_now();
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
        o.energy = !a.no_energy; /* the summary reports its drift */
        o.contacts = a.contacts;
        o.max_outputs = a.max_rows;
        o.one_integrator = a.one_integrator;
        progress p;
        memset(&p, 0, sizeof p);
        p.t0 = o.start_time;
        p.t1 = o.stop_time;
        p.start = wall_now();
        p.last = -INFINITY;
        const char *after = getenv("FLANGE_PROGRESS_AFTER");
        p.after = after ? atof(after) : 1.0;
        p.tty = !a.quiet && isatty(STDERR_FILENO);
        if (!a.quiet) { /* a progress line, or off a terminal a warning if the run is long */
            o.progress = show_progress;
            o.progress_user = &p;
        }
        if (!out) {
            default_out = malloc(strlen(name) + 5);
            if (!default_out) return 1;
            sprintf(default_out, "%s.csv", name);
            out = default_out;
        }
        int to_stdout = strcmp(out, "-") == 0;
        /* --energy without --vars: every variable and the energy totals */
        static const char *const all[] = {"**"};
        const char *const *globs = (const char *const *)a.globs.v;
        int nglobs = a.globs.n;
        if (a.energy && nglobs == 0) {
            globs = all;
            nglobs = 1;
        }
        int usage = check_times(&a, &o);
        if (!usage && !to_stdout && a.model_file) usage = check_not_model(out, a.model_file);
        if (!usage) warn_large_output(&a, sim, &o, out, globs, nglobs);
        p.start = wall_now();
        rc = usage ? -1
             : to_stdout ? fl_sim_run_csv_stream(sim, &o, stdout, globs, nglobs, d)
             : cli_result_is_mat(out) ? fl_sim_run_mat(sim, &o, out, globs, nglobs, d)
                                      : fl_sim_run_csv(sim, &o, out, globs, nglobs, d);
        if (p.shown) fputs("\r\033[K", stderr);
        if (rc == 0 && a.plot) rc = plot_run(&a, sys, name, out, d);
        cli_print_diags(d);
        fl_stats st = fl_sim_stats(sim);
        double w2 = wall_now();
        if (rc == 0 && !a.quiet) summary(to_stdout ? "standard output" : out, a.plot, &st, &o, w1 - w0, w2 - w1);
        if (rc == 0 && a.energy) print_energy(&st, o.stop_time);
        if (rc == 0 && a.stats)
            printf("steps=%ld res=%ld jac=%ld lsetups=%ld state_events=%ld time_events=%ld outputs=%ld "
                   "model_s=%.6f load_s=%.6f compile_s=%.6f run_s=%.6f solver=%s\n",
                   st.steps, st.res_evals, st.jac_evals, st.lin_setups, st.state_events, st.time_events, st.outputs,
                   w1 - w0, times[0], times[1], w2 - w1, st.linear_solver);
        rc = usage ? usage : rc ? 1 : 0;
    } else {
        cli_print_diags(d);
        rc = 1;
    }
    free(default_out);
    fl_sim_free(sim);
    fl_system_free(sys);
    free(name);
    fl_diag_free(d);
    free_args(&a);
    return rc;
}
