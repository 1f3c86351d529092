/* fmu_threads.c - flange's FMU runtime loaded the way an importer loads it
 * (dlopen of binaries/<platform>/<id>.so of an unpacked FMU, every function
 * by dlsym), run by tests/fmu/fmu_threads.sh on FMI 2.0 and FMI 3.0 FMUs of
 * examples/msl/Friction.mo:
 *  (a) 100 Co-Simulation instances on 8 threads, each instantiate ->
 *      initialise -> doStep 1e-3 to the stop time -> get a few variables ->
 *      free: every final value bit-equal to a run on the main thread; with
 *      FMU_TEST_LOCALE set (de_DE.UTF-8: a decimal comma) the threads run
 *      with the host in that locale and the reference in "C", so a number
 *      the FMU read with the host's locale would show;
 *  (b) FMU state: saved at t = 2, the run continued to the end (r1), the
 *      state restored and the run continued again (r2): r1 and r2 agree to
 *      a tight tolerance (Co-Simulation restarts IDA at a restored state);
 *      restoring the same state again gives r2 bit for bit, and so does a
 *      serialized/deserialized copy, also in a fresh instance restored right
 *      after instantiation (fmusim --initial-fmu-state-file);
 *  (c) the same with FMI 3.0 on one thread;
 *  (d) Model Exchange through the FMI 2.0 functions with a fixed-step
 *      explicit Euler driver that handles the events: a state saved and
 *      restored continues bit for bit (no integrator inside);
 *  (e) parameters and refusals: a fixed parameter set before initialisation
 *      (the model compiled again with it), a tunable one changed between
 *      steps, and the errors an importer gets (with the logged reason) for
 *      a wrong GUID, a fixed parameter set during the run, an unknown value
 *      reference, a step from the wrong time and an unsupported function.
 * The FMUs are unloaded at the end (dlclose): under LeakSanitizer that
 * checks that unloading frees what the FMU's copy of the library holds for
 * the whole process (FMU_TEST_KEEP_LOADED=1 keeps them loaded, so that a
 * leak report can name the FMU's frames).
 * Usage: fmu_threads FMI2_DIR FMI3_DIR (unpacked FMUs). */
#include <dlfcn.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmi/fmi3abi.h"
#include "fmu_host.h"

#define NVARS 4
static const char *const var_names[NVARS] = {"stop1.s", "stop1.v", "stop2.s", "stop2.v"};
#define H 1e-3
#define STOP 5.0
#define NSTEPS 5000 /* STOP / H */

/* the value reference of variable name in modelDescription.xml */
static unsigned vr_of(const char *xml, const char *name)
{
    char key[128];
    snprintf(key, sizeof key, "name=\"%s\"", name);
    const char *p = strstr(xml, key);
    if (!p) return ~0u;
    while (p > xml && *p != '<') p--;
    char *v = xml_attr(p, "valueReference");
    unsigned r = v ? (unsigned)strtoul(v, NULL, 10) : ~0u;
    free(v);
    return r;
}

static void logger3(fmi3InstanceEnvironment env, fmi3Status status, fmi3String cat, fmi3String msg)
{
    (void)env;
    if (status != fmi3OK) printf("  [%d %s] %s\n", (int)status, cat, msg);
}

/* ---- FMI 2.0 ------------------------------------------------------------- */

typedef struct api2 {
    void *h;
    F2(fmi2Instantiate);
    F2(fmi2FreeInstance);
    F2(fmi2SetupExperiment);
    F2(fmi2EnterInitializationMode);
    F2(fmi2ExitInitializationMode);
    F2(fmi2DoStep);
    F2(fmi2GetReal);
    F2(fmi2GetFMUstate);
    F2(fmi2SetFMUstate);
    F2(fmi2FreeFMUstate);
    F2(fmi2SerializedFMUstateSize);
    F2(fmi2SerializeFMUstate);
    F2(fmi2DeSerializeFMUstate);
    F2(fmi2Terminate);
    F2(fmi2GetVersion);
    F2(fmi2EnterEventMode);
    F2(fmi2NewDiscreteStates);
    F2(fmi2EnterContinuousTimeMode);
    F2(fmi2CompletedIntegratorStep);
    F2(fmi2SetTime);
    F2(fmi2SetContinuousStates);
    F2(fmi2GetContinuousStates);
    F2(fmi2GetDerivatives);
    F2(fmi2GetEventIndicators);
    F2(fmi2SetReal);
    F2(fmi2GetDirectionalDerivative);
    char *uri, *guid, *xml;
    unsigned vr[NVARS];
    int nx, nz;
} api2;

static int load2(api2 *a, const char *dir)
{
    memset(a, 0, sizeof *a);
    a->h = fmu_open(dir, "linux64", &a->xml);
    if (!a->h) return -1;
    a->guid = xml_attr(a->xml, "guid");
    char *nz = xml_attr(a->xml, "numberOfEventIndicators");
    a->nz = nz ? atoi(nz) : 0;
    free(nz);
    FMU_LOAD(a->h, a->fmi2Instantiate, fmi2Instantiate);
    FMU_LOAD(a->h, a->fmi2FreeInstance, fmi2FreeInstance);
    FMU_LOAD(a->h, a->fmi2SetupExperiment, fmi2SetupExperiment);
    FMU_LOAD(a->h, a->fmi2EnterInitializationMode, fmi2EnterInitializationMode);
    FMU_LOAD(a->h, a->fmi2ExitInitializationMode, fmi2ExitInitializationMode);
    FMU_LOAD(a->h, a->fmi2DoStep, fmi2DoStep);
    FMU_LOAD(a->h, a->fmi2GetReal, fmi2GetReal);
    FMU_LOAD(a->h, a->fmi2GetFMUstate, fmi2GetFMUstate);
    FMU_LOAD(a->h, a->fmi2SetFMUstate, fmi2SetFMUstate);
    FMU_LOAD(a->h, a->fmi2FreeFMUstate, fmi2FreeFMUstate);
    FMU_LOAD(a->h, a->fmi2SerializedFMUstateSize, fmi2SerializedFMUstateSize);
    FMU_LOAD(a->h, a->fmi2SerializeFMUstate, fmi2SerializeFMUstate);
    FMU_LOAD(a->h, a->fmi2DeSerializeFMUstate, fmi2DeSerializeFMUstate);
    FMU_LOAD(a->h, a->fmi2Terminate, fmi2Terminate);
    FMU_LOAD(a->h, a->fmi2GetVersion, fmi2GetVersion);
    FMU_LOAD(a->h, a->fmi2EnterEventMode, fmi2EnterEventMode);
    FMU_LOAD(a->h, a->fmi2NewDiscreteStates, fmi2NewDiscreteStates);
    FMU_LOAD(a->h, a->fmi2EnterContinuousTimeMode, fmi2EnterContinuousTimeMode);
    FMU_LOAD(a->h, a->fmi2CompletedIntegratorStep, fmi2CompletedIntegratorStep);
    FMU_LOAD(a->h, a->fmi2SetTime, fmi2SetTime);
    FMU_LOAD(a->h, a->fmi2SetContinuousStates, fmi2SetContinuousStates);
    FMU_LOAD(a->h, a->fmi2GetContinuousStates, fmi2GetContinuousStates);
    FMU_LOAD(a->h, a->fmi2GetDerivatives, fmi2GetDerivatives);
    FMU_LOAD(a->h, a->fmi2GetEventIndicators, fmi2GetEventIndicators);
    FMU_LOAD(a->h, a->fmi2SetReal, fmi2SetReal);
    FMU_LOAD(a->h, a->fmi2GetDirectionalDerivative, fmi2GetDirectionalDerivative);
    a->uri = file_uri(dir);
    for (int k = 0; k < NVARS; k++) {
        a->vr[k] = vr_of(a->xml, var_names[k]);
        if (a->vr[k] == ~0u) return check(0, "no variable %s in %s/modelDescription.xml", var_names[k], dir), -1;
    }
    a->nx = 0;
    for (const char *p = a->xml; (p = strstr(p, "name=\"_x.")); p++) a->nx++;
    return 0;
}

static fmi2Component new2(const api2 *a, fmi2Type type, const char *name)
{
    static const fmi2CallbackFunctions cb = {logger2, calloc, free, NULL, NULL};
    return a->fmi2Instantiate(name, type, a->guid, a->uri, &cb, fmi2False, fmi2False);
}

/* steps k0..NSTEPS-1 of a CS run (t = k H), then the variables */
static int steps2(const api2 *a, fmi2Component c, int k0, int k1, double *out)
{
    for (int k = k0; k < k1; k++)
        if (a->fmi2DoStep(c, k * H, H, fmi2True) != fmi2OK) return -1;
    return out && a->fmi2GetReal(c, a->vr, NVARS, out) != fmi2OK ? -1 : 0;
}

static int run2(const api2 *a, double *out, const char *name)
{
    fmi2Component c = new2(a, fmi2CoSimulation, name);
    if (!c) return -1;
    int rc = -1;
    if (a->fmi2SetupExperiment(c, fmi2False, 0, 0, fmi2True, STOP) == fmi2OK &&
        a->fmi2EnterInitializationMode(c) == fmi2OK && a->fmi2ExitInitializationMode(c) == fmi2OK)
        rc = steps2(a, c, 0, NSTEPS, out);
    if (a->fmi2Terminate(c) != fmi2OK) rc = -1;
    a->fmi2FreeInstance(c);
    return rc;
}

#define NINST 100
#define NTHREADS 8
typedef struct job {
    const api2 *a;
    int tid;
    double res[NINST][NVARS];
    int rc[NINST];
} job;
static job jobs[NTHREADS];

static void *worker(void *p)
{
    job *j = p;
    for (int i = j->tid; i < NINST; i += NTHREADS) {
        char name[32];
        snprintf(name, sizeof name, "i%d", i);
        j->rc[i] = run2(j->a, j->res[i], name);
    }
    return NULL;
}

static void test_threads2(const api2 *a)
{
    double ref[NVARS] = {0};
    int rc = run2(a, ref, "reference"); /* (check's arguments are evaluated in any order) */
    check(rc == 0, "FMI 2 CS: one run on the main thread: %s = %.17g, %s = %.17g", var_names[0], ref[0],
          var_names[2], ref[2]);
    const char *loc = getenv("FMU_TEST_LOCALE");
    if (loc && *loc) {
        int set = setlocale(LC_ALL, loc) != NULL;
        check(set && !strcmp(localeconv()->decimal_point, ","), "host locale %s: decimal point '%s'", loc,
              localeconv()->decimal_point);
    }
    pthread_t th[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        jobs[t].a = a;
        jobs[t].tid = t;
        pthread_create(&th[t], NULL, worker, &jobs[t]);
    }
    for (int t = 0; t < NTHREADS; t++) pthread_join(th[t], NULL);
    setlocale(LC_ALL, "C");
    int ok = 0, bad = 0;
    for (int i = 0; i < NINST; i++) {
        const job *j = &jobs[i % NTHREADS];
        if (j->rc[i] == 0 && !memcmp(j->res[i], ref, sizeof ref)) ok++;
        else if (bad++ < 5)
            printf("  instance %d: rc %d, %s = %.17g\n", i, j->rc[i], var_names[0], j->res[i][0]);
    }
    check(ok == NINST, "FMI 2 CS: %d instances on %d threads, %d with every value bit-equal to the main thread's",
          NINST, NTHREADS, ok);
}

static double reldiff(const double *x, const double *y)
{
    double m = 0;
    for (int k = 0; k < NVARS; k++) m = fmax(m, fabs(x[k] - y[k]) / (1e-3 + fabs(x[k])));
    return m;
}

static void test_state2(const api2 *a)
{
    fmi2Component c = new2(a, fmi2CoSimulation, "state");
    fmi2FMUstate st = NULL, st2 = NULL;
    double r0[NVARS], r1[NVARS], r2[NVARS], r3[NVARS], r4[NVARS], r5[NVARS];
    int ok = c && a->fmi2SetupExperiment(c, fmi2True, 1e-8, 0, fmi2True, STOP) == fmi2OK &&
             a->fmi2EnterInitializationMode(c) == fmi2OK && a->fmi2ExitInitializationMode(c) == fmi2OK &&
             steps2(a, c, 0, 2000, r0) == 0;
    check(ok, "FMI 2 CS: a run to t = 2 (tolerance 1e-8)");
    if (!ok) goto done;
    check(a->fmi2GetFMUstate(c, &st) == fmi2OK && st, "fmi2GetFMUstate at t = 2");
    int rc = steps2(a, c, 2000, NSTEPS, r1);
    check(rc == 0, "on to t = 5 (r1): %s = %.17g", var_names[0], r1[0]);
    check(a->fmi2SetFMUstate(c, st) == fmi2OK, "fmi2SetFMUstate back to t = 2");
    double back[NVARS];
    check(a->fmi2GetReal(c, a->vr, NVARS, back) == fmi2OK && !memcmp(back, r0, sizeof back),
          "the restored values at t = 2 are the saved ones, bit for bit");
    rc = steps2(a, c, 2000, NSTEPS, r2);
    check(rc == 0, "on to t = 5 again (r2): %s = %.17g", var_names[0], r2[0]);
    double d = reldiff(r1, r2);
    check(d < 1e-5, "r1 and r2 agree: largest relative difference %.3g (IDA restarted at the restored state)", d);
    check(a->fmi2SetFMUstate(c, st) == fmi2OK && steps2(a, c, 2000, NSTEPS, r3) == 0 && !memcmp(r2, r3, sizeof r2),
          "the same state restored twice: bit-identical continuations");
    size_t n = 0;
    rc = a->fmi2SerializedFMUstateSize(c, st, &n);
    check(rc == fmi2OK && n > 0, "serialized size %zu bytes", n);
    fmi2Byte *bytes = malloc(n);
    check(a->fmi2SerializeFMUstate(c, st, bytes, n) == fmi2OK, "fmi2SerializeFMUstate");
    check(a->fmi2DeSerializeFMUstate(c, bytes, n, &st2) == fmi2OK && st2, "fmi2DeSerializeFMUstate");
    check(a->fmi2SetFMUstate(c, st2) == fmi2OK && steps2(a, c, 2000, NSTEPS, r4) == 0 && !memcmp(r2, r4, sizeof r2),
          "the deserialized copy continues bit for bit");
    check(a->fmi2DeSerializeFMUstate(c, bytes, n - 1, &st2) == fmi2Error, "a truncated state is refused");
    /* a fresh instance: instantiate, deserialize, set, step (no initialisation) */
    fmi2Component c2 = new2(a, fmi2CoSimulation, "restored");
    fmi2FMUstate st3 = NULL;
    check(c2 && a->fmi2DeSerializeFMUstate(c2, bytes, n, &st3) == fmi2OK && a->fmi2SetFMUstate(c2, st3) == fmi2OK &&
              steps2(a, c2, 2000, NSTEPS, r5) == 0 && !memcmp(r2, r5, sizeof r2),
          "a fresh instance restored right after instantiation continues bit for bit");
    if (c2) {
        a->fmi2FreeFMUstate(c2, &st3);
        a->fmi2FreeInstance(c2);
    }
    free(bytes);
    a->fmi2FreeFMUstate(c, &st2);
    a->fmi2FreeFMUstate(c, &st);
    check(st == NULL, "fmi2FreeFMUstate clears the pointer");
done:
    if (c) a->fmi2FreeInstance(c);
}

/* (d) Model Exchange, explicit Euler with event handling */
typedef struct me {
    const api2 *a;
    fmi2Component c;
    double t, *x, *dx, *z, *zold;
} me;

static int me_event(me *m)
{
    fmi2EventInfo ev;
    if (m->a->fmi2EnterEventMode(m->c) != fmi2OK) return -1;
    do
        if (m->a->fmi2NewDiscreteStates(m->c, &ev) != fmi2OK) return -1;
    while (ev.newDiscreteStatesNeeded);
    if (m->a->fmi2EnterContinuousTimeMode(m->c) != fmi2OK) return -1;
    if (m->a->fmi2GetContinuousStates(m->c, m->x, (size_t)m->a->nx) != fmi2OK) return -1;
    return m->a->fmi2GetEventIndicators(m->c, m->zold, (size_t)m->a->nz) != fmi2OK ? -1 : 0;
}

static int me_steps(me *m, int nsteps, double h)
{
    const api2 *a = m->a;
    for (int k = 0; k < nsteps; k++) {
        if (a->fmi2GetDerivatives(m->c, m->dx, (size_t)a->nx) != fmi2OK) return -1;
        for (int i = 0; i < a->nx; i++) m->x[i] += h * m->dx[i];
        m->t += h;
        fmi2Boolean enter = fmi2False, term = fmi2False;
        if (a->fmi2SetTime(m->c, m->t) != fmi2OK || a->fmi2SetContinuousStates(m->c, m->x, (size_t)a->nx) != fmi2OK ||
            a->fmi2GetEventIndicators(m->c, m->z, (size_t)a->nz) != fmi2OK ||
            a->fmi2CompletedIntegratorStep(m->c, fmi2True, &enter, &term) != fmi2OK)
            return -1;
        int crossed = 0;
        for (int i = 0; i < a->nz; i++)
            if ((m->z[i] > 0) != (m->zold[i] > 0)) crossed = 1;
        memcpy(m->zold, m->z, sizeof(double) * (size_t)a->nz);
        if ((crossed || enter) && me_event(m)) return -1;
    }
    return 0;
}

static void test_me2(const api2 *a)
{
    me m = {a, new2(a, fmi2ModelExchange, "me"), 0, NULL, NULL, NULL, NULL};
    int nx = a->nx, nz = a->nz;
    m.x = calloc((size_t)nx + 1, sizeof(double));
    m.dx = calloc((size_t)nx + 1, sizeof(double));
    m.z = calloc((size_t)nz + 1, sizeof(double));
    m.zold = calloc((size_t)nz + 1, sizeof(double));
    double *x1 = calloc((size_t)nx + 1, sizeof(double)), *x2 = calloc((size_t)nx + 1, sizeof(double));
    fmi2FMUstate st = NULL;
    int ok = m.c && a->fmi2SetupExperiment(m.c, fmi2False, 0, 0, fmi2True, STOP) == fmi2OK &&
             a->fmi2EnterInitializationMode(m.c) == fmi2OK && a->fmi2ExitInitializationMode(m.c) == fmi2OK &&
             me_event(&m) == 0;
    check(ok, "FMI 2 ME: initialised, %d states, %d event indicators", nx, nz);
    if (!ok) goto done;
    double h = 1e-5;
    ok = me_steps(&m, 5000, h) == 0;
    check(ok, "FMI 2 ME: explicit Euler to t = %g", m.t);
    if (!ok) goto done;
    double t0 = m.t;
    check(a->fmi2GetFMUstate(m.c, &st) == fmi2OK, "FMI 2 ME: fmi2GetFMUstate at t = %g", t0);
    ok = me_steps(&m, 5000, h) == 0;
    memcpy(x1, m.x, sizeof(double) * (size_t)nx);
    double norm = 0;
    for (int i = 0; i < nx; i++) norm += fabs(x1[i]);
    check(ok && norm > 0, "FMI 2 ME: on to t = %g: sum of |x| = %.17g", m.t, norm);
    ok = a->fmi2SetFMUstate(m.c, st) == fmi2OK && a->fmi2GetContinuousStates(m.c, m.x, (size_t)nx) == fmi2OK &&
         a->fmi2GetEventIndicators(m.c, m.zold, (size_t)nz) == fmi2OK;
    m.t = t0;
    check(ok, "FMI 2 ME: state restored");
    ok = ok && me_steps(&m, 5000, h) == 0;
    memcpy(x2, m.x, sizeof(double) * (size_t)nx);
    check(ok && !memcmp(x1, x2, sizeof(double) * (size_t)nx),
          "FMI 2 ME: the continuation from the restored state is bit-identical");
    a->fmi2FreeFMUstate(m.c, &st);
done:
    if (m.c) a->fmi2FreeInstance(m.c);
    free(m.x);
    free(m.dx);
    free(m.z);
    free(m.zold);
    free(x1);
    free(x2);
}

/* (e) parameters and refusals */
static int run_param(const api2 *a, unsigned vr_fixed, double fixed, unsigned vr_tun, double tun, double *out)
{
    fmi2Component c = new2(a, fmi2CoSimulation, "param");
    if (!c) return -1;
    int rc = -1;
    double back = 0;
    if ((vr_fixed == ~0u || a->fmi2SetReal(c, &vr_fixed, 1, &fixed) == fmi2OK) &&
        a->fmi2SetupExperiment(c, fmi2False, 0, 0, fmi2True, STOP) == fmi2OK &&
        a->fmi2EnterInitializationMode(c) == fmi2OK && a->fmi2ExitInitializationMode(c) == fmi2OK &&
        (vr_fixed == ~0u || (a->fmi2GetReal(c, &vr_fixed, 1, &back) == fmi2OK && back == fixed)) &&
        steps2(a, c, 0, NSTEPS / 2, NULL) == 0 && (vr_tun == ~0u || a->fmi2SetReal(c, &vr_tun, 1, &tun) == fmi2OK) &&
        steps2(a, c, NSTEPS / 2, NSTEPS, out) == 0)
        rc = 0;
    a->fmi2FreeInstance(c);
    return rc;
}

static void test_params2(const api2 *a)
{
    double ref[NVARS], m2[NVARS], m2b[NVARS], amp[NVARS], ampb[NVARS];
    unsigned vm = vr_of(a->xml, "stop1.m"), vamp = vr_of(a->xml, "sineForce.amplitude");
    int rc = run_param(a, ~0u, 0, ~0u, 0, ref);
    check(rc == 0, "FMI 2 CS: a plain run (stop1.s = %.17g)", ref[0]);
    rc = run_param(a, vm, 2.0, ~0u, 0, m2) | run_param(a, vm, 2.0, ~0u, 0, m2b);
    check(rc == 0 && memcmp(m2, ref, sizeof ref) && !memcmp(m2, m2b, sizeof m2),
          "the fixed parameter stop1.m = 2 set before initialisation: recompiled, stop1.s = %.17g (twice the same)",
          m2[0]);
    rc = run_param(a, ~0u, 0, vamp, 40.0, amp) | run_param(a, ~0u, 0, vamp, 40.0, ampb);
    check(rc == 0 && memcmp(amp, ref, sizeof ref) && !memcmp(amp, ampb, sizeof amp),
          "the tunable sineForce.amplitude = 40 from t = 2.5: stop1.s = %.17g (twice the same)", amp[0]);

    static const fmi2CallbackFunctions cb = {logger2, calloc, free, NULL, NULL};
    last_msg[0] = '\0';
    fmi2Component c = a->fmi2Instantiate("bad", fmi2CoSimulation, "{00000000-0000-0000-0000-000000000000}", a->uri,
                                         &cb, fmi2False, fmi2False);
    check(!c && strstr(last_msg, "is not this FMU's"), "a wrong GUID is refused: %s", last_msg);
    c = new2(a, fmi2CoSimulation, "refusals");
    double v = 3, out;
    unsigned bad = 100000;
    int ok = c && a->fmi2SetupExperiment(c, fmi2False, 0, 0, fmi2True, STOP) == fmi2OK &&
             a->fmi2EnterInitializationMode(c) == fmi2OK && a->fmi2ExitInitializationMode(c) == fmi2OK;
    check(ok, "an instance for the refusals");
    if (!ok) goto done;
    check(a->fmi2SetReal(c, &vm, 1, &v) == fmi2Error && strstr(last_msg, "fixed parameter"),
          "setting a fixed parameter during the run: fmi2Error, '%s'", last_msg);
    check(a->fmi2GetReal(c, &bad, 1, &out) == fmi2Error && strstr(last_msg, "no variable has value reference"),
          "an unknown value reference: fmi2Error, '%s'", last_msg);
    check(a->fmi2DoStep(c, 1.0, H, fmi2True) == fmi2Error && strstr(last_msg, "doStep from t = 1"),
          "a step from the wrong time: fmi2Error, '%s'", last_msg);
    check(a->fmi2GetDirectionalDerivative(c, &vm, 1, &vm, 1, &v, &out) == fmi2Error && strstr(last_msg, "not supported"),
          "fmi2GetDirectionalDerivative: fmi2Error, '%s'", last_msg);
    check(steps2(a, c, 0, 10, NULL) == 0, "the instance goes on after refused calls");
done:
    if (c) a->fmi2FreeInstance(c);
}

/* ---- FMI 3.0 ------------------------------------------------------------- */

typedef struct api3 {
    void *h;
    F2(fmi3InstantiateCoSimulation);
    F2(fmi3FreeInstance);
    F2(fmi3EnterInitializationMode);
    F2(fmi3ExitInitializationMode);
    F2(fmi3DoStep);
    F2(fmi3GetFloat64);
    F2(fmi3GetFMUState);
    F2(fmi3SetFMUState);
    F2(fmi3FreeFMUState);
    F2(fmi3SerializedFMUStateSize);
    F2(fmi3SerializeFMUState);
    F2(fmi3DeserializeFMUState);
    F2(fmi3Terminate);
    F2(fmi3GetVersion);
    char *resdir, *token, *xml;
    unsigned vr[NVARS];
} api3;

static int load3(api3 *a, const char *dir)
{
    memset(a, 0, sizeof *a);
    a->h = fmu_open(dir, "x86_64-linux", &a->xml);
    if (!a->h) return -1;
    a->token = xml_attr(a->xml, "instantiationToken");
    FMU_LOAD(a->h, a->fmi3InstantiateCoSimulation, fmi3InstantiateCoSimulation);
    FMU_LOAD(a->h, a->fmi3FreeInstance, fmi3FreeInstance);
    FMU_LOAD(a->h, a->fmi3EnterInitializationMode, fmi3EnterInitializationMode);
    FMU_LOAD(a->h, a->fmi3ExitInitializationMode, fmi3ExitInitializationMode);
    FMU_LOAD(a->h, a->fmi3DoStep, fmi3DoStep);
    FMU_LOAD(a->h, a->fmi3GetFloat64, fmi3GetFloat64);
    FMU_LOAD(a->h, a->fmi3GetFMUState, fmi3GetFMUState);
    FMU_LOAD(a->h, a->fmi3SetFMUState, fmi3SetFMUState);
    FMU_LOAD(a->h, a->fmi3FreeFMUState, fmi3FreeFMUState);
    FMU_LOAD(a->h, a->fmi3SerializedFMUStateSize, fmi3SerializedFMUStateSize);
    FMU_LOAD(a->h, a->fmi3SerializeFMUState, fmi3SerializeFMUState);
    FMU_LOAD(a->h, a->fmi3DeserializeFMUState, fmi3DeserializeFMUState);
    FMU_LOAD(a->h, a->fmi3Terminate, fmi3Terminate);
    FMU_LOAD(a->h, a->fmi3GetVersion, fmi3GetVersion);
    a->resdir = malloc(strlen(dir) + 16);
    sprintf(a->resdir, "%s/resources/", dir);
    for (int k = 0; k < NVARS; k++) {
        a->vr[k] = vr_of(a->xml, var_names[k]);
        if (a->vr[k] == ~0u) return check(0, "no variable %s in %s/modelDescription.xml", var_names[k], dir), -1;
    }
    return 0;
}

static fmi3Instance new3(const api3 *a)
{
    return a->fmi3InstantiateCoSimulation("i3", a->token, a->resdir, fmi3False, fmi3False, fmi3False, fmi3False, NULL,
                                          0, NULL, logger3, NULL);
}

static int steps3(const api3 *a, fmi3Instance c, int k0, int k1, double *out)
{
    for (int k = k0; k < k1; k++) {
        fmi3Boolean ev, term, early;
        double last;
        if (a->fmi3DoStep(c, k * H, H, fmi3True, &ev, &term, &early, &last) != fmi3OK || ev || early || term)
            return -1;
    }
    return out && a->fmi3GetFloat64(c, a->vr, NVARS, out, NVARS) != fmi3OK ? -1 : 0;
}

static int init3(const api3 *a, fmi3Instance c, double tol)
{
    return c && a->fmi3EnterInitializationMode(c, tol > 0, tol, 0, fmi3True, STOP) == fmi3OK &&
                   a->fmi3ExitInitializationMode(c) == fmi3OK
               ? 0
               : -1;
}

static void test3(const api3 *a)
{
    double ref[NVARS], again[NVARS];
    for (int i = 0; i < 2; i++) {
        fmi3Instance c = new3(a);
        int ok = init3(a, c, 0) == 0 && steps3(a, c, 0, NSTEPS, i ? again : ref) == 0 &&
                 a->fmi3Terminate(c) == fmi3OK; /* before check() reads the values */
        check(ok, "FMI 3 CS: run %d to t = 5: %s = %.17g", i + 1, var_names[0], (i ? again : ref)[0]);
        if (c) a->fmi3FreeInstance(c);
    }
    check(!memcmp(ref, again, sizeof ref), "FMI 3 CS: two instances one after the other: bit-equal results");
    double t;
    unsigned vr0 = 0;
    fmi3Instance c = new3(a);
    fmi3FMUState st = NULL, st2 = NULL;
    double r0[NVARS], r1[NVARS], r2[NVARS], r3[NVARS], r4[NVARS], back[NVARS];
    int ok = init3(a, c, 1e-8) == 0 && steps3(a, c, 0, 2000, r0) == 0;
    check(ok, "FMI 3 CS: a run to t = 2 (tolerance 1e-8)");
    if (!ok) goto done;
    check(a->fmi3GetFMUState(c, &st) == fmi3OK && st, "fmi3GetFMUState at t = 2");
    check(steps3(a, c, 2000, NSTEPS, r1) == 0, "on to t = 5 (r1)");
    t = NAN;
    ok = a->fmi3SetFMUState(c, st) == fmi3OK && a->fmi3GetFloat64(c, &vr0, 1, &t, 1) == fmi3OK && t == 2.0;
    check(ok, "fmi3SetFMUState: time (value reference 0) is back at %.17g", t);
    check(a->fmi3GetFloat64(c, a->vr, NVARS, back, NVARS) == fmi3OK && !memcmp(back, r0, sizeof back),
          "the restored values at t = 2 are the saved ones, bit for bit");
    check(steps3(a, c, 2000, NSTEPS, r2) == 0, "on to t = 5 again (r2)");
    double d = reldiff(r1, r2);
    check(d < 1e-5, "r1 and r2 agree: largest relative difference %.3g", d);
    check(a->fmi3SetFMUState(c, st) == fmi3OK && steps3(a, c, 2000, NSTEPS, r3) == 0 && !memcmp(r2, r3, sizeof r2),
          "the same state restored twice: bit-identical continuations");
    size_t n = 0;
    ok = a->fmi3SerializedFMUStateSize(c, st, &n) == fmi3OK;
    check(ok && n > 0, "serialized size %zu bytes", n);
    fmi3Byte *bytes = malloc(n);
    check(a->fmi3SerializeFMUState(c, st, bytes, n) == fmi3OK &&
              a->fmi3DeserializeFMUState(c, bytes, n, &st2) == fmi3OK && a->fmi3SetFMUState(c, st2) == fmi3OK &&
              steps3(a, c, 2000, NSTEPS, r4) == 0 && !memcmp(r2, r4, sizeof r2),
          "serialize/deserialize round trip continues bit for bit");
    free(bytes);
    a->fmi3FreeFMUState(c, &st2);
    a->fmi3FreeFMUState(c, &st);
done:
    if (c) a->fmi3FreeInstance(c);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: fmu_threads FMI2_DIR FMI3_DIR\n");
        return 2;
    }
    api2 a2;
    api3 a3;
    if (load2(&a2, argv[1]) == 0) {
        check(!strcmp(a2.fmi2GetVersion(), "2.0"), "fmi2GetVersion: %s", a2.fmi2GetVersion());
        test_threads2(&a2);
        test_state2(&a2);
        test_me2(&a2);
        test_params2(&a2);
        if (!getenv("FMU_TEST_KEEP_LOADED")) dlclose(a2.h); /* (kept: leak reports can name the FMU's frames) */
    }
    if (load3(&a3, argv[2]) == 0) {
        check(!strcmp(a3.fmi3GetVersion(), "3.0"), "fmi3GetVersion: %s", a3.fmi3GetVersion());
        test3(&a3);
        if (!getenv("FMU_TEST_KEEP_LOADED")) dlclose(a3.h);
    }
    free(a2.xml);
    free(a2.uri);
    free(a2.guid);
    free(a3.xml);
    free(a3.resdir);
    free(a3.token);
    printf("%s\n", fails ? "FAILED" : "all passed");
    return fails ? 1 : 0;
}
