/* user.c - the generic element class of components written as equations
 * (see user.h). Its callbacks run the programs of symbolic/lower.h:
 * inputs are loaded from the element's view (attachments, own unknowns,
 * inputs, kept discrete values, parameters, time) into a register file,
 * batches of elements of one class at a time, and the roots are written
 * back as forces, residuals, Jacobian values, root functions, or handled
 * as event updates (relations, discrete definitions, when-equations with
 * reinit, assert and terminate). */
#include "user.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "symbolic/func_rt.h"
#include "util/util.h"

struct fl_uclass {
    fl_class cls;
    fl_elem_ops ops;
    fl_drv_ops drv;
    fl_port_def *ports;
    fl_port_ext *pext;
    fl_param_def *params;
    fl_var_def *vars;
    fl_arena *strs;        /* names owned by the class */
    fl_ucls *u;
    fl_ulow L;
    fl_ufuncs *funcs;      /* the functions its programs call (held), NULL */
    fl_map pindex, vindex; /* parameters and variables by name */
    fl_loc *var_locs, *own_locs; /* declarations, with file names the class owns */
    atomic_int refs;
    int *cls_of_var;       /* cluster variable -> class variable, -1 */
    int *var_of_cls;
    int *disc_start_par;   /* per discrete slot */
    unsigned char *disc_when; /* per discrete slot: assigned by a when-equation (not defined by an equation) */
    int *own_diff;         /* per own unknown (the element's own_diff) */
    uint64_t *dep0;        /* dense masks of an element without dependencies */
    /* discrete Real states of an element: [relations][discrete slots][when conditions]
     * [the time of the last event][pre() of the discrete slots][their values at the
     * start of the last pass][each relation's a - b in the first pass of that event] */
    int rs_disc, rs_wcond, rs_tev, rs_dpre, rs_dlast, rs_g0;
    char **own_names;
    /* per class variable that is a kinematic quantity: level, attachments
     * (+, -) and its offset as an expression of parameters */
    struct ukin {
        int level, ap, am;
        fl_sx offset;
    } *kin;
    int maxreg;
};

static const fl_uclass *uc_of(const fl_elem *e)
{
    return e->user;
}

static char *own_str(fl_uclass *c, const char *s)
{
    if (!c->strs) c->strs = fl_arena_new();
    if (!s) s = "";
    return fl_arena_strn(c->strs, s, strlen(s));
}

/* ---- registers ----------------------------------------------------------------- */

/* A register file per thread, grown as needed (simulations run on several
 * threads; one file serves every class, programs run one after another). */
static pthread_key_t reg_key;
static pthread_once_t reg_once = PTHREAD_ONCE_INIT;

typedef struct regfile {
    double *r;
    size_t cap;
    fl_ufunc_rt rt; /* calls of user functions from the programs */
} regfile;

static void reg_free(void *p)
{
    regfile *f = p;
    if (f) {
        free(f->r);
        fl_ufunc_rt_free(&f->rt);
    }
    free(f);
}

static atomic_int reg_made;

static void reg_init(void)
{
    if (pthread_key_create(&reg_key, reg_free) == 0) atomic_store(&reg_made, 1);
}

void fl_user_regs_shutdown(void)
{
    if (!atomic_exchange(&reg_made, 0)) return;
    reg_free(pthread_getspecific(reg_key));
    pthread_setspecific(reg_key, NULL);
    pthread_key_delete(reg_key);
}

static regfile *this_regfile(void)
{
    pthread_once(&reg_once, reg_init);
    regfile *f = pthread_getspecific(reg_key);
    if (!f) {
        f = fl_xcalloc(1, sizeof *f);
        pthread_setspecific(reg_key, f);
    }
    return f;
}

static double *registers(size_t n)
{
    regfile *f = this_regfile();
    if (f->cap < n) {
        free(f->r);
        f->cap = n + n / 2 + 64;
        f->r = fl_xmalloc(sizeof(double) * f->cap);
    }
    return f->r;
}

#define UB 64 /* elements per batch */

/* ---- calls of user functions -------------------------------------------------------- */

/* ex (zeroed by the caller or filled for the event program) with the
 * function calls of class c; the thread's call state starts afresh (its
 * remembered evaluations are kept: they name the function set they belong
 * to, and a function gives the same outputs at the same arguments). */
static const fl_sexec *with_calls(const fl_uclass *c, fl_sexec *ex)
{
    if (!c->funcs) return ex;
    regfile *f = this_regfile();
    f->rt.r = c->funcs;
    f->rt.failed = 0;
    ex->call = fl_ufunc_scall;
    ex->call_ctx = &f->rt;
    return ex;
}

/* After a run: a function that failed leaves its message in buf (the
 * first one since buf was emptied), for the failure it causes (the values
 * it gave are NaN). */
static void call_failures_to(const fl_uclass *c, char *buf, int *fatal)
{
    if (!c->funcs) return;
    regfile *f = this_regfile();
    if (!f->rt.failed) return;
    if (f->rt.err.fatal && fatal && !*fatal) { /* this message, whatever came before */
        *fatal = 1;
        if (buf) buf[0] = '\0';
    }
    if (buf && !buf[0])
        snprintf(buf, FL_ERRLEN, "%s:%d:%d: %s", f->rt.err.loc.file ? f->rt.err.loc.file : "?", f->rt.err.loc.line,
                 f->rt.err.loc.col, f->rt.err.msg);
    f->rt.failed = 0;
}

static void call_failures(const fl_uclass *c, const fl_ectx *x)
{
    call_failures_to(c, x ? x->func_err : NULL, x ? x->func_fatal : NULL);
}

/* ---- the element's view ---------------------------------------------------------- */

static double att_level(const fl_ectx *x, const fl_elem *e, int att, int level)
{
    return level == 0 ? fl_att_s(x, e, att) : level == 1 ? fl_att_v(x, e, att) : fl_att_a(x, e, att);
}

static double src_ectx(const fl_uclass *c, const fl_ectx *x, const fl_elem *e, int src, int idx)
{
    switch ((fl_usrc)src) {
    case US_KIN: return att_level(x, e, idx / 3, idx % 3);
    case US_IN: {
        int k = e->sig + idx / 3, o = idx % 3;
        return o == 0 ? x->u[k] : o == 1 ? x->du[k] : x->ddu[k];
    }
    case US_Y: return x->y[e->own + idx];
    case US_YP: return x->yp[e->own + idx];
    case US_DISC: return x->rs[e->rs + c->rs_disc + idx];
    case US_DPRE: return x->rs[e->rs + c->rs_dpre + idx];
    case US_REL: return x->rs[e->rs + idx];
    case US_PAR: return x->par[e->pofs + idx];
    case US_TIME: return x->t;
    case US_INIT: return idx < 0 ? 0 : x->initial;
    case US_TERM: return idx < 0 ? 0 : x->terminal;
    case US_PF: return 0;
    }
    return 0;
}

/* Load the inputs of program p for elements e[0..n) into reg (batch B).
 * The kinds every element reads (its attachments' motion, its parameters)
 * are looped over with the kind decided once, not once per element: a big
 * model of user components spends its evaluation here. */
static void load_ectx(const fl_uclass *c, const fl_sprog *p, double *reg, int B, const fl_ectx *x, const fl_elem *e,
                      int n)
{
    fl_sprog_consts(p, reg, B, n);
    for (int l = 0; l < p->nld; l++) {
        const fl_sload *ld = &p->ld[l];
        double *dst = reg + (size_t)ld->reg * (size_t)B;
        int idx = ld->idx;
        switch ((fl_usrc)ld->src) {
        case US_KIN:
            for (int i = 0; i < n; i++) dst[i] = att_level(x, &e[i], idx / 3, idx % 3);
            break;
        case US_PAR:
            for (int i = 0; i < n; i++) dst[i] = x->par[e[i].pofs + idx];
            break;
        default:
            for (int i = 0; i < n; i++) dst[i] = src_ectx(c, x, &e[i], ld->src, idx);
            break;
        }
    }
}

static double out(const fl_sprog *p, const double *reg, int B, int root, int i)
{
    return reg[(size_t)p->out[root] * (size_t)B + (size_t)i];
}

/* ---- continuous evaluation ---------------------------------------------------------- */

static void u_eval(fl_ectx *x, const fl_elem *e, int n)
{
    const fl_uclass *c = uc_of(e);
    const fl_ulow *L = &c->L;
    const fl_sprog *p = x->want_jac ? &L->jac : &L->cont;
    double *reg = registers((size_t)p->nreg * UB);
    int na = L->natt, nown = L->nown;
    for (int i0 = 0; i0 < n; i0 += UB) {
        int m = n - i0 < UB ? n - i0 : UB;
        load_ectx(c, p, reg, UB, x, e + i0, m);
        fl_sexec ex = {0};
        fl_sprog_run(p, reg, UB, m, with_calls(c, &ex));
        call_failures(c, x);
        for (int i = 0; i < m; i++) {
            const fl_elem *el = &e[i0 + i];
            for (int a = 0; a < na; a++) x->f[fl_att_slot(el, a)] = out(p, reg, UB, a, i);
            for (int k = 0; k < nown; k++) x->res[el->own + k] = out(p, reg, UB, na + k, i);
            if (x->want_jac)
                for (int d = 0; d < L->ndep; d++) x->jloc[el->jofs + d] = out(p, reg, UB, na + nown + d, i);
        }
    }
}

static void u_roots(const fl_ectx *x, const fl_elem *e, int n, double *g)
{
    const fl_uclass *c = uc_of(e);
    const fl_sprog *p = &c->L.roots;
    if (!p->nout) return;
    double *reg = registers((size_t)p->nreg * UB);
    for (int i0 = 0; i0 < n; i0 += UB) {
        int m = n - i0 < UB ? n - i0 : UB;
        load_ectx(c, p, reg, UB, x, e + i0, m);
        fl_sexec ex = {0};
        fl_sprog_run(p, reg, UB, m, with_calls(c, &ex));
        call_failures(c, x);
        for (int i = 0; i < m; i++)
            for (int k = 0; k < p->nout; k++) g[e[i0 + i].root + k] = out(p, reg, UB, k, i);
    }
}

/* ---- events ----------------------------------------------------------------------------- */

/* Thresholds of the time events (t_at[r], NAN where none), crossing
 * directions (t_dir) and sample start/interval pairs. */
static void times(const fl_uclass *c, const double *par, const fl_elem *e, double *vals)
{
    const fl_sprog *p = &c->L.times;
    double *reg = registers((size_t)p->nreg + 1);
    fl_sprog_consts(p, reg, 1, 1);
    for (int l = 0; l < p->nld; l++) reg[p->ld[l].reg] = p->ld[l].src == US_PAR ? par[e->pofs + p->ld[l].idx] : 0;
    fl_sexec ex = {0};
    fl_sprog_run(p, reg, 1, 1, with_calls(c, &ex));
    call_failures(c, NULL);
    for (int k = 0; k < p->nout; k++) vals[k] = reg[p->out[k]];
}

static double u_next_time_event(const double *par, const fl_elem *e, double t)
{
    const fl_uclass *c = uc_of(e);
    const fl_ulow *L = &c->L;
    int nt = L->times.nout;
    double small[64];
    double *v = nt <= 64 ? small : fl_xmalloc(sizeof(double) * (size_t)nt);
    times(c, par, e, v);
    double next = INFINITY;
    double eps = 1e-12 * fmax(1.0, fabs(t));
    for (int r = 0; r < L->nrel; r++)
        if (isfinite(v[r]) && v[r] > t + eps && v[r] < next) next = v[r];
    for (int k = 0; k < L->nsample; k++) {
        double s0 = v[2 * L->nrel + 2 * k], dt = v[2 * L->nrel + 2 * k + 1];
        if (!(dt > 0) || !isfinite(s0)) continue;
        double q = s0 > t + eps ? s0 : s0 + (floor((t - s0) / dt) + 1) * dt;
        if (q <= t + eps) q += dt;
        if (q < next) next = q;
    }
    if (v != small) free(v);
    return next;
}

/* Change the motion of attachment att (reinit of a kinematic variable):
 * its position (level 0) or velocity (1) becomes q. Velocity jumps of free
 * bodies count in the energy audit as work of the component. */
static int reinit_attachment(fl_ectx *x, const fl_elem *e, int att, int level, double q)
{
    if (level == 0) return fl_move_attachment(x, e, att, q);
    int b = fl_att_body(x, e, att);
    if (b < 0 || !x->yw) return -1;
    if (x->bvi[b] < 0 || !(x->bminv[b] > 0)) return -1;
    double v = x->yw[x->bvi[b]];
    q /= fl_att_ratio(x, e, att); /* the body's velocity */
    if (x->impulse_work) {
        double dE = 0.5 * (q * q - v * v) / x->bminv[b];
        x->impulse_work[0] += dE;
        x->impulse_work[1] += fabs(dE);
    }
    x->yw[x->bvi[b]] = q;
    return 0;
}

/* One pass of the event iteration (initial: the initialisation's pass,
 * where when-equations fire only through initial()). Returns 1 if
 * something changed, -1 on failure (assert). */
static int event_pass(fl_ectx *x, const fl_elem *e, const int *dir, int initial)
{
    const fl_uclass *c = uc_of(e);
    const fl_ulow *L = &c->L;
    const fl_sprog *p = &L->event;
    double *rs = x->rs + e->rs;
    int nrel = L->nrel;
    /* crossing directions: roots that crossed, and time events now */
    int small_dir[64];
    double small_rel[64], small_t[128];
    int *rdir = nrel <= 64 ? small_dir : fl_xmalloc(sizeof(int) * (size_t)nrel);
    double *relout = nrel <= 64 ? small_rel : fl_xmalloc(sizeof(double) * (size_t)nrel);
    int nt = L->times.nout;
    double *tv = nt <= 128 ? small_t : fl_xmalloc(sizeof(double) * (size_t)(nt ? nt : 1));
    if (nt) times(c, x->par, e, tv);
    double eps = 1e-12 * fmax(1.0, fabs(x->t));
    for (int r = 0; r < nrel; r++) {
        rdir[r] = 0;
        if (L->rel_root[r] >= 0) {
            if (dir && !initial) rdir[r] = dir[L->rel_root[r]];
        } else if (!initial && isfinite(tv[r]) && fabs(x->t - tv[r]) <= eps && fl_time_before(x, tv[r] + 2 * eps)) {
            /* at the instant of a time event: decided as just after it */
            rdir[r] = tv[nrel + r] > 0 ? 1 : -1;
        } else if (!initial && isfinite(tv[r]) && fabs(x->t - tv[r]) <= eps) {
            rdir[r] = tv[nrel + r] > 0 ? 1 : -1;
        }
        relout[r] = rs[r];
    }
    /* at a new event instant, the when-conditions' previous values are
     * their left limits (a sample() was false since the last event) */
    int first = 1;
    if (initial) {
        rs[c->rs_tev] = x->t;
        for (int k = 0; k < L->ndisc; k++) rs[c->rs_dpre + k] = rs[c->rs_disc + k];
    } else if (fabs(x->t - rs[c->rs_tev]) <= eps) {
        /* another pass at the same instant: Modelica's event iteration,
         * pre(z) becomes z. A variable a when-equation assigns is read at
         * its new value only from the pass after the one that assigned it
         * (the statements run after the pass's program), so its pre()
         * follows one pass later: change() and edge() of it still fire. */
        first = 0;
        for (int k = 0; k < L->ndisc; k++) {
            rs[c->rs_dpre + k] = c->disc_when[k] ? rs[c->rs_dlast + k] : rs[c->rs_disc + k];
            rs[c->rs_dlast + k] = rs[c->rs_disc + k];
        }
    } else {
        rs[c->rs_tev] = x->t;
        for (int k = 0; k < L->ndisc; k++) rs[c->rs_dlast + k] = rs[c->rs_dpre + k] = rs[c->rs_disc + k];
        const fl_sprog *w = &L->wleft;
        if (w->nout) {
            double *wr = registers((size_t)w->nreg + 1);
            load_ectx(c, w, wr, 1, x, e, 1);
            fl_sexec wx = {0};
            fl_sprog_run(w, wr, 1, 1, with_calls(c, &wx));
            call_failures(c, x);
            for (int k = 0; k < L->nwcond; k++) rs[c->rs_wcond + k] = wr[w->out[k]] != 0;
        }
    }
    /* evaluate: relations decided, definitions, conditions, values */
    double *reg = registers((size_t)p->nreg + 1);
    fl_ectx xi = *x;
    xi.initial = initial;
    load_ectx(c, p, reg, 1, &xi, e, 1);
    fl_sexec ex;
    memset(&ex, 0, sizeof ex);
    ex.t = x->t;
    ex.dir = rdir;
    ex.relout = relout;
    /* a crossing decides its relation as long as the relation stays where
     * the crossing left it; once a reinit or a discrete change of this
     * instant has moved it (a when-condition on a state its own reinit
     * resets), its value decides */
    if (first) ex.gout = rs + c->rs_g0;
    else ex.gref = rs + c->rs_g0;
    ex.sample_eps = x->samples_off ? -1 : 1e-9 * fmax(1.0, fabs(x->t)); /* -1: no instant is that close */
    fl_sprog_run(p, reg, 1, 1, with_calls(c, &ex));
    call_failures(c, x);
    int changed = 0, rc = 0;
    for (int r = 0; r < nrel; r++) {
        double v = reg[p->out[r]];
        if (v != rs[r]) changed = 1;
        rs[r] = v;
    }
    for (int i = 0; i < L->ndef; i++) {
        double v = reg[p->out[L->ev_def0 + i]];
        double *slot = &rs[c->rs_disc + L->def_disc[i]];
        if (v != *slot && !(isnan(v) && isnan(*slot))) changed = 1;
        *slot = v;
    }
    /* when-equations: a branch fires where one of its conditions becomes
     * true, unless an earlier branch of its chain fired */
    int last_chain = -1, chain_fired = 0;
    for (size_t w = 0; w < L->whens.n; w++) {
        const fl_uwhen *uw = &L->whens.v[w];
        if (uw->chain != last_chain) {
            last_chain = uw->chain;
            chain_fired = 0;
        }
        int edge = 0;
        for (int k = 0; k < uw->ncond; k++) {
            double cv = reg[p->out[L->ev_cond0 + uw->cond0 + k]] != 0;
            double *pre = &rs[c->rs_wcond + uw->cond0 + k];
            if (cv && *pre == 0 && (!initial || uw->at_init)) edge = 1;
            *pre = cv;
        }
        if (!edge || chain_fired) continue;
        chain_fired = 1;
        for (int s = uw->stmt0; s < uw->stmt0 + uw->nstmt && !rc; s++) {
            const fl_ustmt *st = &L->stmts.v[s];
            double v = st->val >= 0 ? reg[p->out[st->val]] : 0;
            switch (st->kind) {
            case FW_ASSIGN: {
                double *slot = &rs[c->rs_disc + st->disc];
                if (v != *slot) changed = 1;
                *slot = v;
                break;
            }
            case FW_REINIT:
                if (!x->yw) break;
                if (st->own >= 0) {
                    x->yw[e->own + st->own] = v;
                } else {
                    double coef = reg[p->out[st->coef_root]], off = reg[p->out[st->off_root]];
                    if (reinit_attachment(x, e, st->att, st->level, (v - off) / coef))
                        rc = fl_elem_fail_at(x, st->loc,
                                             "reinit() cannot change this flange's motion (it is fixed, prescribed or "
                                             "massless)");
                }
                changed = 1;
                break;
            case FW_ASSERT:
                if (v == 0) rc = fl_elem_fail_at(x, st->loc, "assertion failed: %s", st->msg ? st->msg : "");
                break;
            case FW_TERMINATE:
                if (x->terminate && !*x->terminate) {
                    *x->terminate = 1;
                    snprintf(x->term_msg, FL_ERRLEN, "%s:%d:%d: %s", st->loc.file ? st->loc.file : "?", st->loc.line,
                             st->loc.col, st->msg ? st->msg : "");
                }
                break;
            }
        }
    }
    /* a pre() the next pass would read differently: the iteration goes on */
    for (int k = 0; k < L->ndisc && !initial && !changed; k++) {
        double a = rs[c->rs_dlast + k], b = rs[c->rs_dpre + k];
        if (c->disc_when[k] && a != b && !(isnan(a) && isnan(b))) changed = 1;
    }
    for (size_t i = 0; i < L->asserts.n && !rc; i++) {
        const fl_fassert *a = &L->asserts.v[i];
        if (reg[p->out[L->ev_assert0 + (int)i]] != 0) continue;
        if (!a->warning) {
            rc = fl_elem_fail_at(x, a->loc, "assertion failed: %s", a->msg ? a->msg : "");
        } else if (x->warn && !x->warn[0]) { /* the run goes on */
            snprintf(x->warn, FL_ERRLEN, "%s%s", a->range ? "" : "assertion failed: ", a->msg ? a->msg : "");
            if (x->warn_loc) *x->warn_loc = a->loc;
            if (a->range && x->warn_elem) *x->warn_elem = e->idx;
        }
    }
    if (rdir != small_dir) free(rdir);
    if (relout != small_rel) free(relout);
    if (tv != small_t) free(tv);
    return rc ? -1 : changed;
}

static int u_event(fl_ectx *x, const fl_elem *e, const int *dir)
{
    return event_pass(x, e, dir, 0);
}

/* Discrete values at the start: start values, relations as they hold,
 * definitions and when-equations with initial() settled. */
static void u_init_modes(fl_ectx *x, const fl_elem *e)
{
    const fl_uclass *c = uc_of(e);
    const fl_ulow *L = &c->L;
    double *rs = x->rs + e->rs;
    for (int k = 0; k < L->ndisc; k++) {
        int pk = c->disc_start_par[k];
        rs[c->rs_disc + k] = pk >= 0 ? x->par[e->pofs + pk] : 0;
    }
    for (int k = 0; k < L->nwcond; k++) rs[c->rs_wcond + k] = 0;
    /* definitions that depend on each other settle in as many passes */
    for (int pass = 0; pass <= L->ndef + 1; pass++)
        if (event_pass(x, e, NULL, 1) <= 0) break;
}

/* ---- initial equations --------------------------------------------------------------------- */

static void u_init_eval(fl_ectx *x, const fl_elem *e, double *g, double *jac)
{
    const fl_uclass *c = uc_of(e);
    const fl_ulow *L = &c->L;
    const fl_sprog *p = &L->init;
    double *reg = registers((size_t)p->nreg + 1);
    load_ectx(c, p, reg, 1, x, e, 1);
    fl_sexec ex = {0};
    fl_sprog_run(p, reg, 1, 1, with_calls(c, &ex));
    call_failures(c, x);
    for (int k = 0; k < L->ninit; k++) g[k] = reg[p->out[k]];
    if (jac)
        for (int d = 0; d < L->ninit_dep; d++) jac[d] = reg[p->out[L->ninit + d]];
}

/* ---- prescribed motion ------------------------------------------------------------------------ */

static fl_drv_kind kind_pos(const double *par) { FL_UNUSED(par); return FL_DRV_POS; }
static fl_drv_kind kind_vel(const double *par) { FL_UNUSED(par); return FL_DRV_VEL; }
static fl_drv_kind kind_acc(const double *par) { FL_UNUSED(par); return FL_DRV_ACC; }

static void u_drive(const fl_drv_in *in, fl_drv_out *o)
{
    const fl_uclass *c = in->user;
    const fl_sprog *p = &c->L.drive;
    double *reg = registers((size_t)p->nreg + 1);
    fl_sprog_consts(p, reg, 1, 1);
    for (int l = 0; l < p->nld; l++) {
        const fl_sload *ld = &p->ld[l];
        double v = 0;
        switch ((fl_usrc)ld->src) {
        case US_PAR: v = in->par[ld->idx]; break;
        case US_TIME: v = in->t; break;
        case US_IN: {
            int k = ld->idx / 3, ord = ld->idx % 3;
            v = ord == 0 ? in->u[k] : ord == 1 ? in->du[k] : in->ddu[k];
            break;
        }
        default: v = 0; break;
        }
        reg[ld->reg] = v;
    }
    fl_sexec ex = {0};
    fl_sprog_run(p, reg, 1, 1, with_calls(c, &ex));
    call_failures(c, NULL);
    o->s = reg[p->out[0]];
    o->v = reg[p->out[1]];
    o->a = reg[p->out[2]];
    o->da_ds = o->da_dv = 0;
}

/* ---- outputs ---------------------------------------------------------------------------------- */

static double src_octx(const fl_uclass *c, const fl_octx *o, int src, int idx)
{
    switch ((fl_usrc)src) {
    case US_KIN: {
        int a = idx / 3, l = idx % 3;
        if (a >= c->u->fc->natt) return 0;
        return l == 0 ? o->ps[a] : l == 1 ? o->pv[a] : o->pa[a];
    }
    case US_IN: {
        int k = idx / 3, ord = idx % 3;
        return ord == 0 ? o->u[k] : ord == 1 ? o->du[k] : o->ddu[k];
    }
    case US_Y: return o->own ? o->own[idx] : NAN;
    case US_YP: return o->ownp ? o->ownp[idx] : NAN;
    case US_DISC:
    case US_DPRE: return o->rs ? o->rs[c->rs_disc + idx] : NAN;
    case US_REL: return o->rs ? o->rs[idx] : NAN;
    case US_PAR: return o->par[idx];
    case US_TIME: return o->t;
    case US_INIT:
    case US_TERM: return 0;
    case US_PF: return idx < c->u->fc->natt ? o->pf[idx] : 0;
    }
    return 0;
}

static void u_outputs(const fl_octx *o, double *vals)
{
    const fl_uclass *c = o->user;
    const fl_sprog *p = &c->L.out;
    double *reg = registers((size_t)p->nreg + 1);
    fl_sprog_consts(p, reg, 1, 1);
    for (int l = 0; l < p->nld; l++) reg[p->ld[l].reg] = src_octx(c, o, p->ld[l].src, p->ld[l].idx);
    fl_sexec ex = {0};
    fl_sprog_run(p, reg, 1, 1, with_calls(c, &ex));
    call_failures_to(c, o->func_err, NULL); /* the run stops at the value that is not a number, with this note */
    for (int v = 0; v < c->cls.nvars; v++) vals[v] = reg[p->out[c->var_of_cls[v]]];
}

/* ---- build ------------------------------------------------------------------------------------- */

static void fix_pars_visit(void *ctx, fl_sx x)
{
    void **cv = ctx;
    const fl_sgraph *g = cv[0];
    if (g->n[x].op == SX_PAR) fl_b_fix_par(cv[1], (int)g->n[x].u.k);
}

/* The value of a parameter expression for this instance; its parameters
 * become structural (the body structure is built from it). */
static double struct_value(const fl_uclass *c, fl_builder *b, fl_sx x)
{
    fl_sgraph *g = &c->u->fc->g;
    void *cv[2] = {g, b};
    fl_sx roots[1] = {x};
    fl_sx_postorder(g, roots, 1, fix_pars_visit, cv);
    return fl_sx_eval_par(g, x, fl_b_params(b));
}

static int u_build(fl_builder *b)
{
    const fl_uclass *c = fl_b_class(b)->user;
    const fl_ucls *u = c->u;
    const fl_ulow *L = &c->L;
    int nreal = u->fc->natt;
    int *port = fl_xmalloc(sizeof(int) * (size_t)(L->natt + 1));
    for (int a = 0; a < L->natt; a++) port[a] = a < nreal ? fl_b_port(b, c->ports[a].name) : FL_GROUND;
    int rc = 0;
    /* rigid connections, with the mass of each rigid group (at its
     * representative, the lowest attachment: flange a of its links) */
    unsigned char *group_done = fl_xcalloc((size_t)(u->groups.n + 1), 1);
    for (size_t i = 0; i < u->links.n && !rc; i++) {
        const fl_ulink *lk = &u->links.v[i];
        double ratio = struct_value(c, b, lk->ratio), off = struct_value(c, b, lk->offset);
        if (!(ratio != 0) || !isfinite(ratio)) {
            fl_b_error(b, "flanges %s and %s are joined with a ratio of %g: it must be finite and non-zero",
                       c->ports[lk->a].name, c->ports[lk->b].name, ratio);
            rc = -1;
            break;
        }
        double m = 0;
        int g = u->group_of[lk->a];
        if (g >= 0 && !group_done[g] && u->groups.v[g].rep == lk->a) {
            m = struct_value(c, b, u->groups.v[g].mass);
            group_done[g] = 1;
            if (!(m >= 0) || !isfinite(m)) {
                fl_b_error(b, "the mass of its rigid part is %g: it must be finite and >= 0", m);
                rc = -1;
                break;
            }
        }
        if (!isfinite(off)) {
            fl_b_error(b, "the distance between flanges %s and %s is not a finite number", c->ports[lk->a].name,
                       c->ports[lk->b].name);
            rc = -1;
            break;
        }
        fl_b_link_ratio(b, port[lk->a], port[lk->b], ratio, off, m);
    }
    free(group_done);
    /* fixed points and prescribed motion */
    for (size_t i = 0; i < u->drives.n && !rc; i++) {
        const fl_udrive *dv = &u->drives.v[i];
        if (dv->fixed) fl_b_ground(b, port[dv->att], struct_value(c, b, dv->s));
        else fl_b_driver(b, port[dv->att], dv->sup >= 0 ? port[dv->sup] : FL_GROUND);
    }
    fl_b_element_n(b, port, L->natt);
    /* constraints among three or more flanges: the compiler writes their rows */
    for (size_t i = 0; i < u->cons.n && !rc; i++) {
        const fl_ucon *k = &u->cons.v[i];
        int *cp = fl_xmalloc(sizeof(int) * (size_t)k->n);
        double *cf = fl_xmalloc(sizeof(double) * (size_t)k->n);
        for (int j = 0; j < k->n; j++) {
            cp[j] = port[k->att[j]];
            cf[j] = struct_value(c, b, k->coef[j]);
        }
        fl_b_constraint(b, k->own, k->n, cp, cf, struct_value(c, b, k->offset), k->irow[0], k->irow[1]);
        free(cp);
        free(cf);
    }
    /* initial conditions: own unknowns, kinematic variables, initial equations */
    for (int k = 0; k < L->nown; k++) {
        int cv = L->own_var[k] >= 0 ? c->cls_of_var[L->own_var[k]] : -1;
        if (cv >= 0) fl_b_own_state(b, k, cv);
    }
    for (int v = 0; v < c->cls.nvars; v++) {
        const struct ukin *kn = &c->kin[v];
        if (kn->level < 0) continue;
        double off = struct_value(c, b, kn->offset);
        fl_b_state(b, c->vars[v].name, kn->level, kn->ap >= 0 ? port[kn->ap] : FL_GROUND,
                   kn->am >= 0 ? port[kn->am] : FL_NOPORT, off);
    }
    if (L->ninit) fl_b_init_rows(b, (const char *const *)L->init_label);
    for (size_t i = 0; i < u->fixed_init.n; i++) {
        int cv = c->cls_of_var[u->fixed_init.v[i]];
        if (cv >= 0) fl_b_fixed_handled(b, cv);
    }
    /* fixed = true of a discrete variable: its start value is its value
     * before the start (pre() at the initial time), where discrete
     * variables start from anyway */
    for (int k = 0; k < L->ndisc; k++) {
        int cv = L->disc_var[k] >= 0 ? c->cls_of_var[L->disc_var[k]] : -1;
        if (cv >= 0) fl_b_fixed_handled(b, cv);
    }
    free(port);
    return rc;
}

/* ---- class --------------------------------------------------------------------------------------- */

const fl_class *fl_uclass_class(const fl_uclass *c)
{
    return &c->cls;
}

int fl_uclass_var(const fl_uclass *c, int k)
{
    return k >= 0 && k < c->L.nvars ? c->cls_of_var[k] : -1;
}

static void uclass_free(fl_uclass *c)
{
    fl_ulow_free(&c->L);
    fl_ucls_free(c->u);
    fl_map_free(&c->pindex);
    fl_map_free(&c->vindex);
    free(c->var_locs);
    free(c->own_locs);
    fl_ufuncs_free(c->funcs);
    fl_arena_free(c->strs);
    free(c->ports);
    free(c->pext);
    free(c->params);
    free(c->vars);
    free(c->cls_of_var);
    free(c->var_of_cls);
    free(c->disc_start_par);
    free(c->disc_when);
    free(c->own_names);
    free(c->kin);
    free(c->own_diff);
    free(c->dep0);
    free(c);
}

void fl_class_retain(const fl_class *c)
{
    if (!c || !c->user) return;
    fl_uclass *u = (fl_uclass *)c->user;
    atomic_fetch_add(&u->refs, 1);
}

void fl_class_release(const fl_class *c)
{
    if (!c || !c->user) return;
    fl_uclass *u = (fl_uclass *)c->user;
    if (atomic_fetch_sub(&u->refs, 1) == 1) uclass_free(u);
}

/* Is the cluster variable shown as a class variable? Flange ports show
 * their own s and f, observed inputs belong to others, and the
 * variables the analysis made (derivative levels, index reduction) are
 * internal. */
static int shown(const fl_fcluster *fc, const fl_uclass_desc *desc, int k)
{
    const fl_fvar *v = &fc->vars.v[k];
    if (v->kind == FVK_POS || v->kind == FVK_FORCE) return 0;
    if (v->kind == FVK_INPUT && v->level > 0) return 0;
    /* a variable of another component the equations read: that one shows it */
    if (v->kind == FVK_INPUT && desc->in_observed && v->in >= 0 && desc->in_observed[v->in]) return 0;
    if (v->name[0] == '(') return 0;
    if (strncmp(v->name, "der", 3) == 0) { /* the analysis's der(x), der2(x); not der1.y of a block */
        const char *p = v->name + 3;
        while (*p >= '0' && *p <= '9') p++;
        if (*p == '(') return 0;
    }
    return 1;
}

static int not_par(void *ctx, const fl_snode *n)
{
    FL_UNUSED(ctx);
    return n->op == SX_VAR || n->op == SX_DER || n->op == SX_PRE || n->op == SX_TIME || n->op == SX_REL ||
           n->op == SX_SAMPLE || n->op == SX_INITIAL || n->op == SX_TERMINAL || n->op == SX_CALL;
}

/* The kinematic form of a known variable: +-1 times one or two attachment
 * quantities of one level plus a parameter expression. */
static int kinematic_form(const fl_ucls *u, int k, struct ukin *out)
{
    fl_sgraph *g = &u->fc->g;
    fl_sx val = u->value[k];
    out->level = -1;
    out->ap = out->am = -1;
    fl_sx rest = val;
    for (size_t v = 0; v < u->fc->vars.n; v++) {
        const fl_fvar *fv = &u->fc->vars.v[v];
        if (fv->kind != FVK_POS) continue;
        fl_sx coef, r2;
        if (!fl_sx_linear(g, rest, fl_sx_var(g, (int)v), &coef, &r2)) return 0;
        if (fl_sx_is_const(g, coef, 0)) continue;
        if (out->level >= 0 && out->level != fv->level) return 0;
        out->level = fv->level;
        if (fl_sx_is_const(g, coef, 1) && out->ap < 0) out->ap = fv->att;
        else if (fl_sx_is_const(g, coef, -1) && out->am < 0) out->am = fv->att;
        else return 0;
        rest = r2;
    }
    if (out->level < 0) return 0;
    /* the rest must be a parameter expression */
    if (fl_sx_depends(g, rest, not_par, NULL)) return 0;
    out->offset = rest;
    return 1;
}

/* Does input i enter a program the element runs while integrating (as
 * opposed to the output program alone)? */
static int input_dynamic(const fl_ulow *L, int i)
{
    const fl_sprog *progs[] = {&L->cont, &L->jac, &L->roots, &L->event, &L->wleft, &L->init, &L->drive};
    for (size_t k = 0; k < sizeof progs / sizeof *progs; k++)
        for (int l = 0; l < progs[k]->nld; l++)
            if (progs[k]->ld[l].src == US_IN && progs[k]->ld[l].idx / 3 == i) return 1;
    return 0;
}

fl_uclass *fl_uclass_new(fl_ucls *u, const fl_uclass_desc *desc, const char *name, fl_diag *d)
{
    fl_uclass *c = fl_xcalloc(1, sizeof *c);
    c->u = u;
    c->funcs = desc->funcs;
    fl_ufuncs_retain(c->funcs);
    atomic_init(&c->refs, 1);
    if (fl_lower(u, &c->L, name, d)) {
        uclass_free(c);
        return NULL;
    }
    /* messages of run-time statements outlive the model's text and file names */
    for (size_t i = 0; i < c->L.stmts.n; i++) {
        fl_ustmt *st = &c->L.stmts.v[i];
        if (st->loc.file) st->loc.file = own_str(c, st->loc.file);
        if (st->msg) st->msg = own_str(c, st->msg);
    }
    for (size_t i = 0; i < c->L.asserts.n; i++) {
        fl_fassert *a = &c->L.asserts.v[i];
        if (a->loc.file) a->loc.file = own_str(c, a->loc.file);
        if (a->msg) a->msg = own_str(c, a->msg);
    }
    const fl_ulow *L = &c->L;
    const fl_fcluster *fc = u->fc;
    /* ports: attachments, inputs, outputs */
    int natt = fc->natt;
    int np = natt + L->nin + L->nout;
    c->ports = fl_xcalloc((size_t)(np ? np : 1), sizeof(fl_port_def));
    c->pext = fl_xcalloc((size_t)(np ? np : 1), sizeof(fl_port_ext));
    for (int a = 0; a < natt; a++) {
        c->ports[a].name = own_str(c, desc->att_names[a]);
        c->ports[a].kind = FL_PORT_FLANGE;
        c->ports[a].rot = desc->att_rot ? desc->att_rot[a] : 0;
        c->ports[a].unit = c->ports[a].rot ? "rad" : "m";
        c->ports[a].desc = "";
        c->pext[a].own = -1;
    }
    for (int i = 0; i < L->nin; i++) {
        fl_port_def *pd = &c->ports[natt + i];
        pd->name = own_str(c, desc->in_names[i]);
        pd->kind = FL_PORT_INPUT;
        pd->unit = "";
        pd->desc = "";
        c->pext[natt + i].observed = desc->in_observed ? desc->in_observed[i] : 0;
        c->pext[natt + i].nderiv = L->in_nderiv[i];
        c->pext[natt + i].own = -1;
        c->pext[natt + i].dynamic = input_dynamic(L, i);
    }
    for (int o = 0; o < L->nout; o++) {
        fl_port_def *pd = &c->ports[natt + L->nin + o];
        pd->name = own_str(c, desc->out_names[o]);
        pd->kind = FL_PORT_OUTPUT;
        pd->unit = "";
        pd->desc = "";
        c->pext[natt + L->nin + o].own = L->nown - L->nout + o;
    }
    /* parameters */
    c->params = fl_xcalloc((size_t)(desc->npar ? desc->npar : 1), sizeof(fl_param_def));
    for (int k = 0; k < desc->npar; k++) {
        c->params[k].name = own_str(c, desc->par_names[k]);
        c->params[k].type = FL_P_REAL;
        c->params[k].unit = own_str(c, desc->par_units ? desc->par_units[k] : "");
        c->params[k].desc = "";
    }
    /* variables */
    c->cls_of_var = fl_xmalloc(sizeof(int) * (size_t)(L->nvars + 1));
    c->var_of_cls = fl_xmalloc(sizeof(int) * (size_t)(L->nvars + 1));
    c->vars = fl_xcalloc((size_t)(L->nvars + 1), sizeof(fl_var_def));
    c->kin = fl_xcalloc((size_t)(L->nvars + 1), sizeof(struct ukin));
    int nvars = 0;
    for (int k = 0; k < L->nvars; k++) {
        c->cls_of_var[k] = -1;
        if (!shown(fc, desc, k)) continue;
        const fl_fvar *v = &fc->vars.v[k];
        fl_var_def *vd = &c->vars[nvars];
        vd->name = own_str(c, v->name);
        vd->unit = own_str(c, v->unit);
        vd->desc = "";
        vd->flags = FL_VF_ATTR | (v->vtype == FL_VT_BOOLEAN ? FL_VF_BOOL : v->vtype == FL_VT_INTEGER ? FL_VF_INT : 0);
        c->kin[nvars].level = -1;
        if (u->kind[k] == UV_KNOWN) kinematic_form(u, k, &c->kin[nvars]);
        c->cls_of_var[k] = nvars;
        c->var_of_cls[nvars] = k;
        nvars++;
    }
    /* own unknowns: names for messages */
    c->own_names = fl_xcalloc((size_t)(L->nown + 1), sizeof(char *));
    for (int i = 0; i < L->nown; i++)
        c->own_names[i] = own_str(c, L->own_var[i] >= 0 ? fc->vars.v[L->own_var[i]].name : "?");
    c->disc_start_par = fl_xmalloc(sizeof(int) * (size_t)(L->ndisc + 1));
    for (int k = 0; k < L->ndisc; k++) c->disc_start_par[k] = desc->disc_start_par ? desc->disc_start_par[k] : -1;
    c->rs_disc = L->nrel;
    c->rs_wcond = L->nrel + L->ndisc;
    c->rs_tev = L->nrel + L->ndisc + L->nwcond;
    c->rs_dpre = c->rs_tev + 1;
    c->rs_dlast = c->rs_dpre + L->ndisc;
    c->rs_g0 = c->rs_dlast + L->ndisc;
    c->disc_when = fl_xcalloc((size_t)L->ndisc + 1, 1);
    for (size_t s = 0; s < L->stmts.n; s++)
        if (L->stmts.v[s].kind == FW_ASSIGN) c->disc_when[L->stmts.v[s].disc] = 1;
    /* the element */
    fl_elem_ops *ops = &c->ops;
    ops->nown = L->nown;
    ops->own_diff = NULL;
    ops->nroots = L->nstate_rel;
    ops->nin = L->nin;
    ops->eval = u_eval;
    ops->roots = u_roots;
    ops->event = u_event;
    ops->init_modes = u_init_modes;
    /* time events come only from relations and sample(): a class with
     * neither has none, and is not asked after every step (a chain of ten
     * thousand user couplers spent 5 % of its run there) */
    ops->next_time_event = L->nrel || L->nsample ? u_next_time_event : NULL;
    ops->nreal = 2 * L->nrel + 3 * L->ndisc + L->nwcond + 1;
    ops->flags = FL_EK_SOURCE | (L->nsample ? FL_EK_SAMPLE : 0);
    for (size_t s = 0; s < L->stmts.n; s++)
        if (L->stmts.v[s].kind == FW_TERMINATE) ops->flags |= FL_EK_TERMINATE;
    ops->own_names = (const char *const *)c->own_names;
    ops->natt = L->natt < 2 ? 2 : L->natt;
    ops->ndep = L->ndep;
    ops->dep_rc = L->dep_rc;
    ops->ninit = L->ninit;
    ops->ninit_dep = L->ninit_dep;
    ops->init_dep_rc = L->init_dep_rc;
    ops->init_eval = u_init_eval;
    /* own_diff: per own unknown */
    c->own_diff = fl_xmalloc(sizeof(int) * (size_t)(L->nown + 1));
    for (int i = 0; i < L->nown; i++) c->own_diff[i] = L->own_diff[i];
    ops->own_diff = c->own_diff;
    /* without dependencies the engine reads dense masks: all zero */
    if (!ops->ndep) {
        c->dep0 = fl_xcalloc((size_t)(ops->nown + L->natt + 1), sizeof(uint64_t));
        ops->dep = c->dep0;
    }
    if (L->has_drive) {
        c->drv.kind = L->drive_level == 0 ? kind_pos : L->drive_level == 1 ? kind_vel : kind_acc;
        c->drv.nderiv = 2;
        c->drv.drive = u_drive;
    }
    fl_class *cls = &c->cls;
    cls->path = own_str(c, desc->path);
    cls->desc = "a component written as equations";
    cls->ports = c->ports;
    cls->nports = np;
    cls->params = c->params;
    cls->nparams = desc->npar;
    cls->vars = c->vars;
    cls->nvars = nvars;
    cls->build = u_build;
    cls->elem = ops;
    cls->drv = L->has_drive ? &c->drv : NULL;
    cls->outputs = u_outputs;
    cls->port_ext = c->pext;
    cls->user = c;
    for (int k = 0; k < cls->nparams; k++) fl_map_put(&c->pindex, cls->params[k].name, k);
    for (int k = 0; k < cls->nvars; k++) fl_map_put(&c->vindex, cls->vars[k].name, k);
    cls->param_index = &c->pindex;
    cls->var_index = &c->vindex;
    /* where the variables are declared, for messages after the model is gone */
    c->var_locs = fl_xcalloc((size_t)cls->nvars + 1, sizeof(fl_loc));
    const char *last_file = NULL, *owned_file = NULL;
    for (int v = 0; v < cls->nvars; v++) {
        fl_loc l = fc->vars.v[c->var_of_cls[v]].loc;
        if (l.file && l.file != last_file) {
            last_file = l.file;
            owned_file = own_str(c, l.file);
        }
        if (l.file) l.file = owned_file;
        c->var_locs[v] = l;
    }
    cls->var_locs = c->var_locs;
    c->own_locs = fl_xcalloc((size_t)L->nown + 1, sizeof(fl_loc));
    for (int i = 0; i < L->nown; i++) {
        int cv = L->own_var[i] >= 0 ? c->cls_of_var[L->own_var[i]] : -1;
        if (cv >= 0) c->own_locs[i] = c->var_locs[cv];
    }
    ops->own_locs = c->own_locs;
    return c;
}
