// <signal.h> and <sys/signal.h> build with no flags, as on Linux: the POSIX layer turns on the
// emulated signals and spindle cc links them (before, wasi-libc's header stopped the build).
// A handler runs on raise(), SIG_IGN ignores, signal() returns the previous disposition.
#include <signal.h>
#include <stdio.h>
#include <sys/signal.h>

static volatile sig_atomic_t received;

static void on_signal(int sig) { received = sig; }

int main(void)
{
    printf("first signal() gives SIG_DFL: %d\n", signal(SIGUSR1, on_signal) == SIG_DFL);
    printf("raise: %d, handler saw SIGUSR1: %d\n", raise(SIGUSR1), received == SIGUSR1);
    printf("second signal() gives the handler: %d\n", signal(SIGUSR1, SIG_IGN) == on_signal);
    received = 0;
    printf("ignored raise: %d, handler ran: %d\n", raise(SIGUSR1), received != 0);
    return 0;
}
