/* main.c - entry point of the flange command-line tool: dispatches to the
 * subcommands. Exit status: 0 success, 1 failure of the model or the run
 * (or comparison outside the tube), 2 usage error. */
#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: flange <command> [arguments]\n"
    "\n"
    "commands:\n"
    "  simulate MODEL.mo|CLASS [--lib DIR ...] [-o OUT.csv|-] [--model NAME] [--start T] [--stop T]\n"
    "           [--interval H] [--tolerance R] [--max-rows N] [--vars GLOB,...] [--param NAME=VALUE ...]\n"
    "           [--solver auto|dense|klu] [--plot FILE [--plot-vars GLOB,...]] [--energy | --no-energy]\n"
    "           [--contact-events | --no-contact-events] [--one-integrator] [--stats] [--quiet]\n"
    "                     simulate a model and write every variable (or the selected ones) to CSV\n"
    "  plot RESULT.csv [RESULT...] --y VAR[,VAR...] [--x VAR] [-o FILE.png|.svg|.pdf] [--title T]\n"
    "           [--layout stacked|overlay] [--size WxH]\n"
    "                     plot signals of results over time or over another signal (several overlaid)\n"
    "  sweep MODEL.mo|CLASS --param NAME=VALUES ... --collect EXPR,... -o STUDY.csv|STUDY.h5 [--samples N]\n"
    "           [--seed S] [--lhs] [--runs RUNS.csv] [--save VAR,...] [--threads N] [--resume] [--shard I/N]\n"
    "                     a parameter study: one row per run (threads, or MPI under mpirun)\n"
    "  sweep --merge SHARD... -o STUDY.csv|STUDY.h5\n"
    "                     join the shards of a study\n"
    "  check MODEL.mo|CLASS [--lib DIR ...] [--model NAME] [--param NAME=VALUE ...]\n"
    "                     show the flattened structure of a model, or its errors\n"
    "  components         list the component classes with their ports and parameters\n"
    "  compare RESULT.csv REFERENCE.csv [--signals FILE] [--tol 2e-3]\n"
    "                     tube comparison of a result against a reference (MSL regression test style)\n"
    "  fmu MODEL.mo [--model NAME] [--fmi 2|3] [--param NAME=VALUE ...] -o MODEL.fmu\n"
    "                     export a model as an FMU (Co-Simulation and Model Exchange; FMI 2 by default)\n"
    "\n"
    "flange --version prints the version; flange <command> --help describes a command.\n";

void cli_print_diags(const fl_diag *d)
{
    for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "%s\n", fl_diag_text(d, i));
}

int main(int argc, char **argv)
{
    /* A big model is read and compiled through millions of small allocations
     * and a few large arrays that grow. glibc's defaults hand large blocks back
     * to the kernel on every free and map fresh (zeroed) pages on the next
     * growth; for a one-shot tool it is cheaper to keep what was freed. */
    mallopt(M_MMAP_THRESHOLD, 32 << 20); /* glibc's largest allowed value */
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_TOP_PAD, 64 << 20);
    if (argc < 2) {
        fputs(usage, stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("flange %s\n", fl_version());
        return 0;
    }
    if (strcmp(cmd, "simulate") == 0) return cmd_simulate(argc - 1, argv + 1);
    if (strcmp(cmd, "check") == 0) return cmd_check(argc - 1, argv + 1);
    if (strcmp(cmd, "components") == 0) return cmd_components(argc - 1, argv + 1);
    if (strcmp(cmd, "compare") == 0) return cmd_compare(argc - 1, argv + 1);
    if (strcmp(cmd, "plot") == 0) return cmd_plot(argc - 1, argv + 1);
    if (strcmp(cmd, "sweep") == 0) return cmd_sweep(argc - 1, argv + 1);
    if (strcmp(cmd, "fmu") == 0) return cmd_fmu(argc - 1, argv + 1);
    fprintf(stderr, "flange: unknown command '%s'\n\n%s", cmd, usage);
    return 2;
}
