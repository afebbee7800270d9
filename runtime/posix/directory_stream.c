/* Directory streams with Linux's struct dirent (runtime/include/posix/dirent.h): opendir and
 * friends, built on WASI fd_readdir so that they work the same in every --fs mode and on mounts.
 * A stream's position is a WASI cookie: d_off is the cookie of the entry after d_name, and
 * telldir/seekdir hand cookies out and back. Each stream has its own lock, as in glibc, so
 * threads reading different streams never wait for one another. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wasi/api.h>

#include "posix_internal.h"

/* enough for ~200 short names per fd_readdir; grows when one entry does not fit */
#define FIRST_BUFFER_SIZE 8192

struct _DIR {
    pthread_mutex_t lock;
    int fd;
    uint64_t cookie;        /* position of the next entry readdir returns */
    unsigned char *buffer;  /* raw WASI dirents, read from an earlier position */
    size_t size, used, at;  /* buffer size, bytes fd_readdir filled, next entry's offset */
    int at_end;             /* the last fd_readdir returned everything up to the end */
    struct dirent *entry;   /* what readdir returns; a name past NAME_MAX gets a larger one */
    size_t entry_size;
};

/* WASI file types (index) as Linux DT_* values */
unsigned char posix_dirent_type(uint8_t wasi_type)
{
    static const unsigned char linux_type[8] = {
        DT_UNKNOWN, DT_BLK, DT_CHR, DT_DIR, DT_REG, DT_SOCK, DT_SOCK, DT_LNK,
    };
    return wasi_type < sizeof linux_type ? linux_type[wasi_type] : DT_UNKNOWN;
}

size_t posix_dirent_length(size_t name_len)
{
    return (offsetof(struct dirent, d_name) + name_len + 1 + 7) & ~(size_t)7;
}

/* Returns a stream reading the directory open as fd, or NULL with errno (fd stays open). */
DIR *fdopendir(int fd)
{
    struct stat st;
    if (fstat(fd, &st) < 0)
        return NULL;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return NULL;
    }
    DIR *dir = calloc(1, sizeof *dir);
    unsigned char *buffer = malloc(FIRST_BUFFER_SIZE);
    struct dirent *entry = malloc(sizeof *entry);
    if (dir == NULL || buffer == NULL || entry == NULL) {
        free(dir);
        free(buffer);
        free(entry);
        errno = ENOMEM;
        return NULL;
    }
    pthread_mutex_init(&dir->lock, NULL);
    dir->fd = fd;
    dir->buffer = buffer;
    dir->size = FIRST_BUFFER_SIZE;
    dir->entry = entry;
    dir->entry_size = sizeof *entry;
    return dir;
}

static DIR *stream_or_close(int fd)
{
    if (fd < 0)
        return NULL;
    DIR *dir = fdopendir(fd);
    if (dir == NULL) {
        int err = errno;
        close(fd);
        errno = err;
    }
    return dir;
}

DIR *opendirat(int dirfd, const char *path)
{
    return stream_or_close(openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
}

DIR *opendir(const char *path) { return opendirat(AT_FDCWD, path); }

/* Frees the stream and returns its fd, still open. */
int fdclosedir(DIR *dir)
{
    if (dir == NULL) {
        errno = EINVAL;
        return -1;
    }
    int fd = dir->fd;
    pthread_mutex_destroy(&dir->lock);
    free(dir->buffer);
    free(dir->entry);
    free(dir);
    return fd;
}

int closedir(DIR *dir)
{
    int fd = fdclosedir(dir);
    return fd < 0 ? -1 : close(fd);
}

int dirfd(DIR *dir)
{
    if (dir == NULL) {
        errno = EINVAL;
        return -1;
    }
    return dir->fd;
}

/* Reads entries from dir->cookie on, into the buffer (doubled first when `grow`). */
static int refill(DIR *dir, int grow)
{
    if (grow) {
        unsigned char *bigger = realloc(dir->buffer, dir->size * 2);
        if (bigger == NULL)
            return ENOMEM;
        dir->buffer = bigger;
        dir->size *= 2;
    }
    __wasi_size_t used = 0;
    __wasi_errno_t err = __wasi_fd_readdir(dir->fd, dir->buffer, dir->size, dir->cookie, &used);
    dir->used = err == 0 ? used : 0;
    dir->at = 0;
    /* less than a full buffer is the end; a full one may end in a cut-off entry */
    dir->at_end = err == 0 && used < dir->size;
    return err;
}

/* The next entry, or NULL at the end (errno unchanged) or on an error (errno set). Locked. */
static struct dirent *next_entry(DIR *dir)
{
    __wasi_dirent_t head;
    for (;;) {
        size_t left = dir->used - dir->at;
        if (left >= sizeof head) {
            memcpy(&head, dir->buffer + dir->at, sizeof head);
            if (left - sizeof head >= head.d_namlen)
                break;
        }
        /* No whole entry left: the end, or read on from the cookie, into a bigger buffer when
         * the entry is cut off even at the buffer's start. */
        if (dir->at_end)
            return NULL;
        int err = refill(dir, dir->at == 0 && left > 0);
        if (err != 0) {
            errno = err;
            return NULL;
        }
        if (dir->used == 0)
            return NULL;
    }
    const char *name = (const char *)dir->buffer + dir->at + sizeof head;
    size_t reclen = posix_dirent_length(head.d_namlen);
    if (reclen > USHRT_MAX) {
        errno = EOVERFLOW;
        return NULL;
    }
    if (reclen > dir->entry_size) {
        struct dirent *bigger = realloc(dir->entry, reclen);
        if (bigger == NULL) {
            errno = ENOMEM;
            return NULL;
        }
        dir->entry = bigger;
        dir->entry_size = reclen;
    }
    struct dirent *entry = dir->entry;
    entry->d_ino = head.d_ino;
    entry->d_off = (off_t)head.d_next;
    entry->d_reclen = (unsigned short)reclen;
    entry->d_type = posix_dirent_type(head.d_type);
    memcpy(entry->d_name, name, head.d_namlen);
    entry->d_name[head.d_namlen] = '\0';
    dir->at += sizeof head + head.d_namlen;
    dir->cookie = head.d_next;
    return entry;
}

struct dirent *readdir(DIR *dir)
{
    if (dir == NULL) {
        errno = EBADF;
        return NULL;
    }
    pthread_mutex_lock(&dir->lock);
    struct dirent *entry = next_entry(dir);
    pthread_mutex_unlock(&dir->lock);
    return entry;
}

int readdir_r(DIR *restrict dir, struct dirent *restrict entry, struct dirent **restrict result)
{
    *result = NULL;
    if (dir == NULL)
        return EBADF;
    int saved = errno, err = 0;
    errno = 0;
    pthread_mutex_lock(&dir->lock);
    struct dirent *next = next_entry(dir);
    if (next == NULL)
        err = errno;
    else if (next->d_reclen > sizeof *entry)
        err = ENAMETOOLONG; /* as glibc: the caller's entry has room for NAME_MAX bytes */
    else
        *result = memcpy(entry, next, next->d_reclen);
    pthread_mutex_unlock(&dir->lock);
    errno = saved;
    return err;
}

long telldir(DIR *dir)
{
    if (dir == NULL) {
        errno = EBADF;
        return -1;
    }
    pthread_mutex_lock(&dir->lock);
    uint64_t cookie = dir->cookie;
    pthread_mutex_unlock(&dir->lock);
    if (cookie > LONG_MAX) {
        errno = EOVERFLOW;
        return -1;
    }
    return (long)cookie;
}

void seekdir(DIR *dir, long position)
{
    if (dir == NULL)
        return;
    pthread_mutex_lock(&dir->lock);
    dir->cookie = (uint64_t)position;
    dir->used = dir->at = 0;
    dir->at_end = 0;
    pthread_mutex_unlock(&dir->lock);
}

void rewinddir(DIR *dir) { seekdir(dir, 0); }
