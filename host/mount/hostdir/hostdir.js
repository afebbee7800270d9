// The `hostdir` mount backend (Node): `--mount /PATH=HOSTDIR`, or `mounts: [{ path, hostDir }]`.
// Requests (docs/MOUNTS.md section 3) are served right on the calling thread with node:fs
// synchronous calls: Node file descriptors belong to the process, so any thread can use any
// handle, and threads working on different files never wait for each other.
//
// Confinement (docs/MOUNTS.md section 4): paths are resolved here, component by component, from
// the mount's real root; symlinks are followed only while they stay inside (an absolute or
// escaping target is handed back to the C layer, which resolves it in the program's own tree, or
// gives EXDEV like openat2's RESOLVE_BENEATH); the operation then runs on
// /proc/PID/fd/N/name where N is the parent directory opened with O_NOFOLLOW and checked to be
// the resolved directory inside the root, so a rename racing with the check cannot lead outside.
// On Linux, STAT, OPEN, PREAD and listings first go through the native addon (host/platform/mount-addon.js):
// one openat2 that refuses every symlink; whatever it refuses is resolved the careful way here.
import { createHandleTable, HandleError, HandleTable } from '../handle-table.js';
import { DirCache } from './dir-cache.js';
import { ABSENT, ListedStats, mayChange, NOT_KEPT, TAKEN } from './listed-stats.js';
import { fdPath, hasProcFd } from './proc-fd.js';
import { addonWanted, decided, entryStarts, hasStatAt, mountAddon, nameAt, nameLengthAt, packListing, statAt as entryStatAt, typeAt } from '../../platform/mount-addon.js';
import { createMailboxes, failWorker, submit } from '../mailbox.js';
import { AT, ERRNO as E, DT, O, S, UTIME } from '../../abi/linux.js';
import { FOLLOW, FOLLOW_OPS, FSYNC_DATASYNC, ioHandle, ioHandleParts, ioWorkerOf, inMemory, MAX_IO_WORKERS, memoryBytes, OP, REQ, setResult } from '../../abi/mount-request.js';
import { cookieAfter, direntBytes, indexFrom, STAT as WIRE_STAT, writeDirentFrom, writeStat } from '../../abi/mount-wire.js';
import { checkMountOptions, symlinkLeaves } from './hostdir-options.js';
import { checkHostDirsApart } from './hostdir-overlap.js';
import { quotaCounter } from './quota.js';

const {
  chmodSync, closeSync, constants: C, fchmodSync, fdatasyncSync, fstatSync, fsyncSync,
  ftruncateSync, futimesSync, linkSync, lstatSync, lutimesSync, mkdirSync, openSync, readdirSync,
  readlinkSync, readSync, realpathSync, renameSync, rmdirSync, statSync, symlinkSync, unlinkSync,
  utimesSync, writeSync,
} = process.getBuiltinModule('node:fs');

// (not an Error: a thrown Error records the stack, which cost a STAT that found nothing (ENOENT)
// 5 us, more than its system calls; this is caught in `call` and never leaves the backend)
class Errno {
  constructor(code) { this.errno = code; }
}
const fail = (code) => { throw new Errno(code); };
// Node's error codes are Linux's names (the protocol's numbering, whatever the host OS)
const errnoOf = (err) => (err instanceof Errno || err instanceof HandleError ? err.errno : E[err?.code] ?? E.EIO);

// Linux O_* bits -> this host's
// (pairs of numbers, the host's looked up once: every OPEN maps its flags)
const LINUX_O = [
  // (no O_APPEND: the C layer places appends itself and always gives an offset)
  [O.CREAT, 'O_CREAT'], [O.EXCL, 'O_EXCL'], [O.TRUNC, 'O_TRUNC'],
  [O.DIRECTORY, 'O_DIRECTORY'], [O.NOFOLLOW, 'O_NOFOLLOW'], [O.DSYNC, 'O_DSYNC'], [O.SYNC, 'O_SYNC'],
].filter(([, name]) => C[name] !== undefined).map(([bit, name]) => [bit, C[name]]);
const HOST_ACCESS = [C.O_RDONLY, C.O_WRONLY, C.O_RDWR];
function hostFlags(flags) {
  let out = HOST_ACCESS[flags & O.ACCMODE] ?? C.O_RDONLY;
  for (const [bit, host] of LINUX_O) if ((flags & bit) === bit) out |= host;
  return out;
}

const RETRIES = 8;
// names that are not valid UTF-8 are refused (EILSEQ): a lenient decoding would give `bad\xff`
// and `bad\xef\xbf\xbd` the same host name
const decoder = new TextDecoder('utf-8', { fatal: true });
const decodeName = (bytes) => {
  try { return decoder.decode(bytes); } catch { return fail(E.EILSEQ); }
};
// host files get no setuid, setgid or sticky bit from a program (docs/MOUNTS.md)
const PERMISSIONS = 0o777;
// Linux's O_PATH (node:fs does not name it): an fd that names a file without opening its data,
// so chmod of /proc/self/fd/N reaches exactly the checked file, whatever its permissions
const O_PATH = 0o10000000;

class Retry extends Error {}
// A symlink's target leaves the root: the path to resolve instead, in the program's own tree
// (absolute, or relative to the mount's root), never on the host
class Follow extends Error {
  constructor(path) { super(`follow ${path}`); this.path = path; }
}

// whether a name exists (a dangling symlink too)
const present = (p) => {
  try { return Boolean(lstatSync(p)); } catch { return false; }
};

/**
 * Validates a mount spec on the coordinator; the config every thread gets. With
 * `ioWorkers: N`, N I/O workers serve the requests through mailboxes instead of the calling
 * threads (slower: a hop per call; kept to test and measure the protocol in Node).
 * `onIoWorkers(workers)` (optional, tests and diagnostics) receives their Worker objects.
 */
export async function prepare(spec, ctx = {}) {
  const dir = String(spec.hostDir);
  let st;
  try { st = statSync(dir); } catch { throw new Error(`mount ${spec.path}: host directory ${dir} does not exist`); }
  if (!st.isDirectory()) throw new Error(`mount ${spec.path}: ${dir} is not a directory`);
  // handles: the fds this mount opened, the only ones a request can name (handle-table.js)
  // keptDirs: the directories threads keep open (dir-cache.js), in a table of their own
  const config = {
    root: realpathSync(dir), ...checkMountOptions(spec), mountId: spec.mountId ?? 0,
    handles: createHandleTable(), keptDirs: createHandleTable(),
    changes: new SharedArrayBuffer(4), // calls that may have changed the mount (listed-stats.js)
    addon: addonWanted() && hasProcFd && mountAddon() !== null, // host/platform/mount-addon.js
  };
  // the program is over: what it left open, and the directories its threads kept, are closed
  // (the addon's, kept by each thread itself, close with the thread; this one's here)
  const closeLeftovers = () => {
    new HandleTable(config.handles, config.mountId).closeAll(config.addon ? mountAddon().close : closeSync);
    new HandleTable(config.keptDirs, config.mountId).closeAll(closeSync);
    if (config.addon) mountAddon().dropKeptDirs?.();
  };
  // root's calls pass whatever the modes: the module then checks them as for their owner
  const checkModes = process.geteuid?.() === 0;
  const n = Math.min(MAX_IO_WORKERS, Number(spec.ioWorkers) | 0);
  // each thread calls the host itself: nothing of the mount runs on the coordinator's loop
  if (n <= 0) return { config, dispose: closeLeftovers, checkModes, servedHere: false };
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const mailboxes = createMailboxes(n);
  let disposed = false;
  const workers = Array.from({ length: n }, (_, w) => {
    // trackUnmanagedFds off: the fds it opens are the mount's, closed by closeLeftovers after it
    // exited, never first by Node at its exit (docs/HOST.md "Who closes a thread's fds")
    const worker = new Worker(new URL('./hostdir-worker.js', import.meta.url),
      { workerData: { mailboxes, w, memory: ctx.memory, config }, trackUnmanagedFds: false });
    // a dead I/O worker gives EIO to its callers and a message, never a hang (mailbox.js)
    const failed = (why) => failWorker(mailboxes, w, ctx.memory, `mount ${spec.path}: I/O worker ${w} of ${n} ${why}`);
    worker.on('error', (err) => failed(`failed: ${err?.stack || err}`));
    worker.on('exit', (code) => { if (!disposed) failed(`exited (code ${code})`); });
    return worker;
  });
  spec.onIoWorkers?.(workers);
  return {
    config: { ...config, mailboxes, rr: new SharedArrayBuffer(4) },
    checkModes,
    servedHere: true, // a dead I/O worker is heard of through this thread's event loop
    dispose() {
      disposed = true;
      Promise.all(workers.map((worker) => worker.terminate())).then(closeLeftovers);
    },
  };
}

/**
 * A thread's call(view, request). With I/O workers it hands the request to one; otherwise (and
 * in I/O worker `ioWorker`, see hostdir-worker.js) it serves it here. An I/O worker's handles
 * carry its index (host/abi/mount-request.js), so a directory's requests come back to the
 * worker that keeps its listing. A handle names a slot of the mount's handle table, never a
 * Node fd directly (handle-table.js): a number the mount did not hand out is EBADF.
 */
export function client(config, memory, { ioWorker } = {}) {
  if (config.mailboxes) return workerClient(config, memory);
  return inlineClient(config, ioWorker);
}

function workerClient(config, memory) {
  const { mailboxes } = config;
  const rr = new Int32Array(config.rr);
  return (view, request) => {
    const w = ioWorkerOf(view, request, mailboxes.n, rr);
    if (w < 0) setResult(view, request, -E.EBADF);
    else submit(mailboxes, w, memory, request);
  };
}

function inlineClient(config, ioWorker) {
  const root = config.root;
  const table = new HandleTable(config.handles, config.mountId);
  const quota = quotaCounter(config.quota);
  // Handles are used by their keys (handle-table.js), read from the request as two words: no
  // BigInt per call. An I/O worker's handles carry its index; a handle of another worker is
  // not ours (-1: EBADF).
  const keyOfHandle = (handle) => {
    if (ioWorker === undefined) return table.keyOf(handle);
    const { id, w } = ioHandleParts(handle);
    return w === ioWorker ? table.keyOf(id) : -1;
  };
  const keyIn = (view, at) => (ioWorker === undefined
    ? table.keyOfWords(view.getUint32(at, true), view.getUint32(at + 4, true))
    : keyOfHandle(view.getBigUint64(at, true)));
  const writeHandle = (view, at, key) => {
    if (ioWorker === undefined) table.writeHandle(view, at, key);
    else view.setBigUint64(at, ioHandle(table.handleOf(key), ioWorker), true);
  };
  const keptDirs = new DirCache(new HandleTable(config.keptDirs, config.mountId));
  const listed = new ListedStats(new Int32Array(config.changes));
  const dirs = new Map(); // readdir snapshots by handle key (this thread's)
  const relOf = new Map(); // the relative path each directory this thread opened was resolved to
  const paths = new Map(); // without /proc: the path each handle was opened at
  const addon = config.addon ? mountAddon() : null;
  // with the addon, the handle table's fds are all its own (host/platform/mount-addon.js): node:fs's adopted
  const own = (fd) => {
    if (!addon) return fd;
    const copy = addon.adopt(fd);
    closeSync(fd);
    return copy < 0 ? fail(-copy) : copy;
  };
  const closeFd = (fd) => {
    if (!addon) return closeSync(fd);
    const r = addon.close(fd);
    return r < 0 ? fail(-r) : r;
  };

  // Where the request's caller takes a path that leaves the root (FOLLOW_OPS), 0 if it cannot.
  let followTo = 0;
  // The path continues outside the root at `parts`: the caller resolves it in its own tree,
  // as a bind mount in a container would; a caller that cannot gets EXDEV (RESOLVE_BENEATH).
  const leave = (parts) => {
    if (followTo) throw new Follow(parts.join('/'));
    fail(E.EXDEV);
  };

  // Resolves rel inside root: { dir: [components], name } (name null = root itself).
  function resolve(rel, followLast) {
    if (rel === '') return { dir: [], name: null };
    let todo = rel.split('/');
    if (todo.some((c) => c === '' || c === '.' || c === '..')) fail(E.EACCES);
    const done = [];
    let hops = 0;
    while (todo.length) {
      const c = todo.shift();
      if (c === '' || c === '.') continue;
      if (c === '..') {
        if (done.length === 0) leave([c, ...todo]); // (only a symlink's target brings "..")
        done.pop();
        continue;
      }
      if (Buffer.byteLength(c) > 255) fail(E.ENAMETOOLONG);
      const last = todo.length === 0;
      if (last && !followLast) return { dir: done, name: c };
      let st;
      try {
        st = lstatSync(`${root}/${[...done, c].join('/')}`);
      } catch (err) {
        if (err.code === 'ENOENT' && last) return { dir: done, name: c };
        throw err;
      }
      if (st.isSymbolicLink()) {
        if (++hops > 40) fail(E.ELOOP);
        const target = readlinkSync(`${root}/${[...done, c].join('/')}`);
        if (target.startsWith('/')) leave([target, ...todo]);
        if (target === '') fail(E.ENOENT);
        todo = [...target.split('/'), ...todo];
        continue;
      }
      if (last) return { dir: done, name: c };
      if (!st.isDirectory()) fail(E.ENOTDIR);
      done.push(c);
    }
    // a symlink target ended in '.' or '..': the result is the directory `done`
    return done.length ? { dir: done.slice(0, -1), name: done[done.length - 1] } : { dir: [], name: null };
  }

  const hostPath = (dir) => (dir.length ? `${root}/${dir.join('/')}` : root);
  const inside = (real) => real === root || real.startsWith(`${root}/`);

  // Runs fn(pathOf) in the resolved parent directory, opened (or kept open: dir-cache.js) and
  // checked to be what was resolved.
  function inParent(dir, fn) {
    const expected = hostPath(dir);
    if (!hasProcFd) return fn((name) => (name === null ? expected : `${expected}/${name}`));
    return keptDirs.run(dir.join('/'), expected,
      (fd) => fn((name) => fdPath(fd, name)),
      (err) => {
        // (optimistic attempt: any failure goes to the careful resolution, which alone decides
        // the error, so that nothing is learnt about paths outside the root)
        if (!err || optimistic || err.code === 'ELOOP' || err.code === 'ENOTDIR') throw new Retry();
        throw err;
      });
  }

  // Runs op(resolved) again when a race made a check fail; EXDEV after RETRIES tries.
  // First, optimistically, without resolving: the parent directory is opened by its path and
  // the /proc check proves no symlink was on the way (ops whose final name must not be a
  // symlink check r.optimistic and throw Retry); any doubt falls back to the careful resolution.
  let optimistic = false;
  function confined(rel, followLast, op, { fast = true } = {}) {
    if (fast && hasProcFd && rel !== '') {
      const parts = rel.split('/');
      if (!parts.some((c) => c === '' || c === '.' || c === '..' || Buffer.byteLength(c) > 255)) {
        optimistic = true;
        try {
          return op({ dir: parts.slice(0, -1), name: parts[parts.length - 1], optimistic: true, follow: followLast });
        } catch (err) {
          if (!(err instanceof Retry)) throw err;
        } finally {
          optimistic = false;
        }
      }
    }
    for (let i = 0; i < RETRIES; i++) {
      try {
        return op(resolve(rel, followLast));
      } catch (err) {
        if (!(err instanceof Retry)) throw err;
      }
    }
    return fail(E.EXDEV);
  }

  // The parent of a resolved name (the root's "parent" for name null is the root itself).
  const split = (r) => (r.name === null ? { dir: [], name: null } : r);

  function checkOpened(fd) {
    if (!hasProcFd) return;
    if (!inside(readlinkSync(fdPath(fd)))) {
      closeSync(fd);
      throw new Retry();
    }
  }

  // The root is opened like any other component: not through a symlink, and it must still be
  // the directory that was resolved at start.
  function openRoot() {
    let fd;
    try {
      fd = openSync(root, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW);
    } catch (err) {
      if (err.code === 'ELOOP' || err.code === 'ENOTDIR') throw new Retry(); // a symlink put in its place
      throw err;
    }
    if (hasProcFd && readlinkSync(fdPath(fd)) !== root) {
      closeSync(fd);
      throw new Retry();
    }
    return fd;
  }

  // chmod of the resolved name p, never through a symlink (Linux: EOPNOTSUPP for a final
  // symlink not followed). chmod(2) follows symlinks and Linux has no lchmod, so the name is
  // opened with O_PATH|O_NOFOLLOW and the mode set through that fd's /proc link: a symlink
  // swapped in meanwhile is not followed out of the root.
  function chmodChecked(p, r, bits) {
    const fd = !hasProcFd ? null : r.name === null ? openRoot() : openSync(p, O_PATH | C.O_NOFOLLOW);
    try {
      if ((fd === null ? lstatSync(p) : fstatSync(fd)).isSymbolicLink()) {
        if (r.follow) throw new Retry(); // optimistic: resolve it carefully; else it just changed
        fail(E.EOPNOTSUPP);
      }
      if (fd === null) return chmodSync(p, bits);
      if (!inside(readlinkSync(fdPath(fd)))) throw new Retry();
      return chmodSync(fdPath(fd), bits);
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }

  // A new name (directory, symlink, hard link) on a mount whose quota is used up: ENOSPC.
  const creating = () => { if (quota?.full()) fail(E.ENOSPC); };

  function times(view, req, current) {
    const t = [0, 1].map((i) => {
      const sec = Number(view.getBigInt64(req + REQ.TIMES + i * 16, true));
      const nsec = Number(view.getBigInt64(req + REQ.TIMES + 8 + i * 16, true));
      if (nsec === UTIME.NOW) return Date.now() / 1000;
      if (nsec === UTIME.OMIT) return current ? Number(i === 0 ? current.atimeNs : current.mtimeNs) / 1e9 : null;
      return sec + nsec / 1e9;
    });
    return t;
  }

  function readdirInto(view, handle, fd, cookie, ptr, len, most) {
    const out = memoryBytes(view, ptr, len) ?? fail(E.EFAULT);
    let list = dirs.get(handle);
    if (!list || cookie === 0n) {
      const dir = hasProcFd ? fdPath(fd) : paths.get(handle);
      // the entries' stats are kept under the directory's path only while it is still there
      const from = listed.listing();
      const opened = relOf.get(handle);
      const here = opened !== undefined && hasProcFd && readlinkSync(fdPath(fd)) === (opened === '' ? root : `${root}/${opened}`);
      // d_ino must be what stat reports (st_ino), which a Dirent does not carry: one lstat each,
      // once per listing. An entry removed meanwhile keeps ino 0.
      // names as the host's bytes: one that is not UTF-8 is listed as it is (opening it gives EILSEQ)
      const buf = listing(dir, fd);
      list = { buf, starts: entryStarts(buf) };
      if (here) listed.keep(opened, buf, list.starts, from);
      dirs.set(handle, list);
    }
    const { buf, starts } = list;
    let at = 0;
    const end = most > 0 ? Math.min(starts.length, indexFrom(cookie) + most) : starts.length;
    for (let i = indexFrom(cookie); i < end; i++) {
      const e = starts[i];
      const nameLength = nameLengthAt(buf, e);
      if (at + direntBytes(nameLength) > len) {
        if (at === 0) fail(E.EINVAL);
        break;
      }
      at += writeDirentFrom(out, at, cookieAfter(i), typeAt(buf, e), buf, hasStatAt(buf, e) ? entryStatAt(e) : -1, nameAt(e), nameLength);
    }
    return at;
  }

  // The addon's confined calls (host/platform/mount-addon.js): a result, or null where the careful node:fs
  // path must resolve and decide (a symlink on the way, a path it does not take).
  // (the root is its own path: real, so without a symlink, and the kernel refuses one put there since)
  const addonPath = (rel) => (addon && root !== '/' ? (rel === '' ? root : `${root}/${rel}`) : null);
  // the root's bytes, for the addon's calls on a path read straight from the program's memory
  // (statIn, openIn: no string made per call; an addon built before them has none)
  const rootBytes = addon?.statIn && root !== '/' ? Buffer.from(root) : null;
  // a decided() result of 0 or -errno: true once done, its errno thrown; null: false (careful path)
  const doneByAddon = (r) => (r === null ? false : r === 0 || fail(-r));
  // (each writes the stat into the program's memory at `at`, checked by the caller)
  function statNative(pathAt, pathLength, follow, view, at) {
    const r = rootBytes && decided(addon.statIn(rootBytes, view, pathAt, pathLength, follow, at));
    return doneByAddon(r);
  }
  // the fd's stat, written at `at`: 0
  function fstatInto(view, at, fd) {
    if (!addon?.fstat) return writeStat(view, at, fstatSync(fd, { bigint: true })) ?? 0; // (an addon built before it had none)
    const r = addon.fstat(fd, view, at);
    return r === 0 ? 0 : fail(-r);
  }
  // A name changed through the addon, `change(...host paths)`: true once done, its errno thrown
  // where that is the answer, false where the careful path must decide (or the addon, built
  // before these calls, has none). With a quota, names made keep their node:fs path (creating()).
  function changedNative(change, ...rels) {
    const paths = rels.map(addonPath);
    // (never the root: its parent is outside the mount, and the careful path answers EBUSY)
    if (!addon?.rename || rels.includes('') || paths.some((p) => p === null)) return false;
    const r = decided(change(...paths));
    return doneByAddon(r);
  }
  // (with a quota, creating and truncating keep their node:fs path: quota.js counts them there)
  function openNative(pathAt, pathLength, flags, mode, view, at) {
    if (!rootBytes || (quota && flags & (O.CREAT | O.TRUNC))) return null;
    const fd = decided(addon.openIn(rootBytes, view, pathAt, pathLength, hostFlags(flags), mode & PERMISSIONS, at));
    return fd === null ? null : fd < 0 ? fail(-fd) : fd;
  }
  // a listing with each entry's lstat (host/platform/mount-addon.js's Buffer): one addon call, or readdir and an lstat each
  function listing(dirPath, fd) {
    if (addon) {
      const buf = addon.list(fd);
      return typeof buf === 'number' ? fail(-buf) : buf;
    }
    const prefix = Buffer.from(`${dirPath}/`);
    const entries = readdirSync(dirPath, { withFileTypes: true, encoding: 'buffer' }).map((e) => {
      let st = null;
      try {
        st = lstatSync(Buffer.concat([prefix, e.name]), { bigint: true });
      } catch { /* gone since */ }
      return { name: e.name, type: e.isDirectory() ? DT.DIR : e.isSymbolicLink() ? DT.LNK : e.isFile() ? DT.REG : DT.UNKNOWN, st };
    });
    return packListing(entries.sort((a, b) => Buffer.compare(a.name, b.name))); // (strcmp's order, as the addon's)
  }

  // A request's fields are read once each, by the op that uses them: another thread of the
  // module may change the request meanwhile. The ops a program calls most (open, read, write,
  // close, stat) read them with these functions of (view, req), not with closures made per
  // request, and the 64-bit fields as two words, not as BigInts: each is a measurable part of a
  // call of a few microseconds.
  const span = (view, at, n) => memoryBytes(view, at, n) ?? fail(E.EFAULT);
  const pathAt = (view, req, at, lenAt) => decodeName(span(view, view.getUint32(req + at, true), view.getUint32(req + lenAt, true)).slice());
  const pathOf = (view, req) => pathAt(view, req, REQ.PATH, REQ.PATH_LEN);
  // where a stat goes, checked before anything is done
  const statOut = (view, ptr) => (inMemory(view, ptr, WIRE_STAT.BYTES) ? ptr : fail(E.EFAULT));
  // the offset, which must be >= 0 (-1 would mean "the current position" to node:fs) and an
  // exact double (below 2^53)
  const positionOf = (view, req) => {
    const high = view.getInt32(req + REQ.OFFSET + 4, true);
    if (high < 0) fail(E.EINVAL);
    if (high >= 2 ** 21) fail(E.EFBIG);
    return high * 2 ** 32 + view.getUint32(req + REQ.OFFSET, true);
  };
  // the request's [ptr, ptr + len) in memory: ptr, or EFAULT
  const spanAt = (view, ptr, len) => (inMemory(view, ptr, len) ? ptr : fail(E.EFAULT));

  function openOp(view, req, flags) {
    // O_CREAT|O_EXCL never follows a final symlink (Linux: EEXIST), like O_NOFOLLOW
    const exclusive = (flags & O.CREAT) !== 0 && (flags & O.EXCL) !== 0;
    const userNoFollow = (flags & O.NOFOLLOW) !== 0 || exclusive;
    const mode = view.getUint32(req + REQ.MODE, true);
    const statAt = statOut(view, view.getUint32(req + REQ.PTR, true));
    const quick = openNative(view.getUint32(req + REQ.PATH, true), view.getUint32(req + REQ.PATH_LEN, true), flags, mode, view, statAt);
    // (the addon opened it: the path is not decoded, unless a directory needs it below)
    let opened = root;
    let openedRel = null;
    const fd = quick ?? own(confined(pathOf(view, req), !userNoFollow, (r) => {
      opened = r.name === null ? root : `${hostPath(r.dir)}/${r.name}`;
      openedRel = r.name === null ? '' : [...r.dir, r.name].join('/');
      if (r.name === null) {
        if (flags & O.CREAT) fail(E.EISDIR);
        if ((flags & O.ACCMODE) !== O.RDONLY) fail(E.EISDIR);
        return openRoot();
      }
      return inParent(r.dir, (at) => {
        if (quota && (flags & O.CREAT) && quota.full() && !present(at(r.name))) fail(E.ENOSPC);
        // with a quota, O_TRUNC is an ftruncate after the open, so the bytes it frees count
        const truncateAfter = quota !== null && (flags & O.TRUNC) !== 0 && (flags & O.ACCMODE) !== O.RDONLY;
        let fd;
        try {
          fd = openSync(at(r.name), hostFlags(truncateAfter ? flags & ~O.TRUNC : flags) | C.O_NOFOLLOW, mode & PERMISSIONS);
        } catch (err) {
          if (err.code === 'ELOOP' && !userNoFollow) throw new Retry(); // became a symlink
          // (O_DIRECTORY on a symlink is ENOTDIR: unresolved yet, resolve it carefully)
          if (err.code === 'ENOTDIR' && r.optimistic && !userNoFollow) throw new Retry();
          throw err;
        }
        checkOpened(fd);
        if (truncateAfter) quota.truncate(fd, 0, () => ftruncateSync(fd, 0));
        return fd;
      });
    }));
    let added;
    let dirRel = null;
    try {
      if (quick === null) fstatInto(view, statAt, fd);
      // a directory's path, for the stats its listing keeps (readdirInto): a file needs none.
      // (the mode is read back from the program's memory: a wrong one only loses or adds an
      // entry that readdirInto checks against the fd's real path before any use)
      if ((view.getUint32(statAt + WIRE_STAT.MODE, true) & S.IFMT) === S.IFDIR) dirRel = openedRel ?? pathOf(view, req);
      added = table.addKey(fd);
    } catch (err) {
      closeFd(fd);
      throw err;
    }
    if (!hasProcFd) paths.set(added, opened);
    if (dirRel !== null) relOf.set(added, dirRel);
    writeHandle(view, req + REQ.HANDLE, added);
    return 0;
  }

  function closeOp(view, req) {
    const h = keyIn(view, req + REQ.HANDLE);
    table.removeKey(h, closeFd);
    dirs.delete(h);
    paths.delete(h);
    relOf.delete(h);
    return 0;
  }

  function preadOp(view, req) {
    const ptr = view.getUint32(req + REQ.PTR, true);
    const len = view.getUint32(req + REQ.LEN, true);
    return table.useKey(keyIn(view, req + REQ.HANDLE), (fd) => {
      if (!addon) return readSync(fd, span(view, ptr, len), 0, len, positionOf(view, req));
      const n = addon.pread(fd, view, spanAt(view, ptr, len), len, positionOf(view, req));
      return n < 0 ? fail(-n) : n;
    });
  }

  function pwriteOp(view, req) {
    const ptr = view.getUint32(req + REQ.PTR, true);
    const len = view.getUint32(req + REQ.LEN, true);
    return table.useKey(keyIn(view, req + REQ.HANDLE), (fd) => {
      const at = positionOf(view, req);
      const write = addon?.pwrite
        ? () => {
          const n = addon.pwrite(fd, view, spanAt(view, ptr, len), len, at);
          return n < 0 ? fail(-n) : n;
        }
        : () => writeSync(fd, span(view, ptr, len), 0, len, at);
      return quota ? quota.write(fd, at, len, write) : write();
    });
  }

  function statOp(view, req, flags) {
    // (the root through its /proc magic link needs stat; names were resolved already)
    const follow = !(flags & AT.SYMLINK_NOFOLLOW);
    const statAt = statOut(view, view.getUint32(req + REQ.PTR, true));
    const pathAt = view.getUint32(req + REQ.PATH, true);
    const pathLength = view.getUint32(req + REQ.PATH_LEN, true);
    const kept = inMemory(view, pathAt, pathLength) ? listed.take(view, pathAt, pathLength, follow, statAt) : NOT_KEPT;
    if (kept === TAKEN) return 0;
    if (kept === ABSENT) return -E.ENOENT; // (returned, not thrown: a walk asks thousands of times)
    if (statNative(pathAt, pathLength, follow, view, statAt)) return 0;
    const st = confined(pathOf(view, req), follow, (r) =>
      inParent(split(r).dir, (at) => {
        const found = (r.name === null ? statSync : lstatSync)(at(r.name), { bigint: true });
        if (r.optimistic && r.follow && found.isSymbolicLink()) throw new Retry();
        return found;
      }));
    writeStat(view, statAt, st);
    return 0;
  }

  function dispatch(view, req, op, flags) {
    followTo = FOLLOW_OPS.has(op) ? view.getUint32(req + REQ.FOLLOW, true) : 0;
    switch (op) {
      case OP.OPEN: return openOp(view, req, flags);
      case OP.CLOSE: return closeOp(view, req);
      case OP.PREAD: return preadOp(view, req);
      case OP.PWRITE: return pwriteOp(view, req);
      case OP.FSTAT: return table.useKey(keyIn(view, req + REQ.HANDLE), (fd) => fstatInto(view, statOut(view, view.getUint32(req + REQ.PTR, true)), fd));
      case OP.STAT: return statOp(view, req, flags);
      default: return otherOp(view, req, op, flags);
    }
  }

  function otherOp(view, req, op, flags) {
    // (the 64-bit fields only by the ops that use them: a BigInt made per call costs a path call)
    let sent;
    const handle = () => (sent ??= keyIn(view, req + REQ.HANDLE));
    // runs fn(fd) on the fd the handle names (EBADF if none); it stays open meanwhile
    const withFd = (fn) => table.useKey(handle(), fn);
    const ptr = view.getUint32(req + REQ.PTR, true);
    const len = view.getUint32(req + REQ.LEN, true);
    const path = () => pathOf(view, req);
    const path2 = () => pathAt(view, req, REQ.PATH2, REQ.PATH2_LEN);
    const mode = view.getUint32(req + REQ.MODE, true);
    const bytes = () => span(view, ptr, len);
    switch (op) {
      case OP.FTRUNCATE: return withFd((fd) => {
        const length = positionOf(view, req);
        const truncate = () => ftruncateSync(fd, length);
        if (quota) quota.truncate(fd, length, truncate);
        else truncate();
        return 0;
      });
      case OP.FSYNC: return withFd((fd) => (flags & FSYNC_DATASYNC ? fdatasyncSync : fsyncSync)(fd) ?? 0);
      case OP.READDIR: return withFd((fd) => readdirInto(view, handle(), fd, view.getBigInt64(req + REQ.OFFSET, true), ptr, len, mode));
      case OP.MKDIR: {
        const rel = path();
        if (!quota && changedNative((p) => addon.mkdir(p, mode & PERMISSIONS), rel)) return 0;
        confined(rel, false, (r) => inParent(r.dir, (at) => {
          creating();
          mkdirSync(at(r.name ?? fail(E.EEXIST)), mode & PERMISSIONS);
        })); return 0;
      }
      case OP.UNLINK: {
        const rel = path();
        if (changedNative((p) => addon.unlink(p, (flags & AT.REMOVEDIR) !== 0), rel)) return 0;
        confined(rel, false, (r) => inParent(r.dir, (at) => {
          if (r.name === null) fail(E.EBUSY);
          (flags & AT.REMOVEDIR ? rmdirSync : unlinkSync)(at(r.name));
        })); return 0;
      }
      case OP.RENAME: case OP.LINK: {
        const follow = op === OP.LINK && (flags & AT.SYMLINK_FOLLOW) !== 0;
        const to = path2();
        // (a link that follows a final symlink goes the careful way: the addon never follows one)
        if (op === OP.RENAME && changedNative((a, b) => addon.rename(a, b), path(), to)) return 0;
        if (op === OP.LINK && !follow && !quota && changedNative((a, b) => addon.link(a, b), path(), to)) return 0;
        const careful = { fast: false }; // two paths: resolved carefully
        confined(path(), follow, (a) => confined(to, false, (b) => inParent(a.dir, (atA) => inParent(b.dir, (atB) => {
          if (a.name === null || b.name === null) fail(E.EBUSY);
          if (op === OP.LINK) creating();
          (op === OP.RENAME ? renameSync : linkSync)(atA(a.name), atB(b.name));
        })), careful), careful);
        return 0;
      }
      case OP.SYMLINK: { // path = target text, path2 = the link
        const target = path();
        confined(path2(), false, (r) => inParent(r.dir, (at) => {
          const link = at(r.name ?? fail(E.EEXIST));
          if (config.symlinks !== 'any' && symlinkLeaves(target, r.dir)) fail(present(link) ? E.EEXIST : E.EPERM);
          creating();
          symlinkSync(target, link);
        }));
        return 0;
      }
      case OP.READLINK: {
        const target = confined(path(), false, (r) => inParent(r.dir, (at) => readlinkSync(at(r.name ?? fail(E.EINVAL)), { encoding: 'buffer' })));
        const n = Math.min(target.length, len);
        bytes().set(target.subarray(0, n));
        return n;
      }
      case OP.UTIMENS: {
        const follow = !(flags & AT.SYMLINK_NOFOLLOW);
        confined(path(), follow, (r) => inParent(split(r).dir, (at) => {
          const p = at(r.name);
          const current = (r.name === null ? statSync : lstatSync)(p, { bigint: true });
          if (r.optimistic && r.follow && current.isSymbolicLink()) throw new Retry();
          const [a, m] = times(view, req, current);
          (r.name === null ? utimesSync : lutimesSync)(p, a, m);
        }));
        return 0;
      }
      case OP.CHMOD: {
        const follow = !(flags & AT.SYMLINK_NOFOLLOW);
        confined(path(), follow, (r) => inParent(split(r).dir, (at) => chmodChecked(at(r.name), r, mode & PERMISSIONS)));
        return 0;
      }
      case OP.FCHMOD: return withFd((fd) => fchmodSync(fd, mode & PERMISSIONS) ?? 0);
      case OP.FUTIMENS: return withFd((fd) => {
        const [a, m] = times(view, req, fstatSync(fd, { bigint: true }));
        futimesSync(fd, a, m);
        return 0;
      });
      default: return -E.ENOTSUP;
    }
  }

  const call = (view, req) => {
    // every field is read once: another thread of the module may change the request meanwhile
    const op = view.getInt32(req + REQ.OP, true);
    const flags = view.getInt32(req + REQ.FLAGS, true);
    let result;
    try {
      result = dispatch(view, req, op, flags);
    } catch (err) {
      result = err instanceof Follow ? followAnswer(view, err.path) : -errnoOf(err);
    } finally {
      if (mayChange(op, flags)) listed.changed(); // after the change: see listed-stats.js
    }
    setResult(view, req, result);
  };
  // writes where the path continues (NUL-terminated) for the caller: FOLLOW.RESULT
  function followAnswer(view, path) {
    const bytes = Buffer.from(`${path}\0`);
    if (bytes.length > FOLLOW.BYTES) return -E.ENAMETOOLONG;
    const out = memoryBytes(view, followTo, bytes.length);
    if (!out) return -E.EFAULT;
    out.set(bytes);
    return FOLLOW.RESULT;
  }
  // host/wasi/preopens.js: where an open directory is (EBADF if the handle names none)
  call.realPath = (handle) => table.useKey(keyOfHandle(handle), (fd) => readlinkSync(fdPath(fd)));
  return call;
}

export const hostdirBackend = { prepare, client, checkTogether: checkHostDirsApart };
