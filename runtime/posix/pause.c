/* pause: waits for a signal, and none is ever delivered (a Spindle program gets no signals from
 * outside; raise() of -lwasi-emulated-signal runs its handler at once). It never returns: the
 * program ends through another thread's exit or from outside, as a paused Linux process is
 * ended by a signal. */
#include <unistd.h>

int pause(void)
{
    for (;;)
        sleep(3600);
}
