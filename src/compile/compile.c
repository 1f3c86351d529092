/* compile.c - fl_compile: runs the compile stages, owns the fl_system, and
 * builds the table of output variables. */
#include <stdlib.h>
#include <string.h>

#include "compile.h"

/* Systems with more unknowns than this use KLU (sparse LU) by default. */
#define FL_KLU_THRESHOLD 100

typedef FL_VEC(fl_var) var_vec;

static void add_var(var_vec *v, char *name, const char *unit, int inst, int kind, int index)
{
    fl_var x = {name, unit ? unit : "", inst, kind, index, kind == OV_ENERGY};
    FL_VEC_PUSH(*v, x);
}

void fl_compile_vars(fl_system *s)
{
    var_vec v = {0};
    for (int i = 0; i < s->ninst; i++) {
        fl_inst_rt *ir = &s->insts[i];
        const fl_class *c = ir->cls;
        ir->var0 = (int)v.n;
        for (int k = 0; k < c->nvars; k++)
            add_var(&v, fl_xsprintf("%s.%s", ir->name, c->vars[k].name), c->vars[k].unit, i, OV_CLASS, k);
        for (int k = 0; k < c->nports; k++) {
            const fl_port_def *pd = &c->ports[k];
            if (pd->kind == FL_PORT_OUTPUT && c->block) {
                if (pd->width == 0)
                    add_var(&v, fl_xsprintf("%s.%s", ir->name, pd->name), pd->unit, i, OV_BLOCK_OUT, 0);
                else
                    for (int q = 0; q < ir->nout; q++)
                        add_var(&v, fl_xsprintf("%s.%s[%d]", ir->name, pd->name, q + 1), pd->unit, i, OV_BLOCK_OUT, q);
            }
        }
        for (int k = 0; k < c->nports; k++) {
            const fl_port_def *pd = &c->ports[k];
            const fl_port_rt *pr = &s->ports[ir->port0 + k];
            if (pd->kind != FL_PORT_INPUT || pr->sig < 0) continue;
            if (s->sigs[pr->sig].kind == SIG_NONE) continue; /* absent conditional input */
            int w = pd->width > 0 ? pd->width : 1;
            for (int q = 0; q < w; q++) {
                char *name = pd->width > 0 ? fl_xsprintf("%s.%s[%d]", ir->name, pd->name, q + 1)
                                           : fl_xsprintf("%s.%s", ir->name, pd->name);
                add_var(&v, name, pd->unit, i, OV_INPUT, pr->sig - ir->in0 + q);
            }
        }
        for (int k = 0; k < c->nports; k++) {
            const fl_port_def *pd = &c->ports[k];
            if (pd->kind != FL_PORT_FLANGE || s->ports[ir->port0 + k].node < 0) continue;
            add_var(&v, fl_xsprintf("%s.%s.s", ir->name, pd->name), "m", i, OV_PORT_S, k);
            add_var(&v, fl_xsprintf("%s.%s.f", ir->name, pd->name), "N", i, OV_PORT_F, k);
        }
    }
    /* the energy audit, written on request */
    static const char *const enames[] = {"energy.kinetic", "energy.potential", "energy.dissipated", "energy.work",
                                         "energy.drift"};
    s->energy_var0 = (int)v.n;
    for (int k = 0; k < 5; k++) add_var(&v, fl_xstrdup(enames[k]), "J", 0, OV_ENERGY, k);
    s->vars = v.v;
    s->nvars = (int)v.n;
}

int fl_system_var_on_request(const fl_system *s, int i)
{
    return s && i >= 0 && i < s->nvars ? s->vars[i].on_request : 0;
}

void fl_system_free(fl_system *s)
{
    if (!s) return;
    for (int i = 0; i < s->ninst; i++) free(s->insts[i].name);
    free(s->insts);
    free(s->ports);
    free(s->contrib);
    free(s->par);
    for (int i = 0; i < s->narrays; i++) fl_value_free(&s->arrays[i]);
    free(s->arrays);
    free(s->nodes);
    for (int i = 0; i < s->nnodes; i++) free(s->node_names ? s->node_names[i] : NULL);
    free(s->node_names);
    free(s->bodies);
    free(s->links);
    free(s->elim);
    free(s->roots);
    free(s->drvs);
    free(s->elems);
    free(s->elem_node);
    free(s->elem_frow);
    free(s->egroups);
    free(s->sigs);
    free(s->blocks);
    free(s->id);
    free(s->dpos);
    free(s->nominal);
    for (int i = 0; i < s->n; i++) free(s->unk_name ? s->unk_name[i] : NULL);
    free(s->unk_name);
    free(s->unk_hint);
    free(s->jent);
    free(s->jent_rc);
    fl_csc_free(&s->jpat);
    fl_csc_free(&s->ipat);
    fl_csc_free(&s->rpat);
    for (int i = 0; i < s->ncond; i++) free(s->conds[i].label);
    free(s->conds);
    free(s->cond_used);
    free(s->centry);
    for (int i = 0; i < s->nvars; i++) free(s->vars[i].name);
    free(s->vars);
    free(s->name);
    free(s);
}

fl_system *fl_compile(const fl_model *m, fl_diag *d)
{
    if (!m) return NULL;
    int errors_before = fl_diag_errors(d);
    fl_system *s = fl_xcalloc(1, sizeof *s);
    s->name = fl_xstrdup(m->name);
    s->exp = fl_model_experiment(m);
    s->ninst = (int)m->insts.n;
    s->insts = fl_xcalloc((size_t)(s->ninst ? s->ninst : 1), sizeof(fl_inst_rt));
    for (int i = 0; i < s->ninst; i++) {
        s->insts[i].cls = m->insts.v[i].cls;
        s->insts[i].name = fl_xstrdup(m->insts.v[i].name);
        s->insts[i].loc = m->insts.v[i].loc;
        s->insts[i].elem = s->insts[i].drv = -1;
    }
    int rc = fl_compile_params(s, m, d);
    if (!rc) rc = fl_compile_structure(s, m, d);
    if (!rc) rc = fl_compile_layout(s, d);
    if (!rc) rc = fl_compile_init(s, d);
    if (rc || fl_diag_errors(d) > errors_before) {
        fl_system_free(s);
        return NULL;
    }
    fl_compile_vars(s);
    s->linsolver = s->n > FL_KLU_THRESHOLD ? FL_SOLVER_KLU : FL_SOLVER_DENSE;
    for (int i = 0; i < s->nblocks && !s->has_time_events; i++) s->has_time_events = 1;
    return s;
}

int fl_system_nvars(const fl_system *s)
{
    return s ? s->nvars : 0;
}

const char *fl_system_var_name(const fl_system *s, int i)
{
    return s && i >= 0 && i < s->nvars ? s->vars[i].name : NULL;
}

const char *fl_system_var_unit(const fl_system *s, int i)
{
    return s && i >= 0 && i < s->nvars ? s->vars[i].unit : NULL;
}

int fl_system_var_index(const fl_system *s, const char *name)
{
    if (!s || !name) return -1;
    for (int i = 0; i < s->nvars; i++)
        if (strcmp(s->vars[i].name, name) == 0) return i;
    return -1;
}

int fl_system_motion_vars(const fl_system *s, const char **names, int max)
{
    int n = 0;
    if (!s) return 0;
    /* position then velocity of every component that carries mass */
    for (int level = 0; level < 2; level++)
        for (int k = 0; k < s->nlinks; k++) {
            if (!(s->links[k].m > 0)) continue;
            const char *inst = s->insts[s->links[k].inst].name;
            char *name = fl_xsprintf("%s.%s", inst, level ? "v" : "s");
            int i = fl_system_var_index(s, name);
            free(name);
            if (i < 0) continue;
            int dup = 0;
            for (int j = 0; j < n && !dup; j++) dup = names[j] == s->vars[i].name;
            if (!dup && n < max) names[n++] = s->vars[i].name;
        }
    return n;
}
