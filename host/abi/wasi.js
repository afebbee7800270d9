// The WASI preview1 numbering and byte layouts the hosts write into linear memory (host/wasi/imports.js,
// host/wasi/file-calls.js), as runtime/wasi/wasi_abi.h has them for C.
// tests/abi.test.js checks each value against wasi-libc's <wasi/api.h> and wasi_abi.h. Translations
// from and to Linux's numbering are in wasi-translate.js.

export const ERRNO = {
  SUCCESS: 0, ACCES: 2, AGAIN: 6, BADF: 8, BUSY: 10, DQUOT: 19, EXIST: 20, FAULT: 21, FBIG: 22, ILSEQ: 25,
  INVAL: 28, IO: 29, ISDIR: 31, LOOP: 32, MFILE: 33, MLINK: 34, NAMETOOLONG: 37, NFILE: 41, NODEV: 43,
  NOENT: 44, NOLCK: 46, NOMEM: 48, NOSPC: 51, NOSYS: 52, NOTDIR: 54, NOTEMPTY: 55, NOTSUP: 58, NXIO: 60,
  OVERFLOW: 61, PERM: 63, PIPE: 64, RANGE: 68, ROFS: 69, SPIPE: 70, TXTBSY: 74, XDEV: 75, NOTCAPABLE: 76,
};

export const FILETYPE = { UNKNOWN: 0, CHARACTER_DEVICE: 2, DIRECTORY: 3, REGULAR_FILE: 4, SYMBOLIC_LINK: 7 };
export const OFLAGS = { CREAT: 1, DIRECTORY: 2, EXCL: 4, TRUNC: 8 };
export const FDFLAGS = { APPEND: 1, DSYNC: 2, NONBLOCK: 4, RSYNC: 8, SYNC: 16 };
export const FSTFLAGS = { ATIM: 1, ATIM_NOW: 2, MTIM: 4, MTIM_NOW: 8 };
export const LOOKUPFLAGS = { SYMLINK_FOLLOW: 1 };
export const CLOCK = { REALTIME: 0, MONOTONIC: 1, PROCESS_CPUTIME_ID: 2, THREAD_CPUTIME_ID: 3 };
export const EVENTTYPE = { CLOCK: 0, FD_READ: 1, FD_WRITE: 2 };
export const SUBCLOCKFLAGS = { SUBSCRIPTION_CLOCK_ABSTIME: 1 };
export const PREOPENTYPE = { DIR: 0 };

/** Rights bits (BigInt); ALL: fd_datasync .. sock_accept. */
export const RIGHTS = {
  FD_READ: 1n << 1n, FD_SEEK: 1n << 2n, FD_TELL: 1n << 5n, FD_WRITE: 1n << 6n, FD_READDIR: 1n << 14n,
  ALL: (1n << 30n) - 1n,
};

// Byte offsets of the fields of the structs the calls fill in; BYTES is the struct's size.
export const FDSTAT = { FILETYPE: 0, FLAGS: 2, RIGHTS_BASE: 8, RIGHTS_INHERITING: 16, BYTES: 24 };
export const FILESTAT = { DEV: 0, INO: 8, FILETYPE: 16, NLINK: 24, SIZE: 32, ATIM: 40, MTIM: 48, CTIM: 56, BYTES: 64 };
export const DIRENT = { NEXT: 0, INO: 8, NAMLEN: 16, TYPE: 20, BYTES: 24 };
export const PRESTAT = { TAG: 0, DIR_NAME_LEN: 4, BYTES: 8 };
export const IOVEC = { BUF: 0, LEN: 4, BYTES: 8 };
/** poll_oneoff's subscription: the union's tag, then the clock's or the fd's fields. */
export const SUBSCRIPTION = { USERDATA: 0, TAG: 8, CLOCK_ID: 16, CLOCK_TIMEOUT: 24, CLOCK_PRECISION: 32, CLOCK_FLAGS: 40,
  FD: 16, BYTES: 48 };
export const EVENT = { USERDATA: 0, ERROR: 8, TYPE: 10, NBYTES: 16, FLAGS: 24, BYTES: 32 };
