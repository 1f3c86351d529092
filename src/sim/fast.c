/* fast.c - the integrator's residual for classes with a fast kernel
 * (fl_elem_ops.fast): why and what is kept.
 *
 * The residual IDA asks for thousands of times is, for a large model,
 * mostly compliant two-flange elements. Through eval() each of them reads
 * its 88-byte record, writes its two flange forces into s->f, and a
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
 *
 * The parameters a kernel reads are copied into one table, rows shared by
 * the elements whose values are the same bit for bit: the instances'
 * parameter blocks lie far apart, a large model of alike parts has a few
 * rows that stay in cache. The table is made again after a parameter
 * changes (fl_sim.fast_stale). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

/* The batches' views and the free bodies' arrays. */
void fl_fast_plan(fl_sim *s)
{
    const fl_system *sys = s->sys;
    s->fast = fl_xcalloc((size_t)(sys->negroups ? sys->negroups : 1), sizeof(fl_fast));
    s->fast_pofs = fl_xcalloc((size_t)(sys->nelem ? sys->nelem : 1), sizeof(int));
    for (int g = 0; g < sys->negroups; g++) {
        const fl_egroup *eg = &sys->egroups[g];
        if (!eg->ops->fast) continue;
        const fl_elem *e = &sys->elems[eg->first];
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
        z->off = sys->att_off + 2 * eg->first;
        z->ratio = sys->att_ratio + 2 * eg->first;
        z->row = sys->elem_frow + 2 * eg->first;
        z->pofs = s->fast_pofs + eg->first; /* offsets into s->fast_tab (fl_fast_pack) */
        z->mode0 = e->mode;
        z->nmodes = eg->ops->nmodes;
        z->rs0 = e->rs;
        z->nreal = eg->ops->nreal;
    }
    s->fast_stale = 1;
    fl_fast_bodies *fb = &s->fbod;
    size_t nb = (size_t)(sys->nbodies ? sys->nbodies : 1);
    fb->b = fl_xmalloc(sizeof(int) * nb);
    fb->qi = fl_xmalloc(sizeof(int) * nb);
    fb->vi = fl_xmalloc(sizeof(int) * nb);
    fb->mass = fl_xmalloc(sizeof(double) * nb);
    fb->other = fl_xmalloc(sizeof(int) * nb);
    for (int b = 0; b < sys->nbodies; b++) {
        const fl_body *bd = &sys->bodies[b];
        if (bd->kind != B_FREE) {
            fb->other[fb->nother++] = b;
            continue;
        }
        fb->b[fb->n] = b;
        fb->qi[fb->n] = bd->qi;
        fb->vi[fb->n] = bd->vi;
        fb->mass[fb->n++] = bd->mass;
    }
}

static uint64_t row_hash(const double *p, int np)
{
    uint64_t h = 1469598103934665603ULL;
    for (int k = 0; k < np; k++) {
        uint64_t b;
        memcpy(&b, &p[k], sizeof b);
        h = (h ^ b) * 1099511628211ULL;
        h ^= h >> 29;
    }
    return h;
}

void fl_fast_pack(fl_sim *s)
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
            const double *p = s->par + sys->elems[eg->first + i].pofs;
            size_t h = (size_t)row_hash(p, np) & (hn - 1);
            while (slot[h] >= 0 && memcmp(tab + slot[h], p, sizeof(double) * (size_t)np) != 0) h = (h + 1) & (hn - 1);
            if (slot[h] < 0) {
                while (len + (size_t)np > cap) cap *= 2;
                tab = fl_xrealloc(tab, sizeof(double) * cap);
                memcpy(tab + len, p, sizeof(double) * (size_t)np);
                slot[h] = (int)len;
                len += (size_t)np;
            }
            s->fast_pofs[eg->first + i] = slot[h];
        }
        free(slot);
    }
    free(s->fast_tab);
    s->fast_tab = fl_xrealloc(tab, sizeof(double) * (len ? len : 1));
    for (int g = 0; g < sys->negroups; g++) s->fast[g].par = s->fast_tab;
    s->fast_stale = 0;
}

void fl_fast_plan_free(fl_sim *s)
{
    free(s->fast);
    free(s->fast_pofs);
    free(s->fast_tab);
    s->fast = NULL;
    s->fast_pofs = NULL;
    s->fast_tab = NULL;
    fl_fast_bodies *fb = &s->fbod;
    free(fb->b);
    free(fb->qi);
    free(fb->vi);
    free(fb->mass);
    free(fb->other);
    memset(fb, 0, sizeof *fb);
}
