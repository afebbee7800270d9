// Linux's numbering, which Spindle's C filesystem (runtime/include/spindle/fs.h: SPINDLE_E*,
// SPINDLE_O_*, SPINDLE_AT_*, ...), the mount protocol (docs/MOUNTS.md) and the JS FS baseline
// (host/jsfs) use whatever the host OS is. tests/abi.test.js checks each value against the C
// headers (and, for the errno values C does not name, against Linux's <errno.h>).

export const ERRNO = {
  EPERM: 1, ENOENT: 2, EIO: 5, ENXIO: 6, EBADF: 9, EAGAIN: 11, ENOMEM: 12, EACCES: 13, EFAULT: 14,
  EBUSY: 16, EEXIST: 17, EXDEV: 18, ENODEV: 19, ENOTDIR: 20, EISDIR: 21, EINVAL: 22, ENFILE: 23,
  EMFILE: 24, ETXTBSY: 26, EFBIG: 27, ENOSPC: 28, ESPIPE: 29, EROFS: 30, EMLINK: 31, EPIPE: 32,
  ERANGE: 34, ENAMETOOLONG: 36, ENOLCK: 37, ENOSYS: 38, ENOTEMPTY: 39, ELOOP: 40, EOVERFLOW: 75, EILSEQ: 84,
  ENOTSUP: 95, EOPNOTSUPP: 95, EDQUOT: 122,
};

export const O = {
  RDONLY: 0, WRONLY: 1, RDWR: 2, ACCMODE: 3, CREAT: 0o100, EXCL: 0o200, TRUNC: 0o1000,
  APPEND: 0o2000, NONBLOCK: 0o4000, DSYNC: 0o10000, DIRECTORY: 0o200000, NOFOLLOW: 0o400000,
  SYNC: 0o4010000,
};

export const AT = { FDCWD: -100, SYMLINK_NOFOLLOW: 0x100, REMOVEDIR: 0x200, SYMLINK_FOLLOW: 0x400 };

/** st_mode's file type bits */
export const S = { IFMT: 0o170000, IFDIR: 0o040000, IFREG: 0o100000, IFLNK: 0o120000, IFIFO: 0o010000, IFCHR: 0o020000 };

/** d_type */
export const DT = { UNKNOWN: 0, FIFO: 1, CHR: 2, DIR: 4, REG: 8, LNK: 10 };

/** utimensat's special tv_nsec values */
export const UTIME = { NOW: 2 ** 30 - 1, OMIT: 2 ** 30 - 2 };
