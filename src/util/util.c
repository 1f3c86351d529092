/* util.c - checked allocation, string builder, hash map, union-find. */
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/* Allocation failures unwind to the caller's recovery point (guard.h):
 * the public function in progress reports "out of memory" and fails. */
void *fl_xmalloc(size_t n)
{
    void *p = fl_test_alloc_check() ? NULL : malloc(n ? n : 1);
    if (!p) fl_fail_oom(n);
    return p;
}

void *fl_xcalloc(size_t n, size_t size)
{
    void *p = fl_test_alloc_check() ? NULL : calloc(n ? n : 1, size ? size : 1);
    if (!p) fl_fail_oom(n * size);
    return p;
}

void *fl_xrealloc(void *p, size_t n)
{
    void *q = fl_test_alloc_check() ? NULL : realloc(p, n ? n : 1);
    if (!q) fl_fail_oom(n); /* p is still the caller's */
    return q;
}

int fl_lower_bound(const void *base, int n, size_t size, size_t off, int k)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2, key;
        memcpy(&key, (const char *)base + (size_t)mid * size + off, sizeof key);
        if (key < k) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

void *fl_shrink(void *p, size_t n)
{
    void *q = p ? realloc(p, n ? n : 1) : NULL;
    return q ? q : p;
}

void fl_heap_trim(void)
{
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

char *fl_xstrdup(const char *s)
{
    return fl_xstrndup(s, strlen(s));
}

char *fl_xstrndup(const char *s, size_t n)
{
    char *p = fl_xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *fl_xvsprintf(const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (n < 0) n = 0;
    char *p = fl_xmalloc((size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *fl_xcat(const char *s, ...)
{
    va_list ap;
    size_t n = 0;
    va_start(ap, s);
    for (const char *t = s; t; t = va_arg(ap, const char *)) n += strlen(t);
    va_end(ap);
    char *r = fl_xmalloc(n + 1), *q = r;
    va_start(ap, s);
    for (const char *t = s; t; t = va_arg(ap, const char *)) {
        size_t k = strlen(t);
        memcpy(q, t, k);
        q += k;
    }
    va_end(ap);
    *q = '\0';
    return r;
}

char *fl_xsprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = fl_xvsprintf(fmt, ap);
    va_end(ap);
    return p;
}

/* ---- string builder ---- */

static void buf_reserve(fl_buf *b, size_t extra)
{
    if (b->n + extra + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->n + extra + 1) cap *= 2;
        b->s = fl_xrealloc(b->s, cap);
        b->cap = cap;
    }
}

void fl_buf_addn(fl_buf *b, const char *s, size_t n)
{
    buf_reserve(b, n);
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

void fl_buf_add(fl_buf *b, const char *s)
{
    fl_buf_addn(b, s, strlen(s));
}

void fl_buf_addc(fl_buf *b, char c)
{
    fl_buf_addn(b, &c, 1);
}

void fl_buf_vprintf(fl_buf *b, const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (n <= 0) return;
    buf_reserve(b, (size_t)n);
    vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap);
    b->n += (size_t)n;
}

void fl_buf_printf(fl_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fl_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

char *fl_buf_take(fl_buf *b)
{
    char *s = b->s ? b->s : fl_xstrdup("");
    b->s = NULL;
    b->n = b->cap = 0;
    return s;
}

void fl_buf_free(fl_buf *b)
{
    free(b->s);
    b->s = NULL;
    b->n = b->cap = 0;
}

void fl_buf_cleanup(void *b)
{
    fl_buf_free(b);
}

/* ---- hash map (FNV-1a, linear probing) ---- */

uint64_t fl_fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static uint64_t hash_str(const char *s, size_t len)
{
    return fl_fnv1a(FL_FNV1A_INIT, s, len);
}

#define MAP_INLINE 0x80000000u
#define MAP_HASH 0x7fffffffu

static int slot_free(const fl_map_slot *sl)
{
    return sl->key.ptr == NULL;
}

/* Whether slot sl holds key[0 .. len) (its hash h matched). */
static int slot_is(const fl_map_slot *sl, const char *key, size_t len)
{
    if (sl->hash & MAP_INLINE) return len < 8 && memcmp(sl->key.in, key, len) == 0 && sl->key.in[len] == '\0';
    return strncmp(sl->key.ptr, key, len) == 0 && sl->key.ptr[len] == '\0';
}

const char *fl_map_slot_key(const fl_map *m, size_t j)
{
    const fl_map_slot *sl = &m->slot[j];
    if (slot_free(sl)) return NULL;
    return (sl->hash & MAP_INLINE) ? sl->key.in : sl->key.ptr;
}

static void map_grow(fl_map *m)
{
    size_t ncap = m->cap ? 2 * m->cap : 64;
    fl_map_slot *slot = fl_xcalloc(ncap, sizeof *slot);
    for (size_t i = 0; i < m->cap; i++) {
        if (slot_free(&m->slot[i])) continue;
        size_t j = (m->slot[i].hash & MAP_HASH) & (ncap - 1);
        while (!slot_free(&slot[j])) j = (j + 1) & (ncap - 1);
        slot[j] = m->slot[i];
    }
    free(m->slot);
    m->slot = slot;
    m->cap = ncap;
}

/* ---- arena ---------------------------------------------------------------- */

typedef struct arena_block {
    struct arena_block *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
} arena_block;

typedef struct intern_slot {
    const char *s; /* NULL: free */
    uint32_t len, hash;
} intern_slot;

struct fl_arena {
    arena_block *head;
    intern_slot *strs; /* intern table: open addressing over the arena's strings */
    size_t nstr, capstr;
};

fl_arena *fl_arena_new(void)
{
    return fl_xcalloc(1, sizeof(fl_arena));
}

/* n bytes at a multiple of align (a power of two) in a's newest block. */
static void *arena_take(fl_arena *a, size_t n, size_t align)
{
    arena_block *b = a->head;
    size_t at = b ? (b->used + align - 1) & ~(align - 1) : 0;
    if (!b || at > b->cap || b->cap - at < n) {
        /* blocks grow from 256 bytes to 1 MB: small maps stay small */
        size_t cap = b ? (b->cap < (1u << 20) ? 2 * b->cap : b->cap) : 256;
        if (cap < n) cap = n;
        b = fl_xcalloc(1, sizeof *b + cap); /* zeroed once: allocations are never reused */
        b->next = a->head;
        b->used = 0;
        b->cap = cap;
        a->head = b;
        at = 0;
    }
    void *p = b->data + at;
    b->used = at + n;
    return p;
}

void *fl_arena_alloc(fl_arena *a, size_t n)
{
    return arena_take(a, (n + 15) & ~(size_t)15, 16);
}

char *fl_arena_cat(fl_arena *a, const char *const *parts, int n)
{
    size_t len = 0;
    for (int i = 0; i < n; i++) len += strlen(parts[i]);
    char *c = arena_take(a, len + 1, 1), *p = c;
    for (int i = 0; i < n; i++) {
        size_t l = strlen(parts[i]);
        memcpy(p, parts[i], l);
        p += l;
    }
    *p = '\0';
    return c;
}

static void intern_grow(fl_arena *a)
{
    size_t ncap = a->capstr ? 2 * a->capstr : 1024;
    intern_slot *t = fl_xcalloc(ncap, sizeof *t);
    for (size_t i = 0; i < a->capstr; i++) {
        if (!a->strs[i].s) continue;
        size_t j = a->strs[i].hash & (ncap - 1);
        while (t[j].s) j = (j + 1) & (ncap - 1);
        t[j] = a->strs[i];
    }
    free(a->strs);
    a->strs = t;
    a->capstr = ncap;
}

char *fl_arena_strn(fl_arena *a, const char *s, size_t n)
{
    if (2 * (a->nstr + 1) > a->capstr) intern_grow(a);
    uint32_t h = (uint32_t)hash_str(s, n);
    size_t j = h & (a->capstr - 1);
    for (; a->strs[j].s; j = (j + 1) & (a->capstr - 1))
        if (a->strs[j].hash == h && a->strs[j].len == n && memcmp(a->strs[j].s, s, n) == 0)
            return (char *)a->strs[j].s;
    char *c = fl_arena_alloc(a, n + 1);
    memcpy(c, s, n);
    a->strs[j].s = c;
    a->strs[j].len = (uint32_t)n;
    a->strs[j].hash = h;
    a->nstr++;
    return c;
}

void fl_arena_free(fl_arena *a)
{
    if (!a) return;
    for (arena_block *b = a->head, *nx; b; b = nx) {
        nx = b->next;
        free(b);
    }
    free(a->strs);
    free(a);
}

/* The slot that holds key[0 .. len) (hash h), or the free slot where it
 * would go; m has slots. */
static fl_map_slot *probe(const fl_map *m, const char *key, size_t len, uint32_t h)
{
    size_t j = h & (m->cap - 1);
    fl_map_slot *sl;
    while (!slot_free(sl = &m->slot[j]) && !((sl->hash & MAP_HASH) == h && slot_is(sl, key, len)))
        j = (j + 1) & (m->cap - 1);
    return sl;
}

void fl_map_put(fl_map *m, const char *key, int val)
{
    if (2 * (m->n + 1) > m->cap) map_grow(m);
    size_t len = strlen(key);
    uint32_t h = (uint32_t)hash_str(key, len) & MAP_HASH;
    fl_map_slot *sl = probe(m, key, len, h);
    if (!slot_free(sl)) {
        sl->val = val;
        return;
    }
    if (len >= 1 && len < 8) { /* (an empty key goes to the arena: a zero slot is a free one) */
        memcpy(sl->key.in, key, len + 1);
        sl->hash = h | MAP_INLINE;
    } else {
        if (!m->ka) m->ka = fl_arena_new();
        char *k = fl_arena_alloc(m->ka, len + 1);
        memcpy(k, key, len + 1);
        sl->key.ptr = k;
        sl->hash = h;
    }
    sl->val = val;
    m->n++;
}

int fl_map_getn(const fl_map *m, const char *key, size_t len)
{
    if (!m->cap) return -1;
    const fl_map_slot *sl = probe(m, key, len, (uint32_t)hash_str(key, len) & MAP_HASH);
    return slot_free(sl) ? -1 : sl->val;
}

int fl_map_get(const fl_map *m, const char *key)
{
    return fl_map_getn(m, key, strlen(key));
}

void fl_map_free(fl_map *m)
{
    fl_arena_free(m->ka);
    free(m->slot);
    memset(m, 0, sizeof *m);
}

void fl_map_cleanup(void *m)
{
    fl_map_free(m);
}

/* ---- union-find ---- */

void fl_uf_init(fl_uf *u, int n)
{
    u->n = n;
    u->parent = fl_xmalloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    u->size = fl_xmalloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; i++) {
        u->parent[i] = i;
        u->size[i] = 1;
    }
}

int fl_uf_find(fl_uf *u, int x)
{
    while (u->parent[x] != x) {
        u->parent[x] = u->parent[u->parent[x]];
        x = u->parent[x];
    }
    return x;
}

void fl_uf_union(fl_uf *u, int a, int b)
{
    a = fl_uf_find(u, a);
    b = fl_uf_find(u, b);
    if (a == b) return;
    if (u->size[a] < u->size[b]) {
        int t = a;
        a = b;
        b = t;
    }
    u->parent[b] = a;
    u->size[a] += u->size[b];
}

void fl_uf_free(fl_uf *u)
{
    free(u->parent);
    free(u->size);
    u->parent = u->size = NULL;
}

void fl_fmt_double(char *out, size_t cap, double x)
{
    snprintf(out, cap, "%.15g", x);
    if (strtod(out, NULL) != x) snprintf(out, cap, "%.17g", x);
}

/* '*' matches within one name component (not across '.'), '**' matches
 * anything, '?' one character other than '.'. Backtracking on the last
 * star keeps it linear enough for variable names. */
int fl_glob_match(const char *p, const char *s)
{
    if (*p == '\0') return *s == '\0';
    if (p[0] == '*' && p[1] == '*') {
        for (const char *t = s;; t++) {
            if (fl_glob_match(p + 2, t)) return 1;
            if (!*t) return 0;
        }
    }
    if (*p == '*') {
        for (const char *t = s;; t++) {
            if (fl_glob_match(p + 1, t)) return 1;
            if (!*t || *t == '.') return 0;
        }
    }
    if (!*s) return 0;
    if (*p == '?' ? *s != '.' : *p == *s) return fl_glob_match(p + 1, s + 1);
    return 0;
}
