/* fast.c - the integrator's residual and Jacobian (and the penetration
 * check) for classes with a fast kernel (fl_elem_ops.fast): the batches'
 * views, the table of their parameters and the free bodies' arrays that
 * eval.c's fast path walks; why, and what is kept.
 *
 * The residual IDA asks for thousands of times is, for a large model,
 * mostly compliant two-flange elements. Through eval() each of them reads
 * its element record, writes its two flange forces into s->f, and a
 * second pass adds those forces into the rows of the bodies: memory
 * traffic, not arithmetic, sets the cost. A fast kernel evaluates a batch
 * of one class in a tight loop over the system's attachment arrays (which
 * are already structure of arrays, slot 2 i + j for element i) and adds
 * the forces straight into the rows. It does not fill s->f, which the
 * outputs and the energy audit read: they keep the full evaluation.
 *
 * Nothing changes in what is computed: a batch's attachments are
 * consecutive slots, the batches are in slot order, and every row gets
 * the same additions in the same order as from the slot scatter
 * (eval.c, residual_forces), so the residual is the same bit for bit.
 * The Jacobian likewise: a kernel writes df/ds_rel and df/dv_rel per
 * element where fl_compliant_out would (the compliant classes' two-value
 * local Jacobian), and eval.c adds them to the matrix slots through the
 * entries, in their order; a batch's run of alike entries without
 * looking up each one's source (scatter_alike, plan_jacobian).
 *
 * The parameters a kernel reads are copied into one table, rows shared by
 * the elements whose values are the same bit for bit: the instances'
 * parameter blocks lie far apart, a large model of alike parts has a few
 * rows that stay in cache; a batch whose elements all read one row gets
 * it as fl_fast.upar, which FL_FAST_RUN (common.h) copies into a local
 * array the loop's residual stores cannot alias. A parameter change marks
 * the table (fl_sim.fast_stale, fl_params_changed) and fl_fast_ready
 * makes it again: when the run advances (fl_run_advance, before IDA is
 * called: making it allocates, and an allocation failure must not unwind
 * through IDA), or at the first use by a caller outside a run. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

/* Whether the n rows of w doubles at v are all the first one, bit for bit
 * (+0 and -0 are not alike). */
static int rows_alike(const double *v, int n, int w)
{
    for (int i = 1; i < n; i++)
        if (memcmp(v + (size_t)i * (size_t)w, v, sizeof(double) * (size_t)w) != 0) return 0;
    return 1;
}

/* Whether the stored entries that hold batch g's run (jent[j0, j1)) list
 * m alike entries per element, the t-th reading value dv[t] of its
 * element's two without cj (fl_fast_jac.m, dv): element by element as
 * stored, or a rule's run (compile/jrules.c: nrule of them from
 * jrule[r0]) moving its element's sources by two. */
static int batch_entries(const fl_system *sys, fl_fast_jac *fj, int n)
{
    int r0 = sys->njrule ? fl_jrule_from(sys, fj->j0) : 0, nr = 0, cnt = fj->j1 - fj->j0;
    while (r0 + nr < sys->njrule && sys->jrule[r0 + nr].j0 < fj->j1) nr++;
    fj->r0 = r0;
    fj->nrule = nr;
    int m = nr ? sys->jrule[r0].m : n > 0 && cnt % n == 0 ? cnt / n : 0, i = 0, r = r0;
    if (m <= 0 || m > 8) return 0;
    fj->m = m;
    for (int j = fj->j0; j < fj->j1; i++) { /* element i: stored, or a rule's first */
        if (j + m > fj->j1) return 0;
        const fl_jrule *jr = r < r0 + nr && sys->jrule[r].j0 == j ? &sys->jrule[r++] : NULL;
        if (jr && jr->m != m) return 0;
        for (int t = 0; t < m; t++) {
            const fl_jentry *e = &sys->jent[j + t];
            int q = e->src - (fj->jbase + 2 * i);
            if (q < 0 || q > 1 || e->cj || (jr && jr->src[t] != 2)) return 0;
            if (j == fj->j0) fj->dv[t] = (unsigned char)q;
            else if (fj->dv[t] != q) return 0;
        }
        i += jr ? jr->n - 1 : 0;
        j += m;
    }
    return i == n && r == r0 + nr;
}

/* Which batches' Jacobians their fast kernels give: those of compliant
 * classes (FL_EK_COMPLIANT), whose elements keep df/ds_rel, df/dv_rel at
 * jloc[jofs], jloc[jofs + 1] as the kernel writes them (jbase + 2 i for
 * element i: a fast batch's elements are consecutive); where each
 * batch's local blocks end (the drivers' after the last); and the run of
 * entries that reads each fast batch's (the entries are listed element by
 * element), alike per element where they are (eval.c scatters those
 * without looking up each entry's source). */
static void plan_jacobian(fl_sim *s)
{
    const fl_system *sys = s->sys;
    int ng = sys->negroups, drv0 = sys->njloc - 2 * sys->ndrv;
    s->fastj = fl_xcalloc((size_t)(ng ? ng : 1), sizeof(fl_fast_jac));
    for (int g = 0; g < ng; g++) {
        fl_fast_jac *fj = &s->fastj[g];
        fj->jbase = s->elems[sys->egroups[g].first].jofs;
        fj->jend = g + 1 < ng ? s->elems[sys->egroups[g + 1].first].jofs : drv0;
        fj->ok = s->fast[g].n && (sys->egroups[g].ops->flags & FL_EK_COMPLIANT);
        fj->j0 = fj->j1 = -1;
        fj->m = -1;
    }
    int g = 0, broken = 0, end = 0;
    for (int j = 0; j < sys->njent; j++) {
        const fl_jentry *e = &sys->jent[j];
        if (e->src < 0 || e->src >= drv0) continue;
        while (g > 0 && e->src < s->fastj[g].jbase) g--; /* entries are in element order: rarely moves back */
        while (g + 1 < ng && e->src >= s->fastj[g].jend) g++;
        fl_fast_jac *fj = &s->fastj[g];
        if (!fj->ok) continue;
        if (fj->j0 < 0) fj->j0 = j;
        else if (fj->j1 != j) broken = 1; /* not one run per batch: no runs at all */
        fj->j1 = j + 1;
    }
    for (g = 0; g < ng && !broken; g++) { /* the runs in the order of the batches */
        fl_fast_jac *fj = &s->fastj[g];
        if (!fj->ok || fj->j0 < 0) continue;
        if (fj->j0 < end) broken = 1;
        end = fj->j1;
    }
    for (g = 0; g < ng; g++) {
        fl_fast_jac *fj = &s->fastj[g];
        if (broken || !fj->ok || fj->j0 < 0 || !batch_entries(sys, fj, sys->egroups[g].n)) fj->m = -1;
        if (fj->m < 0) fj->j0 = fj->j1 = -1;
    }
}

static void plan_strands(fl_sim *s);

/* Room for n free bodies in fb's arrays (b, qi, vi, mass). */
static void bodies_alloc(fl_fast_bodies *fb, size_t n)
{
    fb->b = fl_xmalloc(sizeof(int) * n);
    fb->qi = fl_xmalloc(sizeof(int) * n);
    fb->vi = fl_xmalloc(sizeof(int) * n);
    fb->mass = fl_xmalloc(sizeof(double) * n);
}

/* fb's arrays cut to its n bodies. */
static void bodies_shrink(fl_fast_bodies *fb)
{
    size_t n = (size_t)(fb->n ? fb->n : 1);
    fb->b = fl_shrink(fb->b, sizeof(int) * n);
    fb->qi = fl_shrink(fb->qi, sizeof(int) * n);
    fb->vi = fl_shrink(fb->vi, sizeof(int) * n);
    fb->mass = fl_shrink(fb->mass, sizeof(double) * n);
}

static void bodies_free(fl_fast_bodies *fb)
{
    free(fb->b);
    free(fb->qi);
    free(fb->vi);
    free(fb->mass);
    free(fb->other);
    free(fb->rest);
    free(fb->mlq);
    memset(fb, 0, sizeof *fb);
}

/* The batches' views and the free bodies' arrays. */
void fl_fast_plan(fl_sim *s)
{
    const fl_system *sys = s->sys;
    s->fast = fl_xcalloc((size_t)(sys->negroups ? sys->negroups : 1), sizeof(fl_fast));
    s->fast_pofs = fl_xcalloc((size_t)(sys->nelem ? sys->nelem : 1), sizeof(int));
    size_t nplace = 0;
    for (int g = 0; g < sys->negroups; g++) {
        const fl_egroup *eg = &sys->egroups[g];
        if (!eg->ops->fast) continue;
        const fl_elem *e = &s->elems[eg->first];
        int plain = 1; /* two attachments, nothing own, states in element order */
        for (int i = 0; i < eg->n && plain; i++) {
            const fl_elem *ei = e + i;
            plain = ei->idx == eg->first + i && ei->xatt < 0 && ei->own < 0 &&
                    ei->mode == e->mode + i * eg->ops->nmodes && ei->rs == e->rs + i * eg->ops->nreal;
        }
        if (!plain) continue;
        fl_fast *z = &s->fast[g];
        z->n = eg->n;
        z->body = sys->att_body + 2 * eg->first;
        z->row = sys->elem_frow + 2 * eg->first;
        z->pofs = s->fast_pofs + eg->first; /* offsets into s->fast_tab (pack) */
        z->mode0 = e->mode;
        z->nmodes = eg->ops->nmodes;
        z->rs0 = e->rs;
        z->nreal = z->rstep = eg->ops->nreal;
        z->npar = eg->ops->fast_npar;
        z->unit = 1;
        for (int k = 0; k < 2 * z->n && z->unit; k++) {
            int slot = 2 * eg->first + k;
            double off = fl_sys_slot_offset(sys, slot);
            z->unit = z->body[k] >= 0 && fl_sys_slot_ratio(sys, slot) == 1.0 && off == 0.0 && !signbit(off);
        }
        if (!z->unit) nplace += 2 * (size_t)z->n;
    }
    /* the nodes' ratios and offsets by attachment, for the batches not
     * all at ratio 1 and offset +0 (a kernel reads them in slot order) */
    if (nplace) {
        s->fast_place = fl_xmalloc(2 * sizeof(double) * nplace);
        double *at = s->fast_place;
        for (int g = 0; g < sys->negroups; g++) {
            fl_fast *z = &s->fast[g];
            if (!z->n || z->unit) continue;
            double *off = at, *ratio = at + 2 * z->n;
            for (int k = 0; k < 2 * z->n; k++) {
                int slot = 2 * sys->egroups[g].first + k;
                off[k] = fl_sys_slot_offset(sys, slot);
                ratio[k] = fl_sys_slot_ratio(sys, slot);
            }
            z->off = off;
            z->ratio = ratio;
            at += 4 * (size_t)z->n;
        }
    }
    s->fast_stale = 1;
    s->uni_stale = 1;
    plan_jacobian(s);
    fl_fast_bodies *fb = &s->fbod;
    size_t nb = (size_t)(sys->nbodies ? sys->nbodies : 1);
    bodies_alloc(fb, nb);
    fb->other = fl_xmalloc(sizeof(int) * nb);
    fb->mlq = fl_xmalloc(sizeof(int) * nb);
    for (int b = 0; b < sys->nbodies; b++) {
        const fl_body *bd = &sys->bodies[b];
        fb->mlq[b] = bd->kind == B_MLQ && bd->qi >= 0 ? bd->qi : -1;
        fb->ndriven += bd->kind == B_POS || bd->kind == B_VEL || bd->kind == B_ACC;
        if (bd->kind != B_FREE) {
            fb->other[fb->nother++] = b;
            continue;
        }
        fb->b[fb->n] = b;
        fb->qi[fb->n] = bd->qi;
        fb->vi[fb->n] = bd->vi;
        fb->mass[fb->n++] = bd->mass;
    }
    unsigned char *own = fl_xcalloc((size_t)(sys->n ? sys->n : 1), 1);
    for (int i = 0; i < fb->n; i++) own[fb->qi[i]] = own[fb->vi[i]] = 1;
    fb->rest = fl_xmalloc(sizeof(int) * (size_t)(sys->n ? sys->n : 1));
    for (int r = 0; r < sys->n; r++)
        if (!own[r]) fb->rest[fb->nrest++] = r;
    free(own);
    /* (made for every body or unknown, kept for those listed) */
    fb->other = fl_shrink(fb->other, sizeof(int) * (size_t)(fb->nother ? fb->nother : 1));
    fb->rest = fl_shrink(fb->rest, sizeof(int) * (size_t)(fb->nrest ? fb->nrest : 1));
    plan_strands(s);
}

/* Whether batch g can be in a strand of n elements from body b0
 * (fl_strand): a compliant batch with a fast kernel and unit
 * attachments, element i between bodies b0 + i and b0 + i + 1, adding to
 * their rows. */
static int strand_batch(const fl_sim *s, int g, int b0, int n)
{
    const fl_system *sys = s->sys;
    const fl_fast *z = &s->fast[g];
    if (z->n != n || !z->unit || !(sys->egroups[g].ops->flags & FL_EK_COMPLIANT)) return 0;
    for (int i = 0; i < n; i++)
        if (z->body[2 * i] != b0 + i || z->body[2 * i + 1] != b0 + i + 1 ||
            z->row[2 * i] != fl_body_frow(&sys->bodies[b0 + i]) || z->row[2 * i + 1] != fl_body_frow(&sys->bodies[b0 + i + 1]))
            return 0;
    return 1;
}

/* Whether the strand's bodies are free with evenly spaced unknowns, each
 * velocity unknown its row (fl_strand: q0, dq, dv). */
static int strand_bodies(const fl_system *sys, fl_strand *st)
{
    const fl_body *bd = &sys->bodies[st->b0];
    st->q0 = bd[0].qi;
    st->dv = bd[0].vi - bd[0].qi;
    st->dq = bd[1].qi - bd[0].qi;
    for (int j = 0; j <= st->n; j++)
        if (bd[j].kind != B_FREE || bd[j].qi != st->q0 + j * st->dq || bd[j].vi != bd[j].qi + st->dv ||
            fl_body_frow(&bd[j]) != bd[j].vi)
            return 0;
    return st->dq != 0 && st->dv != 0;
}

/* Who touches each body in the integrator's residual: -1 nobody, k only
 * strand k, -2 anything else (an element outside the strands, a
 * signal, a constraint, or two strands). */
static int *body_owners(const fl_sim *s)
{
    const fl_system *sys = s->sys;
    int *own = fl_xmalloc(sizeof(int) * (size_t)(sys->nbodies ? sys->nbodies : 1));
    int *el = fl_xmalloc(sizeof(int) * (size_t)(sys->nelem ? sys->nelem : 1)); /* strand of each element, -2 none */
    for (int b = 0; b < sys->nbodies; b++) own[b] = -1;
    for (int e = 0; e < sys->nelem; e++) el[e] = -2;
    for (int k = 0; k < s->nstrand; k++)
        for (int g = s->strand[k].g0; g < s->strand[k].g1; g++)
            for (int e = sys->egroups[g].first; e < sys->egroups[g].first + sys->egroups[g].n; e++) el[e] = k;
    for (int k = 0; k < sys->nslots; k++) {
        int b = sys->att_body[k], o = k < 2 * sys->nelem ? el[k / 2] : -2;
        if (b >= 0) own[b] = own[b] == -1 || own[b] == o ? o : -2;
    }
    for (int k = 0; k < sys->nsig; k++)
        for (int j = 0; j < 2 && sys->sigs[k].kind == SIG_KIN; j++)
            if (sys->sigs[k].node[j] >= 0 && sys->nodes[sys->sigs[k].node[j]].body >= 0)
                own[sys->nodes[sys->sigs[k].node[j]].body] = -2;
    for (int c = 0; c < sys->ncons; c++)
        for (int i = 0; i < sys->cons[c].n; i++) {
            int nd = sys->con_node[sys->cons[c].k0 + i];
            if (nd >= 0 && sys->nodes[nd].body >= 0) own[sys->nodes[nd].body] = -2;
        }
    for (int d = 0; d < sys->ndrv; d++)
        if (sys->drvs[d].body >= 0) own[sys->drvs[d].body] = -2;
    free(el);
    return own;
}

/* The rows the integrator's residual clears before its forces add up
 * (fl_sim.zrow): all but the fused bodies' position and velocity rows,
 * which their strand alone writes, starting from zero (at 10^5 wagons
 * the residual no longer clears, and then reads, memory that the
 * strands overwrite). As ranges; with many short ones, one range over
 * all rows (clearing a fused row is harmless, only slower). */
static void plan_zero_rows(fl_sim *s)
{
    int n = s->sys->n;
    unsigned char *keep = fl_xcalloc((size_t)(n ? n : 1), 1);
    for (int k = 0; k < s->nstrand; k++) {
        const fl_strand *st = &s->strand[k];
        for (int j = 0; j <= st->n; j++)
            if (st->fused[j]) keep[st->q0 + j * st->dq] = keep[st->q0 + j * st->dq + st->dv] = 1;
    }
    int nr = 0, *r = fl_xmalloc(sizeof(int) * (size_t)(n + 2));
    for (int i = 0; i < n;) {
        if (keep[i]) {
            i++;
            continue;
        }
        int a = i;
        while (i < n && !keep[i]) i++;
        r[nr++] = a;
        r[nr++] = i;
    }
    free(keep);
    if (nr > 2 + n / 8) { /* (pairs of at most a few rows: one clear of everything is cheaper) */
        r[0] = 0;
        r[1] = n;
        nr = 2;
    }
    s->zrow = fl_shrink(r, sizeof(int) * (size_t)(nr ? nr : 1));
    s->nzrow = nr / 2;
}

/* The strands, each body's fusion, and the free bodies left to the
 * residual's body passes (fl_sim.fkeep). */
static void plan_strands(fl_sim *s)
{
    const fl_system *sys = s->sys;
    int ng = sys->negroups;
    s->strand = fl_xcalloc((size_t)(ng ? ng : 1), sizeof(fl_strand));
    for (int g = 0; g < ng; g++) {
        const fl_fast *z = &s->fast[g];
        fl_strand c = {.g0 = g, .n = z->n, .b0 = z->n ? z->body[0] : -1};
        if (c.b0 < 0 || !strand_batch(s, g, c.b0, c.n) || !strand_bodies(sys, &c)) continue;
        for (c.g1 = g + 1; c.g1 < ng && c.g1 - c.g0 < FL_STRAND_MAXB && strand_batch(s, c.g1, c.b0, c.n);) c.g1++;
        s->strand[s->nstrand++] = c;
        g = c.g1 - 1;
    }
    if (!s->nstrand) {
        free(s->strand);
        s->strand = NULL;
        return;
    }
    int *own = body_owners(s), nfused = 0;
    for (int k = 0; k < s->nstrand; k++) {
        fl_strand *st = &s->strand[k];
        st->fused = fl_xmalloc((size_t)st->n + 1);
        st->mass = fl_xmalloc(sizeof(double) * ((size_t)st->n + 1));
        for (int j = 0; j <= st->n; j++) {
            st->fused[j] = own[st->b0 + j] == k;
            st->mass[j] = sys->bodies[st->b0 + j].mass;
            nfused += st->fused[j];
        }
        st->umass = rows_alike(st->mass, st->n + 1, 1);
        st->mass0 = st->mass[0];
    }
    const fl_fast_bodies *fb = &s->fbod;
    fl_fast_bodies *kb = &s->fkeep;
    if (nfused) bodies_alloc(kb, (size_t)(fb->n ? fb->n : 1)); /* (none fused: the residual keeps fbod) */
    for (int i = 0; i < fb->n && nfused; i++) {
        int b = fb->b[i], k = own[b];
        if (k >= 0 && s->strand[k].fused[b - s->strand[k].b0]) continue;
        kb->b[kb->n] = b;
        kb->qi[kb->n] = fb->qi[i];
        kb->vi[kb->n] = fb->vi[i];
        kb->mass[kb->n++] = fb->mass[i];
    }
    if (nfused) bodies_shrink(kb);
    free(own);
    if (nfused) plan_zero_rows(s);
    s->strand_ident = fl_xmalloc(sizeof(int) * 2 * FL_STRAND_BLOCK);
    for (int i = 0; i < FL_STRAND_BLOCK; i++) {
        s->strand_ident[2 * i] = i;
        s->strand_ident[2 * i + 1] = i + 1;
    }
}

/* Body j of strand st with the row v its elements gave: stored, or, if
 * fused, finished with its body terms (as eval.c's residual finishes the
 * other free bodies' rows; mass[j * ms]: ms 0 when the masses are alike).
 * Adds x - x of each finished value to *bad: 0 for a finite x, NaN
 * otherwise. */
static inline void strand_row(const fl_strand *st, int j, double v, const double *y, const double *yp, double *res,
                              const double *mass, int ms, double *bad)
{
    int q = st->q0 + j * st->dq, r = q + st->dv;
    if (!st->fused[j]) {
        res[r] = v;
        return;
    }
    double a = yp[q] - y[r], b = v + mass[j * ms] * yp[r];
    res[q] = a;
    res[r] = b;
    *bad += (a - a) + (b - b);
}

/* The rows of the block's bodies i0 .. i0 + m - 1 from the forces f of
 * its nb batches: body i gets, batch after batch, +f of element i - 1
 * (its attachment 1), then -f of element i (its attachment 0). prev
 * holds each batch's force of element i0 - 1. With nb a constant (the
 * callers' switch), the loop over the batches unrolls. */
#if defined(__GNUC__)
#define STRAND_INLINE static inline __attribute__((always_inline)) void
#else
#define STRAND_INLINE static inline void
#endif
STRAND_INLINE strand_rows(const fl_strand *st, int i0, int m, int nb, double (*f)[FL_STRAND_BLOCK], double *prev,
                          const double *y, const double *yp, double *res, const double *mass, int ms, double *bad)
{
    for (int j = 0; j < m; j++) {
        int i = i0 + j;
        double v = st->fused[i] ? 0 : res[st->q0 + i * st->dq + st->dv]; /* (a fused row is not cleared: zrow) */
        for (int k = 0; k < nb; k++) {
            if (i > 0) v += prev[k];
            v += -f[k][j];
            prev[k] = f[k][j];
        }
        strand_row(st, i, v, y, yp, res, mass, ms, bad);
    }
}

/* The positions and velocities of the bodies of a strand's block of m
 * elements from i0, as the kinematics computes bq, bv (qoff[i qs]: the
 * bodies' offsets, one for all when qs is 0). */
static void block_bodies(const fl_strand *st, int i0, int m, const double *qoff, int qs, const double *y, double *sl,
                         double *vl)
{
    for (int j = 0; j <= m; j++) {
        int q = st->q0 + (i0 + j) * st->dq;
        sl[j] = qoff[(i0 + j) * qs] + y[q];
        vl[j] = y[q + st->dv];
    }
}

/* Batch g's fast view of that block: its elements i0 .. i0+m-1, their
 * bodies the block's local ones (strand_ident). */
static fl_fast block_view(const fl_sim *s, int g, int i0, int m)
{
    fl_fast zb = s->fast[g];
    zb.n = m;
    zb.body = s->strand_ident;
    zb.pofs += i0;
    zb.mode0 += i0 * zb.nmodes;
    zb.rs0 += i0 * zb.rstep;
    return zb;
}

int fl_strand_forces(fl_sim *s, const fl_strand *st, const fl_ectx *x)
{
    const double *y = x->y, *yp = x->yp;
    double *res = x->res;
    const fl_system *sys = s->sys;
    int nb = st->g1 - st->g0;
    double sl[FL_STRAND_BLOCK + 1], vl[FL_STRAND_BLOCK + 1], f[FL_STRAND_MAXB][FL_STRAND_BLOCK], prev[FL_STRAND_MAXB];
    double bad = 0;
    /* one mass, one position offset for all bodies where they are alike:
     * the same values, read from one place (qs, ms: 0) */
    const double *qoff = st->uqoff ? &st->qoff0 : s->qoff + st->b0, *mass = st->umass ? &st->mass0 : st->mass;
    int qs = !st->uqoff, ms = !st->umass;
    fl_ectx xb = *x; /* the block's bodies in sl, vl: body j of the block is element j's attachment 0 */
    xb.bq = sl;
    xb.bv = vl;
    for (int i0 = 0; i0 < st->n; i0 += FL_STRAND_BLOCK) {
        int m = st->n - i0 < FL_STRAND_BLOCK ? st->n - i0 : FL_STRAND_BLOCK;
        block_bodies(st, i0, m, qoff, qs, y, sl, vl);
        for (int k = 0; k < nb; k++) {
            int g = st->g0 + k;
            fl_fast zb = block_view(s, g, i0, m);
            sys->egroups[g].ops->fast(&zb, &xb, FL_FAST_F, f[k]);
        }
        switch (nb) {
        case 1: strand_rows(st, i0, m, 1, f, prev, y, yp, res, mass, ms, &bad); break;
        case 2: strand_rows(st, i0, m, 2, f, prev, y, yp, res, mass, ms, &bad); break;
        case 3: strand_rows(st, i0, m, 3, f, prev, y, yp, res, mass, ms, &bad); break;
        default: strand_rows(st, i0, m, 4, f, prev, y, yp, res, mass, ms, &bad); break;
        }
        _Static_assert(FL_STRAND_MAXB == 4, "the switch above has a case per strand width");
    }
    double v = st->fused[st->n] ? 0 : res[st->q0 + st->n * st->dq + st->dv];
    for (int k = 0; k < nb; k++) v += prev[k];
    strand_row(st, st->n, v, y, yp, res, mass, ms, &bad);
    return bad == 0;
}

void fl_strand_pen(fl_sim *s, const fl_strand *st, const fl_ectx *x, fl_pen_fn each, double t)
{
    const double *y = x->y;
    const fl_system *sys = s->sys;
    double sl[FL_STRAND_BLOCK + 1], vl[FL_STRAND_BLOCK + 1], out[2 * FL_STRAND_BLOCK];
    const double *qoff = st->uqoff ? &st->qoff0 : s->qoff + st->b0;
    int qs = !st->uqoff;
    fl_ectx xb = *x; /* as fl_strand_forces: body j of the block is element j's attachment 0 */
    xb.bq = sl;
    xb.bv = vl;
    for (int i0 = 0; i0 < st->n; i0 += FL_STRAND_BLOCK) {
        int m = st->n - i0 < FL_STRAND_BLOCK ? st->n - i0 : FL_STRAND_BLOCK;
        block_bodies(st, i0, m, qoff, qs, y, sl, vl);
        for (int g = st->g0; g < st->g1; g++) {
            const fl_elem_ops *ops = sys->egroups[g].ops;
            if (!ops->penetration) continue;
            fl_fast zb = block_view(s, g, i0, m);
            ops->fast(&zb, &xb, FL_FAST_PEN, out);
            each(s, g, i0, m, out, t);
        }
    }
}

static void pack(fl_sim *s)
{
    const fl_system *sys = s->sys;
    size_t cap = 16, len = 0;
    double *tab = fl_xmalloc(sizeof(double) * cap);
    for (int g = 0; g < sys->negroups; g++) {
        fl_fast *z = &s->fast[g];
        if (!z->n) continue;
        const fl_egroup *eg = &sys->egroups[g];
        int np = eg->ops->fast_npar;
        size_t hn = 16;
        while (hn < 2 * (size_t)z->n) hn *= 2;
        int *slot = fl_xmalloc(sizeof(int) * hn); /* offsets of rows in tab, -1 empty */
        memset(slot, 0xff, sizeof(int) * hn);
        for (int i = 0; i < z->n; i++) {
            const double *p = s->par + s->elems[eg->first + i].pofs;
            size_t bytes = sizeof(double) * (size_t)np; /* the row's bits are its key */
            size_t h = (size_t)fl_fnv1a(FL_FNV1A_INIT, p, bytes) & (hn - 1);
            while (slot[h] >= 0 && memcmp(tab + slot[h], p, bytes) != 0) h = (h + 1) & (hn - 1);
            if (slot[h] < 0) {
                if (len + (size_t)np > cap) {
                    while (len + (size_t)np > cap) cap *= 2;
                    tab = fl_xrealloc(tab, sizeof(double) * cap);
                }
                memcpy(tab + len, p, bytes);
                slot[h] = (int)len;
                len += (size_t)np;
            }
            s->fast_pofs[eg->first + i] = slot[h];
        }
        free(slot);
    }
    tab = fl_xrealloc(tab, sizeof(double) * (len ? len : 1));
    free(s->fast_tab); /* (only now: out of memory above, the old one stays, still stale) */
    s->fast_tab = tab;
    for (int g = 0; g < sys->negroups; g++) {
        fl_fast *z = &s->fast[g];
        z->par = s->fast_tab;
        const int *po = s->fast_pofs + sys->egroups[g].first;
        int one = z->n > 0 && z->npar <= FL_FAST_NPAR_MAX; /* every element reads the same row */
        for (int i = 1; i < z->n && one; i++) one = po[i] == po[0];
        z->upar = one ? s->fast_tab + po[0] : NULL;
    }
    s->fast_stale = 0;
}

/* Whether each strand's bodies sit at one position offset (fl_sim.qoff),
 * and each batch's elements have one row of discrete Real states, bit for
 * bit: a chain of alike parts that has not had an event since it started
 * from one place. The kernels then read the one value instead of a row
 * per part, which a large model's residual streams from memory at every
 * call (the values are the same, so is every sum). Looked at again after
 * anything that may change them (fl_states_changed); allocates nothing,
 * so it may run inside the integrator. */
static void uniform(fl_sim *s)
{
    const fl_system *sys = s->sys;
    for (int k = 0; k < s->nstrand; k++) {
        fl_strand *st = &s->strand[k];
        st->qoff0 = s->qoff[st->b0];
        st->uqoff = rows_alike(s->qoff + st->b0, st->n + 1, 1);
    }
    for (int g = 0; g < sys->negroups; g++) {
        fl_fast *z = &s->fast[g];
        if (z->n && z->nreal) z->rstep = rows_alike(s->rs + z->rs0, z->n, z->nreal) ? 0 : z->nreal;
    }
    s->uni_stale = 0;
}

void fl_fast_ready(fl_sim *s)
{
    if (s->fast_stale) pack(s);
    if (s->uni_stale) uniform(s);
}

void fl_fast_plan_free(fl_sim *s)
{
    free(s->fast);
    free(s->fastj);
    free(s->fast_pofs);
    free(s->fast_tab);
    free(s->fast_place);
    s->fast_place = NULL;
    s->fast = NULL;
    s->fastj = NULL;
    s->fast_pofs = NULL;
    s->fast_tab = NULL;
    bodies_free(&s->fbod);
    bodies_free(&s->fkeep);
    for (int k = 0; k < s->nstrand; k++) {
        free(s->strand[k].fused);
        free(s->strand[k].mass);
    }
    free(s->strand);
    s->strand = NULL;
    s->nstrand = 0;
    free(s->strand_ident);
    s->strand_ident = NULL;
    free(s->zrow);
    s->zrow = NULL;
    s->nzrow = 0;
}
