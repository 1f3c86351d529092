/* suggest.c - nearest names for "did you mean ...?". The distance is the
 * optimal string alignment distance (Levenshtein plus the swap of two
 * neighbouring characters, the commonest typing slip), computed with two
 * rows and abandoned as soon as a row exceeds the largest distance of
 * interest, so trying every class name of the registry costs little. */
#include "suggest.h"

#include <stdlib.h>
#include <string.h>

int fl_edit_distance(const char *a, const char *b, int max)
{
    size_t la = strlen(a), lb = strlen(b);
    if ((la > lb ? la - lb : lb - la) > (size_t)max) return max + 1;
    /* three rows: the one before the previous is needed for swaps */
    int *r0 = fl_xmalloc(sizeof(int) * (lb + 1)), *r1 = fl_xmalloc(sizeof(int) * (lb + 1));
    int *r2 = fl_xmalloc(sizeof(int) * (lb + 1));
    for (size_t j = 0; j <= lb; j++) r1[j] = (int)j;
    int result = -1;
    for (size_t i = 1; i <= la && result < 0; i++) {
        r2[0] = (int)i;
        int rowmin = r2[0];
        for (size_t j = 1; j <= lb; j++) {
            int cost = a[i - 1] == b[j - 1] ? 0 : 1;
            int d = r1[j - 1] + cost;
            if (r1[j] + 1 < d) d = r1[j] + 1;
            if (r2[j - 1] + 1 < d) d = r2[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && r0[j - 2] + 1 < d)
                d = r0[j - 2] + 1;
            r2[j] = d;
            if (d < rowmin) rowmin = d;
        }
        if (rowmin > max) result = max + 1;
        int *t = r0;
        r0 = r1;
        r1 = r2;
        r2 = t;
    }
    if (result < 0) result = r1[lb] > max ? max + 1 : r1[lb];
    free(r0);
    free(r1);
    free(r2);
    return result;
}

void fl_suggest_init(fl_suggest *s, const char *wanted)
{
    memset(s, 0, sizeof *s);
    s->wanted = wanted;
    size_t n = strlen(wanted);
    s->limit = n <= 2 ? 1 : n <= 8 ? 2 : 3;
}

void fl_suggest_add_dist(fl_suggest *s, int dist, const char *shown)
{
    if (dist > s->limit || dist <= 0) return; /* 0: the name itself, not a suggestion */
    for (int i = 0; i < s->n; i++) {
        if (strcmp(s->name[i], shown) != 0) continue;
        if (dist >= s->dist[i]) return;
        /* seen before, farther: drop that entry and insert anew */
        memmove(&s->name[i], &s->name[i + 1], sizeof s->name[0] * (size_t)(s->n - i - 1));
        memmove(&s->dist[i], &s->dist[i + 1], sizeof s->dist[0] * (size_t)(s->n - i - 1));
        s->n--;
        break;
    }
    /* insertion after the candidates as near (the first seen stays first) */
    int at = s->n;
    while (at > 0 && s->dist[at - 1] > dist) at--;
    if (at >= FL_SUGGEST_MAX) return;
    int last = s->n < FL_SUGGEST_MAX ? s->n : FL_SUGGEST_MAX - 1;
    for (int i = last; i > at; i--) {
        s->name[i] = s->name[i - 1];
        s->dist[i] = s->dist[i - 1];
    }
    s->name[at] = shown;
    s->dist[at] = dist;
    if (s->n < FL_SUGGEST_MAX) s->n++;
}

void fl_suggest_add(fl_suggest *s, const char *key, const char *shown)
{
    fl_suggest_add_dist(s, fl_edit_distance(s->wanted, key, s->limit), shown);
}

int fl_suggest_append(const fl_suggest *s, fl_buf *b)
{
    if (!s->n) return 0;
    fl_buf_add(b, "; did you mean ");
    for (int i = 0; i < s->n; i++) {
        if (i) fl_buf_add(b, i == s->n - 1 ? " or " : ", ");
        fl_buf_printf(b, "'%s'", s->name[i]);
    }
    fl_buf_addc(b, '?');
    return s->n;
}
