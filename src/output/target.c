/* target.c - output targets: a result replaces its file only when complete,
 * and only a file it may replace. rename() is atomic, but it replaces the
 * directory entry itself: renamed onto /dev/stdout (a symbolic link) or
 * /dev/null it turns them into regular files. So a target is first
 * resolved: symbolic links are followed to the file they lead to, which is
 * replaced in its own directory; what is not a regular file (devices,
 * FIFOs, terminals) and the file behind this process's standard output or
 * error is written in place instead.
 *
 * Temporary files are also listed in a fixed table of atomic slots, so that
 * fl_remove_temp_files can unlink them from a signal handler: the host's
 * handler, since a library must not install its own. */
#include "output/target.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/diag.h"
#include "util/util.h"

/* ---- temporary files a signal handler can remove ------------------------ */

#define TEMP_SLOTS 16
#define TEMP_PATH 4096

enum { SLOT_FREE = 0, SLOT_FILLING = 1, SLOT_ARMED = 2 };

/* state is lock-free (checked below), so reading it in a handler is safe;
 * path is written only while the slot is not armed */
static struct {
    atomic_int state;
    char path[TEMP_PATH];
} temp_slots[TEMP_SLOTS];

#if ATOMIC_INT_LOCK_FREE != 2
#error "fl_remove_temp_files needs lock-free atomic int"
#endif

int fl_remove_temp_files(void)
{
    int saved = errno, n = 0;
    for (int i = 0; i < TEMP_SLOTS; i++)
        if (atomic_load(&temp_slots[i].state) == SLOT_ARMED && unlink(temp_slots[i].path) == 0) n++;
    errno = saved;
    return n;
}

static int slot_claim(void)
{
    for (int i = 0; i < TEMP_SLOTS; i++) {
        int expect = SLOT_FREE;
        if (atomic_compare_exchange_strong(&temp_slots[i].state, &expect, SLOT_FILLING)) return i;
    }
    return -1;
}

/* Creates template's file (mkstemp) and lists it. Termination signals are
 * held back for the few instructions between the two, so that a handler
 * cannot miss a file that exists; nothing else about them changes. */
static int create_listed(const char *template, char **created, int *slot)
{
    sigset_t hold, old;
    sigemptyset(&hold);
    sigaddset(&hold, SIGHUP);
    sigaddset(&hold, SIGINT);
    sigaddset(&hold, SIGQUIT);
    sigaddset(&hold, SIGTERM);
    /* the caller's copy of the name first: allocation may fail (and unwind),
     * which must not happen between creating the file and handing it over */
    char *copy = fl_xstrdup(template);
    int s = strlen(template) < TEMP_PATH ? slot_claim() : -1; /* none free: created but not listed */
    char *name = s >= 0 ? temp_slots[s].path : copy;
    if (s >= 0) strcpy(name, template);
    pthread_sigmask(SIG_BLOCK, &hold, &old);
    int fd = mkstemp(name);
    int err = errno;
    if (fd >= 0 && s >= 0) atomic_store(&temp_slots[s].state, SLOT_ARMED);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (fd < 0) {
        if (s >= 0) atomic_store(&temp_slots[s].state, SLOT_FREE);
        free(copy);
        errno = err;
        return -1;
    }
    if (s >= 0) strcpy(copy, name);
    *created = copy;
    *slot = s;
    return fd;
}

static void slot_release(int s)
{
    if (s >= 0) atomic_store(&temp_slots[s].state, SLOT_FREE);
}

/* ---- resolving a target ------------------------------------------------- */

/* The path the chain of symbolic links starting at path ends in (path
 * itself when it is no link); the end need not exist (a dangling link). */
static char *follow_links(const char *path)
{
    char *cur = fl_xstrdup(path);
    for (int hop = 0; hop < 40; hop++) {
        struct stat ls;
        if (lstat(cur, &ls) != 0 || !S_ISLNK(ls.st_mode)) break;
        size_t cap = ls.st_size > 0 ? (size_t)ls.st_size + 1 : 256;
        char *to = fl_xmalloc(cap);
        ssize_t n;
        while ((n = readlink(cur, to, cap)) >= 0 && (size_t)n >= cap) to = fl_xrealloc(to, cap *= 2);
        if (n < 0) {
            free(to);
            break;
        }
        to[n] = '\0';
        char *next;
        const char *slash = strrchr(cur, '/');
        if (to[0] == '/' || !slash)
            next = fl_xstrdup(to);
        else
            next = fl_xsprintf("%.*s/%s", (int)(slash - cur), cur, to);
        free(to);
        free(cur);
        cur = next;
    }
    return cur;
}

/* Permissions of a new result file: 0666 less the umask, as any program's
 * new files. The umask is read from /proc: umask() itself would have to
 * change it to read it, which races with other threads. */
static mode_t new_file_mode(void)
{
    mode_t mask = 022;
    FILE *f = fopen("/proc/self/status", "r");
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f)) {
            unsigned m;
            if (sscanf(line, "Umask: %o", &m) == 1) {
                mask = (mode_t)m;
                break;
            }
        }
        fclose(f);
    }
    return 0666 & ~mask;
}

static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Decides dest and std_fd: 0, or -1 with a message. */
static int resolve(fl_target *t, fl_diag *d)
{
    struct stat st;
    if (stat(t->path, &st) != 0) {
        if (errno != ENOENT) {
            fl_err(d, fl_noloc, "cannot write %s: %s", t->path, strerror(errno));
            return -1;
        }
        t->dest = follow_links(t->path); /* absent, or a link to a file still to be made */
        t->mode = new_file_mode();
        return 0;
    }
    if (S_ISDIR(st.st_mode)) {
        fl_err(d, fl_noloc, "cannot write %s: it is a directory", t->path);
        return -1;
    }
    for (int fd = 1; fd <= 2; fd++) {
        struct stat sf;
        if (fstat(fd, &sf) == 0 && same_file(&sf, &st)) {
            t->std_fd = fd; /* through the stream, so that it stays where the result is */
            return 0;
        }
    }
    if (!S_ISREG(st.st_mode)) return 0;
    char *dest = follow_links(t->path);
    struct stat ls;
    if (lstat(dest, &ls) == 0 && S_ISREG(ls.st_mode) && same_file(&ls, &st)) {
        t->dest = dest;
        t->mode = st.st_mode & 07777;
    } else {
        free(dest); /* a link that does not resolve by reading it (/proc): in place */
    }
    return 0;
}

static int open_in_place(const fl_target *t)
{
    if (t->std_fd >= 0) return dup(t->std_fd);
    return open(t->path, O_WRONLY | O_TRUNC | O_NOCTTY | O_CLOEXEC);
}

int fl_target_open(fl_target *t, const char *path, int how, fl_diag *d)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    t->std_fd = -1;
    t->slot = -1;
    if (resolve(t, d)) return -1;
    int fd;
    if (t->dest || how == FL_TARGET_FILE) {
        char *template;
        const char *tmpdir = getenv("TMPDIR");
        if (!tmpdir || !*tmpdir) tmpdir = "/tmp";
        if (t->dest)
            template = fl_xsprintf("%s.tmpXXXXXX", t->dest); /* beside it, so that rename() is atomic */
        else
            template = fl_xsprintf("%s/flange-XXXXXX", tmpdir);
        fl_cleanup c; /* create_listed's copy of it may fail */
        fl_cleanup_push(&c, free, template);
        fd = create_listed(template, &t->tmp, &t->slot);
        fl_cleanup_pop(&c);
        free(template);
        if (fd < 0) {
            if (t->dest)
                fl_err(d, fl_noloc, "cannot create %s: %s", path, strerror(errno));
            else
                fl_err(d, fl_noloc, "cannot write %s: no temporary file in %s: %s", path, tmpdir, strerror(errno));
            free(t->dest);
            t->dest = NULL;
            return -1;
        }
        if (t->dest) fchmod(fd, t->mode); /* mkstemp creates 0600 */
        return fd;
    }
    fd = open_in_place(t);
    if (fd < 0) fl_err(d, fl_noloc, "cannot write %s: %s", path, strerror(errno));
    return fd;
}

/* Copies the finished temporary file into an in-place target. */
static int copy_into(const fl_target *t, fl_diag *d)
{
    int in = open(t->tmp, O_RDONLY | O_CLOEXEC);
    int out = in >= 0 ? open_in_place(t) : -1;
    int err = in < 0 || out < 0 ? errno : 0;
    char buf[1 << 16];
    ssize_t n = 0;
    while (!err && (n = read(in, buf, sizeof buf)) > 0) {
        for (ssize_t off = 0; off < n && !err;) {
            ssize_t w = write(out, buf + off, (size_t)(n - off));
            if (w < 0 && errno != EINTR) err = errno;
            if (w > 0) off += w;
        }
    }
    if (!err && n < 0) err = errno;
    if (in >= 0) close(in);
    if (out >= 0 && close(out) != 0 && !err) err = errno;
    if (err) fl_err(d, fl_noloc, "cannot write %s: %s", t->path, strerror(err));
    return err ? -1 : 0;
}

int fl_target_commit(fl_target *t, fl_diag *d)
{
    int rc = 0;
    if (t->tmp && t->dest) {
        if (rename(t->tmp, t->dest) != 0) {
            fl_err(d, fl_noloc, "cannot write %s: %s", t->path, strerror(errno));
            rc = -1;
        } else {
            free(t->tmp); /* renamed: nothing left to remove */
            t->tmp = NULL;
        }
    } else if (t->tmp) {
        rc = copy_into(t, d);
    }
    fl_target_discard(t);
    return rc;
}

void fl_target_discard(fl_target *t)
{
    if (t->tmp) unlink(t->tmp);
    slot_release(t->slot); /* after the unlink or rename: a signal in between finds no file */
    t->slot = -1;
    free(t->tmp);
    free(t->dest);
    t->tmp = t->dest = NULL;
}
