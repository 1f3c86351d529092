/* measure.c - runs a command and reports its wall time, CPU time (user +
 * system) and peak resident memory (the kernel's accounting of the child,
 * so it covers programs not written in C too):
 *
 *   measure OUTFILE COMMAND [ARGS...]
 *
 * appends "wall_s=... rss_kb=... status=... cpu_s=..." to OUTFILE; the command's own
 * output goes where it would. Exit status: the command's. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: measure OUTFILE COMMAND [ARGS...]\n");
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0) {
        perror("measure: fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror(argv[2]);
        _exit(127);
    }
    int st = 0;
    struct rusage ru;
    if (wait4(pid, &st, 0, &ru) < 0) {
        perror("measure: wait4");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    FILE *f = fopen(argv[1], "a");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    double cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + 1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
    fprintf(f, "wall_s=%.4f rss_kb=%ld status=%d cpu_s=%.4f\n",
            (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec), ru.ru_maxrss, code, cpu);
    fclose(f);
    return code;
}
