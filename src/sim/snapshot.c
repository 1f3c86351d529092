/* snapshot.c - the whole state of a stepping run as bytes (an FMU's
 * fmi2GetFMUstate / SerializeFMUstate), and back. The state is what the
 * run's future depends on: time, every unknown and its derivative, the
 * positions' offsets, discrete states, parameters (tunables and inputs),
 * the run's counters, warnings and energy sums, and Model Exchange's
 * indicator reference. Scratch arrays (kinematics, forces, outputs under
 * evaluation) are recomputed at every evaluation and are not saved.
 * IDA's step history cannot be saved (SUNDIALS has no such call): a
 * Co-Simulation run restarts IDA at the restored point, so it continues
 * as the original did to the tolerance, and identically from two restores.
 *
 * One function (xfer) walks the fields for the size, the save and the
 * restore, so the three cannot disagree. The bytes are the host's: a
 * header (magic, version, sizes, a hash of the system's names, the total
 * length, a checksum of the body) refuses a snapshot of another model,
 * build or a damaged copy instead of reading it. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "sim/step.h"

#define SNAP_MAGIC "FLSNAP01"
#define SNAP_NSIZES 10

typedef struct snap_head {
    char magic[8];
    char version[16];
    uint64_t system;   /* hash of the system's sizes and names */
    uint64_t total;    /* bytes of the whole snapshot, header included */
    uint64_t checksum; /* of the bytes after the header */
    int32_t sizes[SNAP_NSIZES];
    int32_t kind; /* FL_RUN_CS or FL_RUN_ME */
    int32_t pad;
} snap_head;

typedef struct cursor {
    unsigned char *p; /* NULL: count only */
    size_t off;
    int restore;
} cursor;

/* One field: saved from / restored into v (NULL when saving: zeros). */
static void xfer(cursor *c, void *v, size_t nb)
{
    if (c->p && nb) {
        if (c->restore) memcpy(v, c->p + c->off, nb);
        else if (v) memcpy(c->p + c->off, v, nb);
        else memset(c->p + c->off, 0, nb);
    }
    c->off += nb;
}

#define X(field) xfer(c, &(field), sizeof(field))
#define XA(ptr, count) xfer(c, (ptr), sizeof *(ptr) * (size_t)(count))

/* Every saved field, in order. st: the statistics (the live IDA counters
 * included when saving). */
static void fields(fl_sim *s, cursor *c, fl_stats *st)
{
    const fl_system *sys = s->sys;
    fl_run *r = &s->run;
    X(r->t0);
    X(r->h);
    X(r->tend);
    X(r->t);
    X(r->kgrid);
    X(r->stalled);
    X(r->energy);
    X(r->me_dirty);
    X(r->me_zref);
    XA(r->z_ref, sys->nroot_fns);
    X(s->rtol);
    X(s->use_klu);
    X(s->t_end);
    X(s->h_out);
    X(s->t_left);
    X(s->contact_events);
    X(s->terminate);
    X(s->term_msg);
    X(s->func_err);
    X(s->func_fatal);
    X(s->last_warn);
    X(s->last_warn_t);
    X(s->impact_loss);
    X(s->impulse_work);
    X(s->energy);
    X(s->e_diss);
    X(s->e_work);
    X(s->e_work_abs);
    X(s->e_balance0);
    X(s->e_initial);
    X(s->e_drift_max);
    X(s->e_loss_neg);
    X(s->e_seen_max);
    X(s->have_values);
    XA(s->y, sys->n);
    XA(s->yp, sys->n);
    XA(s->qoff, sys->nbodies);
    XA(s->mode, sys->nmodes);
    XA(s->rs, sys->nreal);
    if (c->restore && c->p) fl_sim_own_par(s);
    for (int i = 0; i < sys->ninst; i++) { /* instance by instance (rows the system shares are written for each) */
        const fl_inst_rt *ir = &sys->insts[i];
        XA(s->par + fl_sim_prow(s, ir), ir->cls->nparams + ir->cls->nderived);
    }
    /* the deepest penetrations, a record per contact (zeros: none yet) */
    if (c->restore && c->p) fl_pen_clear(s);
    for (int k = 0; k < s->npen_el; k++) {
        struct fl_pen pk = {0, 0, 0, 0};
        const struct fl_pen *have = c->restore ? NULL : fl_pen_of(s, k);
        if (have) pk = *have;
        X(pk);
        if (c->restore && c->p && (pk.ratio != 0 || pk.depth != 0 || pk.gap != 0 || pk.t != 0)) *fl_pen_add(s, k) = pk;
    }
    XA(s->vals, sys->nvars);
    xfer(c, st, sizeof *st);
}


static void head_of(const fl_sim *s, snap_head *h)
{
    const fl_system *sys = s->sys;
    memset(h, 0, sizeof *h);
    memcpy(h->magic, SNAP_MAGIC, 8);
    snprintf(h->version, sizeof h->version, "%s", fl_version());
    int32_t z[SNAP_NSIZES] = {sys->n,    sys->nd,   sys->nmodes, sys->nreal, sys->npar,
                              sys->nbodies, sys->nroot_fns, sys->nvars, sys->nelem, (int32_t)sizeof(fl_stats)};
    memcpy(h->sizes, z, sizeof z);
    uint64_t x = fl_fnv1a(FL_FNV1A_INIT, z, sizeof z);
    for (int i = 0; i < sys->n; i++) {
        const char *un = fl_unk_name(sys, i);
        x = fl_fnv1a(x, un, strlen(un) + 1);
    }
    for (int i = 0; i < sys->nvars; i++) {
        const char *nm = fl_system_var_name(sys, i);
        if (nm) x = fl_fnv1a(x, nm, strlen(nm) + 1);
    }
    h->system = x;
    h->kind = s->run.kind;
}

static size_t body_size(const fl_sim *s)
{
    cursor c = {NULL, 0, 0};
    fl_stats st;
    fields((fl_sim *)s, &c, &st);
    return c.off;
}

size_t fl_sim_snapshot_size(const fl_sim *s)
{
    if (!s || s->run.kind == FL_RUN_NONE) return 0;
    return sizeof(snap_head) + body_size(s);
}

int fl_sim_snapshot(const fl_sim *s, void *buf, size_t n)
{
    if (!s || !buf || s->run.kind == FL_RUN_NONE || n != fl_sim_snapshot_size(s)) return -1;
    snap_head h;
    head_of(s, &h);
    h.total = n;
    unsigned char *p = buf;
    cursor c = {p + sizeof h, 0, 0};
    fl_stats st = fl_sim_stats(s);
    st.linear_solver = NULL;
    fields((fl_sim *)s, &c, &st); /* (saving reads s only) */
    h.checksum = fl_fnv1a(FL_FNV1A_INIT, p + sizeof h, c.off);
    memcpy(p, &h, sizeof h);
    return 0;
}

FL_GUARDED(int, fl_sim_restore, (fl_sim *s, const void *buf, size_t n, const fl_sim_opts *o, fl_diag *d),
           (s, buf, n, o, d), -1, d)
{
    if (!s || !buf) {
        fl_err(d, fl_noloc, "cannot restore a snapshot: no simulation or no snapshot");
        return -1;
    }
    const fl_system *sys = s->sys;
    snap_head h, mine;
    if (n < sizeof h || memcmp(buf, SNAP_MAGIC, 8) != 0) {
        fl_err(d, fl_noloc, "not a flange snapshot (FMU state): %zu bytes without its header", n);
        return -1;
    }
    memcpy(&h, buf, sizeof h);
    if (strncmp(h.version, fl_version(), sizeof h.version) != 0) {
        fl_err(d, fl_noloc, "the snapshot was taken by flange %.16s; this is flange %s", h.version, fl_version());
        return -1;
    }
    int kind = h.kind;
    if (kind != FL_RUN_CS && kind != FL_RUN_ME) {
        fl_err(d, fl_noloc, "the snapshot is corrupt (unknown kind of run %d)", kind);
        return -1;
    }
    mine.kind = kind;
    head_of(s, &mine);
    if (memcmp(h.sizes, mine.sizes, sizeof h.sizes) != 0 || h.system != mine.system) {
        fl_err(d, fl_noloc, "the snapshot was taken of another model (its sizes or names differ from this one's)");
        return -1;
    }
    size_t want = sizeof h + body_size(s);
    if (h.total != want || n != want) {
        fl_err(d, fl_noloc, "the snapshot is truncated or corrupt: %zu bytes, %zu expected", n, want);
        return -1;
    }
    const unsigned char *p = buf;
    if (fl_fnv1a(FL_FNV1A_INIT, p + sizeof h, n - sizeof h) != h.checksum) {
        fl_err(d, fl_noloc, "the snapshot is corrupt: its checksum does not match its contents");
        return -1;
    }
    if (s->run.kind != kind) {
        /* restoring into a fresh sim (an importer right after instantiation)
         * or one of the other kind: the run begins from the snapshot, not
         * from an initialisation */
        if (s->run.kind != FL_RUN_NONE) fl_step_end(s, NULL);
        fl_sim_opts oo = o ? *o : fl_sim_default_opts(sys);
        oo.outputs = NULL;
        oo.noutputs = 0;
        if (fl_run_reset(s, &oo, 0, NULL, NULL, d)) {
            s->diag = NULL;
            return -1;
        }
    }
    s->diag = d;
    fl_free_integrator(s);
    if (!s->run.z_ref) s->run.z_ref = fl_xcalloc((size_t)(sys->nroot_fns ? sys->nroot_fns : 1), sizeof(double));
    cursor c = {(unsigned char *)p + sizeof h, 0, 1};
    fl_stats st;
    if (!s->vals) fl_sim_full_values(s, 0); /* (a stepping run keeps every value) */
    fields(s, &c, &st);
    fl_params_changed(s); /* the parameters may differ */
    fl_states_changed(s); /* and the positions' offsets, the discrete Real states */
    st.linear_solver = fl_ida_ls_for(s->use_klu)->name;
    s->stats = st;
    s->run.kind = kind;
    s->run.emit_grid = 0;
    s->run.fn = NULL;
    s->run.user = NULL;
    s->run.stopped = 0;
    if (kind == FL_RUN_CS && fl_run_start_ida(s)) {
        s->run.kind = FL_RUN_NONE;
        s->diag = NULL;
        return -1;
    }
    s->diag = NULL;
    return 0;
}
