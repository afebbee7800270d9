// The directory a test program works in (it fills `work` first), and names in it.
#ifndef POSIX_WORK_DIR_H
#define POSIX_WORK_DIR_H
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static char work[256];

// work/name, in a buffer the next call reuses
static const char *path_of(const char *name)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", work, name);
    return path;
}

// an empty file work/name (0644, less the umask)
__attribute__((unused)) static void touch(const char *name)
{
    close(open(path_of(name), O_CREAT | O_WRONLY, 0644));
}
#endif
