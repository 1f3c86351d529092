/* names.c - component names to indices (fl_names).
 *
 * Big models are made by programs and loops: "m1" .. "m1000000", "m[1]" ..,
 * "grid[2,1]" ... In a hash map such names cost a slot of 16 bytes at
 * half load at most (32 bytes or more a name, and a copy of a long one),
 * and neighbours in the model land far apart in the table: each look-up
 * of a model built in order is a cache and TLB miss, and the table's
 * pages are first touched at random. Here a name that ends in a decimal
 * number (with at most two characters after it, as the "]" of "m[3]") is
 * kept in a dense array of its family - the name with the number taken
 * out - at the number: 4 bytes a name, no copy of it, and consecutive
 * names side by side. Other names, and numbers too sparse for their
 * family's array, go to a hash map. A name is in one place only: the
 * family's array is read first, then the map. */
#include "names.h"

#include <stdlib.h>
#include <string.h>

/* A family's array holds at most this many slots per name of the family
 * put so far, plus FAMILY_SLACK: sparse numbers ("m1", "m1000000000") go
 * to the map instead of into a mostly empty array. */
#define FAMILY_DENSITY 4
#define FAMILY_SLACK 1024
#define KEY_MAX 128

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* A numbered name: a prefix, a decimal number (at most 9 digits, no
 * leading zero: "m01" and "m1" are different names) and a tail of at most
 * two characters. Writes its family's key (the prefix, a 0x01 byte, the
 * tail) into key and returns the number; -1 for any other name, and for a
 * name that holds a 0x01 byte itself (two such names could make one key). */
static int split_numbered(const char *name, size_t len, char key[KEY_MAX], size_t *klen)
{
    if (len + 2 > KEY_MAX || memchr(name, '\x01', len)) return -1;
    size_t end = len;
    while (end > 0 && !is_digit(name[end - 1])) {
        if (len - end == 2) return -1;
        end--;
    }
    size_t start = end;
    while (start > 0 && is_digit(name[start - 1])) start--;
    size_t nd = end - start, tail = len - end;
    if (nd == 0 || nd > 9 || (nd > 1 && name[start] == '0')) return -1;
    int k = 0;
    for (size_t i = start; i < end; i++) k = 10 * k + (name[i] - '0');
    memcpy(key, name, start);
    key[start] = '\x01';
    memcpy(key + start + 1, name + end, tail);
    *klen = start + 1 + tail;
    key[*klen] = '\0';
    return k;
}

static fl_name_family *family(fl_names *x, const char *key)
{
    int fi = fl_map_get(&x->fams, key);
    if (fi >= 0) return &x->fam[fi];
    if (x->nfam == x->capfam) {
        int cap = x->capfam ? 2 * x->capfam : 8;
        x->fam = fl_xrealloc(x->fam, sizeof *x->fam * (size_t)cap);
        x->capfam = cap;
    }
    fl_name_family *f = &x->fam[x->nfam];
    memset(f, 0, sizeof *f);
    fl_map_put(&x->fams, key, x->nfam++);
    return f;
}

/* Whether number k has a slot in the family's array, grown if that keeps
 * it dense enough. */
static int family_fits(fl_name_family *f, int k)
{
    if (k < f->cap) return 1;
    size_t cap = f->cap ? (size_t)f->cap : 16;
    while (cap <= (size_t)k) cap *= 2;
    if (cap > FAMILY_DENSITY * (size_t)f->n + FAMILY_SLACK) return 0;
    f->idx = fl_xrealloc(f->idx, sizeof *f->idx * cap);
    memset(f->idx + f->cap, 0, sizeof *f->idx * (cap - (size_t)f->cap));
    f->cap = (int)cap;
    return 1;
}

static void rest_put(fl_names *x, const char *name, size_t len, int val)
{
    if (name[len] == '\0') {
        fl_map_put(&x->rest, name, val);
        return;
    }
    char *copy = fl_xstrndup(name, len);
    fl_map_put(&x->rest, copy, val);
    free(copy);
}

void fl_names_put(fl_names *x, const char *name, size_t len, int val)
{
    char key[KEY_MAX];
    size_t klen;
    int k = split_numbered(name, len, key, &klen);
    if (k >= 0 && (x->rest.n == 0 || fl_map_getn(&x->rest, name, len) < 0)) {
        fl_name_family *f = family(x, key);
        f->n++;
        if (family_fits(f, k)) {
            f->idx[k] = val + 1;
            return;
        }
    }
    rest_put(x, name, len, val);
}

int fl_names_get(const fl_names *x, const char *name, size_t len)
{
    char key[KEY_MAX];
    size_t klen;
    int k = x->nfam ? split_numbered(name, len, key, &klen) : -1;
    if (k >= 0) {
        int fi = fl_map_getn(&x->fams, key, klen);
        if (fi >= 0 && k < x->fam[fi].cap && x->fam[fi].idx[k]) return x->fam[fi].idx[k] - 1;
    }
    return x->rest.n ? fl_map_getn(&x->rest, name, len) : -1;
}

void fl_names_free(fl_names *x)
{
    for (int i = 0; i < x->nfam; i++) free(x->fam[i].idx);
    free(x->fam);
    fl_map_free(&x->fams);
    fl_map_free(&x->rest);
    memset(x, 0, sizeof *x);
}
