// The host-directory backend's native addon (host/mount/hostdir/addon/mount_at.c, built by
// scripts/build-mount-addon.sh): confined open, stat and listing in one system call each where
// node:fs needs a /proc path and its check (docs/MOUNTS.md, "The native addon"). Optional: where
// it is not built, cannot load, or SPINDLE_MOUNT_ADDON=0, hostdir.js uses node:fs alone.
import { DT, ERRNO as E } from '../abi/linux.js';
import { STAT as WIRE_STAT, writeStat as writeWireStat } from '../abi/mount-wire.js';
import { loadAddon } from './load-addon.js';

// (Node's built-ins by getBuiltinModule: bin/spindle's start loads this before any cache is on)
const { fileURLToPath } = process.getBuiltinModule('node:url');

const FILE = fileURLToPath(new URL('../../.toolchain/mount-addon/mount_at.node', import.meta.url));

/** Whether this run wants the addon (read on the coordinator, when a mount is prepared). */
export const addonWanted = () => process.platform === 'linux' && process.env.SPINDLE_MOUNT_ADDON !== '0';

let loaded;
/** The addon's functions ({ openIn, statIn, list... }), or null where it cannot be loaded. */
export function mountAddon() {
  if (loaded === undefined) {
    try {
      loaded = loadAddon(FILE);
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

// A listing: list(fd)'s Buffer, whose layout the node:fs path also writes (packListing), so
// that READDIR and the listed stats (listed-stats.js) read one format. Per entry, at a multiple
// of 8: u8 type (DT_*), u8 stat taken, u16 name length, u32 0, the entry's lstat as the
// protocol's 64-byte stat (mount_wire.h, zero if it could not be taken), the name and at least
// one NUL, padded to 8. Entries are sorted by name as strcmp sorts (node:fs's order).
const ENTRY_HEAD = 8 + WIRE_STAT.BYTES;
const entryBytes = (nameLength) => ENTRY_HEAD + ((nameLength + 8) & ~7);
const LISTED_TYPES = new Set([DT.REG, DT.DIR, DT.LNK]);

/** Where each entry of a listing starts. */
export function entryStarts(buf) {
  const starts = [];
  for (let at = 0; at + ENTRY_HEAD <= buf.length; at += entryBytes(nameLengthAt(buf, at))) starts.push(at);
  return Uint32Array.from(starts);
}
export const nameLengthAt = (buf, at) => buf[at + 2] | (buf[at + 3] << 8);
/** The entry's name: its bytes start at nameAt(at). */
export const nameAt = (at) => at + ENTRY_HEAD;
/** Its type: DT_REG, DT_DIR, DT_LNK or DT_UNKNOWN. */
export const typeAt = (buf, at) => (LISTED_TYPES.has(buf[at]) ? buf[at] : DT.UNKNOWN);
/** Whether its stat was taken; the stat's 64 bytes start at statAt(at). */
export const hasStatAt = (buf, at) => buf[at + 1] !== 0;
export const statAt = (at) => at + 8;

/** The same Buffer from node:fs's entries, in their order: [{ name (bytes), type, st (BigIntStats or null) }]. */
export function packListing(entries) {
  const buf = Buffer.alloc(entries.reduce((n, e) => n + entryBytes(e.name.length), 0));
  const view = new DataView(buf.buffer, buf.byteOffset, buf.length);
  let at = 0;
  for (const { name, type, st } of entries) {
    buf[at] = type;
    buf[at + 1] = st ? 1 : 0;
    view.setUint16(at + 2, name.length, true);
    if (st) writeWireStat(view, statAt(at), st);
    buf.set(name, nameAt(at));
    at += entryBytes(name.length);
  }
  return buf;
}

/** A listing's entries as objects, for tests: [{ name (bytes), type, st (the stat's 64 bytes, or null) }]. */
export const listedEntries = (buf) => Array.from(entryStarts(buf), (at) => ({
  name: buf.subarray(nameAt(at), nameAt(at) + nameLengthAt(buf, at)),
  type: typeAt(buf, at),
  st: hasStatAt(buf, at) ? buf.subarray(statAt(at), statAt(at) + WIRE_STAT.BYTES) : null,
}));
