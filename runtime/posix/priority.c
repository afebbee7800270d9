/* nice: the program's niceness, kept but not applied (the host schedules its threads). As for
 * an unprivileged Linux process: it starts at 0, may go up to 19, and may not come down again
 * (EPERM), since lowering it takes CAP_SYS_NICE. */
#include <errno.h>
#include <stdatomic.h>
#include <unistd.h>

#define NICEST 19

static atomic_int niceness;

int nice(int increment)
{
    int current = atomic_load(&niceness);
    for (;;) {
        if (increment < 0) {
            errno = EPERM;
            return -1;
        }
        int wanted = increment > NICEST - current ? NICEST : current + increment;
        if (atomic_compare_exchange_weak(&niceness, &current, wanted))
            return wanted;
    }
}
