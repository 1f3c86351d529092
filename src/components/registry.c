/* registry.c - the list of component classes and lookups by name. The
 * Modelica text in the class tables (parameter defaults, conditions of
 * connectors) is parsed and evaluated model-side (model/classtext.c). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "component.h"
#include "util/suggest.h"

static const fl_class *const *const families[] = {
    fl_classes_mechanics, fl_classes_contacts, fl_classes_friction, fl_classes_stops, fl_classes_limiter,
    fl_classes_sources,   fl_classes_motion,   fl_classes_sensors,  fl_classes_blocks, fl_classes_kinematic,
    fl_classes_rotational, fl_classes_rot_backlash, fl_classes_rot_stops, fl_classes_rot_sources,
    fl_classes_rot_sensors, fl_classes_rot_friction, fl_classes_lossygear,
};

static const fl_class **all;
static int nall;
static fl_map by_path; /* full path -> index in all (a big model looks its types up once per component) */
/* last name segment -> the class a short name means (fl_class_find_short),
 * or nall + rank when two of that rank share it: the API's
 * fl_model_add("Mass") once per component of a big model, which scanned
 * every class */
static fl_map by_short;
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int reg_ready;

static int short_rank(const char *path);

static void init_registry(void *unused)
{
    int n = 0;
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
        for (int i = 0; families[f][i]; i++) n++;
    all = fl_xmalloc(sizeof *all * (size_t)n);
    nall = 0;
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
        for (int i = 0; families[f][i]; i++) all[nall++] = families[f][i];
    for (int i = 0; i < nall; i++) fl_map_put(&by_path, all[i]->path, i);
    for (int i = 0; i < nall; i++) { /* value: the class, or nall + rank when two of that rank share the name */
        const char *dot = strrchr(all[i]->path, '.');
        if (!dot) continue; /* (a path without a package is not a short name of itself) */
        int v = fl_map_get(&by_short, dot + 1), r = short_rank(all[i]->path);
        int rv = v < 0 ? -1 : v < nall ? short_rank(all[v]->path) : v - nall;
        if (r > rv) fl_map_put(&by_short, dot + 1, i);
        else if (r == rv) fl_map_put(&by_short, dot + 1, nall + r);
    }
}

/* What a failed initialisation had built (it runs again on the next call). */
static void free_registry(void)
{
    free(all);
    fl_map_free(&by_path);
    fl_map_free(&by_short);
    all = NULL;
    nall = 0;
}

void fl_registry_shutdown(void)
{
    pthread_mutex_lock(&reg_lock);
    if (atomic_load_explicit(&reg_ready, memory_order_relaxed)) free_registry();
    atomic_store_explicit(&reg_ready, 0, memory_order_release);
    pthread_mutex_unlock(&reg_lock);
}

/* The tables are built once, on first use, under a lock. An allocation
 * failure must leave neither the lock held nor a half-built table: the
 * build runs under a recovery point of its own, and the failure is passed
 * on after cleaning up. */
static void ensure(void)
{
    if (atomic_load_explicit(&reg_ready, memory_order_acquire)) return;
    pthread_mutex_lock(&reg_lock);
    fl_guard g;
    int failed = !atomic_load_explicit(&reg_ready, memory_order_relaxed) && fl_guard_try(&g, init_registry, NULL);
    if (failed) free_registry();
    else atomic_store_explicit(&reg_ready, 1, memory_order_release);
    pthread_mutex_unlock(&reg_lock);
    if (failed) fl_guard_rethrow(&g);
}

const fl_domain_names *fl_domain_info(int dom)
{
    static const fl_domain_names names[2] = {
        {"translational", "s", "v", "a", "f", "m", "m/s", "m/s2", "N", "m"},
        {"rotational", "phi", "w", "a", "tau", "rad", "rad/s", "rad/s2", "N.m", "J"},
    };
    return &names[dom == FL_DOM_ROT];
}

int fl_class_count(void)
{
    ensure();
    return nall;
}

const fl_class *fl_class_at(int i)
{
    ensure();
    return i >= 0 && i < nall ? all[i] : NULL;
}

const fl_class *fl_class_find(const char *path)
{
    ensure();
    int i = fl_map_get(&by_path, path);
    return i >= 0 ? all[i] : NULL;
}

/* Short names: flange's own components win over MSL classes of the same
 * name, and the translational classes (flange's first domain, which short
 * names in the API always meant) over other MSL classes: "Spring" is the
 * translational spring, "Inertia" the rotational inertia. */
static int short_rank(const char *path)
{
    if (strncmp(path, "Flange.", 7) == 0) return 2;
    if (strncmp(path, "Modelica.Mechanics.Translational.", 33) == 0) return 1;
    return 0;
}

const fl_class *fl_class_find_short(const char *name, int *ambiguous)
{
    ensure();
    if (!strchr(name, '.')) { /* a last segment: the index */
        int v = fl_map_get(&by_short, name);
        if (ambiguous) *ambiguous = v >= nall;
        return v >= 0 && v < nall ? all[v] : NULL;
    }
    const fl_class *found = NULL;
    int count = 0, best = -1;
    size_t n = strlen(name);
    for (int i = 0; i < nall; i++) {
        const char *p = all[i]->path;
        size_t m = strlen(p);
        if (m > n && p[m - n - 1] == '.' && strcmp(p + m - n, name) == 0) {
            int r = short_rank(p);
            if (r > best) {
                found = all[i];
                best = r;
                count = 1;
            } else if (r == best) {
                count++;
            }
        }
    }
    if (ambiguous) *ambiguous = count > 1;
    return count == 1 ? found : NULL;
}

int fl_package_exists(const char *path)
{
    ensure();
    size_t n = strlen(path);
    for (int i = 0; i < nall; i++)
        if (strncmp(all[i]->path, path, n) == 0 && all[i]->path[n] == '.') return 1;
    return 0;
}

int fl_class_port(const fl_class *c, const char *name)
{
    for (int i = 0; i < c->nports; i++)
        if (strcmp(c->ports[i].name, name) == 0) return i;
    return -1;
}

int fl_class_param(const fl_class *c, const char *name)
{
    if (c->param_index) return fl_map_get(c->param_index, name);
    for (int i = 0; i < c->nparams; i++)
        if (strcmp(c->params[i].name, name) == 0) return i;
    return -1;
}

int fl_class_var(const fl_class *c, const char *name)
{
    if (c->var_index) return fl_map_get(c->var_index, name);
    for (int i = 0; i < c->nvars; i++)
        if (strcmp(c->vars[i].name, name) == 0) return i;
    return -1;
}

int fl_class_nin(const fl_class *c)
{
    int n = 0;
    for (int i = 0; i < c->nports; i++)
        if (c->ports[i].kind == FL_PORT_INPUT) n += c->ports[i].width > 0 ? c->ports[i].width : 1;
    return n;
}

/* ---- names that are not flange's classes ------------------------------- */

/* Real MSL classes that flange lacks. A type that resolves to one of them
 * is "not supported by flange"; any other name that is not a class of
 * flange is "unknown" - a typing slip, answered with the nearest names.
 * Classes are listed one by one only in the packages where flange has
 * classes of its own (there a slip is likely and must not be taken for a
 * real class); packages flange has nothing of count as a whole. */
static const char *const msl_lacking[] = {
    "Modelica.Mechanics.Translational.Components.InitializeFlange",
    "Modelica.Mechanics.Translational.Components.RollingResistance",
    "Modelica.Mechanics.Translational.Components.Vehicle",
    "Modelica.Mechanics.Translational.Sources.EddyCurrentForce",
    "Modelica.Mechanics.Rotational.Components.Coupling",
    "Modelica.Mechanics.Rotational.Components.Gearbox",
    "Modelica.Mechanics.Rotational.Sources.EddyCurrentTorque",
    "Modelica.Blocks.Sources.RealExpression",
    "Modelica.Blocks.Sources.ContinuousClock",
    "Modelica.Blocks.Sources.Exponentials",
    "Modelica.Blocks.Sources.SawTooth",
    "Modelica.Blocks.Sources.LogFrequencySweep",
    "Modelica.Blocks.Sources.Clock",
    "Modelica.Blocks.Math.MultiSwitch",
    "Modelica.Blocks.Math.Harmonic",
    "Modelica.Blocks.Math.TotalHarmonicDistortion",
    "Modelica.Blocks.Math.RealFFT",
    "Modelica.Blocks.Math.Pythagoras",
    "Modelica.Blocks.Nonlinear.FixedDelay",
    "Modelica.Blocks.Nonlinear.PadeDelay",
    "Modelica.Blocks.Nonlinear.VariableDelay",
    "Modelica.Blocks.Tables.CombiTable2Dv",
    "Modelica.Blocks.Logical.LogicalDelay",
    "Modelica.Blocks.Routing.IntegerPassThrough",
    "Modelica.Blocks.Routing.BooleanPassThrough",
    "Modelica.Blocks.Routing.IntegerReplicator",
    "Modelica.Blocks.Routing.BooleanReplicator",
};
static const char *const msl_lacking_packages[] = {
    "Modelica.Mechanics.Translational.Interfaces.", /* partial classes */
    "Modelica.Mechanics.Translational.Examples.",
    "Modelica.Mechanics.Rotational.Interfaces.", "Modelica.Mechanics.Rotational.Examples.",
    "Modelica.Mechanics.MultiBody.", "Modelica.Blocks.Math.UnitConversions.",
    "Modelica.Blocks.Discrete.", "Modelica.Blocks.MathBoolean.", "Modelica.Blocks.MathInteger.",
    "Modelica.Blocks.Noise.",
    "Modelica.Blocks.Examples.",
    "Modelica.Electrical.", "Modelica.Magnetic.", "Modelica.Thermal.", "Modelica.Fluid.", "Modelica.Media.",
    "Modelica.StateGraph.", "Modelica.Clocked.", "Modelica.ComplexBlocks.",
};

int fl_class_msl_unsupported(const char *path)
{
    for (size_t i = 0; i < sizeof msl_lacking / sizeof msl_lacking[0]; i++)
        if (strcmp(msl_lacking[i], path) == 0) return 1;
    for (size_t i = 0; i < sizeof msl_lacking_packages / sizeof msl_lacking_packages[0]; i++)
        if (strncmp(msl_lacking_packages[i], path, strlen(msl_lacking_packages[i])) == 0) return 1;
    return 0;
}

/* The last n dot-separated components of path (all of it if it has fewer). */
static const char *path_suffix(const char *path, int n)
{
    const char *p = path + strlen(path);
    while (p > path) {
        if (p[-1] == '.' && --n == 0) return p;
        p--;
    }
    return path;
}

void fl_class_suggest(const char *written, fl_suggest *s)
{
    ensure();
    int parts = 1;
    for (const char *p = written; *p; p++) parts += *p == '.';
    const char *last = path_suffix(written, 1);
    for (int i = 0; i < nall; i++) {
        const char *path = all[i]->path;
        /* as written, against as many trailing components of the path
         * (equal: the name is right but not visible where it is written) ... */
        int d = fl_edit_distance(written, path_suffix(path, parts), s->limit);
        if (d == 0) d = 1;
        /* ... and the class name alone, one more when packages are written */
        int dl = fl_edit_distance(last, path_suffix(path, 1), s->limit) + (parts > 1);
        fl_suggest_add_dist(s, d < dl ? d : dl, path);
    }
}
