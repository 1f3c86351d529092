/* fmu_host.h - what the C tests that load flange's FMU runtime the way an
 * importer does (fmu_threads.c, fmu_params.c) share: ok/FAIL lines that
 * count failures, reading modelDescription.xml and its attributes, the
 * resources URI of an unpacked FMU, an FMI 2.0 logger that keeps the last
 * message of its thread, dlopen of the FMU's binary and dlsym of its
 * functions. Header-only (static inline): one test program, one copy. */
#ifndef FL_FMU_HOST_H
#define FL_FMU_HOST_H

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmi/fmi2abi.h"

static int fails;

static inline void check(int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s", ok ? "ok   " : "FAIL ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
    if (!ok) fails++;
}

/* The whole file, NUL-terminated (malloc'd); NULL if it cannot be read. */
static inline char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) n = 0;
    if (s) s[n] = '\0';
    fclose(f);
    return s;
}

/* The value of the first attribute name="..." at or after from (malloc'd;
 * NULL if none). */
static inline char *xml_attr(const char *from, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, " %s=\"", name);
    const char *p = from ? strstr(from, key) : NULL;
    if (!p) return NULL;
    p += strlen(key);
    const char *e = strchr(p, '"');
    char *s = malloc((size_t)(e - p) + 1);
    memcpy(s, p, (size_t)(e - p));
    s[e - p] = '\0';
    return s;
}

/* "file://" + dir + "/resources/", percent-encoding what is not plain
 * (FMI 2.0's fmuResourceLocation), malloc'd */
static inline char *file_uri(const char *dir)
{
    size_t n = strlen(dir);
    char *u = malloc(3 * n + 32), *p = u;
    p += sprintf(p, "file://");
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)dir[i];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("/-_.~", c))
            *p++ = (char)c;
        else p += sprintf(p, "%%%02X", c);
    }
    strcpy(p, "/resources/");
    return u;
}

static _Thread_local char last_msg[2000]; /* the last message logged on this thread */

static inline void logger2(fmi2ComponentEnvironment env, fmi2String name, fmi2Status status, fmi2String cat,
                           fmi2String msg, ...)
{
    (void)env;
    va_list ap;
    va_start(ap, msg);
    vsnprintf(last_msg, sizeof last_msg, msg, ap);
    va_end(ap);
    if (status != fmi2OK) printf("  [%s %d %s] %s\n", name, (int)status, cat, last_msg);
}

/* Read DIR/modelDescription.xml into *xml and dlopen the FMU's binary
 * DIR/binaries/PLATFORM/<modelIdentifier>.so; NULL (with a FAIL line) on
 * failure. */
static inline void *fmu_open(const char *dir, const char *platform, char **xml)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/modelDescription.xml", dir);
    *xml = slurp(path);
    if (!*xml) return check(0, "read %s", path), NULL;
    char *id = xml_attr(strstr(*xml, "<CoSimulation"), "modelIdentifier");
    snprintf(path, sizeof path, "%s/binaries/%s/%s.so", dir, platform, id ? id : "?");
    free(id);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) check(0, "dlopen %s: %s", path, dlerror());
    return h;
}

/* a member that points at the FMI function name, typed as its declaration */
#define F2(name) __typeof__(&name) name

/* dst = the function name of the library h; returns -1 from the calling
 * function (with a FAIL line) when it is missing */
#define FMU_LOAD(h, dst, name)                                                                                \
    do {                                                                                                      \
        *(void **)&(dst) = dlsym((h), #name);                                                                \
        if (!(dst)) {                                                                                        \
            check(0, "dlsym %s", #name);                                                                     \
            return -1;                                                                                        \
        }                                                                                                     \
    } while (0)

#endif
