/* util.h - small helpers shared by every stage: checked allocation, growable
 * arrays, a string builder and a string-keyed hash map. */
#ifndef FL_UTIL_H
#define FL_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define FL_UNUSED(x) ((void)(x))
#define FL_MIN(a, b) ((a) < (b) ? (a) : (b))
#define FL_MAX(a, b) ((a) > (b) ? (a) : (b))

#include "guard.h"

/* Allocation that never returns NULL: running out of memory unwinds to the
 * innermost recovery point (guard.h), so callers need no checks. Whatever
 * must stay consistent across such a failure allocates first and then
 * publishes (FL_VEC_PUSH grows the capacity only once the memory is there). */
void *fl_xmalloc(size_t n);
void *fl_xcalloc(size_t n, size_t size);
void *fl_xrealloc(void *p, size_t n);
/* p (an allocation of at least n bytes) cut to n bytes, or p itself when
 * the allocator cannot: never fails. */
void *fl_shrink(void *p, size_t n);
/* The first of n records (size bytes each, sorted by an int key at byte
 * offset off) whose key is not below k; n if none. */
int fl_lower_bound(const void *base, int n, size_t size, size_t off, int k);
/* Gives the heap freed so far back to the system (glibc's malloc_trim;
 * nothing elsewhere). */
void fl_heap_trim(void);
char *fl_xstrdup(const char *s);
char *fl_xstrndup(const char *s, size_t n);
char *fl_xsprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *fl_xvsprintf(const char *fmt, va_list ap);
/* The concatenation of the strings up to a NULL: cheaper than fl_xsprintf
 * for the names a big model builds by the hundred thousand. */
char *fl_xcat(const char *s, ...);

/* Growable array: FL_VEC(T) declares {T *v; size_t n, cap;}. */
#define FL_VEC(T) struct { T *v; size_t n, cap; }
#define FL_VEC_PUSH(vec, x)                                                   \
    do {                                                                      \
        if ((vec).n == (vec).cap) {                                           \
            size_t cap_ = (vec).cap ? 2 * (vec).cap : 8;                      \
            (vec).v = fl_xrealloc((vec).v, cap_ * sizeof *(vec).v);           \
            (vec).cap = cap_;                                                 \
        }                                                                     \
        (vec).v[(vec).n++] = (x);                                             \
    } while (0)
/* the capacity cut to the length (a vector that is complete and lives on) */
#define FL_VEC_SHRINK(vec)                                                    \
    do {                                                                      \
        if ((vec).n && (vec).cap > (vec).n) {                                 \
            (vec).v = fl_shrink((vec).v, (vec).n * sizeof *(vec).v);          \
            (vec).cap = (vec).n;                                              \
        }                                                                     \
    } while (0)
#define FL_VEC_FREE(vec) (free((vec).v), (vec).v = NULL, (vec).n = (vec).cap = 0)

/* String builder. */
typedef struct fl_buf {
    char *s;
    size_t n, cap;
} fl_buf;
void fl_buf_add(fl_buf *b, const char *s);
void fl_buf_addn(fl_buf *b, const char *s, size_t n);
void fl_buf_addc(fl_buf *b, char c);
void fl_buf_printf(fl_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void fl_buf_vprintf(fl_buf *b, const char *fmt, va_list ap);
char *fl_buf_take(fl_buf *b); /* returns the string (never NULL), resets b */
void fl_buf_free(fl_buf *b);
void fl_buf_cleanup(void *b); /* fl_buf_free for fl_cleanup_push */

/* FNV-1a over n bytes, continuing from h (start with FL_FNV1A_INIT): the
 * one hash of byte strings the library uses (maps, signatures, checksums). */
#define FL_FNV1A_INIT 0xcbf29ce484222325ULL
uint64_t fl_fnv1a(uint64_t h, const void *p, size_t n);

/* Open-addressing hash map from string to non-negative int. Keys are
 * copied: one of up to 7 bytes into its slot, a longer one into an arena
 * of the map's own (freed with it). */
typedef struct fl_arena fl_arena;
typedef struct fl_map_slot {
    uint32_t hash; /* of the key, bit 31 clear: compared before the key (a big map's keys miss the cache);
                      bit 31 set: the key is in the slot */
    int val;
    union {
        char *ptr;  /* the key in the arena */
        char in[8]; /* a short key, NUL-terminated: found without a second cache miss ("m123", "c4") */
    } key;          /* all zero: a free slot */
} fl_map_slot;
typedef struct fl_map {
    fl_map_slot *slot; /* a slot holds what a look-up reads (one cache line, not three arrays) */
    size_t cap, n;
    fl_arena *ka;
} fl_map;
void fl_map_put(fl_map *m, const char *key, int val);
int fl_map_get(const fl_map *m, const char *key); /* -1 when absent */
int fl_map_getn(const fl_map *m, const char *key, size_t len);
void fl_map_free(fl_map *m);
/* The key in slot j (j < cap), NULL if the slot is free. */
const char *fl_map_slot_key(const fl_map *m, size_t j);
void fl_map_cleanup(void *m); /* fl_map_free for fl_cleanup_push */

/* Arena: many small allocations freed together (the syntax tree of a file).
 * Memory comes zeroed. fl_arena_strn interns: equal strings share one copy,
 * for names a big model repeats (types, modifier names). */
fl_arena *fl_arena_new(void);
void *fl_arena_alloc(fl_arena *a, size_t n);
char *fl_arena_strn(fl_arena *a, const char *s, size_t n); /* interned */
/* The strings parts[0 .. n) joined, a copy of its own (not interned) that
 * takes only its bytes: many short labels without a heap block each. */
char *fl_arena_cat(fl_arena *a, const char *const *parts, int n);
void fl_arena_free(fl_arena *a);

/* Union-find over 0..n-1 (path halving, union by size). */
typedef struct fl_uf {
    int *parent, *size;
    int n;
} fl_uf;
void fl_uf_init(fl_uf *u, int n);
int fl_uf_find(fl_uf *u, int x);
void fl_uf_union(fl_uf *u, int a, int b);
void fl_uf_free(fl_uf *u);

/* Number formatting that round-trips: shortest of %.15g/%.17g. */
void fl_fmt_double(char *out, size_t cap, double x);

/* Glob match for variable names (--vars): '*' within one component of a
 * dotted name, '**' across components, '?' one character. */
int fl_glob_match(const char *pattern, const char *s);

#endif
