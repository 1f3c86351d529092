/* md.c - modelDescription.xml for FMI 2.0 and 3.0, one file with both
 * <ModelExchange> and <CoSimulation>, written by hand from the variable
 * table (fmu.h): every text escaped, every number exact
 * (the shorter of %.15g and %.17g that reads back the same double).
 *
 * Causality, variability and initial per kind of table entry (legal in
 * both standards):
 *   input      input      continuous  (initial: default exact)  start
 *   output     output     continuous|discrete (calculated)
 *   parameter  parameter  fixed|tunable (exact)                  start
 *   variable   local      continuous|discrete (calculated)
 *   state      local      continuous (calculated)
 *   derivative local      continuous (calculated), derivative=
 *   indicator  local      continuous (calculated), FMI 3 only */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmi/export.h"
#include "util/guard.h"
#include "util/util.h"

void fl_xml_escape(fl_buf *b, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&': fl_buf_add(b, "&amp;"); break;
        case '<': fl_buf_add(b, "&lt;"); break;
        case '>': fl_buf_add(b, "&gt;"); break;
        case '"': fl_buf_add(b, "&quot;"); break;
        case '\'': fl_buf_add(b, "&apos;"); break;
        case '\n': fl_buf_add(b, "&#10;"); break;
        case '\r': fl_buf_add(b, "&#13;"); break;
        case '\t': fl_buf_add(b, "&#9;"); break;
        default:
            /* other control characters are not allowed in XML 1.0 */
            if (c < 0x20) fl_buf_addc(b, ' ');
            else fl_buf_addc(b, (char)c);
        }
    }
}

/* attribute name="value" (escaped) */
static void attr(fl_buf *b, const char *name, const char *value)
{
    fl_buf_printf(b, " %s=\"", name);
    fl_xml_escape(b, value);
    fl_buf_addc(b, '"');
}

static void attr_num(fl_buf *b, const char *name, double x)
{
    if (isinf(x)) fl_buf_printf(b, " %s=\"%s\"", name, x > 0 ? "INF" : "-INF");
    else {
        char num[40];
        fl_fmt_double(num, sizeof num, x); /* reads back exactly */
        fl_buf_printf(b, " %s=\"%s\"", name, num);
    }
}

static const char *tf(int x)
{
    return x ? "true" : "false";
}

/* ---- units ---------------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void unit_definitions(fl_buf *b, const fl_fmu_vars *t)
{
    const char **u = fl_xmalloc(sizeof *u * (size_t)(t->n ? t->n : 1));
    int n = 0;
    for (int i = 0; i < t->n; i++)
        if (t->v[i].type == FL_FMU_REAL && t->v[i].unit[0]) u[n++] = t->v[i].unit;
    qsort(u, (size_t)n, sizeof *u, cmp_str);
    int m = 0;
    for (int i = 0; i < n; i++)
        if (!m || strcmp(u[m - 1], u[i]) != 0) u[m++] = u[i];
    if (m) {
        static const char *const base[FL_U_N] = {"kg", "m", "s", "A", "K", "mol", "cd", "rad"};
        fl_buf_add(b, "  <UnitDefinitions>\n");
        for (int i = 0; i < m; i++) {
            fl_buf_add(b, "    <Unit");
            attr(b, "name", u[i]);
            fl_unit_si si;
            if (fl_unit_parse(u[i], &si)) {
                fl_buf_add(b, "/>\n"); /* a unit flange does not know: named only */
                continue;
            }
            fl_buf_add(b, ">\n      <BaseUnit");
            for (int k = 0; k < FL_U_N; k++)
                if (si.exp[k]) fl_buf_printf(b, " %s=\"%d\"", base[k], si.exp[k]);
            if (si.factor != 1) attr_num(b, "factor", si.factor);
            if (si.offset != 0) attr_num(b, "offset", si.offset);
            fl_buf_add(b, "/>\n    </Unit>\n");
        }
        fl_buf_add(b, "  </UnitDefinitions>\n");
    }
    free(u);
}

/* ---- the variables -------------------------------------------------------- */

static const char *causality(const fl_fmu_var *v)
{
    switch (v->kind) {
    case FL_FMU_INPUT: return "input";
    case FL_FMU_OUTPUT: return "output";
    case FL_FMU_PARAM: return "parameter";
    default: return "local";
    }
}

static const char *variability(const fl_fmu_var *v)
{
    if (v->kind == FL_FMU_PARAM) return v->tunable ? "tunable" : "fixed";
    if (v->type != FL_FMU_REAL) return "discrete";
    return "continuous";
}

static int has_start(const fl_fmu_var *v)
{
    return v->kind == FL_FMU_INPUT || v->kind == FL_FMU_PARAM;
}

static void start_value(fl_buf *b, const fl_fmu_var *v)
{
    if (v->type == FL_FMU_BOOLEAN) attr(b, "start", tf(v->start != 0));
    else if (v->type == FL_FMU_INTEGER) fl_buf_printf(b, " start=\"%.0f\"", v->start);
    else attr_num(b, "start", v->start);
}

static void variable2(fl_buf *b, const fl_fmu_vars *t, int i)
{
    const fl_fmu_var *v = &t->v[i];
    fl_buf_printf(b, "    <!-- index %d -->\n    <ScalarVariable", i + 1);
    attr(b, "name", v->name);
    fl_buf_printf(b, " valueReference=\"%d\"", i);
    if (v->desc[0]) attr(b, "description", v->desc);
    fl_buf_printf(b, " causality=\"%s\" variability=\"%s\"", causality(v), variability(v));
    fl_buf_add(b, ">\n      ");
    const char *elem = v->type == FL_FMU_BOOLEAN ? "Boolean" : v->type == FL_FMU_INTEGER ? "Integer" : "Real";
    fl_buf_printf(b, "<%s", elem);
    if (v->type == FL_FMU_REAL && v->unit[0]) attr(b, "unit", v->unit);
    if (has_start(v)) start_value(b, v);
    if (v->kind == FL_FMU_DERIV) fl_buf_printf(b, " derivative=\"%d\"", v->state + 1);
    fl_buf_add(b, "/>\n    </ScalarVariable>\n");
}

static void variable3(fl_buf *b, const fl_fmu_vars *t, int i)
{
    const fl_fmu_var *v = &t->v[i];
    const char *elem = v->type == FL_FMU_BOOLEAN ? "Boolean" : v->type == FL_FMU_INTEGER ? "Int32" : "Float64";
    fl_buf_printf(b, "    <%s", elem);
    attr(b, "name", v->name);
    fl_buf_printf(b, " valueReference=\"%d\"", i + 1);
    if (v->desc[0]) attr(b, "description", v->desc);
    fl_buf_printf(b, " causality=\"%s\" variability=\"%s\"", causality(v), variability(v));
    if (v->type == FL_FMU_REAL && v->unit[0]) attr(b, "unit", v->unit);
    if (has_start(v)) start_value(b, v);
    if (v->kind == FL_FMU_DERIV) fl_buf_printf(b, " derivative=\"%d\"", v->state + 1);
    fl_buf_add(b, "/>\n");
}

/* ---- the document ----------------------------------------------------------- */

static void header(fl_buf *b, const fl_md_info *in, const fl_fmu_vars *t)
{
    fl_buf_add(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<fmiModelDescription");
    attr(b, "fmiVersion", in->fmi == 3 ? "3.0" : "2.0");
    attr(b, "modelName", in->model_name);
    attr(b, in->fmi == 3 ? "instantiationToken" : "guid", in->token);
    if (in->description && in->description[0]) attr(b, "description", in->description);
    char tool[64];
    snprintf(tool, sizeof tool, "flange %s", fl_version());
    attr(b, "generationTool", tool);
    if (in->date) attr(b, "generationDateAndTime", in->date);
    attr(b, "variableNamingConvention", "structured");
    if (in->fmi == 2) fl_buf_printf(b, " numberOfEventIndicators=\"%d\"", t->nindicators);
    fl_buf_add(b, ">\n");
}

/* The capabilities both interfaces share, then each one's own (the order
 * of attributes is free in XML; kept as each standard lists them). */
static const char *const common_caps[2] = {
    " needsExecutionTool=\"false\" canBeInstantiatedOnlyOncePerProcess=\"false\""
    " canNotUseMemoryManagementFunctions=\"true\" canGetAndSetFMUstate=\"true\" canSerializeFMUstate=\"true\""
    " providesDirectionalDerivative=\"false\"",
    " needsExecutionTool=\"false\" canBeInstantiatedOnlyOncePerProcess=\"false\""
    " canGetAndSetFMUState=\"true\" canSerializeFMUState=\"true\""
    " providesDirectionalDerivatives=\"false\" providesAdjointDerivatives=\"false\""};

static void interfaces(fl_buf *b, const fl_md_info *in)
{
    const char *common = common_caps[in->fmi == 2 ? 0 : 1];
    fl_buf_add(b, "  <ModelExchange");
    attr(b, "modelIdentifier", in->identifier);
    fl_buf_add(b, common);
    fl_buf_add(b, in->fmi == 2 ? " completedIntegratorStepNotNeeded=\"false\"/>\n"
                               : " needsCompletedIntegratorStep=\"true\"/>\n");
    fl_buf_add(b, "  <CoSimulation");
    attr(b, "modelIdentifier", in->identifier);
    fl_buf_add(b, common);
    fl_buf_add(b, " canHandleVariableCommunicationStepSize=\"true\" maxOutputDerivativeOrder=\"0\"");
    fl_buf_add(b, in->fmi == 2 ? " canInterpolateInputs=\"false\" canRunAsynchronuously=\"false\"/>\n"
                               : " providesIntermediateUpdate=\"false\" mightReturnEarlyFromDoStep=\"false\""
                                 " canReturnEarlyAfterIntermediateUpdate=\"false\" hasEventMode=\"false\"/>\n");
}

static void log_categories(fl_buf *b)
{
    fl_buf_add(b, "  <LogCategories>\n"
                  "    <Category name=\"logEvents\" description=\"events and notes of the simulation\"/>\n"
                  "    <Category name=\"logStatusWarning\" description=\"warnings\"/>\n"
                  "    <Category name=\"logStatusError\" description=\"errors\"/>\n"
                  "  </LogCategories>\n");
}

static void default_experiment(fl_buf *b, const fl_experiment *e)
{
    fl_buf_add(b, "  <DefaultExperiment");
    attr_num(b, "startTime", e->start_time);
    attr_num(b, "stopTime", e->stop_time);
    attr_num(b, "tolerance", e->tolerance);
    attr_num(b, "stepSize", e->interval);
    fl_buf_add(b, "/>\n");
}

static void structure2(fl_buf *b, const fl_fmu_vars *t)
{
    fl_buf_add(b, "  <ModelStructure>\n");
    int nout = 0;
    for (int i = 0; i < t->n; i++) nout += t->v[i].kind == FL_FMU_OUTPUT;
    if (nout) {
        fl_buf_add(b, "    <Outputs>\n");
        for (int i = 0; i < t->n; i++)
            if (t->v[i].kind == FL_FMU_OUTPUT) fl_buf_printf(b, "      <Unknown index=\"%d\"/>\n", i + 1);
        fl_buf_add(b, "    </Outputs>\n");
    }
    if (t->nstates) {
        fl_buf_add(b, "    <Derivatives>\n");
        for (int k = 0; k < t->nstates; k++)
            fl_buf_printf(b, "      <Unknown index=\"%d\"/>\n", t->first_deriv + k + 1);
        fl_buf_add(b, "    </Derivatives>\n");
    }
    if (nout || t->nstates) {
        fl_buf_add(b, "    <InitialUnknowns>\n");
        for (int i = 0; i < t->n; i++) {
            fl_fmu_kind k = t->v[i].kind;
            if (k == FL_FMU_OUTPUT || k == FL_FMU_STATE || k == FL_FMU_DERIV)
                fl_buf_printf(b, "      <Unknown index=\"%d\"/>\n", i + 1);
        }
        fl_buf_add(b, "    </InitialUnknowns>\n");
    }
    fl_buf_add(b, "  </ModelStructure>\n");
}

static void structure3(fl_buf *b, const fl_fmu_vars *t)
{
    fl_buf_add(b, "  <ModelStructure>\n");
    for (int i = 0; i < t->n; i++)
        if (t->v[i].kind == FL_FMU_OUTPUT) fl_buf_printf(b, "    <Output valueReference=\"%d\"/>\n", i + 1);
    for (int k = 0; k < t->nstates; k++)
        fl_buf_printf(b, "    <ContinuousStateDerivative valueReference=\"%d\"/>\n", t->first_deriv + k + 1);
    for (int i = 0; i < t->n; i++) {
        fl_fmu_kind k = t->v[i].kind;
        if (k == FL_FMU_OUTPUT || k == FL_FMU_STATE || k == FL_FMU_DERIV)
            fl_buf_printf(b, "    <InitialUnknown valueReference=\"%d\"/>\n", i + 1);
    }
    for (int k = 0; k < t->nindicators; k++)
        fl_buf_printf(b, "    <EventIndicator valueReference=\"%d\"/>\n", t->first_indicator + k + 1);
    fl_buf_add(b, "  </ModelStructure>\n");
}

char *fl_fmu_model_description(const fl_md_info *in, const fl_fmu_vars *t)
{
    fl_buf b = {0};
    fl_cleanup c;
    fl_cleanup_push(&c, fl_buf_cleanup, &b);
    header(&b, in, t);
    interfaces(&b, in);
    unit_definitions(&b, t);
    log_categories(&b);
    default_experiment(&b, &in->exp);
    fl_buf_add(&b, "  <ModelVariables>\n");
    if (in->fmi == 3)
        fl_buf_add(&b, "    <Float64 name=\"time\" valueReference=\"0\" causality=\"independent\""
                       " variability=\"continuous\" description=\"simulation time\"/>\n");
    for (int i = 0; i < t->n; i++) {
        if (in->fmi == 2 && t->v[i].kind == FL_FMU_INDICATOR) continue;
        if (in->fmi == 3) variable3(&b, t, i);
        else variable2(&b, t, i);
    }
    fl_buf_add(&b, "  </ModelVariables>\n");
    if (in->fmi == 3) structure3(&b, t);
    else structure2(&b, t);
    fl_buf_add(&b, "</fmiModelDescription>\n");
    fl_cleanup_pop(&c);
    return fl_buf_take(&b);
}
