/* /proc/self/fd (and /dev/fd, a symlink to it, with /dev/stdin, stdout and
 * stderr linking to its 0, 1 and 2), as Linux's magic links: looking up
 * /proc/self/fd/N makes a transient symlink whose text describes what fd N
 * refers to (a path, "pipe:[ino]", a device) and which, when followed, jumps
 * straight to fd N's inode instead of resolving the text. So open() of it is
 * a new open of the same file, pipe or device (with its own position, as on
 * Linux), readlink() gives the text, and the object need not have a name at
 * all. The directory lists the open fds. Nothing is stored per open: the path
 * of a regular file is found when asked, by searching the tree (one
 * directory locked at a time), so it costs time only to readlink/open here.
 * fds 0-2 that are still the host's are shown as the host describes them
 * (Linux's text: "/dev/null", a path, "pipe:[N]", "/dev/pts/N"). */
#include "fs_special.h"
#include "../../include/spindle/decimal.h"

#include <string.h>

#define STDIO_FDS 3

static struct inode *stdio_devices[STDIO_FDS];
static const struct spindle_stdio_host *stdio_host;
static _Atomic int hidden_fd = -1;

void spindle_fs_set_stdio_host(const struct spindle_stdio_host *host) { stdio_host = host; }
void spindle_fs_set_hidden_fd(int fd) { hidden_fd = fd; }

static int stdio_number(const struct inode *dev) { return (int)(dev->u.device - DEV_STDIN); }

/* The size of the host's file, or -errno */
static int64_t stdio_size(int fd)
{
    struct spindle_stat st;
    int rc = stdio_host->stat(fd, &st);
    return rc < 0 ? rc : st.size;
}

int64_t device_stdio(struct open_file *file, const struct spindle_iovec *iov, int iovcnt, bool write,
                     int64_t offset)
{
    if (stdio_host == NULL)
        return -SPINDLE_EBADF;
    int fd = stdio_number(file->inode);
    if (offset >= 0 || !file->own_position)
        return stdio_host->transfer(fd, iov, iovcnt, write, offset);
    /* at the description's own position, as pread/pwrite: O_APPEND writes at the file's end */
    pthread_mutex_lock(&file->pos_lock);
    int64_t at = write && (atomic_load(&file->status) & SPINDLE_O_APPEND) ? stdio_size(fd) : file->pos;
    int64_t n = at < 0 ? at : stdio_host->transfer(fd, iov, iovcnt, write, at);
    if (n >= 0)
        file->pos = at + n;
    pthread_mutex_unlock(&file->pos_lock);
    return n;
}

int device_stdio_stat(struct inode *dev, struct spindle_stat *st)
{
    if (stdio_host == NULL)
        return -SPINDLE_EBADF;
    return stdio_host->stat(stdio_number(dev), st);
}

/* lseek of a description with a position of its own: SEEK_END is the host file's size */
static int64_t seek_own(struct open_file *file, int64_t offset, int whence)
{
    pthread_mutex_lock(&file->pos_lock);
    int64_t base = whence == SPINDLE_SEEK_SET   ? 0
                   : whence == SPINDLE_SEEK_CUR ? file->pos
                   : whence == SPINDLE_SEEK_END ? stdio_size(stdio_number(file->inode))
                                                : -SPINDLE_EINVAL;
    int64_t to = base;
    if (base >= 0 && (__builtin_add_overflow(base, offset, &to) || to < 0))
        to = -SPINDLE_EINVAL;
    if (to >= 0)
        file->pos = to;
    pthread_mutex_unlock(&file->pos_lock);
    return to;
}

int64_t device_stdio_seek(struct open_file *file, int64_t offset, int whence)
{
    if (stdio_host == NULL)
        return -SPINDLE_EBADF;
    if (file->own_position)
        return seek_own(file, offset, whence);
    return stdio_host->seek(stdio_number(file->inode), offset, whence);
}

int device_stdio_truncate(struct inode *dev, int64_t length)
{
    if (stdio_host == NULL)
        return -SPINDLE_EBADF;
    return stdio_host->truncate(stdio_number(dev), length);
}

int stdio_opened(struct inode *node, struct open_file *file, int flags)
{
    if (stdio_host == NULL || node->type != INODE_DEVICE || node->u.device < DEV_STDIN)
        return 0;
    struct spindle_stat st;
    int fd = stdio_number(node);
    if (stdio_host->stat(fd, &st) != 0 || (st.mode & SPINDLE_S_IFMT) != SPINDLE_S_IFREG)
        return 0; /* a pipe, terminal or device has no position to keep */
    file->own_position = true;
    return flags & SPINDLE_O_TRUNC ? stdio_host->truncate(fd, 0) : 0;
}

int spindle_fs_dup_stdio(int stdio_fd, int min)
{
    if (stdio_fd < 0 || stdio_fd >= STDIO_FDS || stdio_devices[stdio_fd] == NULL)
        return -SPINDLE_EBADF;
    int fd = fd_reserve_from(min);
    if (fd < 0)
        return fd;
    /* Linux's duplicate keeps the access mode: stdin is read, stdout and stderr written */
    struct open_file *file =
        open_file_new(stdio_devices[stdio_fd], stdio_fd == 0 ? SPINDLE_O_RDONLY : SPINDLE_O_WRONLY);
    if (file == NULL) {
        fd_unreserve(fd);
        return -SPINDLE_ENOMEM;
    }
    inode_ref(stdio_devices[stdio_fd]);
    fd_install(fd, file);
    return fd;
}

int spindle_fs_stdio_source(int fd)
{
    struct open_file *file = fd_get(fd);
    if (file == NULL)
        return -1;
    const struct inode *node = file->inode;
    int source = node->type == INODE_DEVICE && node->u.device >= DEV_STDIN ? stdio_number(node) : -1;
    open_file_unref(file);
    return source;
}

/* What fd refers to, referenced: the table's description, else the host's stdio for 0-2. */
static struct inode *fd_target(int fd)
{
    if (fd == hidden_fd)
        return NULL;
    struct open_file *file = fd_get(fd);
    if (file != NULL) {
        struct inode *target = file->inode;
        inode_ref(target);
        open_file_unref(file);
        return target;
    }
    if (fd >= STDIO_FDS || stdio_devices[fd] == NULL)
        return NULL;
    inode_ref(stdio_devices[fd]);
    return stdio_devices[fd];
}

/* Depth-first search below dir (whose path is path[0..len)) for an entry
 * naming target; appends its name to path. Child directories are collected
 * under the directory's lock and visited after releasing it, so only one
 * directory is ever locked. Returns 1 found, 0 not, or -errno. */
static int find_path(struct inode *dir, const struct inode *target, char *path, size_t len, int depth)
{
    if (depth > 64)
        return 0;
    struct inode **children = NULL;
    char **names = NULL;
    size_t count = 0;
    int found = 0;
    inode_read_lock(dir);
    struct dir_data *d = &dir->u.dir;
    if (!d->dead) {
        for (size_t i = 0; i < d->order_len && !found; i++) {
            struct dir_entry *e = d->order[i];
            if (e == NULL)
                continue;
            if (e->inode == target) {
                if (len + 1 + e->name_len >= SPINDLE_FS_PATH_MAX) {
                    found = -SPINDLE_ENAMETOOLONG;
                    break;
                }
                path[len] = '/';
                memcpy(path + len + 1, e->name, e->name_len);
                path[len + 1 + e->name_len] = '\0';
                found = 1;
            } else if (e->inode->type == INODE_DIR) {
                count++;
            }
        }
        if (!found && count > 0) {
            children = fs_calloc(count, sizeof *children);
            names = fs_calloc(count, sizeof *names);
            size_t k = 0;
            for (size_t i = 0; children && names && i < d->order_len && k < count; i++) {
                struct dir_entry *e = d->order[i];
                if (e == NULL || e->inode->type != INODE_DIR ||
                    (names[k] = fs_malloc(e->name_len + 1u)) == NULL)
                    continue;
                memcpy(names[k], e->name, e->name_len);
                names[k][e->name_len] = '\0';
                inode_ref(e->inode);
                children[k++] = e->inode;
            }
            count = k;
            if (children == NULL || names == NULL)
                found = -SPINDLE_ENOMEM;
        }
    }
    inode_unlock(dir);
    for (size_t i = 0; i < count; i++) {
        size_t n = strlen(names[i]);
        if (found == 0 && len + 1 + n < SPINDLE_FS_PATH_MAX) {
            path[len] = '/';
            memcpy(path + len + 1, names[i], n + 1);
            found = find_path(children[i], target, path, len + 1 + n, depth + 1);
        }
        inode_unref(children[i]);
        fs_free(names[i]);
    }
    fs_free(children);
    fs_free(names);
    return found;
}

/* What readlink shows for an open file's inode. */
static int describe_target(struct inode *node, char *text)
{
    if (node->type == INODE_PIPE) {
        spindle_put_text(spindle_put_decimal(spindle_put_text(text, "pipe:["), node->ino), "]");
        return 0;
    }
    if (node == fs_root()) {
        strcpy(text, "/");
        return 0;
    }
    if (node->type == INODE_DEVICE && node->u.device >= DEV_STDIN) {
        if (stdio_host && stdio_host->describe(stdio_number(node), text, SPINDLE_FS_PATH_MAX) == 0)
            return 0;
        static const char *const names[] = {"stdin", "stdout", "stderr"}; /* the host cannot say */
        spindle_put_text(spindle_put_text(spindle_put_text(text, "host:["), names[stdio_number(node)]), "]");
        return 0;
    }
    int found = node->ops->in_backend ? 0 : find_path(fs_root(), node, text, 0, 0);
    if (found < 0)
        return found;
    if (found == 0) /* unlinked, or a file of a mount: Linux would say "path (deleted)" */
        spindle_put_text(spindle_put_decimal(spindle_put_text(text, "anon_inode:["), node->ino), "]");
    return 0;
}

int proc_fd_lookup(const char *name, size_t len, struct inode **out)
{
    int fd = 0;
    if (len == 0 || len > 5 || (len > 1 && name[0] == '0'))
        return -SPINDLE_ENOENT;
    for (size_t i = 0; i < len; i++) {
        if (name[i] < '0' || name[i] > '9')
            return -SPINDLE_ENOENT;
        fd = fd * 10 + (name[i] - '0');
    }
    struct inode *target = fd_target(fd);
    if (target == NULL)
        return -SPINDLE_ENOENT;
    struct inode *link = inode_new(INODE_SYMLINK, &symlink_ops, 0700);
    char *text = fs_malloc(SPINDLE_FS_PATH_MAX);
    int rc = link && text ? describe_target(target, text) : -SPINDLE_ENOMEM;
    if (rc < 0) {
        fs_free(text);
        if (link)
            inode_unref(link);
        inode_unref(target);
        return rc;
    }
    link->nlink = 1;
    link->u.symlink.target = text;
    link->u.symlink.len = strlen(text);
    link->u.symlink.magic = target; /* the reference moves here */
    *out = link;
    return 0;
}

int proc_fd_readdir(uint64_t cookie, struct spindle_dirent *out, int max)
{
    /* cookies: 1 ".", 2 "..", then fd + 3 */
    int n = 0;
    for (uint64_t c = cookie + 1; c < SPINDLE_FS_MAX_FDS + 3u && n < max; c++) {
        struct spindle_dirent *e = &out[n];
        const char *name = c == 1 ? "." : c == 2 ? ".." : NULL;
        char digits[21];
        if (name == NULL) {
            struct inode *target = fd_target((int)(c - 3));
            if (target == NULL)
                continue;
            e->ino = target->ino;
            inode_unref(target);
            int fd = (int)(c - 3);
            spindle_put_decimal(digits, (uint64_t)fd);
            name = digits;
            e->type = SPINDLE_DT_LNK;
        } else {
            e->ino = 0;
            e->type = SPINDLE_DT_DIR;
        }
        e->next_cookie = c;
        e->name_len = (uint16_t)strlen(name);
        memcpy(e->name, name, e->name_len + 1u);
        n++;
    }
    return n;
}

/* Made writable, so that the next can be made in it; read-only once all are there. */
static int make_dir(const char *path)
{
    int rc =
        atomic_load_explicit(&fs_tree_calls, memory_order_acquire)->mkdirat(SPINDLE_AT_FDCWD, path, 0755);
    return rc == -SPINDLE_EEXIST ? 0 : rc;
}

static int make_link(const char *target, const char *path)
{
    int rc =
        atomic_load_explicit(&fs_tree_calls, memory_order_acquire)->symlinkat(target, SPINDLE_AT_FDCWD, path);
    return rc == -SPINDLE_EEXIST ? 0 : rc;
}

int proc_create_all(void)
{
    int rc = make_dir("/proc");
    if (rc == 0)
        rc = make_dir("/proc/self");
    if (rc == 0)
        rc = make_dir("/proc/self/fd");
    struct walk w;
    memset(&w, 0, sizeof w);
    if (rc == 0)
        rc = path_walk(fs_root(), "/proc/self/fd", WALK_FOLLOW, &w);
    if (rc < 0)
        return rc;
    w.node->u.dir.listing_lookup = proc_fd_lookup;
    walk_done(&w);
    for (int i = 0; rc == 0 && i < STDIO_FDS; i++) {
        if (stdio_devices[i] == NULL) {
            stdio_devices[i] = inode_new(INODE_DEVICE, &device_ops, 0620); /* kept for the program's life */
            if (stdio_devices[i] == NULL)
                return -SPINDLE_ENOSPC;
            stdio_devices[i]->u.device = (enum device_kind)(DEV_STDIN + i);
            stdio_devices[i]->nlink = 1;
        }
    }
    static const char *const links[][2] = {{"/proc/self/fd", "/dev/fd"},
                                           {"/proc/self/fd/0", "/dev/stdin"},
                                           {"/proc/self/fd/1", "/dev/stdout"},
                                           {"/proc/self/fd/2", "/dev/stderr"}};
    for (size_t i = 0; rc == 0 && i < sizeof links / sizeof links[0]; i++)
        rc = make_link(links[i][0], links[i][1]);
    static const char *const read_only[] = {"/proc/self/fd", "/proc/self", "/proc"};
    for (size_t i = 0; rc == 0 && i < sizeof read_only / sizeof read_only[0]; i++)
        rc = atomic_load_explicit(&fs_tree_calls, memory_order_acquire)
                 ->fchmodat(SPINDLE_AT_FDCWD, read_only[i], 0555, 0);
    return rc;
}
