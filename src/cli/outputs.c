/* outputs.c - checks of the files a command is asked to write, made before
 * any work starts, so that a mistyped name costs a usage error and not a
 * run: the format follows the extension (CSV or MAT results, PNG/SVG/PDF
 * pictures), and no output may be one of the command's input files, under
 * whatever spelling (./m.mo, a symbolic link, a hard link). */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

const char *cli_extension(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    return dot && dot != base ? dot : NULL; /* ".hidden" has none */
}

/* C11 has no strcasecmp. */
static int same_ext(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
        if (x != *b) return 0;
    }
    return *a == *b;
}

int cli_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int cli_result_name_error(const char *out, char *msg, size_t cap)
{
    const char *ext = cli_extension(out);
    if (!ext || same_ext(ext, ".csv") || same_ext(ext, ".mat")) return 0;
    snprintf(msg, cap, "%s: flange writes results as CSV or MAT, not '%s' (a .csv or .mat name, or - for standard "
                       "output)", out, ext);
    return 1;
}

int cli_result_is_mat(const char *out)
{
    const char *ext = cli_extension(out);
    return ext && same_ext(ext, ".mat");
}

int cli_picture_name_error(const char *out, char *msg, size_t cap)
{
    const char *ext = cli_extension(out);
    static const char *const ok[] = {".png", ".svg", ".pdf"};
    for (size_t i = 0; ext && i < sizeof ok / sizeof ok[0]; i++)
        if (strcmp(ext, ok[i]) == 0) return 0;
    snprintf(msg, cap, "%s: unknown picture format '%s' (use .png, .svg or .pdf)", out, ext ? ext : "");
    return 1;
}
