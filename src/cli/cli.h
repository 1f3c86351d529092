/* cli.h - the subcommands of the flange command-line tool, called from main.c. */
#ifndef FL_CLI_H
#define FL_CLI_H

#include <stddef.h>

#include "flange.h"

int cmd_compare(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_simulate(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_components(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_fmu(int argc, char **argv);

/* Print every diagnostic of d to stderr, one per line. */
void cli_print_diags(const fl_diag *d);

/* "flange CMD: message" and the usage on stderr; returns 2. */
int cli_usage_error(const char *cmd, const char *usage, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The value of option name at argv[*i] ("--name value" advances *i, or
 * "--name=value"); NULL if argv[*i] is not that option, or if its value is
 * missing (then *missing = 1). */
const char *cli_option(int argc, char **argv, int *i, const char *name, int *missing);
/* A finite number; 0 on success. */
int cli_number(const char *s, double *out);

/* Output names (outputs.c). The extension of path's last component
 * (".csv"), or NULL. */
const char *cli_extension(const char *path);
/* 1 when both paths exist and are the same file (device and inode). */
int cli_same_file(const char *a, const char *b);
/* 1, with a message for a usage error, when out names a result format
 * flange does not write (.csv and no extension are CSV, .mat is MAT). */
int cli_result_name_error(const char *out, char *msg, size_t cap);
/* 1 when out ends in .mat (any case): a MAT result. */
int cli_result_is_mat(const char *out);
/* 1, with a message, unless out ends in .png, .svg or .pdf. */
int cli_picture_name_error(const char *out, char *msg, size_t cap);

/* On SIGINT, SIGTERM and SIGHUP: remove the temporary files of the writes
 * in progress, then end by that signal (signals.c). */
void cli_catch_signals(void);

/* MPI for flange sweep (mpi.c). cli_mpi_active: 1 when this process is one
 * of several ranks of an MPI job (initialises MPI then). cli_mpi_any_failed:
 * whether any rank passes a non-zero flag (a collective call).
 * cli_mpi_sweep: run the study's runs [first, first + count) across the
 * ranks; every result ends up in rank 0's study; returns the failed runs on
 * rank 0 (0 elsewhere), -1 on error. */
int cli_mpi_active(void);
int cli_mpi_rank(void);
int cli_mpi_any_failed(int failed);
long cli_mpi_sweep(fl_sweep *s, long first, long count, fl_sweep_progress_fn progress, void *user, fl_diag *d);
void cli_mpi_finalize(void);

/* A growing list of strings (comma-separated arguments). */
typedef struct cli_list {
    char **v;
    int n;
} cli_list;
void cli_list_add(cli_list *l, const char *comma_separated);
void cli_list_free(cli_list *l);

#endif
