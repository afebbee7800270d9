/* gettid: as on Linux, the main thread's id is the process id (getpid.c) and every other thread
 * gets its own, never reused. Counted here rather than taken from the host's thread numbers,
 * which start at 1 and would clash with the pid. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

static pthread_t main_thread;
static atomic_int next_tid = 1;
static _Thread_local pid_t my_tid;

__attribute__((constructor)) static void note_main_thread(void) { main_thread = pthread_self(); }

pid_t gettid(void)
{
    if (my_tid == 0)
        my_tid =
            pthread_equal(pthread_self(), main_thread) ? getpid() : getpid() + atomic_fetch_add(&next_tid, 1);
    return my_tid;
}
