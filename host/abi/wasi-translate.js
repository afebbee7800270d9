// Translations between Linux's numbering (linux.js), which the host's filesystems speak, and
// WASI's (wasi.js), which a module's file calls speak.
import { DT, ERRNO as LINUX_ERRNO, S } from './linux.js';
import { ERRNO, FILETYPE } from './wasi.js';

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
