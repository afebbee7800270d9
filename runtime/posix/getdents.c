/* getdents and getdents64: Linux's raw directory reads, records of struct linux_dirent64 (the
 * layer's struct dirent has that layout: d_ino, d_off, d_reclen, d_type, d_name). Spindle owns
 * its fd table, so a directory fd has a position as on Linux: each call reads on from it, with
 * WASI fd_readdir (every --fs mode, mounts too), and leaves it at the last entry's d_off.
 * lseek moves it, to 0 or to any d_off (or telldir value) seen before. */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wasi/api.h>

#include "posix_internal.h"

/* what one call reads at most: a few hundred entries; more waits for the next call */
#define MOST_READ 32768
/* room for any one WASI entry, so that the first always arrives whole */
#define ONE_ENTRY (sizeof(__wasi_dirent_t) + SPINDLE_FS_NAME_MAX + 1)

/* Converts the whole WASI entries of raw[0, used) into out while they fit. Returns the bytes
 * written; *position is the d_off of the last one converted. */
static size_t convert(const unsigned char *raw, size_t used, unsigned char *out, size_t size,
                      uint64_t *position)
{
    size_t in = 0, written = 0;
    __wasi_dirent_t head;
    while (used - in >= sizeof head) {
        memcpy(&head, raw + in, sizeof head);
        if (used - in - sizeof head < head.d_namlen)
            break; /* cut off at the end of what was read */
        size_t reclen = posix_dirent_length(head.d_namlen);
        if (size - written < reclen)
            break;
        struct dirent *entry = (struct dirent *)(out + written);
        entry->d_ino = head.d_ino;
        entry->d_off = (off_t)head.d_next;
        entry->d_reclen = (unsigned short)reclen;
        entry->d_type = posix_dirent_type(head.d_type);
        memset(entry->d_name, 0, reclen - offsetof(struct dirent, d_name)); /* the padding too */
        memcpy(entry->d_name, raw + in + sizeof head, head.d_namlen);
        *position = head.d_next;
        written += reclen;
        in += sizeof head + head.d_namlen;
    }
    return written;
}

ssize_t getdents64(int fd, void *buffer, size_t size)
{
    struct stat st;
    if (fstat(fd, &st) < 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    off_t start = lseek(fd, 0, SEEK_CUR);
    if (start < 0)
        return -1;
    size_t raw_size = (size < MOST_READ ? size : MOST_READ) + ONE_ENTRY;
    unsigned char *raw = malloc(raw_size);
    if (raw == NULL) {
        errno = ENOMEM;
        return -1;
    }
    __wasi_size_t used = 0;
    __wasi_errno_t err = __wasi_fd_readdir(fd, raw, raw_size, (__wasi_dircookie_t)start, &used);
    uint64_t position = (uint64_t)start;
    size_t written = err == 0 ? convert(raw, used, buffer, size, &position) : 0;
    free(raw);
    if (err != 0) {
        errno = err;
        return -1;
    }
    if (written == 0 && used > 0) { /* an entry was there, and did not fit */
        errno = EINVAL;
        return -1;
    }
    if (written > 0 && lseek(fd, (off_t)position, SEEK_SET) < 0)
        return -1;
    return (ssize_t)written;
}

int getdents(int fd, struct dirent *buffer, size_t size) { return (int)getdents64(fd, buffer, size); }
