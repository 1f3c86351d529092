/* diag.c - the diagnostics list behind the public fl_diag handle. */
#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

const fl_loc fl_noloc = {NULL, 0, 0};

FL_GUARDED(fl_diag *, fl_diag_new, (void), (), NULL, NULL)
{
    return fl_xcalloc(1, sizeof(fl_diag));
}

void fl_diag_free(fl_diag *d)
{
    if (!d) return;
    for (int i = 0; i < d->n; i++) free(d->items[i].text);
    free(d->items);
    free(d);
}

void fl_diag_clear(fl_diag *d)
{
    if (!d) return;
    for (int i = 0; i < d->n; i++) free(d->items[i].text);
    d->n = 0;
    d->nerrors = 0;
}

int fl_diag_count(const fl_diag *d)
{
    return d ? d->n : 0;
}

int fl_diag_errors(const fl_diag *d)
{
    return d ? d->nerrors : 0;
}

int fl_diag_severity(const fl_diag *d, int i)
{
    return (d && i >= 0 && i < d->n) ? d->items[i].severity : -1;
}

const char *fl_diag_text(const fl_diag *d, int i)
{
    return (d && i >= 0 && i < d->n) ? d->items[i].text : NULL;
}

void fl_diag_vadd(fl_diag *d, int severity, fl_loc loc, const char *fmt, va_list ap)
{
    if (!d) return;
    int cap = d->max_errors ? d->max_errors : 50;
    if (severity == FL_SEV_ERROR) {
        d->nerrors++;
        if (d->nerrors == cap + 1) fl_diag_add(d, FL_SEV_NOTE, fl_noloc, "too many errors: only the first %d are shown", cap);
        if (d->nerrors > cap) return;
    }
    if (d->n == d->cap) {
        int ncap = d->cap ? 2 * d->cap : 8;
        d->items = fl_xrealloc(d->items, sizeof *d->items * (size_t)ncap);
        d->cap = ncap;
    }
    const char *sev = severity == FL_SEV_ERROR ? "error" : severity == FL_SEV_WARNING ? "warning" : "note";
    fl_buf b = {0};
    fl_cleanup c; /* out of memory while formatting: the text goes, the count stays */
    fl_cleanup_push(&c, fl_buf_cleanup, &b);
    if (loc.file) {
        fl_buf_add(&b, loc.file);
        if (loc.line > 0) fl_buf_printf(&b, ":%d:%d", loc.line, loc.col > 0 ? loc.col : 1);
        fl_buf_add(&b, ": ");
    }
    fl_buf_printf(&b, "%s: ", sev);
    fl_buf_vprintf(&b, fmt, ap);
    fl_cleanup_pop(&c);
    d->items[d->n].severity = severity;
    d->items[d->n].text = fl_buf_take(&b);
    d->n++;
}

void fl_diag_add(fl_diag *d, int severity, fl_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fl_diag_vadd(d, severity, loc, fmt, ap);
    va_end(ap);
}

int fl_loc_is_bundled(fl_loc loc)
{
    static const char prefix[] = "<flange: ";
    return loc.file && strncmp(loc.file, prefix, sizeof prefix - 1) == 0;
}
