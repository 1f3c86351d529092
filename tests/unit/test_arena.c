/* test_arena.c - the arena (util.c): fl_arena_cat joins its parts into a
 * copy that takes only its bytes, one after another in a block, each
 * distinct (not interned); fl_arena_alloc stays 16-byte aligned and zeroed
 * after such unaligned text; a part longer than a block gets a block of
 * its own; everything stays readable until fl_arena_free. And the map
 * (fl_map): keys of up to 7 bytes kept in their slots, longer ones and
 * the empty key in its arena, each found by its whole text only. */
#include <stdint.h>

#include "check.h"
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

int main(void)
{
    test_map();
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
