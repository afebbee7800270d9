/* Spindle in-memory filesystem: the core API.
 *
 * A POSIX-like filesystem that lives in (linear) memory and is shared by all
 * threads of the process. One fd table for the whole process. Every function
 * returns a non-negative value on success and a negative Linux errno value
 * (-SPINDLE_ENOENT, ...) on failure; it never sets errno and never aborts.
 *
 * The constants below carry their Linux numeric values on purpose: the core
 * sits below libc, and wasi-libc's own O_* / E* numbers differ from Linux, so
 * the core cannot use <fcntl.h> / <errno.h> values. Natively on Linux they are
 * equal to the system's, which the native tests rely on.
 *
 * Path resolution starts at the directory open as `dirfd`, or at the root for
 * SPINDLE_AT_FDCWD (the core keeps no working directory: wasi-libc keeps the
 * cwd itself and passes paths relative to a preopened directory).
 *
 * fds 0, 1 and 2 are never handed out: they belong to the host's stdio (only
 * dup2 puts a description there, as Linux's "redirect stderr" does). The
 * fd table holds SPINDLE_FS_MAX_FDS slots, so fds 3 .. SPINDLE_FS_MAX_FDS-1
 * can be open at once; one more open fails with -SPINDLE_EMFILE.
 */
#ifndef SPINDLE_FS_H
#define SPINDLE_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SPINDLE_FS_MAX_FDS 8192
#define SPINDLE_FS_FIRST_FD 3
#define SPINDLE_FS_NAME_MAX 255
#define SPINDLE_FS_PATH_MAX 4096 /* including the terminating NUL */
#define SPINDLE_FS_SYMLOOP_MAX 40

/* errno values (Linux numbering) */
#define SPINDLE_EPERM 1
#define SPINDLE_ENOENT 2
#define SPINDLE_EIO 5
#define SPINDLE_ENXIO 6
#define SPINDLE_EBADF 9
#define SPINDLE_EAGAIN 11
#define SPINDLE_ENOMEM 12
#define SPINDLE_EACCES 13
#define SPINDLE_EFAULT 14
#define SPINDLE_EBUSY 16
#define SPINDLE_EEXIST 17
#define SPINDLE_EXDEV 18
#define SPINDLE_ENODEV 19
#define SPINDLE_ENOTDIR 20
#define SPINDLE_EISDIR 21
#define SPINDLE_EINVAL 22
#define SPINDLE_EMFILE 24
#define SPINDLE_EFBIG 27
#define SPINDLE_ENOSPC 28
#define SPINDLE_ESPIPE 29
#define SPINDLE_EMLINK 31
#define SPINDLE_EPIPE 32
#define SPINDLE_ERANGE 34
#define SPINDLE_ENAMETOOLONG 36
#define SPINDLE_ENOLCK 37
#define SPINDLE_ENOSYS 38
#define SPINDLE_ENOTEMPTY 39
#define SPINDLE_ELOOP 40
#define SPINDLE_EOVERFLOW 75
#define SPINDLE_EILSEQ 84
#define SPINDLE_ENOTSUP 95

/* open flags (Linux numbering) */
#define SPINDLE_O_RDONLY 00
#define SPINDLE_O_WRONLY 01
#define SPINDLE_O_RDWR 02
#define SPINDLE_O_ACCMODE 03
#define SPINDLE_O_CREAT 0100
#define SPINDLE_O_EXCL 0200
#define SPINDLE_O_TRUNC 01000
#define SPINDLE_O_APPEND 02000
#define SPINDLE_O_NONBLOCK 04000
#define SPINDLE_O_DSYNC 010000
#define SPINDLE_O_DIRECTORY 0200000
#define SPINDLE_O_NOFOLLOW 0400000
#define SPINDLE_O_SYNC 04010000

/* *at() flags and special dirfd */
#define SPINDLE_AT_FDCWD (-100)
#define SPINDLE_AT_SYMLINK_NOFOLLOW 0x100
#define SPINDLE_AT_REMOVEDIR 0x200
#define SPINDLE_AT_SYMLINK_FOLLOW 0x400

/* lseek whence */
#define SPINDLE_SEEK_SET 0
#define SPINDLE_SEEK_CUR 1
#define SPINDLE_SEEK_END 2

/* file type bits of spindle_stat.mode (Linux numbering) */
#define SPINDLE_S_IFMT 0170000
#define SPINDLE_S_IFDIR 0040000
#define SPINDLE_S_IFREG 0100000
#define SPINDLE_S_IFLNK 0120000
#define SPINDLE_S_IFIFO 0010000
#define SPINDLE_S_IFCHR 0020000
#define SPINDLE_S_IFBLK 0060000
#define SPINDLE_S_IFSOCK 0140000

/* utimensat special nanosecond values (Linux numbering) */
#define SPINDLE_UTIME_NOW ((1L << 30) - 1L)
#define SPINDLE_UTIME_OMIT ((1L << 30) - 2L)

/* spindle_dirent.type */
#define SPINDLE_DT_FIFO 1
#define SPINDLE_DT_CHR 2
#define SPINDLE_DT_DIR 4
#define SPINDLE_DT_REG 8
#define SPINDLE_DT_LNK 10

struct spindle_timespec {
    int64_t sec;
    int64_t nsec;
};

struct spindle_stat {
    uint64_t dev;
    uint64_t ino;
    uint32_t mode; /* type bits | permission bits */
    uint32_t uid, gid;
    uint64_t nlink;
    int64_t size;
    int64_t blocks; /* 512-byte units actually allocated */
    struct spindle_timespec atim, mtim, ctim;
};

struct spindle_iovec {
    void *base;
    size_t len;
};

struct spindle_dirent {
    uint64_t next_cookie; /* pass this to resume after this entry */
    uint64_t ino;
    uint8_t type;         /* SPINDLE_DT_* */
    uint16_t name_len;
    char name[SPINDLE_FS_NAME_MAX + 1];
};

/* Creates the root with /tmp and /home. Thread-safe and idempotent; every
 * other call requires it to have returned 0 first. */
int spindle_fs_init(void);
/* Whether the calling thread acts for the host (the files API's service thread, or the C
 * main's while it puts the preloaded files in): no permission is checked for it then, so it
 * can fill read-only directories and files that the program then sees with their modes. */
void spindle_fs_thread_acts_for_host(bool acting);

int spindle_fs_openat(int dirfd, const char *path, int flags, uint32_t mode);
int spindle_fs_close(int fd);
int spindle_fs_dup(int fd);
/* Like fcntl(F_DUPFD): the lowest free fd >= min (and >= 3); -SPINDLE_EINVAL for a min
 * outside the table. */
int spindle_fs_dupfd(int fd, int min);
/* Like dup2: newfd refers to oldfd's description afterwards (closing what
 * newfd was). */
int spindle_fs_dup2(int oldfd, int newfd);

int64_t spindle_fs_read(int fd, void *buf, size_t len);
int64_t spindle_fs_write(int fd, const void *buf, size_t len);
int64_t spindle_fs_pread(int fd, void *buf, size_t len, int64_t offset);
int64_t spindle_fs_pwrite(int fd, const void *buf, size_t len, int64_t offset);
int64_t spindle_fs_readv(int fd, const struct spindle_iovec *iov, int iovcnt);
int64_t spindle_fs_writev(int fd, const struct spindle_iovec *iov, int iovcnt);
int64_t spindle_fs_preadv(int fd, const struct spindle_iovec *iov, int iovcnt, int64_t offset);
int64_t spindle_fs_pwritev(int fd, const struct spindle_iovec *iov, int iovcnt, int64_t offset);
int64_t spindle_fs_lseek(int fd, int64_t offset, int whence);
int spindle_fs_ftruncate(int fd, int64_t length);
int spindle_fs_fsync(int fd);
int spindle_fs_fdatasync(int fd);
/* Reserves space: the file grows to offset+len if shorter (posix_fallocate). */
int spindle_fs_fallocate(int fd, int64_t offset, int64_t len);

/* F_GETFL / F_SETFL: only O_APPEND and O_NONBLOCK can be changed. */
int spindle_fs_getfl(int fd);
int spindle_fs_setfl(int fd, int flags);

int spindle_fs_fstat(int fd, struct spindle_stat *st);
/* The file type bits of what fd is open on (SPINDLE_S_IFDIR, IFLNK, IFIFO, else IFREG), from
 * memory: no backend call for a mount's file (isatty and fopen ask this for every stream). */
int spindle_fs_ftype(int fd);
int spindle_fs_fstatat(int dirfd, const char *path, struct spindle_stat *st, int flags);
int spindle_fs_utimensat(int dirfd, const char *path, const struct spindle_timespec times[2], int flags);
int spindle_fs_futimens(int fd, const struct spindle_timespec times[2]);
/* access(2): mode is 0 (F_OK) or R 4 | W 2 | X 1; flags may hold SPINDLE_AT_SYMLINK_NOFOLLOW.
 * Answers by the mode bits for the caller (docs/FILESYSTEM.md, "Permissions"). */
int spindle_fs_faccessat(int dirfd, const char *path, int mode, int flags);
/* Permission bits (07777) and owner, checked as for an ordinary owner unless linked --as-root
 * (chown to another uid or group: -SPINDLE_EPERM). A uid or gid of (uint32_t)-1 leaves it unchanged. Files of a mount: -SPINDLE_EPERM
 * (their backends keep no modes). Changing either updates ctime. */
int spindle_fs_fchmodat(int dirfd, const char *path, uint32_t mode, int flags);
int spindle_fs_fchmod(int fd, uint32_t mode);
/* For copies of host files (preloading): the permission bits (SPINDLE_MODE_KEEP: unchanged)
 * and atime, mtime and ctime as given, ctime too, which utimensat cannot set; a final symlink
 * is not followed. On a mount only atime and mtime reach the backend, which keeps its own
 * modes and ctime. */
#define SPINDLE_MODE_KEEP 0xffffffffu
int spindle_fs_restore_attrs(const char *path, uint32_t mode, const struct spindle_timespec times[3]);
int spindle_fs_fchownat(int dirfd, const char *path, uint32_t uid, uint32_t gid, int flags);
int spindle_fs_fchown(int fd, uint32_t uid, uint32_t gid);

int spindle_fs_mkdirat(int dirfd, const char *path, uint32_t mode);
int spindle_fs_unlinkat(int dirfd, const char *path, int flags);
int spindle_fs_renameat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath);
int spindle_fs_linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags);
int spindle_fs_symlinkat(const char *target, int dirfd, const char *linkpath);
/* Returns the number of bytes placed in buf (not NUL-terminated). */
int64_t spindle_fs_readlinkat(int dirfd, const char *path, char *buf, size_t size);

/* Fills up to `max` entries of the directory open as fd, starting after the
 * entry whose next_cookie was `cookie` (0 = from the start, "." and ".."
 * first). Returns the number filled; 0 at the end. Cookies stay valid while
 * entries are added and removed: an entry present during the whole listing is
 * returned exactly once, and no entry is returned twice. */
int spindle_fs_readdir(int fd, uint64_t cookie, struct spindle_dirent *out, int max);

/* For a host that copies file contents itself, straight between its own
 * memory and the file's (the JS file API and preloading, host/files): calls
 * visit(piece, n, at, ctx) for each piece of bytes [offset, offset+len) of the
 * regular file open as fd, in order, where piece points into the file's own
 * storage (never across a 4 KiB chunk), then visit(NULL, 0, end, ctx) once,
 * all under the file's lock, so the pieces stay valid and no thread sees a
 * half-copied file. SPINDLE_COPY_IN: the caller fills the pieces (fd open for
 * writing; the file grows to offset+len, as with pwrite). SPINDLE_COPY_OUT:
 * the caller reads them (up to the end of the file; a hole is a NULL piece
 * with n > 0 and reads as zeros). Returns the bytes covered or -errno;
 * -SPINDLE_ENOTSUP for a file whose contents live elsewhere (use pread/pwrite). */
#define SPINDLE_COPY_IN 1
#define SPINDLE_COPY_OUT 2
typedef void spindle_piece_fn(void *piece, size_t n, int64_t at, void *ctx);
int64_t spindle_fs_copy_pieces(int fd, int64_t offset, int64_t len, int direction, spindle_piece_fn *visit,
                               void *ctx);

/* ---- pipes, readiness and advisory locks (pipe.c, fs_poll.c, file_lock.c) ---- */

#define SPINDLE_PIPE_CAPACITY 65536 /* as Linux's default */
#define SPINDLE_PIPE_BUF 4096       /* writes up to this size are never interleaved */

/* A pipe: fds[0] reads, fds[1] writes. flags: SPINDLE_O_NONBLOCK (both ends);
 * close-on-exec is the libc layer's business (there is no exec). */
int spindle_fs_pipe(int fds[2], int flags);

/* fcntl F_GETPIPE_SZ: the capacity of the pipe open as fd. F_SETPIPE_SZ: changes it to
 * `request` bytes rounded up as Linux does (one 4 KiB page at least, else the next power of two)
 * and returns the new capacity; -SPINDLE_EINVAL beyond 2 GiB, -SPINDLE_EPERM beyond
 * SPINDLE_PIPE_MAX_SIZE, -SPINDLE_EBUSY if fewer bytes than the pipe holds now. Both give
 * -SPINDLE_EBADF for an fd that is not a pipe. */
#define SPINDLE_PIPE_MAX_SIZE 1048576 /* Linux's default pipe-max-size for unprivileged users */
int spindle_fs_get_pipe_size(int fd);
int spindle_fs_set_pipe_size(int fd, uint32_t request);

/* poll(2) event bits (Linux numbering) */
#define SPINDLE_POLLIN 0x001
#define SPINDLE_POLLPRI 0x002
#define SPINDLE_POLLOUT 0x004
#define SPINDLE_POLLERR 0x008
#define SPINDLE_POLLHUP 0x010
#define SPINDLE_POLLNVAL 0x020
#define SPINDLE_POLLRDNORM 0x040
#define SPINDLE_POLLWRNORM 0x100

struct spindle_pollfd {
    int fd;
    short events;
    short revents;
};

/* poll(2) over the filesystem's fds: fills revents and returns how many are
 * non-zero, waiting (without spinning) up to timeout_ns for one (< 0: no
 * limit; 0: just look). Regular files, directories and devices are always
 * ready; a pipe's read end is ready with data or at EOF (POLLHUP once no
 * writer is left), its write end with room for SPINDLE_PIPE_BUF bytes or no
 * reader left (POLLERR). A negative fd is skipped; an fd that is not open
 * gives POLLNVAL. fds below SPINDLE_FS_FIRST_FD (the host's stdio) are left
 * with revents 0 for the caller to answer. */
int spindle_fs_poll(struct spindle_pollfd *fds, int nfds, int64_t timeout_ns);

/* The program saw the wall clock (CLOCK_REALTIME) read `realtime_ns`: a clock_gettime returned
 * it, or a sleep ended then. No later file timestamp is more than a few milliseconds behind it,
 * also where the host keeps the stamp clock and its ticker fell behind (docs/FILESYSTEM.md). */
void spindle_fs_clock_seen(int64_t realtime_ns);

/* The host's stdio (fds 0-2) is not in the filesystem's fd table until dup2 onto fd 0-2 puts
 * one of the table's descriptions there (spindle_fs_dup2 accepts newfd 0-2); from then on that
 * fd is the table's. Opening /dev/stdout, /proc/self/fd/1 & co., or spindle_fs_dup_stdio, gives
 * a description of the host's fd: its reads and writes, its fstat, lseek and /proc/self/fd text
 * come from these callbacks. Without them: -SPINDLE_EBADF. */
struct spindle_stdio_host {
    /* reads (write 0) or writes at the host fd's own offset (offset < 0) or at offset (pread,
     * pwrite): bytes moved or -errno */
    int64_t (*transfer)(int fd, const struct spindle_iovec *iov, int iovcnt, int write, int64_t offset);
    /* what the host's fd is (type, size, times): 0 or -errno */
    int (*stat)(int fd, struct spindle_stat *st);
    /* lseek of the host's fd (its own offset, which its duplicates share): the position or -errno */
    int64_t (*seek)(int fd, int64_t offset, int whence);
    /* the text Linux's /proc/self/fd/N shows for it, NUL-terminated in text[size]: 0 or -errno */
    int (*describe)(int fd, char *text, size_t size);
    /* ftruncate of the host's fd: 0 or -errno */
    int (*truncate)(int fd, int64_t length);
};
void spindle_fs_set_stdio_host(const struct spindle_stdio_host *host);
/* the host's stdio fd (0-2) whose description fd holds (a dup of stdio, an open of
 * /dev/stdout), or -1 for any other fd */
int spindle_fs_stdio_source(int fd);
/* true while fd holds a description of the table (for fd 0-2: after a dup2 onto it) */
bool spindle_fs_fd_in_table(int fd);
/* dup of the host's fd stdio_fd (0-2): a new description of it at the lowest free fd >= min */
int spindle_fs_dup_stdio(int stdio_fd, int min);
/* an fd /proc/self/fd leaves out (the WASI preopen, which Linux does not have); -1: none */
void spindle_fs_set_hidden_fd(int fd);

/* Record locks (fcntl) and flock. Lock types and commands (Linux numbering). */
#define SPINDLE_F_RDLCK 0
#define SPINDLE_F_WRLCK 1
#define SPINDLE_F_UNLCK 2

/* Whose lock it is. PROCESS: a classic POSIX record lock (F_SETLK): the
 * program is one process, so every thread is the same owner, its locks never
 * conflict with each other, and closing any fd of the file drops them all.
 * DESCRIPTION: an open-file-description lock (F_OFD_SETLK): owned by the
 * open file description, conflicts with every other description (also in one
 * thread), dropped when the description's last fd closes. FLOCK: flock(2), a
 * separate lock space, per description, whole file. */
enum spindle_lock_owner { SPINDLE_LOCK_PROCESS = 0, SPINDLE_LOCK_DESCRIPTION = 1, SPINDLE_LOCK_FLOCK = 2 };

/* l_pid reported for a lock held by the program's classic locks; OFD and
 * flock holders are reported as -1, as Linux does. */
#define SPINDLE_LOCK_PID 1

struct spindle_flock {
    int16_t type;   /* SPINDLE_F_RDLCK / WRLCK / UNLCK */
    int16_t whence; /* SPINDLE_SEEK_SET / CUR / END */
    int64_t start;
    int64_t len;    /* 0 = to the end of the file, negative = before start */
    int32_t pid;    /* out (get): the holder, see SPINDLE_LOCK_PID */
};

/* F_SETLK (wait = 0) / F_SETLKW (wait = 1): -SPINDLE_EAGAIN on conflict when
 * not waiting; -SPINDLE_EBADF when the type needs the fd open for reading
 * (RDLCK) or writing (WRLCK); -SPINDLE_EINVAL for a bad range or type. */
int spindle_fs_setlk(int fd, enum spindle_lock_owner owner, const struct spindle_flock *lock, int wait);
/* F_GETLK: replaces *lock by the first conflicting lock, or sets its type to
 * SPINDLE_F_UNLCK when it could be placed. */
int spindle_fs_getlk(int fd, enum spindle_lock_owner owner, struct spindle_flock *lock);

#ifdef __cplusplus
}
#endif

#endif
