/* compile.c - fl_compile: runs the compile stages, owns the fl_system, and
 * builds the table of output variables. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "components/user.h"
#include "output/select.h"


static const char *const energy_names[] = {"energy.kinetic", "energy.potential", "energy.dissipated", "energy.work",
                                           "energy.drift"};

static void set_var(fl_var *out, int inst, int kind, int def, int index)
{
    fl_var x = {inst, (unsigned char)kind, kind == OV_ENERGY, (unsigned short)def, index};
    *out = x;
}

/* The output variables of instance i, in their order: class variables,
 * block outputs, inputs (user classes show theirs as class variables), then
 * the position and force of each connected flange. With 0 <= k < their
 * number, the k-th into *out. Returns their number. One walk for counting
 * (fl_compile_vars) and for look-up (fl_system_var), so that the two agree;
 * the system keeps no table of them (big models have tens per component). */
static int inst_vars(const fl_system *s, int i, int k, fl_var *out)
{
    const fl_inst_rt *ir = &s->insts[i];
    const fl_class *c = ir->cls;
    int n = c->nvars;
    if (k >= 0 && k < n) set_var(out, i, OV_CLASS, k, k);
    for (int p = 0; p < c->nports; p++) {
        const fl_port_def *pd = &c->ports[p];
        if (pd->kind != FL_PORT_OUTPUT || !c->block) continue;
        int w = pd->width == 0 ? 1 : ir->nout;
        if (k >= n && k < n + w) set_var(out, i, OV_BLOCK_OUT, p, pd->width == 0 ? 0 : k - n);
        n += w;
    }
    for (int p = 0; p < c->nports; p++) {
        const fl_port_def *pd = &c->ports[p];
        if (pd->kind != FL_PORT_INPUT) continue;
        int sig = fl_port_sig(ir, p);
        if (s->sigs[sig].kind == SIG_NONE) continue; /* absent conditional input */
        if (c->port_ext) continue;
        int w = pd->width > 0 ? pd->width : 1;
        if (k >= n && k < n + w) set_var(out, i, OV_INPUT, p, sig - ir->in0 + k - n);
        n += w;
    }
    for (int p = 0; p < c->nports; p++) {
        if (c->ports[p].kind != FL_PORT_FLANGE || s->ports[ir->port0 + p].node < 0) continue;
        if (k >= n && k < n + 2) set_var(out, i, k == n ? OV_PORT_S : OV_PORT_F, p, p);
        n += 2;
    }
    return n;
}

void fl_compile_vars(fl_system *s)
{
    int n = 0;
    for (int i = 0; i < s->ninst; i++) {
        s->insts[i].var0 = n;
        n += inst_vars(s, i, -1, NULL);
    }
    /* the energy audit, written on request */
    s->energy_var0 = n;
    s->nvars = n + (int)(sizeof energy_names / sizeof energy_names[0]);
}

fl_var fl_system_var(const fl_system *s, int v)
{
    fl_var x;
    if (v >= s->energy_var0) {
        set_var(&x, 0, OV_ENERGY, 0, v - s->energy_var0);
        return x;
    }
    /* the last instance whose variables start at or before v (one without
     * variables starts where the next one does) */
    int lo = 0, hi = s->ninst - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (s->insts[mid].var0 <= v) lo = mid;
        else hi = mid - 1;
    }
    return fl_system_inst_var(s, lo, v - s->insts[lo].var0);
}

fl_var fl_system_inst_var(const fl_system *s, int i, int k)
{
    fl_var x = {i, OV_CLASS, 0, 0, 0};
    inst_vars(s, i, k, &x);
    return x;
}

void fl_var_name_into(const fl_system *s, int v, char *buf, size_t cap)
{
    fl_var xv = fl_system_var(s, v);
    const fl_var *x = &xv;
    if (x->kind == OV_ENERGY) { /* also in a model without instances */
        snprintf(buf, cap, "%s", energy_names[x->index]);
        return;
    }
    const fl_inst_rt *ir = &s->insts[x->inst];
    const fl_class *c = ir->cls;
    /* the equations of the model itself belong to an instance named "" */
    const char *in = fl_ir_name(s, ir), *dot = in[0] ? "." : "";
    switch (x->kind) {
    case OV_CLASS: snprintf(buf, cap, "%s%s%s", in, dot, c->vars[x->def].name); break;
    case OV_PORT_S:
        snprintf(buf, cap, "%s%s%s.%s", in, dot, c->ports[x->def].name,
                 fl_domain_info(fl_port_domain(&c->ports[x->def]))->pos);
        break;
    case OV_PORT_F:
        snprintf(buf, cap, "%s%s%s.%s", in, dot, c->ports[x->def].name,
                 fl_domain_info(fl_port_domain(&c->ports[x->def]))->flow);
        break;
    case OV_BLOCK_OUT:
    case OV_INPUT: {
        const fl_port_def *pd = &c->ports[x->def];
        int q = x->kind == OV_INPUT ? x->index - (fl_port_sig(ir, x->def) - ir->in0) : x->index;
        if (pd->width == 0) snprintf(buf, cap, "%s.%s", in, pd->name);
        else snprintf(buf, cap, "%s.%s[%d]", in, pd->name, q + 1);
        break;
    }
    default: snprintf(buf, cap, "%s", energy_names[x->index]); break;
    }
}

static const char *var_unit(const fl_system *s, int v)
{
    fl_var xv = fl_system_var(s, v);
    const fl_var *x = &xv;
    if (x->kind == OV_ENERGY) return "J";
    const fl_class *c = s->insts[x->inst].cls;
    const char *u;
    switch (x->kind) {
    case OV_CLASS: u = c->vars[x->def].unit; break;
    case OV_PORT_S: u = fl_domain_info(fl_port_domain(&c->ports[x->def]))->pos_unit; break;
    case OV_PORT_F: u = fl_domain_info(fl_port_domain(&c->ports[x->def]))->flow_unit; break;
    case OV_BLOCK_OUT:
    case OV_INPUT: u = c->ports[x->def].unit; break;
    default: u = "J"; break;
    }
    return u ? u : "";
}

int fl_system_var_on_request(const fl_system *s, int i)
{
    return s && i >= 0 && i < s->nvars ? fl_system_var(s, i).on_request : 0;
}

void fl_system_free(fl_system *s)
{
    if (!s) return;
    for (int i = 0; i < s->nfiles; i++) free(s->files[i]);
    free(s->files);
    for (int i = 0; i < s->ninst; i++) fl_class_release(s->insts[i].cls);
    free(s->inst_names);
    free(s->inst_loc);
    free(s->insts);
    free(s->ports);
    free(s->contrib);
    free(s->par);
    free(s->par_fixed);
    for (int i = 0; i < s->narrays; i++) fl_value_free(&s->arrays[i]);
    free(s->arrays);
    free(s->nodes);
    fl_node_names_free(s, s->node_names);
    free(s->bodies);
    free(s->links);
    free(s->elim);
    free(s->roots);
    free(s->drvs);
    free(s->elems);
    free(s->cons);
    free(s->con_node);
    free(s->con_coef);
    free(s->elem_node);
    free(s->elem_frow);
    free(s->att_body);
    free(s->egroups);
    free(s->sigs);
    free(s->blocks);
    free(s->dpos);
    free(s->nominal);
    free(s->unk_names);
    free(s->unk_name);
    free(s->unk_hint);
    free(s->jent);
    free(s->jrule);
    free(s->jpat_col);
    fl_groups_free(s);
    fl_csc_free(&s->jpat);
    fl_csc_free(&s->ipat);
    fl_csc_free(&s->rpat);
    fl_arena_free(s->cond_text);
    free(s->cond_labels);
    free(s->conds);
    free(s->idle);
    free(s->rconds);
    free(s->cond_used);
    free(s->cslot);
    free(s->ccoef);
    free(s->ientry);
    free(s->var_names);
    free(s->var_name);
    fl_names_free(&s->inst_index);
    for (int i = 0; s->inst_vars && i < s->ninst; i++) fl_map_free(&s->inst_vars[i]);
    free(s->inst_vars);
    pthread_mutex_destroy(&s->index_lock);
    fl_mparams_free(s->mparams, s->nmparams);
    free(s->name);
    free(s);
}

/* The conditions a run reads (see fl_system.rconds), in their order, as
 * it reads them, with their labels in one buffer (the text of all
 * conditions' labels goes): big models have several conditions per
 * component, mostly start values that nothing fixed. */
static void keep_run_conds(fl_system *s)
{
    int *to = fl_xcalloc((size_t)(s->ncond ? s->ncond : 1), sizeof(int)); /* new index, -1: dropped */
    for (int k = 0; k < s->ncond_used; k++) to[s->cond_used[k]] = 1;
    size_t len = 0;
    int n = 0;
    for (int k = 0; k < s->ncond; k++) {
        const fl_cond *c = &s->conds[k];
        to[k] = to[k] || c->weak == 0 || c->guess || c->filled ? n++ : -1;
        if (to[k] >= 0) len += strlen(c->label) + 1;
    }
    /* (label_at is 32 bits: labels of 4 GB would take conditions of 16 GB to compile first) */
    char *buf = fl_xmalloc(len ? len : 1), *p = buf;
    fl_rcond *rc = fl_xmalloc(sizeof(fl_rcond) * (size_t)(n ? n : 1));
    for (int k = 0; k < s->ncond; k++) {
        const fl_cond *c = &s->conds[k];
        if (to[k] < 0) continue;
        size_t l = strlen(c->label) + 1;
        memcpy(p, c->label, l);
        fl_rcond r = {.offset = c->offset, .value = c->value, .node_p = c->node_p, .node_m = c->node_m,
                      .ref = c->source == CV_INPUT ? c->sig : c->elem, .row = c->row,
                      .label_at = (uint32_t)(p - buf), .level = (unsigned)c->level & 3,
                      .source = (unsigned)c->source & 3, .weak = (unsigned)c->weak & 3, .guess = c->guess != 0,
                      .filled = c->filled != 0};
        p += l;
        rc[to[k]] = r;
    }
    fl_arena_free(s->cond_text);
    s->cond_text = NULL;
    free(s->conds);
    s->conds = NULL;
    free(s->idle); /* (start values nobody gave: a run reads none) */
    s->idle = NULL;
    s->nidle = 0;
    int identity = 1;
    for (int k = 0; k < s->ncond_used; k++) {
        s->cond_used[k] = to[s->cond_used[k]];
        identity &= s->cond_used[k] == k;
    }
    if (identity) { /* (every condition a run keeps is in the initialisation system, in order) */
        free(s->cond_used);
        s->cond_used = NULL;
    }
    s->ncond = n;
    s->cond_labels = buf;
    s->rconds = rc;
    free(to);
}

/* What only the compile stages read goes once every stage has run (keep
 * this call after the last of them): the column of each slot of the
 * Jacobian's pattern (fl_jent_col: fl_compile_init builds the
 * initialisation pattern from the entries' rows and columns), the
 * node names of the messages (fl_system_describe builds its own). The
 * heap that compiling freed is kept: a simulation made next builds its
 * arrays in those pages instead of fresh ones, and a run of a big model
 * gives back what is still free before its integrator's matrix and
 * factors are made (fl_run_start_ida). */
static void drop_compile_only(fl_system *s)
{
    free(s->jpat_col);
    s->jpat_col = NULL;
    fl_node_names_free(s, s->node_names);
    s->node_names = NULL;
}

static void system_cleanup(void *s)
{
    fl_system_free(s);
}

/* Compiling m; with take (fl_compile_and_free, m is then not const) the
 * parts of m go as soon as they are read: a big model and its system are
 * then not held in full at once, and the stages after the structure reuse
 * the model's memory instead of touching new pages (which on some machines
 * costs more than the work done in them). */
static fl_system *compile_model(const fl_model *m, fl_model *take, fl_diag *d);
static fl_system *compile_taking(fl_model *m, fl_diag *d);

FL_GUARDED(fl_system *, fl_compile, (const fl_model *m, fl_diag *d), (m, d), NULL, d)
{
    return compile_model(m, NULL, d);
}

FL_GUARDED(fl_system *, compile_taking, (fl_model *m, fl_diag *d), (m, d), NULL, d)
{
    return compile_model(m, m, d);
}

fl_system *fl_compile_and_free(fl_model *m, fl_diag *d)
{
    if (!m) return NULL;
    fl_system *s = compile_taking(m, d);
    fl_model_free(m); /* what compiling left of it; also after a failure */
    return s;
}

static fl_system *compile_model(const fl_model *m, fl_model *take, fl_diag *d)
{
    if (!m) return NULL;
    int errors_before = fl_diag_errors(d);
    int strict = m->strict_init;
    if (take) fl_model_release(take, FL_MREL_INDEX);
    fl_system *s = fl_xcalloc(1, sizeof *s);
    pthread_mutex_init(&s->index_lock, NULL);
    fl_cleanup cl; /* out of memory: the system so far is freed (counts are set with their arrays) */
    fl_cleanup_push(&cl, system_cleanup, s);
    s->name = fl_xstrdup(m->name);
    s->exp = fl_model_experiment(m);
    s->mparams = fl_mparams_copy(m->mparams, m->nmparams);
    s->nmparams = m->nmparams;
    size_t nlen = 0;
    for (size_t i = 0; i < m->insts.n; i++) nlen += strlen(m->insts.v[i].name) + 1;
    if (nlen > UINT32_MAX) { /* (an instance finds its name by a 32-bit offset) */
        fl_err(d, fl_noloc, "the model is too large: its instances' names take %zu bytes (at most %u)", nlen,
               (unsigned)UINT32_MAX);
        fl_cleanup_pop(&cl);
        fl_system_free(s);
        return NULL;
    }
    s->insts = fl_xcalloc(m->insts.n ? m->insts.n : 1, sizeof(fl_inst_rt));
    s->inst_names = fl_xmalloc(nlen ? nlen : 1); /* the names in one block */
    char *np = s->inst_names;
    s->ninst = (int)m->insts.n;
    for (int i = 0; i < s->ninst; i++) {
        s->insts[i].cls = m->insts.v[i].cls;
        fl_class_retain(s->insts[i].cls); /* classes made from user equations outlive the model */
        size_t l = strlen(m->insts.v[i].name) + 1;
        memcpy(np, m->insts.v[i].name, l);
        s->insts[i].name_at = (uint32_t)(np - s->inst_names);
        np += l;
        if (m->insts.v[i].loc.file && !s->inst_loc) s->inst_loc = fl_xcalloc((size_t)s->ninst, sizeof(fl_loc));
        if (s->inst_loc) s->inst_loc[i] = fl_system_loc(s, m->insts.v[i].loc);
        s->insts[i].elem = s->insts[i].drv = -1;
    }
    int rc = fl_compile_params(s, m, d);
    if (take) fl_model_release(take, FL_MREL_PARS);
    if (!rc) rc = fl_compile_structure(s, m, take, d);
    if (take) fl_model_release(take, FL_MREL_PARTS);
    if (!rc) rc = fl_compile_layout(s, d);
    for (int g = 0; !rc && g < s->negroups; g++) {
        const fl_elem_ops *ops = s->egroups[g].ops;
        for (int j = 0; j < fl_ops_natt(ops); j++)
            if (fl_ops_uses_column(ops, 3 * j + 2)) s->uses_accel = 1;
    }
    if (!rc) rc = fl_compile_init(s, strict, d);
    if (!rc) fl_params_share(s);
    if (!rc && fl_diag_errors(d) == errors_before) fl_compile_vars(s);
    if (!rc && fl_diag_errors(d) == errors_before) fl_compile_groups(s);
    fl_csc_drop_diagonal(&s->rpat); /* (the groups have sliced it) */
    if (!rc && fl_diag_errors(d) == errors_before) keep_run_conds(s);
    fl_cleanup_pop(&cl);
    if (rc || fl_diag_errors(d) > errors_before) {
        fl_system_free(s);
        return NULL;
    }
    s->linsolver = s->n > FL_KLU_THRESHOLD ? FL_SOLVER_KLU : FL_SOLVER_DENSE;
    for (int i = 0; i < s->nblocks && !s->has_time_events; i++) s->has_time_events = 1;
    drop_compile_only(s);
    return s;
}

int fl_system_nvars(const fl_system *s)
{
    return s ? s->nvars : 0;
}

/* The name table, built on first use under the system's lock. The build
 * runs under a recovery point of its own (an allocation failure must not
 * leave the lock held) and publishes the table only when complete. */
static void build_var_names(void *arg)
{
    fl_system *w = arg;
    fl_buf names = {0};
    fl_cleanup cl;
    fl_cleanup_push(&cl, fl_buf_cleanup, &names);
    char tmp[512];
    size_t *ofs = fl_xmalloc(sizeof(size_t) * (size_t)w->nvars);
    for (int v = 0; v < w->nvars; v++) {
        fl_var_name_into(w, v, tmp, sizeof tmp);
        ofs[v] = names.n;
        fl_buf_addn(&names, tmp, strlen(tmp) + 1);
    }
    const char **p = fl_xmalloc(sizeof(char *) * (size_t)w->nvars);
    fl_cleanup_pop(&cl);
    w->var_names = fl_buf_take(&names);
    for (int v = 0; v < w->nvars; v++) p[v] = w->var_names + ofs[v];
    free(ofs);
    w->var_name = p;
}

void fl_system_once(const fl_system *s, int (*ready)(const fl_system *s), void (*build)(void *w))
{
    fl_system *w = (fl_system *)s;
    pthread_mutex_lock(&w->index_lock);
    fl_guard g;
    int failed = !ready(s) && fl_guard_try(&g, build, w);
    pthread_mutex_unlock(&w->index_lock);
    if (failed) fl_guard_rethrow(&g);
}

static int var_names_ready(const fl_system *s)
{
    return s->var_name != NULL;
}

FL_GUARDED(const char *, fl_system_var_name, (const fl_system *s, int i), (s, i), NULL, NULL)
{
    if (!s || i < 0 || i >= s->nvars) return NULL;
    fl_system_once(s, var_names_ready, build_var_names); /* the names are built on first use */
    return s->var_name[i];
}

const char *fl_system_var_unit(const fl_system *s, int i)
{
    return s && i >= 0 && i < s->nvars ? var_unit(s, i) : NULL;
}

/* For the descriptions of MAT results (output/select.h). */
const char *fl_system_var_desc(const fl_system *s, int i)
{
    if (!s || i < 0 || i >= s->nvars) return "";
    fl_var xv = fl_system_var(s, i);
    const fl_var *x = &xv;
    if (x->kind == OV_ENERGY) return "energy audit total";
    const fl_class *c = s->insts[x->inst].cls;
    const char *t = x->kind == OV_CLASS ? c->vars[x->def].desc : NULL;
    return t ? t : "";
}

/* 4 bytes an instance for numbered names (util/names.c); a failure leaves
 * no half-built index */
static void names_cleanup(void *arg)
{
    fl_names_free(arg);
}

static void build_inst_index(void *arg)
{
    fl_system *w = arg;
    fl_cleanup cl;
    fl_cleanup_push(&cl, names_cleanup, &w->inst_index);
    for (int i = 0; i < w->ninst; i++) /* a name given twice: the last one */
        fl_names_put(&w->inst_index, fl_inst_name(w, i), strlen(fl_inst_name(w, i)), i);
    fl_cleanup_pop(&cl);
    w->inst_index_built = 1;
}

static int inst_index_ready(const fl_system *s)
{
    return s->inst_index_built || !s->ninst;
}

int fl_system_inst_index(const fl_system *s, const char *name, size_t len)
{
    fl_system_once(s, inst_index_ready, build_inst_index); /* built on first use (as the names above) */
    return s->inst_index_built ? fl_names_get(&s->inst_index, name, len) : -1;
}

int fl_system_param(const fl_system *s, const char *name, int *inst)
{
    const char *dot = name ? strrchr(name, '.') : NULL;
    int i = dot ? fl_system_inst_index(s, name, (size_t)(dot - name)) : -1;
    int k = i >= 0 ? fl_class_param(s->insts[i].cls, dot + 1) : -1;
    if (k < 0 && name && *name) {
        /* the top-level equations' instance holds the parameters they read
         * by their full names ("c", "sub.p"; "fmu_model.c" in a wrapper) */
        int t = fl_system_inst_index(s, "", 0);
        int kt = t >= 0 ? fl_class_param(s->insts[t].cls, name) : -1;
        if (kt >= 0) {
            i = t;
            k = kt;
        }
    }
    *inst = i;
    return k;
}

/* A variable of instance i by its full name: a scan of its variables, or
 * for an instance of many (the equations of a big model) a map of them
 * built on first use. */
enum { INST_SCAN_MAX = 64 };

typedef struct inst_map_job {
    fl_system *s;
    int inst;
} inst_map_job;

static void build_inst_vars(void *arg)
{
    inst_map_job *j = arg;
    fl_system *s = j->s;
    if (!s->inst_vars) s->inst_vars = fl_xcalloc((size_t)s->ninst, sizeof(fl_map));
    int end = fl_inst_vars_end(s, j->inst);
    fl_map m = {0};
    fl_cleanup cl;
    fl_cleanup_push(&cl, fl_map_cleanup, &m);
    char tmp[512];
    for (int v = s->insts[j->inst].var0; v < end; v++) {
        fl_var_name_into(s, v, tmp, sizeof tmp);
        fl_map_put(&m, tmp, v);
    }
    fl_cleanup_pop(&cl);
    s->inst_vars[j->inst] = m;
}

static int inst_var_lookup(const fl_system *s, int i, const char *name)
{
    int end = fl_inst_vars_end(s, i);
    if (end - s->insts[i].var0 <= INST_SCAN_MAX) {
        char tmp[512];
        for (int v = s->insts[i].var0; v < end; v++) {
            fl_var_name_into(s, v, tmp, sizeof tmp);
            if (strcmp(tmp, name) == 0) return v;
        }
        return -1;
    }
    fl_system *w = (fl_system *)s;
    inst_map_job j = {w, i};
    pthread_mutex_lock(&w->index_lock);
    fl_guard g;
    int failed = !(w->inst_vars && w->inst_vars[i].n) && fl_guard_try(&g, build_inst_vars, &j);
    pthread_mutex_unlock(&w->index_lock);
    if (failed) fl_guard_rethrow(&g);
    return fl_map_get(&w->inst_vars[i], name);
}

FL_GUARDED(int, fl_system_var_index, (const fl_system *s, const char *name), (s, name), -1, NULL)
{
    if (!s || !name) return -1;
    /* the instance is a prefix of the name that ends at a dot, or the
     * empty name (the equations of the model itself): look among its
     * variables only */
    for (const char *dot = strrchr(name, '.'); ; ) {
        int i = fl_system_inst_index(s, name, dot ? (size_t)(dot - name) : 0);
        if (i >= 0) {
            int v = inst_var_lookup(s, i, name);
            if (v >= 0) return v;
        }
        if (!dot) break;
        /* the previous dot */
        const char *p = dot;
        dot = NULL;
        while (p > name) {
            p--;
            if (*p == '.') {
                dot = p;
                break;
            }
        }
    }
    for (int v = s->energy_var0; v >= 0 && v < s->nvars; v++)
        if (strcmp(energy_names[v - s->energy_var0], name) == 0) return v;
    return -1;
}

FL_GUARDED(int, fl_system_motion_vars, (const fl_system *s, const char **names, int max), (s, names, max), 0, NULL)
{
    int n = 0;
    if (!s) return 0;
    /* position then velocity of every component that carries mass (or inertia) */
    for (int level = 0; level < 2; level++)
        for (int k = 0; k < s->nlinks; k++) {
            if (!(s->links[k].m > 0)) continue;
            const char *inst = fl_inst_name(s, s->links[k].inst);
            int na = s->links[k].node_a;
            const fl_domain_names *dn = fl_domain_info(na >= 0 ? s->nodes[na].dom : FL_DOM_TRANS);
            char *name = fl_xsprintf("%s.%s", inst, level ? dn->vel : dn->pos); /* mass.s, inertia.phi */
            int i = fl_system_var_index_body(s, name);
            free(name);
            if (i < 0) continue;
            int dup = 0;
            const char *nm = fl_system_var_name_body(s, i);
            for (int j = 0; j < n && !dup; j++) dup = names[j] == nm;
            if (!dup && n < max) names[n++] = nm;
        }
    return n;
}

fl_loc fl_system_loc(fl_system *s, fl_loc loc)
{
    if (!loc.file) return loc;
    for (int i = s->nfiles - 1; i >= 0; i--)
        if (strcmp(s->files[i], loc.file) == 0) {
            loc.file = s->files[i];
            return loc;
        }
    s->files = fl_xrealloc(s->files, sizeof(char *) * (size_t)(s->nfiles + 1));
    s->files[s->nfiles] = fl_xstrdup(loc.file);
    loc.file = s->files[s->nfiles++];
    return loc;
}
