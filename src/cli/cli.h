/* cli.h - the subcommands of the flange command-line tool, called from main.c. */
#ifndef FL_CLI_H
#define FL_CLI_H

#include "flange.h"

int cmd_compare(int argc, char **argv);
int cmd_simulate(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_components(int argc, char **argv);

/* Print every diagnostic of d to stderr, one per line. */
void cli_print_diags(const fl_diag *d);

#endif
