/* test_arena.c - the arena (util.c): fl_arena_cat joins its parts into a
 * copy that takes only its bytes, one after another in a block, each
 * distinct (not interned); fl_arena_alloc stays 16-byte aligned and zeroed
 * after such unaligned text; a part longer than a block gets a block of
 * its own; everything stays readable until fl_arena_free. And the map
 * (fl_map): keys of up to 7 bytes kept in their slots, longer ones and
 * the empty key in its arena, each found by its whole text only. And the
 * names' map (fl_names, util/names.c): numbered names in their family's
 * array, taking no slot of its hash map, every other name in that map,
 * each found by its whole text. */
#include <stdint.h>

#include "check.h"
#include "util/names.h"
#include "util/util.h"

static void test_map(void)
{
    fl_map m = {0};
    /* 0, 1, 7 and 8 bytes: the slot holds up to 7 (and a NUL) */
    static const char *const keys[] = {"", "m", "m123456", "m1234567", "c12", "c12.flange_a"};
    for (int i = 0; i < 6; i++) fl_map_put(&m, keys[i], 10 + i);
    for (int i = 0; i < 6; i++) CHECK(fl_map_get(&m, keys[i]) == 10 + i);
    CHECK(m.ka != NULL); /* (the long keys and the empty one) */
    /* a prefix or an extension of a key is not the key */
    CHECK(fl_map_get(&m, "m12345") == -1 && fl_map_get(&m, "m12345678") == -1 && fl_map_get(&m, "c1") == -1);
    CHECK(fl_map_getn(&m, "c12.flange_a", 3) == 14 && fl_map_getn(&m, "m1234567", 7) == 12);
    fl_map_put(&m, "m123456", 99); /* a value replaced, not a second entry */
    CHECK(fl_map_get(&m, "m123456") == 99 && m.n == 6);
    /* many short keys through several doublings: each found, the slots say their keys */
    char num[16];
    for (int i = 0; i < 5000; i++) {
        snprintf(num, sizeof num, "w%d", i);
        fl_map_put(&m, num, i);
    }
    int found = 0, listed = 0, lost = 0;
    for (int i = 0; i < 5000; i++) {
        snprintf(num, sizeof num, "w%d", i);
        found += fl_map_get(&m, num) == i;
    }
    for (size_t j = 0; j < m.cap; j++) {
        const char *k = fl_map_slot_key(&m, j);
        listed += k && k[0] == 'w';
        lost += k && fl_map_get(&m, k) < 0;
    }
    CHECK(found == 5000 && listed == 5000 && lost == 0 && m.n == 5006);
    fl_map_free(&m);
    CHECK(m.slot == NULL && fl_map_get(&m, "m") == -1);
}

static int nget(const fl_names *x, const char *name)
{
    return fl_names_get(x, name, strlen(name));
}

static void nput(fl_names *x, const char *name, int val)
{
    fl_names_put(x, name, strlen(name), val);
}

static void test_names(void)
{
    fl_names x = {0};
    char num[32];
    /* dense families: "m1".."m5000", "m[1]".."m[300]", a row of "grid[2,k]" */
    for (int i = 1; i <= 5000; i++) {
        snprintf(num, sizeof num, "m%d", i);
        nput(&x, num, i);
    }
    for (int i = 1; i <= 300; i++) {
        snprintf(num, sizeof num, "m[%d]", i);
        nput(&x, num, 10000 + i);
        snprintf(num, sizeof num, "grid[2,%d]", i);
        nput(&x, num, 20000 + i);
    }
    CHECK(x.nfam == 3 && x.rest.n == 0); /* no name in the hash map */
    int found = 0;
    for (int i = 1; i <= 5000; i++) {
        snprintf(num, sizeof num, "m%d", i);
        found += nget(&x, num) == i;
    }
    for (int i = 1; i <= 300; i++) {
        snprintf(num, sizeof num, "m[%d]", i);
        found += nget(&x, num) == 10000 + i;
        snprintf(num, sizeof num, "grid[2,%d]", i);
        found += nget(&x, num) == 20000 + i;
    }
    CHECK(found == 5600);
    /* absent: a number not put, past the array, another family, another tail */
    CHECK(nget(&x, "m0") == -1 && nget(&x, "m5001") == -1 && nget(&x, "m9999999") == -1);
    CHECK(nget(&x, "q1") == -1 && nget(&x, "m[301]") == -1 && nget(&x, "grid[1,1]") == -1 && nget(&x, "m1]") == -1);
    /* the first len bytes only: "m12" of "m12.flange_a", and "m1" is not "m12" */
    CHECK(fl_names_get(&x, "m12.flange_a", 3) == 12 && fl_names_get(&x, "m12", 2) == 1);
    /* a leading zero makes another name (in the map), not number 1 */
    nput(&x, "m01", 77);
    CHECK(nget(&x, "m01") == 77 && nget(&x, "m1") == 1 && nget(&x, "m001") == -1 && x.rest.n == 1);
    /* names that are not numbered: no digits, a tail of three, ten digits, the empty name */
    nput(&x, "push", 1);
    nput(&x, "m1abc", 2);
    nput(&x, "m1000000000", 3);
    nput(&x, "", 4);
    CHECK(x.rest.n == 5 && nget(&x, "push") == 1 && nget(&x, "m1abc") == 2 && nget(&x, "m1000000000") == 3 &&
          nget(&x, "") == 4);
    /* a name holding the byte that separates a family's prefix from its tail
     * is not numbered: "a5b\x01" and "a\x01b5" would make one key */
    nput(&x, "a5b\x01", 6);
    CHECK(nget(&x, "a5b\x01") == 6 && nget(&x, "a\x01" "b5") == -1 && x.rest.n == 6);
    /* sparse numbers go to the map, until their family is dense enough: k1000 .. k2999 */
    nput(&x, "s999999999", 5);
    CHECK(nget(&x, "s999999999") == 5 && nget(&x, "s999999998") == -1 && x.rest.n == 7);
    for (int i = 1000; i < 3000; i++) {
        snprintf(num, sizeof num, "k%d", i);
        nput(&x, num, i);
    }
    size_t in_map = x.rest.n - 7;
    CHECK(in_map > 0 && in_map < 1000); /* the first ones only */
    found = 0;
    for (int i = 1000; i < 3000; i++) {
        snprintf(num, sizeof num, "k%d", i);
        found += nget(&x, num) == i;
    }
    CHECK(found == 2000);
    /* a value replaced, wherever the name is */
    nput(&x, "m7", 99);
    nput(&x, "k1000", 98);
    nput(&x, "push", 97);
    CHECK(nget(&x, "m7") == 99 && nget(&x, "k1000") == 98 && nget(&x, "push") == 97 && x.rest.n == 7 + in_map);
    fl_names_free(&x);
    CHECK(x.nfam == 0 && nget(&x, "m1") == -1 && nget(&x, "push") == -1);
}

int main(void)
{
    test_map();
    test_names();
    fl_arena *a = fl_arena_new();
    const char *p3[] = {"m12", ".", "s"}, *p1[] = {"initial equation"};
    char *x = fl_arena_cat(a, p3, 3), *y = fl_arena_cat(a, p3, 3), *z = fl_arena_cat(a, p1, 1);
    CHECK(strcmp(x, "m12.s") == 0 && strcmp(y, "m12.s") == 0 && strcmp(z, "initial equation") == 0);
    CHECK(y == x + 6);  /* "m12.s" and its NUL: six bytes, nothing more */
    CHECK(z == y + 6);
    char *e = fl_arena_cat(a, p3, 0);
    CHECK(e[0] == '\0' && e == z + 17);
    /* an aligned allocation after 24 bytes of text: at the next multiple of 16, zeroed */
    double *d = fl_arena_alloc(a, 3 * sizeof(double));
    CHECK(((uintptr_t)d & 15) == 0);
    CHECK(d[0] == 0 && d[1] == 0 && d[2] == 0);
    CHECK((char *)d >= e + 1 && (char *)d < e + 1 + 16);
    d[2] = 1.5;
    /* many labels over several blocks (256 bytes growing to 1 MB) and one
     * longer than a block: each intact */
    char *keep[2000];
    char num[16];
    for (int i = 0; i < 2000; i++) {
        snprintf(num, sizeof num, "c%d", i);
        const char *p[] = {num, ".", "s_rel"};
        keep[i] = fl_arena_cat(a, p, 3);
    }
    static char big[3000];
    memset(big, 'b', sizeof big - 1);
    const char *pb[] = {big, "!"};
    char *b = fl_arena_cat(a, pb, 2);
    int intact = 0;
    for (int i = 0; i < 2000; i++) {
        snprintf(num, sizeof num, "c%d.s_rel", i);
        intact += strcmp(keep[i], num) == 0;
    }
    CHECK(intact == 2000);
    CHECK(strlen(b) == sizeof big && b[sizeof big - 1] == '!' && b[0] == 'b');
    CHECK(strcmp(x, "m12.s") == 0 && d[2] == 1.5);
    fl_arena_free(a);
    return check_done();
}
