/* journal.c - what makes a study resumable and transportable: each finished
 * run is one self-checking record (run, status, message, collected values,
 * saved trajectory; an FNV-1a checksum at its end). The journal beside the
 * output (OUT.journal) receives every record as it is stored and is
 * flushed, so a study killed at any moment loses at most the runs in
 * progress; --resume reads the records back (a torn last record is cut
 * off) and runs what is missing. MPI ranks send the same records to rank 0
 * (fl_sweep_pack, fl_sweep_unpack). A signature of the study's definition
 * heads the journal: resuming a different study is refused. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep.h"
#include "util/diag.h"
#include "util/util.h"

#define REC_MAGIC 0x46524c46u /* "FLRF" */
static const char head_text[] = "flange sweep journal 1\n";

static void fnv(uint64_t *h, const void *p, size_t n)
{
    *h = fl_fnv1a(*h, p, n);
}

static void fnv_str(uint64_t *h, const char *s)
{
    if (s) fnv(h, s, strlen(s) + 1);
    else fnv(h, "", 1);
}

uint64_t sw_signature(const fl_sweep *s)
{
    uint64_t h = FL_FNV1A_INIT;
    fnv_str(&h, s->model_text);
    fnv_str(&h, s->model_opt);
    for (int i = 0; i < s->nbase_params; i++) fnv_str(&h, s->base_params[i]);
    for (int j = 0; j < s->npar; j++) fnv_str(&h, s->par[j].name);
    fnv(&h, &s->nruns, sizeof s->nruns);
    if (s->npar) fnv(&h, s->runs, sizeof(double) * (size_t)s->nruns * (size_t)s->npar);
    for (int j = 0; j < s->ncol; j++) fnv_str(&h, s->col[j].text);
    for (int k = 0; k < s->nsave; k++) fnv_str(&h, s->save[k]);
    double t[4] = {s->opts.start_time, s->opts.stop_time, s->opts.interval, s->opts.tolerance};
    fnv(&h, t, sizeof t);
    fnv(&h, &s->opts.solver, sizeof s->opts.solver);
    return h;
}

/* A record goes to a sink: a stream, or a buffer that counts what it would need. */
typedef struct sink {
    FILE *f;
    unsigned char *buf;
    size_t cap, n;
    uint64_t h;
    int err;
} sink;

static void put(sink *k, const void *p, size_t n)
{
    fnv(&k->h, p, n);
    if (k->f) {
        if (fwrite(p, 1, n, k->f) != n) k->err = 1;
    } else if (k->buf && k->n + n <= k->cap) {
        memcpy(k->buf + k->n, p, n);
    }
    k->n += n;
}

static void put_record(sink *k, const fl_sweep *s, long run)
{
    const sw_result *r = &s->res[run];
    uint32_t magic = REC_MAGIC, msglen = (uint32_t)(r->msg ? strlen(r->msg) : 0), ncol = (uint32_t)s->ncol,
             w = (uint32_t)(1 + s->nsave);
    int64_t run64 = run, npts = r->npts;
    int32_t status = r->status;
    k->h = FL_FNV1A_INIT;
    put(k, &magic, 4);
    put(k, &run64, 8);
    put(k, &status, 4);
    put(k, &msglen, 4);
    if (msglen) put(k, r->msg, msglen);
    put(k, &ncol, 4);
    for (uint32_t j = 0; j < ncol; j++) {
        double v = r->vals ? r->vals[j] : NAN;
        put(k, &v, 8);
    }
    put(k, &npts, 8);
    put(k, &w, 4);
    if (npts) put(k, r->traj, sizeof(double) * (size_t)npts * w);
    uint64_t h = k->h;
    put(k, &h, 8);
}

/* Parse one record from [p, p + n); 0 and its length in *used, -1 when
 * torn or damaged. Stores the result (not journalled again when `quiet`). */
static int get_record(fl_sweep *s, const unsigned char *p, size_t n, size_t *used, int journal_it)
{
    size_t o = 0;
    uint64_t h = FL_FNV1A_INIT;
#define TAKE(dst, len)                         \
    do {                                       \
        if (o + (len) > n) return -1;          \
        memcpy((dst), p + o, (len));           \
        fnv(&h, p + o, (len));                 \
        o += (len);                            \
    } while (0)
    uint32_t magic, msglen, ncol, w;
    int64_t run, npts;
    int32_t status;
    TAKE(&magic, 4);
    if (magic != REC_MAGIC) return -1;
    TAKE(&run, 8);
    TAKE(&status, 4);
    TAKE(&msglen, 4);
    if (run < 0 || run >= s->nruns || (status != 0 && status != 1) || msglen > n) return -1;
    const unsigned char *msg = p + o;
    if (o + msglen > n) return -1;
    fnv(&h, msg, msglen);
    o += msglen;
    TAKE(&ncol, 4);
    if (ncol != (uint32_t)s->ncol || o + 8 * (size_t)ncol > n) return -1;
    const unsigned char *vals = p + o;
    fnv(&h, vals, 8 * (size_t)ncol);
    o += 8 * (size_t)ncol;
    TAKE(&npts, 8);
    TAKE(&w, 4);
    if (w != (uint32_t)(1 + s->nsave) || npts < 0 || (uint64_t)npts > (n - o) / 8 / w) return -1;
    const unsigned char *traj = p + o;
    fnv(&h, traj, 8 * (size_t)npts * w);
    o += 8 * (size_t)npts * w;
    uint64_t want = h, got;
    if (o + 8 > n) return -1;
    memcpy(&got, p + o, 8);
    o += 8;
#undef TAKE
    if (got != want) return -1;
    char *m = fl_xstrndup((const char *)msg, msglen);
    double *v = fl_xmalloc(8 * (size_t)(ncol + 1));
    memcpy(v, vals, 8 * (size_t)ncol);
    double *t = NULL;
    if (npts) {
        t = fl_xmalloc(8 * (size_t)npts * w);
        memcpy(t, traj, 8 * (size_t)npts * w);
    }
    FILE *keep = s->journal;
    if (!journal_it) s->journal = NULL;
    sw_store(s, (long)run, status, m, v, (long)npts, t);
    s->journal = keep;
    *used = o;
    return 0;
}

void sw_journal_append(fl_sweep *s, long run)
{
    if (!s->journal) return;
    sink k = {s->journal, NULL, 0, 0, 0, 0};
    put_record(&k, s, run);
    if (fflush(s->journal) || k.err) {
        /* a full disk: keep going, the final output still gets written */
        fclose(s->journal);
        s->journal = NULL;
        fprintf(stderr, "flange: warning: %s: cannot write the journal (%s): --resume will redo the runs "
                "after this one\n", s->journal_path, strerror(errno));
    }
}

static unsigned char *slurp(FILE *f, size_t *n)
{
    fl_buf b = {0};
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) fl_buf_addn(&b, chunk, got);
    *n = b.n;
    return (unsigned char *)fl_buf_take(&b);
}

int sw_journal_open(fl_sweep *s, const char *path, int resume, fl_diag *d)
{
    uint64_t sig = sw_signature(s);
    int64_t nruns = s->nruns;
    free(s->journal_path);
    s->journal_path = fl_xstrdup(path);
    FILE *f = fopen(path, "rb");
    if (f && !resume) {
        fclose(f);
        fl_err(d, fl_noloc, "%s exists: an earlier run of this study was interrupted; add --resume to continue it "
               "(or remove the file to start again)", path);
        return -1;
    }
    if (!f && resume && errno != ENOENT) {
        fl_err(d, fl_noloc, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    long recovered = 0;
    size_t good = 0;
    if (f) {
        size_t n;
        unsigned char *all = slurp(f, &n);
        fclose(f);
        size_t hl = sizeof head_text - 1;
        uint64_t fsig;
        int64_t fruns;
        if (n < hl + 16 || memcmp(all, head_text, hl)) {
            free(all);
            fl_err(d, fl_noloc, "%s: not a journal of flange sweep", path);
            return -1;
        }
        memcpy(&fsig, all + hl, 8);
        memcpy(&fruns, all + hl + 8, 8);
        if (fsig != sig || fruns != nruns) {
            free(all);
            fl_err(d, fl_noloc, "%s belongs to a different study (the model, the parameters, the collected "
                   "quantities or the times differ): cannot resume it with these settings", path);
            return -1;
        }
        good = hl + 16;
        size_t used;
        while (good < n && get_record(s, all + good, n - good, &used, 0) == 0) {
            good += used;
            recovered++;
        }
        free(all);
        if (truncate(path, (off_t)good)) {
            fl_err(d, fl_noloc, "%s: cannot cut off the unfinished record: %s", path, strerror(errno));
            return -1;
        }
        f = fopen(path, "ab");
    } else {
        f = fopen(path, "wb");
        if (f && (fwrite(head_text, 1, sizeof head_text - 1, f) != sizeof head_text - 1 || fwrite(&sig, 8, 1, f) != 1 ||
                  fwrite(&nruns, 8, 1, f) != 1 || fflush(f))) {
            fclose(f);
            remove(path);
            f = NULL;
        }
    }
    if (!f) {
        fl_err(d, fl_noloc, "%s: cannot write the journal: %s", path, strerror(errno));
        return -1;
    }
    s->journal = f;
    return (int)(recovered > 2147483647L ? 2147483647L : recovered);
}

void sw_journal_close(fl_sweep *s, int remove_it)
{
    if (s->journal) fclose(s->journal);
    s->journal = NULL;
    if (remove_it && s->journal_path) remove(s->journal_path);
    free(s->journal_path);
    s->journal_path = NULL;
}

FL_GUARDED(long, fl_sweep_journal, (fl_sweep *s, const char *path, int resume, fl_diag *d), (s, path, resume, d),
           -1, d)
{
    if (!s || !s->prepared || !path) {
        fl_err(d, fl_noloc, "fl_sweep_journal: no prepared study or no path");
        return -1;
    }
    return sw_journal_open(s, path, resume, d);
}

void fl_sweep_journal_close(fl_sweep *s, int remove_it)
{
    if (s) sw_journal_close(s, remove_it);
}

size_t fl_sweep_pack(const fl_sweep *s, long run, void *buf, size_t cap)
{
    if (!s || !s->prepared || run < 0 || run >= s->nruns || !s->res[run].done) return 0;
    sink k = {NULL, buf, cap, 0, 0, 0};
    put_record(&k, s, run);
    return k.n;
}

FL_GUARDED(int, fl_sweep_unpack, (fl_sweep *s, const void *buf, size_t n, fl_diag *d), (s, buf, n, d), -1, d)
{
    size_t used;
    if (!s || !s->prepared || !buf || get_record(s, buf, n, &used, 1) || used != n) {
        fl_err(d, fl_noloc, "fl_sweep_unpack: a damaged result record");
        return -1;
    }
    return 0;
}
