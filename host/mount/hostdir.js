// The `hostdir` mount backend (Node): `--mount /PATH=HOSTDIR`, or `mounts: [{ path, hostDir }]`.
// Requests (docs/MOUNTS.md section 3) are served right on the calling thread with node:fs
// synchronous calls: Node file descriptors belong to the process, so any thread can use any
// handle, and threads working on different files never wait for each other.
//
// Confinement (docs/MOUNTS.md section 4): paths are resolved here, component by component, from
// the mount's real root; symlinks are followed only while they stay inside (absolute or escaping
// targets give EXDEV, like openat2's RESOLVE_BENEATH); the operation then runs on
// /proc/self/fd/N/name where N is the parent directory opened with O_NOFOLLOW and checked to be
// the resolved directory inside the root, so a rename racing with the check cannot lead outside.
import {
  closeSync, constants as C, fdatasyncSync, fstatSync, fsyncSync, ftruncateSync, futimesSync,
  linkSync, lstatSync, lutimesSync, mkdirSync, openSync, readdirSync, readlinkSync, readSync,
  realpathSync, renameSync, rmdirSync, statSync, symlinkSync, unlinkSync, utimesSync, writeSync,
  existsSync,
} from 'node:fs';
import { createMailboxes, failWorker, submit } from './mailbox.js';

// Linux errno numbers (the protocol's numbering, whatever the host OS)
const E = {
  EPERM: 1, ENOENT: 2, EIO: 5, EBADF: 9, ENOMEM: 12, EACCES: 13, EBUSY: 16, EEXIST: 17, EXDEV: 18,
  ENOTDIR: 20, EISDIR: 21, EINVAL: 22, EMFILE: 24, ENFILE: 23, ETXTBSY: 26, EFBIG: 27, ENOSPC: 28,
  ESPIPE: 29, EROFS: 30, EMLINK: 31, ENAMETOOLONG: 36, ENOTEMPTY: 39, ELOOP: 40, EOVERFLOW: 75,
  ENOTSUP: 95, EOPNOTSUPP: 95, EDQUOT: 122,
};
class Errno extends Error {
  constructor(code) { super(`errno ${code}`); this.errno = code; }
}
const fail = (code) => { throw new Errno(code); };
const errnoOf = (err) => (err instanceof Errno ? err.errno : E[err?.code] ?? E.EIO);

// Linux O_* bits -> this host's
const LINUX_O = [
  // (no O_APPEND: the C layer places appends itself and always gives an offset)
  [0o100, 'O_CREAT'], [0o200, 'O_EXCL'], [0o1000, 'O_TRUNC'],
  [0o200000, 'O_DIRECTORY'], [0o400000, 'O_NOFOLLOW'], [0o10000, 'O_DSYNC'], [0o4010000, 'O_SYNC'],
];
const O_NOFOLLOW_LINUX = 0o400000;
const O_CREAT_LINUX = 0o100;
function hostFlags(flags) {
  let out = [C.O_RDONLY, C.O_WRONLY, C.O_RDWR][flags & 3] ?? C.O_RDONLY;
  for (const [bit, name] of LINUX_O) if ((flags & bit) === bit && C[name] !== undefined) out |= C[name];
  return out;
}

const AT_SYMLINK_NOFOLLOW = 0x100;
const AT_REMOVEDIR = 0x200;
const AT_SYMLINK_FOLLOW = 0x400;
const UTIME_NOW = 2 ** 30 - 1;
const UTIME_OMIT = 2 ** 30 - 2;
const RETRIES = 8;
const hasProcFd = process.platform === 'linux' && existsSync('/proc/self/fd');
const decoder = new TextDecoder();

class Retry extends Error {}

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
  const config = { root: realpathSync(dir) };
  const n = Math.min(255, Number(spec.ioWorkers) | 0);
  if (n <= 0) return { config };
  const { Worker } = await import('node:worker_threads');
  const mailboxes = createMailboxes(n);
  let disposed = false;
  const workers = Array.from({ length: n }, (_, w) => {
    const worker = new Worker(new URL('./hostdir-worker.js', import.meta.url),
      { workerData: { mailboxes, w, memory: ctx.memory, config } });
    // a dead I/O worker gives EIO to its callers and a message, never a hang (mailbox.js)
    const failed = (why) => failWorker(mailboxes, w, ctx.memory, `mount ${spec.path}: I/O worker ${w} of ${n} ${why}`);
    worker.on('error', (err) => failed(`failed: ${err?.stack || err}`));
    worker.on('exit', (code) => { if (!disposed) failed(`exited (code ${code})`); });
    return worker;
  });
  spec.onIoWorkers?.(workers);
  return {
    config: { ...config, mailboxes, rr: new SharedArrayBuffer(4) },
    dispose() {
      disposed = true;
      workers.forEach((worker) => worker.terminate());
    },
  };
}

const HANDLE_OPS = new Set([2, 3, 4, 5, 6, 7, 8, 17]);

export function client(config, memory) {
  if (config.mailboxes) return workerClient(config, memory);
  return inlineClient(config);
}

// Requests go to I/O workers: OPEN round-robin, a handle's requests to worker handle % n (so
// one worker keeps a directory's listing), the rest to worker 0.
function workerClient(config, memory) {
  const { mailboxes } = config;
  const rr = new Int32Array(config.rr);
  return (view, request) => {
    const op = view.getInt32(request + 4, true);
    let w = 0;
    if (op === 1) w = Atomics.add(rr, 0, 1) % mailboxes.n;
    else if (HANDLE_OPS.has(op)) w = Number(view.getBigUint64(request + 24, true) % BigInt(mailboxes.n));
    submit(mailboxes, w, memory, request);
  };
}

function inlineClient(config) {
  const root = config.root;
  const dirs = new Map(); // readdir snapshots by handle (this thread's)
  const paths = new Map(); // without /proc: the path each handle was opened at

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
        if (done.length === 0) fail(E.EXDEV);
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
        if (target.startsWith('/')) fail(E.EXDEV);
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

  // Opens the resolved parent directory and checks it is what was resolved; runs fn(pathOf).
  function inParent(dir, fn) {
    const expected = hostPath(dir);
    if (!hasProcFd) return fn((name) => (name === null ? expected : `${expected}/${name}`));
    let fd;
    try {
      fd = openSync(expected, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW);
    } catch (err) {
      // (optimistic attempt: any failure goes to the careful resolution, which alone decides
      // the error, so that nothing is learnt about paths outside the root)
      if (optimistic || err.code === 'ELOOP' || err.code === 'ENOTDIR') throw new Retry();
      throw err;
    }
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) !== expected) throw new Retry();
      return fn((name) => (name === null ? `/proc/self/fd/${fd}` : `/proc/self/fd/${fd}/${name}`));
    } finally {
      closeSync(fd);
    }
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
    if (!inside(readlinkSync(`/proc/self/fd/${fd}`))) {
      closeSync(fd);
      throw new Retry();
    }
  }

  function writeStat(view, ptr, st) {
    view.setBigUint64(ptr, BigInt(st.ino), true);
    view.setUint32(ptr + 8, Number(st.mode), true);
    view.setUint32(ptr + 12, 0, true);
    view.setBigUint64(ptr + 16, BigInt(st.nlink), true);
    view.setBigInt64(ptr + 24, BigInt(st.size), true);
    view.setBigInt64(ptr + 32, BigInt(st.blocks ?? 0), true);
    view.setBigInt64(ptr + 40, st.atimeNs, true);
    view.setBigInt64(ptr + 48, st.mtimeNs, true);
    view.setBigInt64(ptr + 56, st.ctimeNs, true);
  }

  function times(view, req, current) {
    const t = [0, 1].map((i) => {
      const sec = Number(view.getBigInt64(req + 72 + i * 16, true));
      const nsec = Number(view.getBigInt64(req + 80 + i * 16, true));
      if (nsec === UTIME_NOW) return Date.now() / 1000;
      if (nsec === UTIME_OMIT) return current ? Number(i === 0 ? current.atimeNs : current.mtimeNs) / 1e9 : null;
      return sec + nsec / 1e9;
    });
    return t;
  }

  function readdirInto(view, fd, cookie, ptr, len) {
    let list = dirs.get(fd);
    if (!list || cookie === 0n) {
      const dir = hasProcFd ? `/proc/self/fd/${fd}` : paths.get(fd);
      // d_ino must be what stat reports (st_ino), which a Dirent does not carry: one lstat each,
      // once per listing. An entry removed meanwhile keeps ino 0.
      list = readdirSync(dir, { withFileTypes: true }).map((e) => {
        let ino = 0n;
        try { ino = lstatSync(`${dir}/${e.name}`, { bigint: true }).ino; } catch { /* gone since */ }
        return { name: e.name, ino, type: e.isDirectory() ? 4 : e.isSymbolicLink() ? 10 : e.isFile() ? 8 : 0 };
      });
      dirs.set(fd, list);
    }
    const start = cookie < 3n ? 0 : Number(cookie) - 2;
    const mem = new Uint8Array(view.buffer);
    let at = 0;
    for (let i = start; i < list.length; i++) {
      const e = list[i];
      const name = Buffer.from(e.name);
      const size = (24 + name.length + 7) & ~7;
      if (at + size > len) {
        if (at === 0) fail(E.EINVAL);
        break;
      }
      view.setBigUint64(ptr + at, BigInt(i + 3), true);
      view.setBigUint64(ptr + at + 8, e.ino, true);
      view.setUint8(ptr + at + 16, e.type);
      view.setUint8(ptr + at + 17, 0);
      view.setUint16(ptr + at + 18, name.length, true);
      view.setUint32(ptr + at + 20, 0, true);
      mem.set(name, ptr + at + 24);
      at += size;
    }
    return at;
  }

  function dispatch(view, req) {
    const op = view.getInt32(req + 4, true);
    const flags = view.getInt32(req + 12, true);
    const handle = () => Number(view.getBigUint64(req + 24, true));
    const offset = view.getBigInt64(req + 32, true);
    const ptr = view.getUint32(req + 40, true);
    const len = view.getUint32(req + 44, true);
    const str = (at) => decoder.decode(new Uint8Array(view.buffer, view.getUint32(req + at, true),
      view.getUint32(req + at + 4, true)).slice());
    const path = () => str(48);
    const path2 = () => str(56);
    const mode = view.getUint32(req + 64, true);
    const bytes = () => new Uint8Array(view.buffer, ptr, len);
    switch (op) {
      case 1: { // OPEN
        // O_CREAT|O_EXCL never follows a final symlink (Linux: EEXIST), like O_NOFOLLOW
        const exclusive = (flags & O_CREAT_LINUX) !== 0 && (flags & 0o200) !== 0;
        const userNoFollow = (flags & O_NOFOLLOW_LINUX) !== 0 || exclusive;
        let opened = root;
        const fd = confined(path(), !userNoFollow, (r) => {
          opened = r.name === null ? root : `${hostPath(r.dir)}/${r.name}`;
          if (r.name === null) {
            if (flags & O_CREAT_LINUX) fail(E.EISDIR);
            if ((flags & 3) !== 0) fail(E.EISDIR);
            return openSync(root, C.O_RDONLY | C.O_DIRECTORY);
          }
          return inParent(r.dir, (at) => {
            let fd;
            try {
              fd = openSync(at(r.name), hostFlags(flags) | C.O_NOFOLLOW, mode & 0o7777);
            } catch (err) {
              if (err.code === 'ELOOP' && !userNoFollow) throw new Retry(); // became a symlink
              throw err;
            }
            checkOpened(fd);
            return fd;
          });
        });
        if (!hasProcFd) paths.set(fd, opened);
        view.setBigUint64(req + 24, BigInt(fd), true);
        writeStat(view, ptr, fstatSync(fd, { bigint: true }));
        return 0;
      }
      case 2: closeSync(handle()); dirs.delete(handle()); return 0;
      case 3: return readSync(handle(), bytes(), 0, len, offset);
      case 4: return writeSync(handle(), bytes(), 0, len, Number(offset));
      case 5: writeStat(view, ptr, fstatSync(handle(), { bigint: true })); return 0;
      case 6: ftruncateSync(handle(), Number(offset)); return 0;
      case 7: (flags & 1 ? fdatasyncSync : fsyncSync)(handle()); return 0;
      case 8: return readdirInto(view, handle(), offset, ptr, len);
      case 9: { // STAT
        // (the root through its /proc magic link needs stat; names were resolved already)
        const st = confined(path(), !(flags & AT_SYMLINK_NOFOLLOW), (r) =>
          inParent(split(r).dir, (at) => {
            const found = (r.name === null ? statSync : lstatSync)(at(r.name), { bigint: true });
            if (r.optimistic && r.follow && found.isSymbolicLink()) throw new Retry();
            return found;
          }));
        writeStat(view, ptr, st);
        return 0;
      }
      case 10: confined(path(), false, (r) => inParent(r.dir, (at) => mkdirSync(at(r.name ?? fail(E.EEXIST)), mode & 0o7777))); return 0;
      case 11: confined(path(), false, (r) => inParent(r.dir, (at) => {
        if (r.name === null) fail(E.EBUSY);
        (flags & AT_REMOVEDIR ? rmdirSync : unlinkSync)(at(r.name));
      })); return 0;
      case 12: case 13: { // RENAME, LINK
        const follow = op === 13 && (flags & AT_SYMLINK_FOLLOW) !== 0;
        const to = path2();
        const careful = { fast: false }; // two paths: resolved carefully
        confined(path(), follow, (a) => confined(to, false, (b) => inParent(a.dir, (atA) => inParent(b.dir, (atB) => {
          if (a.name === null || b.name === null) fail(E.EBUSY);
          (op === 12 ? renameSync : linkSync)(atA(a.name), atB(b.name));
        })), careful), careful);
        return 0;
      }
      case 14: { // SYMLINK: path = target text, path2 = the link
        const target = path();
        confined(path2(), false, (r) => inParent(r.dir, (at) => symlinkSync(target, at(r.name ?? fail(E.EEXIST)))));
        return 0;
      }
      case 15: { // READLINK
        const target = confined(path(), false, (r) => inParent(r.dir, (at) => readlinkSync(at(r.name ?? fail(E.EINVAL)), { encoding: 'buffer' })));
        const n = Math.min(target.length, len);
        bytes().set(target.subarray(0, n));
        return n;
      }
      case 16: { // UTIMENS
        const follow = !(flags & AT_SYMLINK_NOFOLLOW);
        confined(path(), follow, (r) => inParent(split(r).dir, (at) => {
          const p = at(r.name);
          const current = (r.name === null ? statSync : lstatSync)(p, { bigint: true });
          if (r.optimistic && r.follow && current.isSymbolicLink()) throw new Retry();
          const [a, m] = times(view, req, current);
          (r.name === null ? utimesSync : lutimesSync)(p, a, m);
        }));
        return 0;
      }
      case 17: { // FUTIMENS
        const fd = handle();
        const [a, m] = times(view, req, fstatSync(fd, { bigint: true }));
        futimesSync(fd, a, m);
        return 0;
      }
      default: return -E.ENOTSUP;
    }
  }

  return (view, req) => {
    let result;
    try {
      result = dispatch(view, req);
    } catch (err) {
      result = -errnoOf(err);
    }
    view.setBigInt64(req + 16, BigInt(result), true);
  };
}

export const hostdirBackend = { prepare, client };
