/* args.c - command-line parsing shared by the subcommands: options with a
 * value ("--name value" or "--name=value"), numbers, comma lists, and the
 * usage error every command reports the same way. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_usage_error(const char *cmd, const char *usage, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "flange %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fprintf(stderr, "%s\n", usage);
    return 2;
}

const char *cli_option(int argc, char **argv, int *i, const char *name, int *missing)
{
    size_t n = strlen(name);
    const char *arg = argv[*i];
    if (strncmp(arg, name, n) != 0) return NULL;
    if (arg[n] == '=') return arg + n + 1;
    if (arg[n] != '\0') return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}

int cli_number(const char *s, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(x)) return -1;
    *out = x;
    return 0;
}

void cli_list_add(cli_list *l, const char *csv)
{
    const char *p = csv;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (n) {
            char **v = realloc(l->v, sizeof(char *) * (size_t)(l->n + 1));
            char *item = malloc(n + 1);
            if (!v || !item) {
                fputs("flange: out of memory\n", stderr);
                exit(1);
            }
            memcpy(item, p, n);
            item[n] = '\0';
            l->v = v;
            l->v[l->n++] = item;
        }
        p += n + (comma ? 1 : 0);
    }
}

void cli_list_free(cli_list *l)
{
    for (int i = 0; i < l->n; i++) free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = 0;
}
