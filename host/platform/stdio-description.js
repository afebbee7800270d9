// The plain-data description of a stdio fd that host/wasi/imports.js answers fstat and /proc/self/fd
// with: { filetype (WASI's), dev, ino, nlink, size, atimNs, mtimNs, ctimNs (decimal strings, as
// they are 64-bit), name (Linux's /proc/self/fd text), terminal (a tty) }. Node fills it from
// the host's fds (stdio-info.js); this is what stdio that is no host fd is. fsType is the f_type
// Linux's fstatfs gives for it (0: not known).
import { FILETYPE } from '../abi/wasi.js';

/** Linux's statfs f_type of the file systems stdio can be on without a path of its own. */
export const FS_MAGIC = { PIPEFS: 0x50495045, SOCKFS: 0x534f434b };

/** Stdio that is not a host fd (bytes given to the API, a page's messages): a pipe. */
export function pipeDescription() {
  return { filetype: FILETYPE.UNKNOWN, dev: '0', ino: '0', nlink: '1', size: '0', atimNs: '0', mtimNs: '0', ctimNs: '0',
    name: 'pipe:[0]', fsType: FS_MAGIC.PIPEFS, terminal: false };
}

/**
 * Whether lseek of this stdio gives 0 and moves nothing: a character device other than a
 * terminal (Linux's /dev/null and /dev/zero answer 0 whatever is asked; a tty is ESPIPE).
 */
export function staysAtZero(description) {
  return description.filetype === FILETYPE.CHARACTER_DEVICE && !description.terminal;
}
