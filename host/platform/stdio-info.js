// What a host file descriptor used as stdio is, as the program's fstat and /proc/self/fd report
// it (Node only: the CLI also sends it to a browser run), in stdio-description.js's form.
import { FILETYPE } from '../abi/wasi.js';
import { addonFunction } from './mount-addon.js';
import { FS_MAGIC, pipeDescription } from './stdio-description.js';

const { fstatSync, readlinkSync, statfsSync } = process.getBuiltinModule('node:fs');

// isatty(3) of a character device. node:tty loads node:net and the streams, 15-18 ms of a run
// whose stdout is a terminal or /dev/null: the mount addon asks the kernel instead, and node:tty
// answers only where there is no addon.
const isattyOfDevice = (fd) => (addonFunction('isatty') ?? process.getBuiltinModule('node:tty').isatty)(fd);

/** isatty(3) of host fd `fd`: a pipe's or a file's answer takes one fstat and no node:tty. */
export function isTerminal(fd) {
  try {
    return fstatSync(fd).isCharacterDevice() && isattyOfDevice(fd);
  } catch {
    return false;
  }
}

const BLOCK_DEVICE = 1; // WASI's numbers, beyond abi/wasi.js's FILETYPE
const SOCKET_STREAM = 6;

function filetypeOf(st) {
  if (st.isFile()) return FILETYPE.REGULAR_FILE;
  if (st.isCharacterDevice()) return FILETYPE.CHARACTER_DEVICE;
  if (st.isDirectory()) return FILETYPE.DIRECTORY;
  if (st.isBlockDevice()) return BLOCK_DEVICE;
  if (st.isSocket()) return SOCKET_STREAM;
  return FILETYPE.UNKNOWN; // a pipe: WASI has no FIFO type (the runtime reads it as one)
}

// Linux's /proc/self/fd text ("/dev/null", the file's path, "pipe:[N]", "/dev/pts/N"). The
// host's own link says it; elsewhere, the form Linux would use.
function nameOf(fd, st) {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    if (st.isFIFO()) return `pipe:[${st.ino}]`;
    if (st.isSocket()) return `socket:[${st.ino}]`;
    return `/dev/fd/${fd}`;
  }
}

// Linux's statfs f_type of the file system the fd is on (fstatfs), 0 where the host cannot say:
// Node has no fstatfs, so a file is asked by the path its /proc/self/fd link gives.
function fsTypeOf(st, name) {
  if (st.isFIFO()) return FS_MAGIC.PIPEFS;
  if (st.isSocket()) return FS_MAGIC.SOCKFS;
  try {
    return name.startsWith('/') ? statfsSync(name).type : 0;
  } catch {
    return 0;
  }
}

/** fstat and /proc/self/fd text of host fd `fd`; a pipe's description when it is not open. */
export function describeHostFd(fd) {
  let st;
  try {
    st = fstatSync(fd, { bigint: true });
  } catch {
    return pipeDescription();
  }
  const name = nameOf(fd, st);
  return {
    filetype: filetypeOf(st), dev: String(st.dev), ino: String(st.ino), nlink: String(st.nlink), size: String(st.size),
    atimNs: String(st.atimeNs), mtimNs: String(st.mtimeNs), ctimNs: String(st.ctimeNs), name, fsType: fsTypeOf(st, name),
    terminal: st.isCharacterDevice() && isattyOfDevice(fd),
  };
}
