/* The character devices of /dev: null, zero, full, random and urandom, as
 * Linux has them (random never blocks, as on Linux since 5.6). Reads and
 * writes ignore the position (stdio's host gets pread's and pwrite's offset);
 * the devices are stateless, so they need no lock. */
#include "fs_special.h"

#include <string.h>

int getentropy(void *buffer, size_t length); /* wasi-libc: WASI random_get; glibc >= 2.25 */

static void fill_random(uint8_t *dst, size_t len)
{
    while (len > 0) {
        size_t n = len < 256 ? len : 256; /* getentropy's limit per call */
        if (getentropy(dst, n) != 0)
            memset(dst, 0, n); /* cannot happen on either host; never leave garbage */
        dst += n;
        len -= n;
    }
}

static int64_t device_read(struct open_file *file, const struct spindle_iovec *iov, int iovcnt,
                           int64_t offset, int64_t total)
{
    struct inode *dev = file->inode;
    if (dev->u.device >= DEV_STDIN) /* the host decides what pread's offset means */
        return device_stdio(file, iov, iovcnt, false, offset);
    if (dev->u.device == DEV_NULL)
        return 0;
    int64_t done = 0;
    for (int i = 0; i < iovcnt && done < total; i++) {
        size_t n = iov[i].len < (size_t)(total - done) ? iov[i].len : (size_t)(total - done);
        if (dev->u.device == DEV_RANDOM || dev->u.device == DEV_URANDOM)
            fill_random(iov[i].base, n);
        else
            memset(iov[i].base, 0, n); /* zero and full read as zeros */
        done += (int64_t)n;
    }
    return done;
}

static int64_t device_write(struct open_file *file, const struct spindle_iovec *iov, int iovcnt,
                            int64_t *offset, int64_t total)
{
    struct inode *dev = file->inode;
    if (dev->u.device >= DEV_STDIN)
        return device_stdio(file, iov, iovcnt, true, *offset);
    if (dev->u.device == DEV_FULL)
        return total == 0 ? 0 : -SPINDLE_ENOSPC;
    return total; /* null and zero swallow everything; random takes it as entropy */
}

/* /dev/stdout & co. are what the host's fd is (a file, a pipe, a terminal); the others are
 * what their inode says */
static int device_fstat(struct open_file *file, struct spindle_stat *st)
{
    struct inode *dev = file->inode;
    if (dev->u.device >= DEV_STDIN)
        return device_stdio_stat(dev, st);
    inode_read_lock(dev);
    inode_fill_stat(dev, st);
    inode_unlock(dev);
    return 0;
}

/* A duplicate of stdout moves the host fd's offset, as lseek(1) does (Linux's dup shares it);
 * the other devices stay at 0, as Linux's null_lseek and noop_llseek leave them */
static int64_t device_seek(struct open_file *file, int64_t offset, int whence)
{
    struct inode *dev = file->inode;
    return dev->u.device >= DEV_STDIN ? device_stdio_seek(file, offset, whence) : 0;
}

/* Whether pread and pwrite have a position to use: Linux's memory devices take one and ignore it;
 * stdio's host fd has none when it is a pipe or a socket (its kernel says ESPIPE) */
bool device_has_position(struct open_file *file)
{
    struct spindle_stat st;
    if (file->inode->u.device < DEV_STDIN || device_stdio_stat(file->inode, &st) < 0)
        return true;
    uint32_t type = st.mode & SPINDLE_S_IFMT;
    return type != SPINDLE_S_IFIFO && type != SPINDLE_S_IFSOCK;
}

/* stdio's host truncates its file (or says why not); Linux's devices refuse */
static int device_truncate(struct open_file *file, int64_t length)
{
    struct inode *dev = file->inode;
    return dev->u.device >= DEV_STDIN ? device_stdio_truncate(dev, length) : -SPINDLE_EINVAL;
}

const struct inode_ops device_ops = {.format = SPINDLE_S_IFCHR,
                                     .read = device_read,
                                     .write = device_write,
                                     .fstat = device_fstat,
                                     .seek = device_seek,
                                     .truncate = device_truncate};

static int add_device(struct inode *dir, const char *name, enum device_kind kind)
{
    struct inode *dev = inode_new(INODE_DEVICE, &device_ops, 0666);
    if (dev == NULL)
        return -SPINDLE_ENOSPC;
    dev->u.device = kind;
    dev->nlink = 1;
    struct dir_entry *entry = dir_entry_new(name, strlen(name), dev);
    int rc = entry == NULL ? -SPINDLE_ENOSPC : 0;
    inode_write_lock(dir);
    if (rc == 0)
        rc = dir_reserve(&dir->u.dir);
    if (rc == 0 && dir_find(&dir->u.dir, name, strlen(name)) != NULL)
        rc = -SPINDLE_EEXIST;
    if (rc == 0)
        dir_insert(&dir->u.dir, entry); /* the entry keeps the reference */
    inode_unlock(dir);
    if (rc < 0) {
        fs_free(entry);
        inode_unref(dev);
    }
    return rc == -SPINDLE_EEXIST ? 0 : rc;
}

int device_create_all(void)
{
    int rc =
        atomic_load_explicit(&fs_tree_calls, memory_order_acquire)->mkdirat(SPINDLE_AT_FDCWD, "/dev", 0755);
    if (rc < 0 && rc != -SPINDLE_EEXIST)
        return rc;
    struct walk w;
    memset(&w, 0, sizeof w);
    rc = path_walk(fs_root(), "/dev", WALK_FOLLOW, &w);
    if (rc < 0)
        return rc;
    if (w.node == NULL || w.node->type != INODE_DIR) {
        walk_done(&w);
        return -SPINDLE_ENOTDIR;
    }
    static const struct {
        const char *name;
        enum device_kind kind;
    } devices[] = {{"null", DEV_NULL},
                   {"zero", DEV_ZERO},
                   {"full", DEV_FULL},
                   {"random", DEV_RANDOM},
                   {"urandom", DEV_URANDOM}};
    for (size_t i = 0; rc == 0 && i < sizeof devices / sizeof devices[0]; i++)
        rc = add_device(w.node, devices[i].name, devices[i].kind);
    walk_done(&w);
    return rc;
}
