// libwasi-emulated-getpid: getpid() links and gives the same positive id on every thread.
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static void *pid_of_thread(void *arg)
{
    *(pid_t *)arg = getpid();
    return NULL;
}

int main(void)
{
    pid_t pid = getpid(), from_thread = 0;
    pthread_t thread;
    pthread_create(&thread, NULL, pid_of_thread, &from_thread);
    pthread_join(thread, NULL);
    printf("pid positive: %d, same on another thread: %d\n", pid > 0, pid == from_thread);
    return 0;
}
