// The host-directory backend's native addon (host/mount/hostdir/addon/mount_at.c, built by
// scripts/build-mount-addon.sh): confined open, stat and listing in one system call each where
// node:fs needs a /proc path and its check (docs/MOUNTS.md, "The native addon"). Optional: where
// it is not built, cannot load, or SPINDLE_MOUNT_ADDON=0, hostdir.js uses node:fs alone.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { DT, ERRNO as E } from '../../abi/linux.js';

const FILE = fileURLToPath(new URL('../../../.toolchain/mount-addon/mount_at.node', import.meta.url));

/** Whether this run wants the addon (read on the coordinator, when a mount is prepared). */
export const addonWanted = () => process.platform === 'linux' && process.env.SPINDLE_MOUNT_ADDON !== '0';

let loaded;
/** The addon's functions ({ open, stat, list }), or null where it cannot be loaded. */
export function mountAddon() {
  if (loaded === undefined) {
    try {
      loaded = createRequire(import.meta.url)(FILE);
    } catch {
      loaded = null;
    }
  }
  return loaded;
}

/** One of the addon's functions (`exit`, `yield`...) where this run wants the addon and it has it, else null. */
export function addonFunction(name) {
  const addon = addonWanted() ? mountAddon() : null;
  return typeof addon?.[name] === 'function' ? addon[name] : null;
}

// Where a worker thread that tracks its fds (Node's default) closes an fd node:fs did not open
// in it, node:fs warns on stderr. Spindle's workers no longer track them (docs/HOST.md, "Who
// closes a thread's fds"), but a worker of another host might: so with the addon every fd of the
// handle table is still the addon's, opened by it or adopted (a dup of node:fs's), and closed by
// it (hostdir.js).

// Errors after which the node:fs path resolves the call and decides the answer: a symlink met
// (ELOOP; ENOTDIR for O_DIRECTORY on one), a path the addon does not take (EINVAL,
// ENAMETOOLONG), a kernel or sandbox without openat2 (ENOSYS, EPERM), a race (EAGAIN, EXDEV).
const CAREFUL = new Set([E.ELOOP, E.ENOTDIR, E.EINVAL, E.ENAMETOOLONG, E.ENOSYS, E.EPERM, E.EAGAIN, E.EXDEV]);

/** An addon result: >= 0 or the -errno that is the call's answer; null where node:fs decides. */
export const decided = (result) => (result >= 0 || !CAREFUL.has(-result) ? result : null);

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** A listed entry's lstat: the protocol's 64-byte stat (`wire`, written by the addon), which a
 * STAT answered from the listing copies as it is. */
export class WireStat {
  constructor(wire, ino, mode) {
    this.wire = wire;
    this.ino = ino;
    this.mode = mode;
  }

  isSymbolicLink() { return (this.mode & S_IFMT) === S_IFLNK; }
}

const STAT_BYTES = 64;
const ENTRY_HEAD = 8 + STAT_BYTES;
const LISTED_TYPES = new Set([DT.REG, DT.DIR, DT.LNK]);

/** The entries of list(fd)'s Buffer: [{ name (bytes), type (DT_*), st (a WireStat, null if it
 * could not be taken) }], in the addon's (node:fs's) order. */
export function listedEntries(buf) {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const entries = [];
  for (let at = 0; at < buf.length;) {
    const nameLength = view.getUint16(at + 2, true);
    const st = buf[at + 1] ? new WireStat(buf.subarray(at + 8, at + ENTRY_HEAD), view.getBigUint64(at + 8, true), view.getUint32(at + 16, true)) : null;
    entries.push({ name: buf.subarray(at + ENTRY_HEAD, at + ENTRY_HEAD + nameLength), type: LISTED_TYPES.has(buf[at]) ? buf[at] : DT.UNKNOWN, st });
    at += ENTRY_HEAD + ((nameLength + 7) & ~7);
  }
  return entries;
}
