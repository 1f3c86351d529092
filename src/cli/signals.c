/* signals.c - an interrupted command leaves no temporary files: on SIGINT,
 * SIGTERM or SIGHUP the handler removes the temporary files of the results
 * and pictures being written (fl_remove_temp_files, which the library
 * offers for this but does not install itself) and then ends the process
 * by the same signal with its default action, so that the caller sees the
 * signal in the exit status as if it had not been caught. */
#include <signal.h>
#include <stddef.h>

#include "cli.h"

static void on_signal(int sig)
{
    fl_remove_temp_files(); /* async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig); /* delivered when the handler returns: the process ends */
}

void cli_catch_signals(void)
{
    static const int sigs[] = {SIGHUP, SIGINT, SIGTERM};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old, sa;
        /* a signal the caller ignores (nohup, a background job) stays ignored */
        if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN) continue;
        sa.sa_handler = on_signal;
        sa.sa_flags = 0;
        sigemptyset(&sa.sa_mask);
        for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) sigaddset(&sa.sa_mask, sigs[k]);
        sigaction(sigs[i], &sa, NULL);
    }
}
