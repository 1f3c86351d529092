/* target.h - where an output file goes (the rules are spelled out at
 * fl_sim_run_csv in flange.h): a new path or a regular file is replaced
 * through a temporary file beside it, renamed when complete; a symbolic
 * link is followed to the file it leads to; devices, FIFOs and the files
 * behind the standard streams are written in place. Temporary files are
 * listed where fl_remove_temp_files, called from a signal handler, can
 * find them. */
#ifndef FL_TARGET_H
#define FL_TARGET_H

#include <sys/types.h>

#include "flange.h"

typedef struct fl_target {
    const char *path; /* as given, for messages */
    char *dest;       /* the directory entry the temporary file replaces; NULL: in place */
    char *tmp;        /* the temporary file; NULL when writing in place */
    int std_fd;       /* in place through this standard stream (1, 2), or -1 */
    int slot;         /* the temporary file's entry for fl_remove_temp_files, or -1 */
    mode_t mode;      /* permissions of the file that replaces dest */
} fl_target;

/* Ways to open a target. */
enum {
    FL_TARGET_STREAM = 0, /* write in place where the rules say so (results) */
    FL_TARGET_FILE = 1    /* always a temporary file, copied into an in-place target at commit (pictures,
                             which PLplot writes by name) */
};

/* Prepares writing to path and returns a descriptor to write to: the
 * temporary file, or the target itself. -1 (with a message) on error. */
int fl_target_open(fl_target *t, const char *path, int how, fl_diag *d);

/* After the descriptor is closed: renames the temporary file over dest, or
 * copies it into an in-place target. 0 on success; on failure the
 * temporary file is removed. */
int fl_target_commit(fl_target *t, fl_diag *d);

/* Gives up: removes the temporary file. Safe on a target that failed to
 * open or was committed. */
void fl_target_discard(fl_target *t);

#endif
