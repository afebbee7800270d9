/* readdir_r, which wasi-libc leaves out: readdir under a lock, the entry copied out. */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

static pthread_mutex_t readdir_lock = PTHREAD_MUTEX_INITIALIZER;

int readdir_r(DIR *restrict dir, struct dirent *restrict entry, struct dirent **restrict result)
{
    pthread_mutex_lock(&readdir_lock);
    int saved = errno;
    errno = 0;
    struct dirent *next = readdir(dir);
    int err = errno;
    errno = saved;
    if (next != NULL)
        memcpy(entry, next, offsetof(struct dirent, d_name) + strlen(next->d_name) + 1);
    pthread_mutex_unlock(&readdir_lock);
    *result = next != NULL ? entry : NULL;
    return next == NULL ? err : 0;
}
