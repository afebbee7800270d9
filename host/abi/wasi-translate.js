// Translations between Linux's numbering (linux.js), which the host's filesystems speak, and
// WASI's (wasi.js), which a module's file calls speak.
import { AT, DT, ERRNO as LINUX_ERRNO, O, S, UTIME } from './linux.js';
import { ERRNO, FDFLAGS, FILETYPE, FSTFLAGS, LOOKUPFLAGS, OFLAGS, RIGHTS } from './wasi.js';

// Linux errno -> WASI errno: the WASI error of the same name (EFOO -> FOO), as
// runtime/wasi/wasi_support.c's wasi_errno_from_linux; anything else is EIO.
const fromLinux = new Map();
for (const [name, linux] of Object.entries(LINUX_ERRNO)) {
  const wasi = ERRNO[name.slice(1)];
  if (wasi !== undefined && !fromLinux.has(linux)) fromLinux.set(linux, wasi);
}
/** The WASI errno for a Linux errno (positive). */
export function errnoFromLinux(linuxErrno) {
  return fromLinux.get(linuxErrno) ?? ERRNO.IO;
}

/** The WASI filetype of a Linux st_mode. */
export function filetypeOfMode(mode) {
  switch (mode & S.IFMT) {
    case S.IFDIR: return FILETYPE.DIRECTORY;
    case S.IFREG: return FILETYPE.REGULAR_FILE;
    case S.IFLNK: return FILETYPE.SYMBOLIC_LINK;
    case S.IFCHR: return FILETYPE.CHARACTER_DEVICE;
    default: return FILETYPE.UNKNOWN;
  }
}

/** The WASI filetype of a Linux d_type. */
export function filetypeOfDt(type) {
  switch (type) {
    case DT.DIR: return FILETYPE.DIRECTORY;
    case DT.REG: return FILETYPE.REGULAR_FILE;
    case DT.LNK: return FILETYPE.SYMBOLIC_LINK;
    case DT.CHR: return FILETYPE.CHARACTER_DEVICE;
    default: return FILETYPE.UNKNOWN;
  }
}

// Every argument below is what a module passed, unchecked: unknown bits are ignored, and an i64
// (rights, timestamps) is read as the unsigned 64 bits WASI says it is.

/**
 * path_open's access mode from its base rights: wasi-libc turns O_RDONLY, O_WRONLY and O_RDWR
 * into the read and write rights, and runtime/wasi reads them back the same way.
 */
export function accessFromRights(rightsBase) {
  const rights = BigInt.asUintN(64, rightsBase);
  const readable = (rights & RIGHTS.FD_READ) !== 0n;
  const writable = (rights & RIGHTS.FD_WRITE) !== 0n;
  return writable ? (readable ? O.RDWR : O.WRONLY) : O.RDONLY;
}

/** path_open's oflags and lookupflags as Linux open flags (the access mode not included). */
export function openFlagsFromOflags(oflags, lookupflags) {
  let flags = 0;
  if (oflags & OFLAGS.CREAT) flags |= O.CREAT;
  if (oflags & OFLAGS.DIRECTORY) flags |= O.DIRECTORY;
  if (oflags & OFLAGS.EXCL) flags |= O.EXCL;
  if (oflags & OFLAGS.TRUNC) flags |= O.TRUNC;
  if (!(lookupflags & LOOKUPFLAGS.SYMLINK_FOLLOW)) flags |= O.NOFOLLOW;
  return flags;
}

/** WASI fdflags (path_open's, fd_fdstat_set_flags') as Linux file status flags. */
export function statusFlagsFromFdflags(fdflags) {
  let flags = 0;
  if (fdflags & FDFLAGS.APPEND) flags |= O.APPEND;
  if (fdflags & FDFLAGS.NONBLOCK) flags |= O.NONBLOCK;
  if (fdflags & (FDFLAGS.SYNC | FDFLAGS.RSYNC)) flags |= O.SYNC;
  else if (fdflags & FDFLAGS.DSYNC) flags |= O.DSYNC;
  return flags;
}

/** An open file's Linux status flags as fd_fdstat_get's fdflags. */
export function fdflagsFromStatusFlags(flags) {
  let fdflags = 0;
  if (flags & O.APPEND) fdflags |= FDFLAGS.APPEND;
  if (flags & O.NONBLOCK) fdflags |= FDFLAGS.NONBLOCK;
  if ((flags & O.SYNC) === O.SYNC) fdflags |= FDFLAGS.SYNC; // O_SYNC includes O_DSYNC's bit
  else if (flags & O.DSYNC) fdflags |= FDFLAGS.DSYNC;
  return fdflags;
}

/**
 * fd_fdstat_get's base rights for an open file's Linux flags: all granted but what its access
 * mode lacks (wasi-libc derives fcntl(F_GETFL) from the read and write rights).
 */
export function rightsFromAccess(flags) {
  let rights = RIGHTS.ALL;
  const access = flags & O.ACCMODE;
  if (access === O.WRONLY) rights &= ~(RIGHTS.FD_READ | RIGHTS.FD_READDIR);
  if (access === O.RDONLY) rights &= ~RIGHTS.FD_WRITE;
  return rights;
}

/** lookupflags as the AT_ flag of a call that follows a last symlink unless told not to (stat). */
export const noFollowFromLookup = (lookupflags) => (lookupflags & LOOKUPFLAGS.SYMLINK_FOLLOW ? 0 : AT.SYMLINK_NOFOLLOW);
/** lookupflags as the AT_ flag of a call that follows one only when told to (linkat). */
export const followFromLookup = (lookupflags) => (lookupflags & LOOKUPFLAGS.SYMLINK_FOLLOW ? AT.SYMLINK_FOLLOW : 0);

/**
 * The *_filestat_set_times arguments as utimensat's times, [[sec, nsec] of atime, [sec, nsec] of
 * mtime] (sec a BigInt, nsec UTIME.NOW or UTIME.OMIT for "now" and "leave"), or null where the
 * flags ask for both a time and "now" of one timestamp (EINVAL).
 */
export function utimensFromFstflags(atim, mtim, fstflags) {
  if ((fstflags & FSTFLAGS.ATIM) && (fstflags & FSTFLAGS.ATIM_NOW)) return null;
  if ((fstflags & FSTFLAGS.MTIM) && (fstflags & FSTFLAGS.MTIM_NOW)) return null;
  const one = (value, set, now) => {
    if (fstflags & now) return [0n, UTIME.NOW];
    if (!(fstflags & set)) return [0n, UTIME.OMIT];
    const ns = BigInt.asUintN(64, value); // nanoseconds since the epoch
    return [ns / 1000000000n, Number(ns % 1000000000n)];
  };
  return [one(atim, FSTFLAGS.ATIM, FSTFLAGS.ATIM_NOW), one(mtim, FSTFLAGS.MTIM, FSTFLAGS.MTIM_NOW)];
}
