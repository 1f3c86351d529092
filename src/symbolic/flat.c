/* flat.c - building clusters of user equations (see flat.h). */
#include "flat.h"

#include <stdlib.h>
#include <string.h>

void fl_fc_init(fl_fcluster *c)
{
    memset(c, 0, sizeof *c);
    fl_sg_init(&c->g);
    c->names = fl_arena_new();
}

void fl_fc_free(fl_fcluster *c)
{
    if (!c) return;
    fl_sg_free(&c->g);
    FL_VEC_FREE(c->vars);
    FL_VEC_FREE(c->eqs);
    FL_VEC_FREE(c->ieqs);
    for (size_t i = 0; i < c->whens.n; i++) {
        free(c->whens.v[i].conds);
        free(c->whens.v[i].body);
    }
    FL_VEC_FREE(c->whens);
    FL_VEC_FREE(c->asserts);
    if (c->names) fl_arena_free(c->names);
    memset(c, 0, sizeof *c);
}

int fl_fc_add_var(fl_fcluster *c, const char *name, fl_fvk kind, fl_loc loc)
{
    fl_fvar v;
    memset(&v, 0, sizeof v);
    v.name = fl_arena_strn(c->names, name, strlen(name));
    v.kind = kind;
    v.att = v.in = v.out = -1;
    v.loc = loc;
    v.unit = "";
    v.fixed_start = FL_SX_NONE;
    FL_VEC_PUSH(c->vars, v);
    return (int)c->vars.n - 1;
}

int fl_fc_level_var(fl_fcluster *c, fl_fvk kind, int index, int level)
{
    int base = -1;
    for (size_t k = 0; k < c->vars.n; k++) {
        const fl_fvar *v = &c->vars.v[k];
        if (v->kind != kind || (kind == FVK_POS ? v->att : v->in) != index) continue;
        if (v->level == level) return (int)k;
        if (v->level == 0) base = (int)k;
    }
    static const char *const suffix[] = {"", ".der", ".der2"};
    char *name = fl_xcat(base >= 0 ? c->vars.v[base].name : "?", suffix[level > 2 ? 2 : level], (char *)NULL);
    fl_loc loc = base >= 0 ? c->vars.v[base].loc : fl_noloc;
    int k = fl_fc_add_var(c, name, kind, loc);
    free(name);
    c->vars.v[k].level = (unsigned char)level;
    if (kind == FVK_POS) c->vars.v[k].att = index;
    else c->vars.v[k].in = index;
    return k;
}

void fl_fc_add_eq(fl_fcluster *c, fl_sx lhs, fl_sx rhs, fl_loc loc, int initial)
{
    fl_feq e;
    e.res = fl_sx_sub(&c->g, lhs, rhs);
    e.var = -1;
    e.def = FL_SX_NONE;
    e.loc = loc;
    const fl_snode *l = fl_sg_node(&c->g, lhs), *r = fl_sg_node(&c->g, rhs);
    if (l->op == SX_VAR) {
        e.var = (int)l->u.k;
        e.def = rhs;
    } else if (r->op == SX_VAR) {
        e.var = (int)r->u.k;
        e.def = lhs;
    }
    if (initial) FL_VEC_PUSH(c->ieqs, e);
    else FL_VEC_PUSH(c->eqs, e);
}
