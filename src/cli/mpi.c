/* mpi.c - `flange sweep` across the ranks of an MPI job. Rank 0 keeps the
 * study's results and writes the output; its main thread is the
 * coordinator: it hands out runs one at a time to whichever rank asks
 * (dynamic load balance: runs differ in cost), receives the finished runs'
 * records (fl_sweep_pack) and stores them, while a thread of its own runs
 * runs too. Only rank 0's main thread calls MPI (MPI_THREAD_FUNNELED), and
 * it sleeps briefly between polls instead of spinning in a blocking
 * receive, so the coordinator costs no core. The other ranks ask, run,
 * send, ask again. MPI is initialised only when the process was started
 * by mpirun (its environment says so) with more than one rank; a flange
 * built without MPI refuses to run a study under such a launcher rather
 * than let every rank write the same output. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

/* rank and size as the launcher's environment gives them (OpenMPI, MPICH/PMI, Slurm's PMIx) */
static long env_long(const char *const *names)
{
    for (int i = 0; names[i]; i++) {
        const char *v = getenv(names[i]);
        if (v && *v) return strtol(v, NULL, 10);
    }
    return -1;
}

static long env_size(void)
{
    static const char *const n[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", NULL};
    return env_long(n);
}

#ifndef FLANGE_MPI

int cli_mpi_active(void)
{
    return env_size() > 1;
}

int cli_mpi_rank(void)
{
    static const char *const n[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", NULL};
    long r = env_long(n);
    return r > 0 ? (int)r : 0;
}

int cli_mpi_any_failed(int failed)
{
    (void)failed;
    if (cli_mpi_rank() == 0)
        fprintf(stderr, "flange sweep: started as %ld MPI ranks, but this flange was built without MPI (install "
                "libopenmpi-dev and build again); every rank would run the whole study\n", env_size());
    return 1;
}

long cli_mpi_sweep(fl_sweep *s, long first, long count, fl_sweep_progress_fn progress, void *user, fl_diag *d)
{
    (void)s, (void)first, (void)count, (void)progress, (void)user, (void)d;
    return -1;
}

void cli_mpi_finalize(void) {}

#else

#include <mpi.h>
#include <pthread.h>

enum { TAG_ASK = 1, TAG_RUN = 2, TAG_RESULT = 3 };

static int state = -1; /* -1 not decided, 0 not under MPI, 1 initialised */
static int rank, size;

int cli_mpi_active(void)
{
    if (state < 0) {
        state = 0;
        if (env_size() > 1) {
            int provided;
            if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) == MPI_SUCCESS) {
                MPI_Comm_rank(MPI_COMM_WORLD, &rank);
                MPI_Comm_size(MPI_COMM_WORLD, &size);
                state = size > 1 ? 1 : 0;
                if (!state) MPI_Finalize();
            }
        }
    }
    return state == 1;
}

int cli_mpi_rank(void)
{
    return state == 1 ? rank : 0;
}

int cli_mpi_any_failed(int failed)
{
    int any = 0;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return any;
}

void cli_mpi_finalize(void)
{
    if (state == 1) MPI_Finalize();
    state = 0;
}

static void pause_briefly(void)
{
    struct timespec ts = {0, 200000}; /* 0.2 ms */
    nanosleep(&ts, NULL);
}

/* rank 0's own worker thread */
typedef struct local {
    fl_sweep *s;
    long *todo;
    long ntodo;
    atomic_long *next;
    atomic_long done;
    atomic_int finished;
    long failed;
} local;

static void *local_worker(void *arg)
{
    local *l = arg;
    fl_diag *d = fl_diag_new();
    for (;;) {
        long k = atomic_fetch_add(l->next, 1);
        if (k >= l->ntodo) break;
        fl_diag_clear(d);
        if (fl_sweep_run(l->s, &l->todo[k], 1, 1, NULL, NULL, d) < 0) l->failed = -1;
        atomic_fetch_add(&l->done, 1);
    }
    fl_diag_free(d);
    atomic_store(&l->finished, 1);
    return NULL;
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static long coordinate(fl_sweep *s, long first, long count, fl_sweep_progress_fn progress, void *user, fl_diag *d)
{
    long *todo = malloc(sizeof(long) * (size_t)(count ? count : 1));
    if (!todo) return -1;
    long ntodo = 0;
    for (long r = first; r < first + count; r++)
        if (!fl_sweep_has_result(s, r)) todo[ntodo++] = r;
    long total = fl_sweep_nruns(s), already = 0;
    for (long r = 0; r < total; r++) already += fl_sweep_has_result(s, r);
    atomic_long next = 0;
    local l = {s, todo, ntodo, &next, 0, 0, 0};
    pthread_t th;
    int threaded = pthread_create(&th, NULL, local_worker, &l) == 0;
    if (!threaded) atomic_store(&l.finished, 1); /* no thread: the other ranks do it all */
    long received = 0;
    int stopped = 0; /* ranks told that nothing is left */
    size_t cap = 1 << 16;
    unsigned char *buf = malloc(cap);
    long shown = -1;
    double last = 0;
    int status_col = fl_sweep_nparams(s) + 1;
    while ((stopped < size - 1 || received + atomic_load(&l.done) < ntodo) && buf) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (!flag) {
            long dn = already + received + atomic_load(&l.done);
            if (progress && dn != shown && (seconds() - last > 0.5 || dn == total)) {
                shown = dn;
                last = seconds();
                long nf = 0;
                for (long r = 0; r < total; r++) nf += fl_sweep_value(s, r, status_col) == 1;
                progress(user, dn, nf, total);
            }
            pause_briefly();
            continue;
        }
        if (st.MPI_TAG == TAG_ASK) {
            int dummy;
            MPI_Recv(&dummy, 1, MPI_INT, st.MPI_SOURCE, TAG_ASK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            long k = atomic_fetch_add(&next, 1);
            long run = k < ntodo ? todo[k] : -1;
            if (run < 0) stopped++;
            MPI_Send(&run, 1, MPI_LONG, st.MPI_SOURCE, TAG_RUN, MPI_COMM_WORLD);
        } else if (st.MPI_TAG == TAG_RESULT) {
            int n;
            MPI_Get_count(&st, MPI_BYTE, &n);
            if ((size_t)n > cap) {
                unsigned char *nb = realloc(buf, (size_t)n);
                if (!nb) break;
                buf = nb;
                cap = (size_t)n;
            }
            MPI_Recv(buf, n, MPI_BYTE, st.MPI_SOURCE, TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (fl_sweep_unpack(s, buf, (size_t)n, d)) break;
            received++;
        }
    }
    int complete = buf && stopped == size - 1 && received + atomic_load(&l.done) >= ntodo;
    free(buf);
    if (threaded) pthread_join(th, NULL);
    free(todo);
    if (!complete) {
        fprintf(stderr, "flange sweep: error: the MPI study could not collect every run's result\n");
        return -1;
    }
    long failed = 0;
    for (long r = first; r < first + count; r++) failed += fl_sweep_value(s, r, status_col) == 1;
    return l.failed < 0 ? -1 : failed;
}

static long work(fl_sweep *s, fl_diag *d)
{
    size_t cap = 1 << 16;
    unsigned char *buf = malloc(cap);
    long failed = 0;
    for (;;) {
        int ask = 0;
        long run;
        MPI_Send(&ask, 1, MPI_INT, 0, TAG_ASK, MPI_COMM_WORLD);
        MPI_Recv(&run, 1, MPI_LONG, 0, TAG_RUN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (run < 0) break;
        fl_diag_clear(d);
        if (fl_sweep_run(s, &run, 1, 1, NULL, NULL, d) < 0) failed = -1;
        size_t n = fl_sweep_pack(s, run, buf, cap);
        if (n > cap) {
            unsigned char *nb = buf ? realloc(buf, n) : NULL;
            if (nb) {
                buf = nb;
                cap = n;
                n = fl_sweep_pack(s, run, buf, cap);
            } else {
                n = 0;
            }
        }
        /* a record that cannot be made is still sent (empty): rank 0 then reports the loss */
        MPI_Send(buf, (int)(buf && n <= cap ? n : 0), MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
    }
    free(buf);
    fl_diag_clear(d);
    return failed;
}

long cli_mpi_sweep(fl_sweep *s, long first, long count, fl_sweep_progress_fn progress, void *user, fl_diag *d)
{
    long r = rank == 0 ? coordinate(s, first, count, progress, user, d) : work(s, d);
    /* every rank learns whether rank 0 has the whole study */
    int bad = r < 0, any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return any ? -1 : r;
}

#endif
