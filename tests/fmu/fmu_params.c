/* fmu_params.c - parameters of an FMU set by the importer before
 * initialisation, through the FMI 2.0 functions of flange's FMU runtime
 * loaded as an importer loads it (dlopen of binaries/linux64/<id>.so of an
 * unpacked FMU, every function by dlsym). Run by tests/fmu/fmu_params.sh,
 * which compares the printed results with `flange simulate --param`.
 *
 *   fmu_params DIR STOP VARS [NAME=VALUE ...]
 *
 * Instantiates a Co-Simulation instance of the FMU in DIR, sets each NAME
 * (a Real, Integer or Boolean variable of modelDescription.xml: fmi2SetReal,
 * fmi2SetInteger or fmi2SetBoolean; Booleans as true/false) before
 * initialisation and gets it back at once, initialises, gets it back again,
 * steps to STOP in communication steps of 0.01, and prints "NAME VALUE"
 * (%.17g) for each of the comma-separated Real variables VARS. Setting a
 * fixed parameter after initialisation must fail with the logged reason.
 * Exit status 1 when a check failed. */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmu_host.h"

/* value reference and type element ("Real", "Integer", "Boolean") of a
 * variable of modelDescription.xml (FMI 2.0); -1 if absent */
static int lookup(const char *xml, const char *name, unsigned *vr, char type[16])
{
    char key[256];
    snprintf(key, sizeof key, "<ScalarVariable name=\"%s\" ", name);
    const char *p = strstr(xml, key);
    if (!p) return -1;
    char *v = xml_attr(p, "valueReference");
    *vr = (unsigned)strtoul(v, NULL, 10);
    free(v);
    const char *t = strstr(p, ">\n") + 2;
    while (*t == ' ') t++;
    sscanf(t, "<%15[A-Za-z]", type);
    return 0;
}

static struct {
    F2(fmi2Instantiate);
    F2(fmi2FreeInstance);
    F2(fmi2SetupExperiment);
    F2(fmi2EnterInitializationMode);
    F2(fmi2ExitInitializationMode);
    F2(fmi2DoStep);
    F2(fmi2Terminate);
    F2(fmi2GetReal);
    F2(fmi2GetInteger);
    F2(fmi2GetBoolean);
    F2(fmi2SetReal);
    F2(fmi2SetInteger);
    F2(fmi2SetBoolean);
} api;

/* the functions of the FMU's binary h into api; -1 if one is missing */
static int load(void *h)
{
    FMU_LOAD(h, api.fmi2Instantiate, fmi2Instantiate);
    FMU_LOAD(h, api.fmi2FreeInstance, fmi2FreeInstance);
    FMU_LOAD(h, api.fmi2SetupExperiment, fmi2SetupExperiment);
    FMU_LOAD(h, api.fmi2EnterInitializationMode, fmi2EnterInitializationMode);
    FMU_LOAD(h, api.fmi2ExitInitializationMode, fmi2ExitInitializationMode);
    FMU_LOAD(h, api.fmi2DoStep, fmi2DoStep);
    FMU_LOAD(h, api.fmi2Terminate, fmi2Terminate);
    FMU_LOAD(h, api.fmi2GetReal, fmi2GetReal);
    FMU_LOAD(h, api.fmi2GetInteger, fmi2GetInteger);
    FMU_LOAD(h, api.fmi2GetBoolean, fmi2GetBoolean);
    FMU_LOAD(h, api.fmi2SetReal, fmi2SetReal);
    FMU_LOAD(h, api.fmi2SetInteger, fmi2SetInteger);
    FMU_LOAD(h, api.fmi2SetBoolean, fmi2SetBoolean);
    return 0;
}

/* a variable set or got as a double (Booleans 0/1) */
static fmi2Status set(fmi2Component c, const char *type, unsigned vr, double x)
{
    if (!strcmp(type, "Real")) return api.fmi2SetReal(c, &vr, 1, &x);
    if (!strcmp(type, "Integer")) {
        fmi2Integer i = (fmi2Integer)x;
        return api.fmi2SetInteger(c, &vr, 1, &i);
    }
    fmi2Boolean b = x != 0;
    return api.fmi2SetBoolean(c, &vr, 1, &b);
}

static fmi2Status get(fmi2Component c, const char *type, unsigned vr, double *x)
{
    fmi2Status st;
    if (!strcmp(type, "Real")) return api.fmi2GetReal(c, &vr, 1, x);
    if (!strcmp(type, "Integer")) {
        fmi2Integer i = 0;
        st = api.fmi2GetInteger(c, &vr, 1, &i);
        *x = i;
        return st;
    }
    fmi2Boolean b = 0;
    st = api.fmi2GetBoolean(c, &vr, 1, &b);
    *x = b != 0;
    return st;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: fmu_params DIR STOP VARS [NAME=VALUE ...]\n");
        return 2;
    }
    const char *dir = argv[1];
    double stop = strtod(argv[2], NULL);
    char *xml;
    void *h = fmu_open(dir, "linux64", &xml);
    if (!h || load(h)) return 1;
    char *guid = xml_attr(xml, "guid"), *uri = file_uri(dir);
    static const fmi2CallbackFunctions cb = {logger2, calloc, free, NULL, NULL};
    fmi2Component c = api.fmi2Instantiate("params", fmi2CoSimulation, guid, uri, &cb, fmi2False, fmi2False);
    if (!c) return check(0, "fmi2Instantiate"), 1;

    int nset = argc - 4;
    unsigned *vr = calloc((size_t)nset + 1, sizeof *vr);
    char (*type)[16] = calloc((size_t)nset + 1, sizeof *type);
    double *val = calloc((size_t)nset + 1, sizeof *val);
    char **name = calloc((size_t)nset + 1, sizeof *name);
    for (int i = 0; i < nset; i++) {
        char *eq = strchr(argv[4 + i], '=');
        if (!eq) return check(0, "%s: NAME=VALUE", argv[4 + i]), 1;
        name[i] = strndup(argv[4 + i], (size_t)(eq - argv[4 + i]));
        if (lookup(xml, name[i], &vr[i], type[i])) return check(0, "no variable %s", name[i]), 1;
        val[i] = !strcmp(eq + 1, "true") ? 1 : !strcmp(eq + 1, "false") ? 0 : strtod(eq + 1, NULL);
        double back = -1;
        fmi2Status st = set(c, type[i], vr[i], val[i]);
        fmi2Status gs = st == fmi2OK ? get(c, type[i], vr[i], &back) : fmi2Error;
        check(st == fmi2OK && gs == fmi2OK && back == val[i],
              "%s %s = %s set before initialisation (status %d), got back %.17g", type[i], name[i], eq + 1, (int)st,
              back);
    }
    check(api.fmi2SetupExperiment(c, fmi2False, 0, 0, fmi2True, stop) == fmi2OK &&
              api.fmi2EnterInitializationMode(c) == fmi2OK && api.fmi2ExitInitializationMode(c) == fmi2OK,
          "initialised");
    for (int i = 0; i < nset; i++) {
        double back = -1;
        fmi2Status gs = get(c, type[i], vr[i], &back);
        check(gs == fmi2OK && back == val[i], "%s = %.17g after initialisation", name[i], back);
    }
    /* a fixed parameter cannot change during the run */
    for (int i = 0; i < nset; i++) {
        char key[256];
        snprintf(key, sizeof key, "<ScalarVariable name=\"%s\" ", name[i]);
        const char *p = strstr(xml, key), *fixed = p ? strstr(p, "variability=\"fixed\"") : NULL;
        if (!fixed || fixed > strchr(p, '>')) continue; /* an input or a tunable parameter */
        last_msg[0] = '\0';
        fmi2Status st = set(c, type[i], vr[i], val[i] == 0 ? 1 : 0);
        char want[300];
        snprintf(want, sizeof want, "%s is a fixed parameter: it can be set before initialization only", name[i]);
        check(st == fmi2Error && strstr(last_msg, want), "%s set after initialisation: refused (%s)", name[i],
              last_msg);
        break; /* the instance is in the error state now */
    }
    api.fmi2FreeInstance(c);

    /* again, the run to the stop time */
    c = api.fmi2Instantiate("params", fmi2CoSimulation, guid, uri, &cb, fmi2False, fmi2False);
    if (!c) return check(0, "fmi2Instantiate"), 1;
    for (int i = 0; i < nset; i++)
        if (set(c, type[i], vr[i], val[i]) != fmi2OK) check(0, "set %s", name[i]);
    int ok = api.fmi2SetupExperiment(c, fmi2False, 0, 0, fmi2True, stop) == fmi2OK &&
             api.fmi2EnterInitializationMode(c) == fmi2OK && api.fmi2ExitInitializationMode(c) == fmi2OK;
    int nsteps = (int)(stop / 0.01 + 0.5);
    for (int k = 0; ok && k < nsteps; k++) ok = api.fmi2DoStep(c, k * 0.01, 0.01, fmi2True) == fmi2OK;
    check(ok, "run to t = %g in %d communication steps", stop, nsteps);
    char *vars = strdup(argv[3]);
    for (char *tok = strtok(vars, ","); tok; tok = strtok(NULL, ",")) {
        unsigned r;
        char t[16];
        double x = 0;
        if (lookup(xml, tok, &r, t) || api.fmi2GetReal(c, &r, 1, &x) != fmi2OK) check(0, "get %s", tok);
        else printf("%s %.17g\n", tok, x);
    }
    api.fmi2Terminate(c);
    api.fmi2FreeInstance(c);
    free(vars);
    for (int i = 0; i < nset; i++) free(name[i]);
    free(name);
    free(vr);
    free(type);
    free(val);
    free(uri);
    free(guid);
    free(xml);
    dlclose(h);
    return fails ? 1 : 0;
}
