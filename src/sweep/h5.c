/* h5.c - a study's result table as an HDF5 file (Debian's libhdf5, the
 * serial build: the one libmatio links too). The layout, made for h5py,
 * pandas, MATLAB and Julia users:
 *
 *   /                     root attributes, each present only when known:
 *     model_name          the model's class name (string)
 *     model_text          the model's Modelica text (string)
 *     flange_version      the flange that wrote the file ("0.1.0")
 *     nruns               runs of the whole study (int64; a shard holds a slice of them)
 *     parameters          the parameter definitions as given ("mass.m=1:2:3"), one string each
 *     structural          int8, one per parameter: 1 when changing it recompiles the model
 *   /table                one 1-D dataset per column, all of the same length (one
 *                         value per run); attribute `columns`: the column names in
 *                         the table's order ("run", the parameters, "status",
 *                         "message", the collected quantities as written)
 *     <column>            float64 for a number column (NaN: no value), a
 *                         variable-length UTF-8 string for a text column
 *   /trajectories         only with saved trajectories (--save); attribute
 *                         `variables`: the saved variables' names in order
 *     run_<run>           one group per run that has points: <run> is the row's
 *                         "run" value, zero-padded to 6 digits (run_000042), so
 *                         that name order is run order below a million runs. A run
 *                         without points (a failed one) has no group.
 *       time              float64, the run's output times
 *       <variable>        float64, one per saved variable, as long as time
 *
 * Strings are UTF-8 (those that are not valid UTF-8 are stored with HDF5's
 * ASCII character set: h5py then gives bytes). A dataset is named as its
 * column or variable, except that HDF5 names cannot hold '/' nor be "." or
 * empty: '%' is written "%25", '/' "%2F", a leading '.' "%2E", and the
 * empty name "%"; `columns` and `variables` hold the true names. /table
 * keeps its datasets' creation order and the root its attributes' (h5py
 * lists them in that order; elsewhere it lists by name). Columns and
 * trajectories of 1024 values or more are stored in chunks, compressed
 * (shuffle + deflate 4). The file keeps to the HDF5 1.8 format, which every
 * current reader reads, and holds no times: the same table gives the same
 * bytes.
 *
 * With h5py:
 *   f = h5py.File("study.h5"); t = f["table"]
 *   cols = {c: t[c].asstr()[()] if t[c].dtype.kind == "O" else t[c][()] for c in t.attrs["columns"]}
 *   x = f["trajectories/run_000003/mass.s"][()]
 *
 * The reader takes back everything the writer wrote: the columns in the
 * order `columns` gives, text or number by each dataset's type (integer
 * and float datasets read as numbers, fixed-length strings as text, so a
 * table written by h5py reads too), the attributes present, and the
 * trajectories matched to rows by run number. A file that is not HDF5, is
 * empty or truncated, lacks /table or holds columns of different lengths is
 * refused with a message naming it. HDF5 checksums its metadata (a damaged
 * superblock or object header is refused) but not the variable-length data
 * of the strings: a file damaged there can make libhdf5 1.10 crash or hang
 * (it does not guard against damaged files); a file that is only cut short,
 * the common damage, is always refused.
 *
 * Serial HDF5 is not thread-safe: the writer and the reader must be called
 * from one thread at a time, and nothing else in the process may use HDF5
 * meanwhile (the sweep writes and merges from its main thread only). Their
 * HDF5 calls run with the library's own error printing switched off; the
 * failures are reported through the fl_diag instead. */
#include <errno.h>
#include <hdf5.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/target.h"
#include "sweep/table.h"
#include "util/diag.h"
#include "util/util.h"

#if H5_VERSION_GE(1, 12, 0)
#define h5_reclaim(type, space, buf) H5Treclaim((type), (space), H5P_DEFAULT, (buf))
#define h5_is_hdf5(path) H5Fis_accessible((path), H5P_DEFAULT)
#else
#define h5_reclaim(type, space, buf) H5Dvlen_reclaim((type), (space), H5P_DEFAULT, (buf))
#define h5_is_hdf5(path) H5Fis_hdf5(path)
#endif

/* No file locks: the writer writes a temporary file no one else opens, and
 * replaces the target by renaming, so a reader never sees a file being
 * written. Locks fail on file systems without them (NFS, Lustre: where
 * clusters keep their results). H5Pset_file_locking: 1.10.7, 1.12.1. */
#if H5_VERSION_GE(1, 12, 1) || (H5_VERS_MAJOR == 1 && H5_VERS_MINOR == 10 && H5_VERS_RELEASE >= 7)
#define h5_no_locks(fapl) H5Pset_file_locking((fapl), 0, 1)
#else
#define h5_no_locks(fapl) 0
#endif

#define CHUNK_MIN 1024   /* datasets at least this long are chunked and compressed */
#define CHUNK_MAX 65536  /* values per chunk (512 KiB of doubles) */
#define DEFLATE_LEVEL 4
#define MAX_IDS 32       /* HDF5 objects open at once */

int sw_h5_path(const char *path)
{
    if (!path) return 0;
    size_t n = strlen(path);
    return (n >= 3 && strcasecmp(path + n - 3, ".h5") == 0) || (n >= 5 && strcasecmp(path + n - 5, ".hdf5") == 0);
}

/* ---- what a write or a read holds, released on every way out ------------------ */

typedef struct h5io {
    const char *path; /* as given, for messages */
    fl_diag *d;
    fl_target t;      /* the writer's temporary file */
    hid_t ids[MAX_IDS]; /* open HDF5 objects, most recent last */
    int nids;
    H5E_auto2_t efunc; /* HDF5's error printing, restored at the end */
    void *edata;
    int quiet;
    /* variable-length strings read and not yet reclaimed */
    hid_t vl_type, vl_space;
    char **vl_buf;
    char **strs; /* strings being read (get_strings), n of them */
    size_t nstrs;
    void *buf;   /* scratch */
    char *name;  /* scratch: a link name */
    sw_table tab; /* the reader's table under construction */
} h5io;

static herr_t close_id(hid_t id)
{
    switch (H5Iget_type(id)) {
    case H5I_FILE: return H5Fclose(id);
    case H5I_GROUP: return H5Gclose(id);
    case H5I_DATATYPE: return H5Tclose(id);
    case H5I_DATASPACE: return H5Sclose(id);
    case H5I_DATASET: return H5Dclose(id);
    case H5I_ATTR: return H5Aclose(id);
    case H5I_GENPROP_LST: return H5Pclose(id);
    default: return H5Idec_ref(id) < 0 ? -1 : 0;
    }
}

/* Lists id (when valid) among the objects closed on every way out. */
static hid_t keep(h5io *io, hid_t id)
{
    if (id < 0) return id;
    if (io->nids == MAX_IDS) {
        close_id(id);
        fl_fail_internal("h5.c: more than %d HDF5 objects open", MAX_IDS);
    }
    io->ids[io->nids++] = id;
    return id;
}

/* Closes a kept object: the close's status (a file's close writes). */
static herr_t drop(h5io *io, hid_t id)
{
    if (id < 0) return 0;
    for (int i = io->nids - 1; i >= 0; i--)
        if (io->ids[i] == id) {
            memmove(io->ids + i, io->ids + i + 1, (size_t)(io->nids - i - 1) * sizeof(hid_t));
            io->nids--;
            break;
        }
    return close_id(id);
}

static void free_strings(char **s, size_t n)
{
    if (!s) return;
    for (size_t i = 0; i < n; i++) free(s[i]);
    free(s);
}

/* Frees what a table holds (the reader's own: the sweep frees its tables
 * with sw_table_free). */
static void h5io_release(void *arg)
{
    h5io *io = arg;
    if (io->vl_buf) {
        h5_reclaim(io->vl_type, io->vl_space, io->vl_buf);
        free(io->vl_buf);
        io->vl_buf = NULL;
    }
    while (io->nids > 0) close_id(io->ids[--io->nids]);
    if (io->quiet) H5Eset_auto2(H5E_DEFAULT, io->efunc, io->edata);
    io->quiet = 0;
    fl_target_discard(&io->t);
    free_strings(io->strs, io->nstrs);
    io->strs = NULL;
    io->nstrs = 0;
    free(io->buf);
    io->buf = NULL;
    free(io->name);
    io->name = NULL;
    sw_table_free(&io->tab);
}

static void h5io_start(h5io *io, const char *path, fl_diag *d)
{
    memset(io, 0, sizeof *io);
    io->path = path;
    io->d = d;
    io->t.slot = -1;
    io->vl_type = io->vl_space = -1;
    H5open();
    if (H5Eget_auto2(H5E_DEFAULT, &io->efunc, &io->edata) >= 0 && H5Eset_auto2(H5E_DEFAULT, NULL, NULL) >= 0)
        io->quiet = 1;
}

/* ---- HDF5's reason for a failure -------------------------------------------- */

typedef struct reason {
    char desc[200]; /* the innermost description */
    int err;        /* an errno the file driver reported, or 0 */
} reason;

static herr_t reason_walk(unsigned n, const H5E_error2_t *e, void *data)
{
    reason *r = data;
    const char *desc = e->desc ? e->desc : "";
    if (n == 0) snprintf(r->desc, sizeof r->desc, "%s", desc);
    const char *en = strstr(desc, "errno = ");
    if (en && !r->err) r->err = atoi(en + 8);
    return 0;
}

/* What HDF5 said about its last failure: the errno behind it when there is
 * one ("No space left on device"), else its innermost description. */
static const char *h5_reason(char *buf, size_t n)
{
    reason r;
    memset(&r, 0, sizeof r);
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, reason_walk, &r);
    if (r.err > 0)
        snprintf(buf, n, "%s", strerror(r.err));
    else if (r.desc[0])
        snprintf(buf, n, "%s", r.desc);
    else
        snprintf(buf, n, "the HDF5 library failed");
    return buf;
}

/* ---- names ---------------------------------------------------------------------- */

/* The link name of a column or variable (see the top of the file). */
static char *link_name(h5io *io, const char *s)
{
    free(io->name);
    io->name = NULL;
    char *o = fl_xmalloc(3 * strlen(s) + 2), *p = o;
    if (!*s) *p++ = '%';
    for (const char *c = s; *c; c++) {
        if (*c == '%' || *c == '/' || (*c == '.' && c == s))
            p += sprintf(p, "%%%02X", (unsigned)(unsigned char)*c);
        else
            *p++ = *c;
    }
    *p = '\0';
    return io->name = o;
}

/* "run_000042": the group of a run's trajectories; -1 when x is no run number. */
static int run_group(double x, char buf[32])
{
    if (!(x >= 0 && x < 1e15) || x != floor(x)) return -1;
    snprintf(buf, 32, "run_%06lld", (long long)x);
    return 0;
}

static int utf8_valid(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p;
        int n;
        if (c < 0x80) {
            p++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF)
            n = 1;
        else if (c >= 0xE0 && c <= 0xEF)
            n = 2;
        else if (c >= 0xF0 && c <= 0xF4)
            n = 3;
        else
            return 0;
        for (int k = 1; k <= n; k++)
            if ((p[k] & 0xC0) != 0x80) return 0;
        if ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] >= 0xA0) || (c == 0xF0 && p[1] < 0x90) ||
            (c == 0xF4 && p[1] >= 0x90))
            return 0; /* overlong, a surrogate, beyond U+10FFFF */
        p += n + 1;
    }
    return 1;
}

/* ---- writing --------------------------------------------------------------------- */

/* A variable-length string type: UTF-8 when every string is. */
static hid_t str_type(h5io *io, const char *const *s, size_t n)
{
    int utf8 = 1;
    for (size_t i = 0; i < n && utf8; i++) utf8 = utf8_valid(s[i]);
    hid_t ty = keep(io, H5Tcopy(H5T_C_S1));
    if (ty < 0 || H5Tset_size(ty, H5T_VARIABLE) < 0 || H5Tset_cset(ty, utf8 ? H5T_CSET_UTF8 : H5T_CSET_ASCII) < 0)
        return -1;
    return ty;
}

/* Pointers to the strings, "" for NULL, in io->buf. */
static const char **string_ptrs(h5io *io, char *const *s, size_t n)
{
    free(io->buf);
    io->buf = NULL;
    const char **v = fl_xmalloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; i < n; i++) v[i] = s && s[i] ? s[i] : "";
    io->buf = v;
    return v;
}

/* An attribute of n strings (scalar: one string, not a list). */
static int put_strings_attr(h5io *io, hid_t obj, const char *name, char *const *s, size_t n, int scalar)
{
    const char **v = string_ptrs(io, s, n);
    hsize_t dims[1] = {n};
    hid_t ty = str_type(io, v, n);
    hid_t sp = ty < 0 ? -1 : keep(io, scalar ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, dims, NULL));
    hid_t at = sp < 0 ? -1 : keep(io, H5Acreate2(obj, name, ty, sp, H5P_DEFAULT, H5P_DEFAULT));
    int rc = at < 0 || H5Awrite(at, ty, v) < 0 ? -1 : 0;
    drop(io, at);
    drop(io, sp);
    drop(io, ty);
    return rc;
}

static int put_string_attr(h5io *io, hid_t obj, const char *name, const char *s)
{
    char *one[1] = {(char *)s};
    return put_strings_attr(io, obj, name, one, 1, 1);
}

/* An attribute of n numbers of file type ftype, given in memory as mtype
 * (scalar: one number). */
static int put_num_attr(h5io *io, hid_t obj, const char *name, hid_t ftype, hid_t mtype, const void *v, size_t n,
                        int scalar)
{
    hsize_t dims[1] = {n};
    hid_t sp = keep(io, scalar ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, dims, NULL));
    hid_t at = sp < 0 ? -1 : keep(io, H5Acreate2(obj, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT));
    int rc = at < 0 || H5Awrite(at, mtype, v) < 0 ? -1 : 0;
    drop(io, at);
    drop(io, sp);
    return rc;
}

/* Link creation: names in UTF-8. */
static hid_t make_lcpl(h5io *io)
{
    hid_t p = keep(io, H5Pcreate(H5P_LINK_CREATE));
    if (p >= 0 && H5Pset_char_encoding(p, H5T_CSET_UTF8) < 0) return -1;
    return p;
}

/* A group; ordered: one that keeps its links' creation order (h5py lists
 * them so). */
static hid_t make_group(h5io *io, hid_t loc, const char *name, hid_t lcpl, int ordered)
{
    hid_t gcpl = keep(io, H5Pcreate(H5P_GROUP_CREATE));
    if (gcpl < 0 || H5Pset_obj_track_times(gcpl, 0) < 0 ||
        (ordered && H5Pset_link_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) < 0))
        return -1;
    hid_t g = keep(io, H5Gcreate2(loc, name, lcpl, gcpl, H5P_DEFAULT));
    drop(io, gcpl);
    return g;
}

/* A 1-D dataset of n values (number: float64 filled with NaN; else ftype). */
static hid_t make_dataset(h5io *io, hid_t loc, const char *name, hid_t ftype, hsize_t n, int number, hid_t lcpl)
{
    hid_t sp = keep(io, H5Screate_simple(1, &n, NULL));
    hid_t dcpl = sp < 0 ? -1 : keep(io, H5Pcreate(H5P_DATASET_CREATE));
    if (dcpl < 0 || H5Pset_obj_track_times(dcpl, 0) < 0) return -1;
    if (n >= CHUNK_MIN) {
        hsize_t chunk = n < CHUNK_MAX ? n : CHUNK_MAX;
        if (H5Pset_chunk(dcpl, 1, &chunk) < 0) return -1;
        if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0) {
            if (number && H5Zfilter_avail(H5Z_FILTER_SHUFFLE) > 0 && H5Pset_shuffle(dcpl) < 0) return -1;
            if (H5Pset_deflate(dcpl, DEFLATE_LEVEL) < 0) return -1;
        }
    }
    if (number) {
        double nan = NAN;
        if (H5Pset_fill_value(dcpl, H5T_NATIVE_DOUBLE, &nan) < 0) return -1;
    }
    hid_t ds = keep(io, H5Dcreate2(loc, name, number ? H5T_IEEE_F64LE : ftype, sp, lcpl, dcpl, H5P_DEFAULT));
    drop(io, dcpl);
    drop(io, sp);
    return ds;
}

/* Writes column col of the row-major n x stride doubles at base into ds. */
static int write_column(h5io *io, hid_t ds, const double *base, hsize_t n, hsize_t stride, hsize_t col)
{
    if (n == 0) return 0;
    hsize_t dims[2] = {n, stride}, start[2] = {0, col}, count[2] = {n, 1};
    hid_t ms = keep(io, H5Screate_simple(2, dims, NULL));
    int rc = ms < 0 || H5Sselect_hyperslab(ms, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
                     H5Dwrite(ds, H5T_NATIVE_DOUBLE, ms, H5S_ALL, H5P_DEFAULT, base) < 0
                 ? -1
                 : 0;
    drop(io, ms);
    return rc;
}

/* Ends a write with HDF5's reason. */
static int write_failed(h5io *io)
{
    char why[256];
    fl_err(io->d, fl_noloc, "cannot write %s: %s", io->path, h5_reason(why, sizeof why));
    return -1;
}

static int write_table(h5io *io, const sw_table *t, hid_t file, hid_t lcpl)
{
    size_t ncols = t->ncols > 0 ? (size_t)t->ncols : 0;
    hsize_t nrows = t->nrows > 0 ? (hsize_t)t->nrows : 0;
    hid_t g = make_group(io, file, "table", lcpl, 1);
    if (g < 0 || put_strings_attr(io, g, "columns", t->names, ncols, 0)) return write_failed(io);
    for (size_t c = 0; c < ncols; c++) {
        const char *name = link_name(io, t->names[c] ? t->names[c] : "");
        if (H5Lexists(g, name, H5P_DEFAULT) > 0) {
            fl_err(io->d, fl_noloc, "cannot write %s: two columns are named '%s'", io->path, t->names[c]);
            return -1;
        }
        int text = t->text && t->text[c];
        if (!text) {
            hid_t ds = make_dataset(io, g, name, -1, nrows, 1, lcpl);
            if (ds < 0 || (t->num && write_column(io, ds, t->num, nrows, ncols, c))) return write_failed(io);
            drop(io, ds);
            continue;
        }
        /* the column's strings, "" for none */
        const char **v = fl_xmalloc((nrows ? nrows : 1) * sizeof *v);
        free(io->buf);
        io->buf = v;
        for (hsize_t r = 0; r < nrows; r++) {
            const char *s = t->str ? t->str[r * ncols + c] : NULL;
            v[r] = s ? s : "";
        }
        hid_t ty = str_type(io, v, nrows);
        hid_t ds = ty < 0 ? -1 : make_dataset(io, g, name, ty, nrows, 0, lcpl);
        if (ds < 0 || (nrows && H5Dwrite(ds, ty, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0)) return write_failed(io);
        drop(io, ds);
        drop(io, ty);
    }
    drop(io, g);
    return 0;
}

static int write_trajectories(h5io *io, const sw_table *t, hid_t file, hid_t lcpl)
{
    size_t nsave = (size_t)t->nsave, w = nsave + 1;
    int run_col = -1;
    for (int c = 0; c < t->ncols; c++)
        if (t->names[c] && strcmp(t->names[c], "run") == 0 && !(t->text && t->text[c])) run_col = c;
    for (size_t j = 0; j < nsave; j++) {
        const char *s = t->save_names[j] ? t->save_names[j] : "";
        if (strcmp(link_name(io, s), "time") == 0) {
            fl_err(io->d, fl_noloc, "cannot write %s: a saved variable is named 'time', as the output times are",
                   io->path);
            return -1;
        }
        for (size_t k = 0; k < j; k++)
            if (t->save_names[k] && strcmp(t->save_names[k], s) == 0) {
                fl_err(io->d, fl_noloc, "cannot write %s: the variable '%s' is saved twice", io->path, s);
                return -1;
            }
    }
    hid_t g = make_group(io, file, "trajectories", lcpl, 0);
    if (g < 0 || put_strings_attr(io, g, "variables", t->save_names, nsave, 0)) return write_failed(io);
    for (long r = 0; r < t->nrows; r++) {
        long n = t->npts ? t->npts[r] : 0;
        if (n <= 0) continue;
        char gname[32];
        if (run_col < 0) {
            fl_err(io->d, fl_noloc, "cannot write %s: the table has no 'run' column to name the trajectories by",
                   io->path);
            return -1;
        }
        double run = t->num ? t->num[(size_t)r * (size_t)t->ncols + (size_t)run_col] : NAN;
        if (run_group(run, gname)) {
            fl_err(io->d, fl_noloc, "cannot write %s: row %ld has trajectories but its run number is %.17g", io->path,
                   r + 1, run);
            return -1;
        }
        if (!t->traj || !t->traj[r]) {
            fl_err(io->d, fl_noloc, "cannot write %s: run %s has %ld points but no values", io->path, gname + 4, n);
            return -1;
        }
        if (H5Lexists(g, gname, H5P_DEFAULT) > 0) {
            fl_err(io->d, fl_noloc, "cannot write %s: two rows have the run number %s", io->path, gname + 4);
            return -1;
        }
        hid_t rg = make_group(io, g, gname, lcpl, 0);
        if (rg < 0) return write_failed(io);
        for (size_t j = 0; j < w; j++) {
            const char *name = j ? link_name(io, t->save_names[j - 1] ? t->save_names[j - 1] : "") : "time";
            hid_t ds = make_dataset(io, rg, name, -1, (hsize_t)n, 1, lcpl);
            if (ds < 0 || write_column(io, ds, t->traj[r], (hsize_t)n, w, j)) return write_failed(io);
            drop(io, ds);
        }
        drop(io, rg);
    }
    drop(io, g);
    return 0;
}

static int write_file(h5io *io, const sw_table *t)
{
    /* the 1.8 format (creation order, compact groups), attributes in creation
     * order, no times in the objects: the same table gives the same bytes */
    hid_t fapl = keep(io, H5Pcreate(H5P_FILE_ACCESS));
    hid_t fcpl = fapl < 0 ? -1 : keep(io, H5Pcreate(H5P_FILE_CREATE));
    if (fcpl < 0 || H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_V18) < 0 || h5_no_locks(fapl) < 0 ||
        H5Pset_attr_creation_order(fcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) < 0 ||
        H5Pset_obj_track_times(fcpl, 0) < 0)
        return write_failed(io);
    hid_t file = keep(io, H5Fcreate(io->t.tmp, H5F_ACC_TRUNC, fcpl, fapl));
    if (file < 0) return write_failed(io);
    drop(io, fcpl);
    drop(io, fapl);
    hid_t lcpl = make_lcpl(io);
    if (lcpl < 0) return write_failed(io);
    if ((t->model_name && put_string_attr(io, file, "model_name", t->model_name)) ||
        (t->model_text && put_string_attr(io, file, "model_text", t->model_text)) ||
        (t->version && put_string_attr(io, file, "flange_version", t->version)))
        return write_failed(io);
    if (t->nruns_total > 0) {
        int64_t n = t->nruns_total;
        if (put_num_attr(io, file, "nruns", H5T_STD_I64LE, H5T_NATIVE_INT64, &n, 1, 1)) return write_failed(io);
    }
    if (t->nparam_defs > 0 && t->param_defs) {
        size_t np = (size_t)t->nparam_defs;
        if (put_strings_attr(io, file, "parameters", t->param_defs, np, 0)) return write_failed(io);
        if (t->param_structural) {
            int8_t *s = fl_xmalloc(np);
            free(io->buf);
            io->buf = s;
            for (size_t i = 0; i < np; i++) s[i] = t->param_structural[i] ? 1 : 0;
            if (put_num_attr(io, file, "structural", H5T_STD_I8LE, H5T_NATIVE_INT8, s, np, 0))
                return write_failed(io);
        }
    }
    if (write_table(io, t, file, lcpl)) return -1;
    if (t->nsave > 0 && write_trajectories(io, t, file, lcpl)) return -1;
    drop(io, lcpl);
    if (drop(io, file) < 0) return write_failed(io); /* the close writes what HDF5 still holds */
    return 0;
}

int sw_table_write_h5(const sw_table *t, const char *path, fl_diag *d)
{
    if (!t || !path) return -1;
    h5io io;
    h5io_start(&io, path, d);
    fl_cleanup cl;
    fl_cleanup_push(&cl, h5io_release, &io);
    /* always a temporary file (HDF5 writes by name), renamed onto a regular
     * file or copied into a device at the end */
    int fd = fl_target_open(&io.t, path, FL_TARGET_FILE, d);
    int rc = fd < 0 ? -1 : 0;
    if (fd >= 0) close(fd);
    if (!rc) rc = write_file(&io, t);
    if (!rc && fl_target_commit(&io.t, d)) rc = -1;
    fl_cleanup_pop(&cl);
    h5io_release(&io);
    return rc;
}

/* ---- reading ------------------------------------------------------------------------ */

/* Ends a read with a message about the file. */
static int bad(h5io *io, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(h5io *io, const char *fmt, ...)
{
    fl_loc loc = {io->path, 0, 0};
    va_list ap;
    va_start(ap, fmt);
    char *msg = fl_xvsprintf(fmt, ap);
    va_end(ap);
    fl_err(io->d, loc, "%s", msg);
    free(msg);
    return -1;
}

/* Ends a read with HDF5's reason for failing at what. */
static int read_failed(h5io *io, const char *what)
{
    char why[256];
    return bad(io, "cannot read %s: %s", what, h5_reason(why, sizeof why));
}

/* The object named name in loc as an open, kept id of the given type
 * (H5I_GROUP, H5I_DATASET); 0 when there is none; -1 after a message. */
static int open_object(h5io *io, hid_t loc, const char *name, H5I_type_t type, const char *what, hid_t *id)
{
    *id = -1;
    htri_t e = H5Lexists(loc, name, H5P_DEFAULT);
    if (e < 0) return read_failed(io, what);
    if (e == 0) return 0;
    hid_t o = keep(io, H5Oopen(loc, name, H5P_DEFAULT));
    if (o < 0) return read_failed(io, what);
    if (H5Iget_type(o) != type) {
        drop(io, o);
        return bad(io, "%s is not a %s", what, type == H5I_GROUP ? "group" : "dataset");
    }
    *id = o;
    return 0;
}

/* Reads a whole attribute or dataset as mtype. */
static herr_t read_all(hid_t obj, int attr, hid_t mtype, void *buf)
{
    return attr ? H5Aread(obj, mtype, buf) : H5Dread(obj, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
}

/* The strings of a dataset or attribute (a scalar or a 1-D list; variable
 * or fixed length), handed over in *out. 0, or -1 after a message. */
static int get_strings(h5io *io, hid_t obj, int attr, const char *what, char ***out, size_t *np)
{
    hid_t ft = keep(io, attr ? H5Aget_type(obj) : H5Dget_type(obj));
    hid_t sp = ft < 0 ? -1 : keep(io, attr ? H5Aget_space(obj) : H5Dget_space(obj));
    if (sp < 0) return read_failed(io, what);
    if (H5Tget_class(ft) != H5T_STRING) return bad(io, "%s is not text", what);
    int rank = H5Sget_simple_extent_ndims(sp);
    hssize_t n = H5Sget_simple_extent_npoints(sp);
    if (rank < 0 || n < 0) return read_failed(io, what);
    if (rank > 1) return bad(io, "%s is not a list of strings (%d dimensions)", what, rank);
    if ((uint64_t)n > SIZE_MAX / 64) return bad(io, "%s has too many strings (%lld)", what, (long long)n);
    size_t cnt = (size_t)n;
    io->strs = fl_xcalloc(cnt ? cnt : 1, sizeof(char *));
    io->nstrs = cnt;
    if (H5Tis_variable_str(ft) > 0) {
        hid_t mt = keep(io, H5Tcopy(H5T_C_S1));
        if (mt < 0 || H5Tset_size(mt, H5T_VARIABLE) < 0 || H5Tset_cset(mt, H5Tget_cset(ft)) < 0)
            return read_failed(io, what);
        io->vl_buf = fl_xcalloc(cnt ? cnt : 1, sizeof(char *));
        io->vl_type = mt;
        io->vl_space = sp;
        herr_t st = cnt == 0 ? 0 : read_all(obj, attr, mt, io->vl_buf);
        if (st < 0) {
            int rc = read_failed(io, what);
            h5_reclaim(mt, sp, io->vl_buf);
            free(io->vl_buf);
            io->vl_buf = NULL;
            return rc;
        }
        for (size_t i = 0; i < cnt; i++) io->strs[i] = fl_xstrdup(io->vl_buf[i] ? io->vl_buf[i] : "");
        h5_reclaim(mt, sp, io->vl_buf);
        free(io->vl_buf);
        io->vl_buf = NULL;
        drop(io, mt);
    } else {
        size_t sz = H5Tget_size(ft);
        if (sz == 0) return read_failed(io, what);
        if (cnt && sz > SIZE_MAX / cnt) return bad(io, "%s is too large", what);
        H5T_str_t pad = H5Tget_strpad(ft);
        free(io->buf);
        io->buf = NULL;
        char *b = io->buf = fl_xmalloc(cnt * sz + 1);
        hid_t mt = keep(io, H5Tcopy(ft));
        herr_t st = mt < 0 ? -1 : cnt == 0 ? 0 : read_all(obj, attr, mt, b);
        if (st < 0) return read_failed(io, what);
        for (size_t i = 0; i < cnt; i++) {
            const char *s = b + i * sz;
            size_t len = strnlen(s, sz);
            if (pad == H5T_STR_SPACEPAD)
                while (len > 0 && s[len - 1] == ' ') len--;
            io->strs[i] = fl_xstrndup(s, len);
        }
        drop(io, mt);
    }
    drop(io, sp);
    drop(io, ft);
    *out = io->strs;
    *np = cnt;
    io->strs = NULL;
    io->nstrs = 0;
    return 0;
}

/* An attribute of obj: its id, or -1 when there is none (0) or on a failure (-1 returned after a message). */
static int open_attr(h5io *io, hid_t obj, const char *name, const char *what, hid_t *id)
{
    *id = -1;
    htri_t e = H5Aexists(obj, name);
    if (e < 0) return read_failed(io, what);
    if (e == 0) return 0;
    *id = keep(io, H5Aopen(obj, name, H5P_DEFAULT));
    return *id < 0 ? read_failed(io, what) : 0;
}

/* A string attribute of obj into *s (left NULL when absent). */
static int get_string_attr(h5io *io, hid_t obj, const char *name, char **s)
{
    hid_t a;
    char what[80];
    snprintf(what, sizeof what, "the attribute '%s'", name);
    if (open_attr(io, obj, name, what, &a)) return -1;
    if (a < 0) return 0;
    char **v;
    size_t n;
    if (get_strings(io, a, 1, what, &v, &n)) return -1;
    if (n != 1) {
        free_strings(v, n);
        return bad(io, "%s holds %zu strings, not one", what, n);
    }
    *s = v[0];
    free(v);
    drop(io, a);
    return 0;
}

/* The numbers of an attribute or dataset of integers or floats, read as mtype
 * into buf (n of them, checked); *cnt: how many there are when buf is NULL. */
static int get_numbers(h5io *io, hid_t obj, int attr, const char *what, hid_t mtype, void *buf, size_t *cnt)
{
    hid_t ft = keep(io, attr ? H5Aget_type(obj) : H5Dget_type(obj));
    hid_t sp = ft < 0 ? -1 : keep(io, attr ? H5Aget_space(obj) : H5Dget_space(obj));
    if (sp < 0) return read_failed(io, what);
    H5T_class_t cls = H5Tget_class(ft);
    if (cls != H5T_INTEGER && cls != H5T_FLOAT) return bad(io, "%s is not numbers", what);
    int rank = H5Sget_simple_extent_ndims(sp);
    hssize_t n = H5Sget_simple_extent_npoints(sp);
    if (rank < 0 || n < 0) return read_failed(io, what);
    if (rank > 1) return bad(io, "%s is not a list of numbers (%d dimensions)", what, rank);
    if (!buf) {
        *cnt = (size_t)n;
    } else {
        if ((size_t)n != *cnt) return bad(io, "%s has %lld values, not %zu", what, (long long)n, *cnt);
        herr_t st = n == 0 ? 0 : read_all(obj, attr, mtype, buf);
        if (st < 0) return read_failed(io, what);
    }
    drop(io, sp);
    drop(io, ft);
    return 0;
}

/* The length of a 1-D dataset; -1 after a message. */
static long long dataset_length(h5io *io, hid_t ds, const char *what)
{
    hid_t sp = keep(io, H5Dget_space(ds));
    if (sp < 0) return read_failed(io, what);
    int rank = H5Sget_simple_extent_ndims(sp);
    hssize_t n = H5Sget_simple_extent_npoints(sp);
    if (rank < 0 || n < 0) return read_failed(io, what);
    drop(io, sp);
    if (rank != 1) return bad(io, "%s is not a list of values (%d dimensions)", what, rank);
    return (long long)n;
}

/* Reads the numbers of ds (n of them) into column col of the row-major n x stride doubles at base. */
static int read_column(h5io *io, hid_t ds, double *base, hsize_t n, hsize_t stride, hsize_t col, const char *what)
{
    hid_t ft = keep(io, H5Dget_type(ds));
    if (ft < 0) return read_failed(io, what);
    H5T_class_t cls = H5Tget_class(ft);
    drop(io, ft);
    if (cls != H5T_INTEGER && cls != H5T_FLOAT) return bad(io, "%s is not numbers", what);
    if (n == 0) return 0;
    hsize_t dims[2] = {n, stride}, start[2] = {0, col}, count[2] = {n, 1};
    hid_t ms = keep(io, H5Screate_simple(2, dims, NULL));
    if (ms < 0 || H5Sselect_hyperslab(ms, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
        H5Dread(ds, H5T_NATIVE_DOUBLE, ms, H5S_ALL, H5P_DEFAULT, base) < 0)
        return read_failed(io, what);
    drop(io, ms);
    return 0;
}

static int read_metadata(h5io *io, hid_t file)
{
    sw_table *t = &io->tab;
    if (get_string_attr(io, file, "model_name", &t->model_name) ||
        get_string_attr(io, file, "model_text", &t->model_text) ||
        get_string_attr(io, file, "flange_version", &t->version))
        return -1;
    hid_t a;
    if (open_attr(io, file, "nruns", "the attribute 'nruns'", &a)) return -1;
    if (a >= 0) {
        int64_t n = 0;
        size_t one = 1;
        if (get_numbers(io, a, 1, "the attribute 'nruns'", H5T_NATIVE_INT64, &n, &one)) return -1;
        if (n < 0 || n > LONG_MAX) return bad(io, "the attribute 'nruns' is %lld, not a number of runs", (long long)n);
        t->nruns_total = (long)n;
        drop(io, a);
    }
    if (open_attr(io, file, "parameters", "the attribute 'parameters'", &a)) return -1;
    size_t np = 0;
    if (a >= 0) {
        char **v;
        if (get_strings(io, a, 1, "the attribute 'parameters'", &v, &np)) return -1;
        if (np > INT_MAX) {
            free_strings(v, np);
            return bad(io, "the attribute 'parameters' has too many strings");
        }
        t->param_defs = v;
        t->nparam_defs = (int)np;
        drop(io, a);
    }
    if (open_attr(io, file, "structural", "the attribute 'structural'", &a)) return -1;
    if (a >= 0) {
        size_t n;
        if (get_numbers(io, a, 1, "the attribute 'structural'", H5T_NATIVE_UCHAR, NULL, &n)) return -1;
        if (n != np)
            return bad(io, "the attribute 'structural' has %zu values, 'parameters' %zu", n, np);
        t->param_structural = fl_xcalloc(np ? np : 1, 1);
        if (get_numbers(io, a, 1, "the attribute 'structural'", H5T_NATIVE_UCHAR, t->param_structural, &n))
            return -1;
        for (size_t i = 0; i < np; i++) t->param_structural[i] = t->param_structural[i] != 0;
        drop(io, a);
    }
    return 0;
}

static int read_table(h5io *io, hid_t file)
{
    sw_table *t = &io->tab;
    hid_t g;
    if (open_object(io, file, "table", H5I_GROUP, "/table", &g)) return -1;
    if (g < 0) return bad(io, "not a flange sweep table: the file has no /table");
    hid_t a;
    if (open_attr(io, g, "columns", "the attribute 'columns' of /table", &a)) return -1;
    if (a < 0) return bad(io, "/table has no attribute 'columns' (the column names in order)");
    char **names;
    size_t ncols;
    if (get_strings(io, a, 1, "the attribute 'columns' of /table", &names, &ncols)) return -1;
    if (ncols > INT_MAX / 2) {
        free_strings(names, ncols);
        return bad(io, "/table has too many columns");
    }
    t->names = names;
    t->ncols = (int)ncols;
    drop(io, a);
    t->text = fl_xcalloc(ncols ? ncols : 1, 1);
    for (size_t c = 0; c < ncols; c++)
        for (size_t k = 0; k < c; k++)
            if (strcmp(names[k], names[c]) == 0) return bad(io, "/table has two columns named '%s'", names[c]);
    /* the columns' lengths and kinds */
    long long nrows = 0;
    for (size_t c = 0; c < ncols; c++) {
        hid_t ds;
        char what[64 + 200];
        snprintf(what, sizeof what, "the column '%.200s'", names[c]);
        if (open_object(io, g, link_name(io, names[c]), H5I_DATASET, what, &ds)) return -1;
        if (ds < 0) return bad(io, "/table has no dataset for the column '%s'", names[c]);
        long long n = dataset_length(io, ds, what);
        if (n < 0) return -1;
        if (c > 0 && n != nrows)
            return bad(io, "the column '%s' has %lld values, '%s' %lld: the columns must be equally long", names[c], n,
                       names[0], nrows);
        nrows = n;
        hid_t ft = keep(io, H5Dget_type(ds));
        if (ft < 0) return read_failed(io, what);
        H5T_class_t cls = H5Tget_class(ft);
        if (cls == H5T_STRING)
            t->text[c] = 1;
        else if (cls != H5T_INTEGER && cls != H5T_FLOAT)
            return bad(io, "the column '%s' is neither numbers nor text", names[c]);
        drop(io, ft);
        drop(io, ds);
    }
    if (nrows > LONG_MAX || (ncols && (unsigned long long)nrows > SIZE_MAX / 16 / ncols))
        return bad(io, "/table has too many rows (%lld)", nrows);
    size_t cells = (size_t)nrows * ncols;
    if (cells) {
        t->num = fl_xmalloc(cells * sizeof(double));
        for (size_t i = 0; i < cells; i++) t->num[i] = NAN;
        t->str = fl_xcalloc(cells, sizeof(char *));
    }
    t->nrows = (long)nrows;
    for (size_t c = 0; c < ncols; c++) {
        hid_t ds;
        char what[64 + 200];
        snprintf(what, sizeof what, "the column '%.200s'", names[c]);
        if (open_object(io, g, link_name(io, names[c]), H5I_DATASET, what, &ds)) return -1;
        if (!t->text[c]) {
            if (read_column(io, ds, t->num, (hsize_t)nrows, ncols, c, what)) return -1;
        } else {
            char **v;
            size_t n;
            if (get_strings(io, ds, 0, what, &v, &n)) return -1;
            for (size_t r = 0; r < n; r++) t->str[r * ncols + c] = v[r];
            free(v);
        }
        drop(io, ds);
    }
    drop(io, g);
    return 0;
}

static int read_trajectories(h5io *io, hid_t file)
{
    sw_table *t = &io->tab;
    hid_t g;
    if (open_object(io, file, "trajectories", H5I_GROUP, "/trajectories", &g)) return -1;
    if (g < 0) return 0;
    hid_t a;
    if (open_attr(io, g, "variables", "the attribute 'variables' of /trajectories", &a)) return -1;
    if (a < 0) return bad(io, "/trajectories has no attribute 'variables' (the saved variables in order)");
    char **v;
    size_t nsave;
    if (get_strings(io, a, 1, "the attribute 'variables' of /trajectories", &v, &nsave)) return -1;
    if (nsave > INT_MAX / 2) {
        free_strings(v, nsave);
        return bad(io, "/trajectories has too many variables");
    }
    t->save_names = v;
    t->nsave = (int)nsave;
    drop(io, a);
    int run_col = -1;
    for (int c = 0; c < t->ncols; c++)
        if (strcmp(t->names[c], "run") == 0 && !t->text[c]) run_col = c;
    if (t->nrows > 0) {
        t->npts = fl_xcalloc((size_t)t->nrows, sizeof(long));
        t->traj = fl_xcalloc((size_t)t->nrows, sizeof(double *));
    }
    size_t w = nsave + 1;
    for (long r = 0; r < t->nrows && run_col >= 0; r++) {
        char gname[32];
        if (run_group(t->num[(size_t)r * (size_t)t->ncols + (size_t)run_col], gname)) continue;
        hid_t rg;
        char gwhat[48];
        snprintf(gwhat, sizeof gwhat, "/trajectories/%s", gname);
        if (open_object(io, g, gname, H5I_GROUP, gwhat, &rg)) return -1;
        if (rg < 0) continue;
        long long n = -1;
        for (size_t j = 0; j < w; j++) {
            const char *name = j ? t->save_names[j - 1] : "time";
            char what[300];
            snprintf(what, sizeof what, "'%.200s' of %s", name, gwhat);
            hid_t ds;
            if (open_object(io, rg, j ? link_name(io, name) : "time", H5I_DATASET, what, &ds)) return -1;
            if (ds < 0) {
                H5G_info_t info;
                if (j == 0 && H5Gget_info(rg, &info) >= 0 && info.nlinks == 0) break; /* empty: no points */
                return bad(io, "%s has no dataset '%s'", gwhat, name);
            }
            long long len = dataset_length(io, ds, what);
            if (len < 0) return -1;
            if (j == 0) {
                n = len;
                if (n > LONG_MAX || (unsigned long long)n > SIZE_MAX / 8 / w)
                    return bad(io, "%s has too many points (%lld)", gwhat, n);
                if (n > 0) t->traj[r] = fl_xmalloc((size_t)n * w * sizeof(double));
            } else if (len != n) {
                return bad(io, "%s: '%s' has %lld points, time %lld", gwhat, name, len, n);
            }
            if (n > 0 && read_column(io, ds, t->traj[r], (hsize_t)n, w, j, what)) return -1;
            drop(io, ds);
        }
        if (n > 0) t->npts[r] = (long)n;
        drop(io, rg);
    }
    drop(io, g);
    return 0;
}

/* Whether path can be a table file at all: a regular, non-empty HDF5 file. */
static int check_file(h5io *io)
{
    fl_loc loc = {io->path, 0, 0};
    struct stat st;
    if (stat(io->path, &st) != 0) {
        fl_err(io->d, fl_noloc, "cannot open %s: %s", io->path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        fl_err(io->d, loc, "cannot read the file: it is not a regular file");
        return -1;
    }
    if (access(io->path, R_OK) != 0) {
        fl_err(io->d, fl_noloc, "cannot open %s: %s", io->path, strerror(errno));
        return -1;
    }
    if (st.st_size == 0) {
        fl_err(io->d, loc, "the file is empty: not an HDF5 file");
        return -1;
    }
    htri_t h = h5_is_hdf5(io->path);
    if (h < 0) return read_failed(io, "the file");
    if (h == 0) {
        fl_err(io->d, loc, "not an HDF5 file");
        return -1;
    }
    return 0;
}

/* Opens the file for reading: 0, or -1 after a message. */
static int open_file(h5io *io, hid_t *file)
{
    hid_t fapl = keep(io, H5Pcreate(H5P_FILE_ACCESS));
    if (fapl < 0 || h5_no_locks(fapl) < 0) return read_failed(io, "the file");
    *file = keep(io, H5Fopen(io->path, H5F_ACC_RDONLY, fapl));
    if (*file < 0) {
        char why[256];
        h5_reason(why, sizeof why); /* before any other call clears HDF5's error stack */
        unsigned long long eof, stored;
        const char *tr = strstr(why, "truncated file: eof = ");
        if (tr && sscanf(tr, "truncated file: eof = %llu, sblock->base_addr = %*u, stored_eof = %llu", &eof,
                         &stored) == 2)
            return bad(io, "truncated: the file has %llu of its %llu bytes", eof, stored);
        return bad(io, "damaged HDF5 file: %s", why);
    }
    drop(io, fapl);
    return 0;
}

int sw_table_read_h5(const char *path, sw_table *out, fl_diag *d)
{
    if (!path || !out) return -1;
    memset(out, 0, sizeof *out);
    h5io io;
    h5io_start(&io, path, d);
    fl_cleanup cl;
    fl_cleanup_push(&cl, h5io_release, &io);
    int rc = check_file(&io);
    hid_t file = -1;
    if (!rc) rc = open_file(&io, &file);
    if (!rc) rc = read_table(&io, file);
    if (!rc) rc = read_metadata(&io, file);
    if (!rc) rc = read_trajectories(&io, file);
    if (!rc && drop(&io, file) < 0) rc = read_failed(&io, "the file");
    if (!rc) {
        *out = io.tab; /* handed over */
        memset(&io.tab, 0, sizeof io.tab);
    }
    fl_cleanup_pop(&cl);
    h5io_release(&io);
    return rc;
}
