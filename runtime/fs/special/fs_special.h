/* THE SPECIAL FILES LAYER of runtime/fs (docs/FILESYSTEM.md, "Layers"), over the core: pipes,
 * readiness for poll, the character devices of /dev, /proc/self/fd, and advisory locks. Its
 * files include only the core's header and their own. */
#ifndef SPINDLE_FS_SPECIAL_H
#define SPINDLE_FS_SPECIAL_H

#include "../core/fs_core.h"

/* the tables of its kinds of inode (pipe_ops is weak: see "pipes" below) */
extern const struct inode_ops device_ops;
extern const struct inode_ops pipe_ops __attribute__((weak));

/* ---- pipes (pipe.c) ---- */
/* Weak, so that the calls of fs_poll.c and ops/ do not link pipe.c: it comes with spindle_fs_pipe (runtime/
 * posix-ipc's pipe()), the one maker of pipe inodes, and without it these are never reached
 * (docs/TOOLCHAIN.md). pipe.c's own definitions are weak too, and the only ones. */
#define PIPE_FUNCTION __attribute__((weak))
/* A new description of an end joins the count (pipe(), /dev/fd/N). */
PIPE_FUNCTION void pipe_end_opened(struct inode *pipe, int access);
/* revents of a pipe end for poll (SPINDLE_POLL* bits, before masking) */
PIPE_FUNCTION short pipe_poll_state(struct open_file *file);

/* ---- readiness (fs_poll.c) ---- */
/* Wakes every poll waiting in spindle_fs_poll; call with no lock held after a
 * change of readiness. */
void fs_poll_notify(void);

/* ---- character devices (device.c) ---- */
/* creates /dev and its devices (fs_init) */
int device_create_all(void);
/* the host's stdio through /dev/stdout & co. (proc_fd.c): at pread's offset, else at the
 * description's own position or the host fd's offset */
int64_t device_stdio(struct open_file *file, const struct spindle_iovec *iov, int iovcnt, bool write,
                     int64_t offset);
/* fstat of such a description: what the host's fd is */
int device_stdio_stat(struct inode *dev, struct spindle_stat *st);
/* lseek of such a description: its own position or the host fd's offset, or -errno */
int64_t device_stdio_seek(struct open_file *file, int64_t offset, int whence);
/* ftruncate of such a description: the host's file, 0 or -errno */
int device_stdio_truncate(struct inode *dev, int64_t length);
/* whether a device's pread and pwrite have a position (a host stdio pipe or socket has none) */
bool device_has_position(struct open_file *file);
/* After a path open of `node`: where it is stdio that is a regular file, the description gets a
 * position of its own and O_TRUNC truncates, as Linux's new open of the file. 0 or -errno. */
int stdio_opened(struct inode *node, struct open_file *file, int flags);

/* ---- /proc/self/fd (proc_fd.c) ---- */
/* A name looked up in /proc/self/fd: a transient magic symlink to fd N's inode. */
int proc_fd_lookup(const char *name, size_t len, struct inode **out);
int proc_fd_readdir(uint64_t cookie, struct spindle_dirent *out, int max);
/* creates /proc/self/fd and the /dev links to it (fs_init) */
int proc_create_all(void);

/* ---- advisory locks (file_lock.c) ---- */
/* Weak, so that close does not link the lock code: file_lock.c comes with the calls that take a
 * lock (spindle_fs_setlk, from fcntl/flock/lockf), and a program without them holds none. The
 * caller tests the address first. Releasing a description and freeing an inode reach the locks
 * through fs_lock_release (core/fs_core.h), which file_lock.c lends. */
#define LOCK_FUNCTION __attribute__((weak))
/* close(2) of any fd of the inode: drops the program's classic record locks */
LOCK_FUNCTION void file_locks_close_fd(struct open_file *file);

#endif
