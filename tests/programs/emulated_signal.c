// libwasi-emulated-signal: signal() returns the previous disposition, raise() runs a handler on
// the raising thread, SIG_IGN ignores, SIG_DFL ignores the signals POSIX ignores by default,
// bad signal numbers fail with EINVAL, and a handler can be set from several threads at once.
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t last_signal;
static volatile sig_atomic_t count;

static void on_signal(int sig)
{
    last_signal = sig;
    count++;
}

static void *set_and_raise(void *arg)
{
    int sig = (int)(long)arg;
    signal(sig, on_signal);
    raise(sig);
    return NULL;
}

int main(void)
{
    printf("first signal() returns SIG_DFL: %d\n", signal(SIGUSR1, on_signal) == SIG_DFL);
    int r = raise(SIGUSR1);
    printf("raise(SIGUSR1) = %d, handler saw %d (%s)\n", r, (int)last_signal, strsignal((int)last_signal));
    printf("second signal() returns the handler: %d\n", signal(SIGUSR1, SIG_IGN) == on_signal);
    count = 0;
    r = raise(SIGUSR1);
    printf("ignored: raise = %d, handler calls %d\n", r, (int)count);

    signal(SIGCHLD, SIG_DFL);
    printf("SIGCHLD by default: raise = %d (ignored)\n", raise(SIGCHLD));

    errno = 0;
    int failed = signal(SIGKILL, on_signal) == SIG_ERR;
    printf("signal(SIGKILL) fails: %d, EINVAL: %d\n", failed, errno == EINVAL);
    printf("raise(0) = %d (the null signal)\n", raise(0));
    errno = 0;
    r = raise(_NSIG);
    printf("raise(_NSIG) = %d, EINVAL: %d\n", r, errno == EINVAL);
    errno = 0;
    failed = signal(99, on_signal) == SIG_ERR;
    printf("signal(99) fails: %d, EINVAL: %d\n", failed, errno == EINVAL);

    count = 0;
    pthread_t threads[4];
    int sigs[4] = {SIGUSR2, SIGALRM, SIGTERM, SIGHUP};
    for (int i = 0; i < 4; i++)
        pthread_create(&threads[i], NULL, set_and_raise, (void *)(long)sigs[i]);
    for (int i = 0; i < 4; i++)
        pthread_join(threads[i], NULL);
    printf("4 threads raised, handler calls %d\n", (int)count);

    signal(SIGTERM, SIG_DFL);
    fflush(stdout);
    raise(SIGTERM); // the default action ends the program
    printf("not reached\n");
    return 0;
}
