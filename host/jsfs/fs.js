// The "JS FS" baseline: an in-memory POSIX-like filesystem that lives in JavaScript on the
// host's main thread (`spindle cc --fs=js`). It follows the same Linux rules as Spindle's C
// filesystem (runtime/fs, docs/FILESYSTEM.md) so the two can be compared on the same programs.
// Every call returns a value >= 0 or a negative Linux errno. It is single-threaded by design:
// only one JavaScript thread (the host's main thread) ever touches it; other threads reach it
// through the proxy (proxy.js).
//
// Paths are byte strings: one char per byte (latin1), so lengths are byte lengths and any byte
// sequence round-trips.
import { AT, ERRNO as E, O, S, UTIME } from '../abi/linux.js';

// An inode's type as Linux's st_mode type bits, so stats and entries translate as Linux's do.
export const TYPE = { FILE: S.IFREG, DIR: S.IFDIR, SYMLINK: S.IFLNK };

const NAME_MAX = 255;
const PATH_MAX = 4096; // including the terminating NUL
const SYMLOOP_MAX = 40;
const MAX_FDS = 8192;
const FIRST_FD = 3;
const MAX_FILE_SIZE = 2 ** 48; // as runtime/fs
const MAX_RW_COUNT = 0x7ffff000;
const CHUNK = 65536; // file data in 64 KiB chunks: holes cost nothing, growth copies nothing
const DIR_FIRST_SEQ = 3; // readdir cookies 1 and 2 are "." and ".."

const LAST = { NORM: 0, DOT: 1, DOTDOT: 2, ROOT: 3 };

/** Nanoseconds since the epoch as a BigInt, with sub-millisecond resolution where available. */
function nowNs() {
  const ms = performance.timeOrigin + performance.now();
  return BigInt(Math.floor(ms)) * 1000000n + BigInt(Math.floor((ms % 1) * 1e6));
}

class Inode {
  constructor(fs, type, perm) {
    this.ino = fs.nextIno++;
    this.type = type;
    this.perm = perm & 0o7777;
    this.nlink = 0;
    this.size = 0;
    const now = nowNs();
    this.atime = now; this.mtime = now; this.ctime = now;
    if (type === TYPE.FILE) this.chunks = [];
    if (type === TYPE.DIR) {
      this.entries = new Map(); // name -> entry { name, inode, seq, removed }
      this.order = [];          // entries by increasing seq; removed ones until compaction
      this.holes = 0;
      this.nextSeq = DIR_FIRST_SEQ;
      this.parent = null;
      this.dead = false;
    }
    if (type === TYPE.SYMLINK) this.target = '';
  }

  touchAtime() {
    // relatime, as runtime/fs and Linux: only when not newer than mtime/ctime or a day old
    const now = nowNs();
    if (this.atime <= this.mtime || this.atime <= this.ctime || now - this.atime >= 86400n * 1000000000n) {
      this.atime = now;
    }
  }
}

// ---- directory entries ----
function dirInsert(dir, name, inode) {
  const entry = { name, inode, seq: dir.nextSeq++, removed: false };
  dir.entries.set(name, entry);
  dir.order.push(entry);
  return entry;
}

function dirRemove(dir, entry) {
  dir.entries.delete(entry.name);
  entry.removed = true;
  dir.holes++;
  if (dir.holes > 32 && dir.holes * 2 > dir.order.length) {
    dir.order = dir.order.filter((e) => !e.removed);
    dir.holes = 0;
  }
}

/** Index in dir.order of the first entry whose seq is greater than `seq`. */
function firstAfter(dir, seq) {
  let lo = 0; let hi = dir.order.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (dir.order[mid].seq <= seq) lo = mid + 1; else hi = mid;
  }
  return lo;
}

// ---- file data ----
function readData(node, offset, dst, dstOff, len) {
  let done = 0;
  while (done < len) {
    const at = offset + done;
    const index = Math.floor(at / CHUNK);
    const within = at - index * CHUNK;
    const n = Math.min(CHUNK - within, len - done);
    const chunk = node.chunks[index];
    if (chunk) dst.set(chunk.subarray(within, within + n), dstOff + done);
    else dst.fill(0, dstOff + done, dstOff + done + n);
    done += n;
  }
}

function writeData(node, offset, src, srcOff, len) {
  let done = 0;
  while (done < len) {
    const at = offset + done;
    const index = Math.floor(at / CHUNK);
    const within = at - index * CHUNK;
    const n = Math.min(CHUNK - within, len - done);
    let chunk = node.chunks[index];
    if (!chunk) chunk = node.chunks[index] = new Uint8Array(CHUNK);
    chunk.set(src.subarray(srcOff + done, srcOff + done + n), within);
    done += n;
  }
}

/** Drops data at or past newSize; keeps the invariant "bytes past the size are zero". */
function truncateData(node, newSize) {
  if (newSize >= node.size) return;
  const keep = Math.ceil(newSize / CHUNK);
  if (node.chunks.length > keep) node.chunks.length = keep;
  const tail = newSize % CHUNK;
  const last = node.chunks[keep - 1];
  if (tail && last) last.fill(0, tail);
}

function allocatedBytes(node) {
  let n = 0;
  for (const c of node.chunks) if (c) n += CHUNK;
  return n;
}

export class JsFs {
  constructor() {
    this.nextIno = 1;
    this.fds = []; // fd -> open file description { inode, access, status, pos }
    this.root = new Inode(this, TYPE.DIR, 0o755);
    this.root.nlink = 2;
    this.mkdirat(AT.FDCWD, '/tmp', 0o1777);
    this.mkdirat(AT.FDCWD, '/home', 0o1777);
  }

  // ---- fd table ----
  reserveFd() {
    for (let fd = FIRST_FD; fd < MAX_FDS; fd++) if (!this.fds[fd]) return fd;
    return -E.EMFILE;
  }

  file(fd) {
    return (fd >= FIRST_FD && fd < MAX_FDS && this.fds[fd]) || null;
  }

  // ---- path resolution ----
  startDir(dirfd, path) {
    if (path.charCodeAt(0) === 47 || dirfd === AT.FDCWD) return this.root;
    const file = this.file(dirfd);
    if (!file) return -E.EBADF;
    if (file.inode.type !== TYPE.DIR) return -E.ENOTDIR;
    return file.inode;
  }

  /**
   * Walks `path` from `start`. Returns a negative errno, or { dir, name, last, trailing } when
   * `parent` is set (stops before the last component), else { node, last, trailing }.
   * hops: symlinks followed so far, carried across calls by open(O_CREAT).
   */
  walk(start, path, { parent = false, follow = false, hops = { n: 0 } } = {}) {
    if (path.length === 0) return -E.ENOENT;
    if (path.length >= PATH_MAX) return -E.ENAMETOOLONG;
    let cur = start;
    let p = path;
    let i = 0;
    for (;;) {
      if (p.charCodeAt(i) === 47) {
        cur = this.root;
        while (p.charCodeAt(i) === 47) i++;
        if (i === p.length) {
          return parent ? { dir: cur, name: '', last: LAST.ROOT, trailing: false }
            : { node: cur, last: LAST.ROOT, trailing: false };
        }
      }
      const nameStart = i;
      while (i < p.length && p.charCodeAt(i) !== 47) i++;
      const name = p.slice(nameStart, i);
      const after = i;
      while (p.charCodeAt(i) === 47) i++;
      const isLast = i === p.length;
      const trailing = isLast && after !== i;
      if (name.length > NAME_MAX) return -E.ENAMETOOLONG;
      if (cur.type !== TYPE.DIR) return -E.ENOTDIR;
      const kind = name === '.' ? LAST.DOT : name === '..' ? LAST.DOTDOT : LAST.NORM;
      if (isLast && parent) return { dir: cur, name, last: kind, trailing };
      let next;
      if (kind === LAST.DOT) next = cur;
      else if (kind === LAST.DOTDOT) next = cur.parent || cur;
      else {
        if (cur.dead) return -E.ENOENT;
        const entry = cur.entries.get(name);
        if (!entry) return -E.ENOENT;
        next = entry.inode;
      }
      if (next.type === TYPE.SYMLINK && (!isLast || trailing || follow)) {
        if (++hops.n > SYMLOOP_MAX) return -E.ELOOP;
        const rest = p.slice(after);
        if (next.target.length + rest.length >= PATH_MAX) return -E.ENAMETOOLONG;
        p = next.target + rest; // resolve the target relative to cur
        i = 0;
        continue;
      }
      cur = next;
      if (isLast) {
        if (trailing && cur.type !== TYPE.DIR) return -E.ENOTDIR;
        return { node: cur, last: kind, trailing };
      }
    }
  }

  walkAt(dirfd, path, how) {
    const start = this.startDir(dirfd, path);
    if (typeof start === 'number') return start;
    return this.walk(start, path, how);
  }

  // ---- open / close / dup ----
  openat(dirfd, path, flags, mode) {
    if ((flags & O.ACCMODE) === O.ACCMODE) return -E.EINVAL;
    if ((flags & O.CREAT) && (flags & O.DIRECTORY)) return -E.EINVAL;
    const fd = this.reserveFd();
    if (fd < 0) return fd;
    const start = this.startDir(dirfd, path);
    if (typeof start === 'number') return start;
    let node; let created = false;
    if (flags & O.CREAT) {
      const r = this.openCreating(start, path, flags, mode);
      if (typeof r === 'number') return r;
      ({ node, created } = r);
    } else {
      const w = this.walk(start, path, { follow: !(flags & O.NOFOLLOW) });
      if (typeof w === 'number') return w;
      node = w.node;
      if (node.type === TYPE.SYMLINK) return -E.ELOOP; // only with O_NOFOLLOW
    }
    const access = flags & O.ACCMODE;
    if (node.type === TYPE.DIR) {
      if (access !== O.RDONLY || (flags & O.TRUNC) || (flags & O.CREAT)) return -E.EISDIR;
    } else {
      if (flags & O.DIRECTORY) return -E.ENOTDIR;
      if ((flags & O.TRUNC) && !created) {
        truncateData(node, 0);
        node.size = 0;
        node.mtime = node.ctime = nowNs();
      }
    }
    this.fds[fd] = { inode: node, access, status: flags & (O.APPEND | O.NONBLOCK | O.SYNC | O.DSYNC), pos: 0 };
    return fd;
  }

  // O_CREAT: find or create the last component, following a symlink there (even a dangling
  // one: the file is created at its target).
  openCreating(start, path, flags, mode) {
    const hops = { n: 0 };
    let from = start;
    let current = path;
    for (;;) {
      const w = this.walk(from, current, { parent: true, hops });
      if (typeof w === 'number') return w;
      if (w.last !== LAST.NORM || w.trailing) return -E.EISDIR; // Linux: EISDIR, even if it exists
      const dir = w.dir;
      if (dir.dead) return -E.ENOENT;
      const entry = dir.entries.get(w.name);
      if (!entry) {
        const file = new Inode(this, TYPE.FILE, mode);
        file.nlink = 1;
        dirInsert(dir, w.name, file);
        dir.mtime = dir.ctime = file.mtime;
        return { node: file, created: true };
      }
      if (flags & O.EXCL) return -E.EEXIST;
      if (entry.inode.type !== TYPE.SYMLINK) return { node: entry.inode, created: false };
      if (flags & O.NOFOLLOW) return -E.ELOOP;
      if (++hops.n > SYMLOOP_MAX) return -E.ELOOP;
      from = dir;
      current = entry.inode.target;
    }
  }

  close(fd) {
    if (!this.file(fd)) return -E.EBADF;
    this.fds[fd] = undefined;
    return 0;
  }

  dup2(oldfd, newfd) {
    const file = this.file(oldfd);
    if (!file) return -E.EBADF;
    if (newfd < FIRST_FD || newfd >= MAX_FDS) return -E.EBADF;
    this.fds[newfd] = file;
    return newfd;
  }

  // ---- data ----
  /** iovs: array of [Uint8Array view, offset, length]; offset < 0 uses the fd's position. */
  readv(fd, iovs, offset = -1) {
    const file = this.file(fd);
    if (!file) return -E.EBADF;
    if (file.access === O.WRONLY) return -E.EBADF;
    const node = file.inode;
    if (node.type === TYPE.DIR) return -E.EISDIR;
    const usePos = offset < 0;
    if (usePos) offset = file.pos;
    let done = 0;
    for (const [mem, ptr, len] of iovs) {
      if (done >= MAX_RW_COUNT) break;
      const at = offset + done;
      if (at >= node.size) break;
      const n = Math.min(len, node.size - at, MAX_RW_COUNT - done);
      readData(node, at, mem, ptr, n);
      done += n;
      if (n < len) break;
    }
    node.touchAtime();
    if (usePos) file.pos = offset + done;
    return done;
  }

  writev(fd, iovs, offset = -1) {
    const file = this.file(fd);
    if (!file) return -E.EBADF;
    if (file.access === O.RDONLY) return -E.EBADF;
    const node = file.inode;
    let total = 0;
    for (const [, , len] of iovs) total += len;
    total = Math.min(total, MAX_RW_COUNT);
    const usePos = offset < 0;
    if (usePos) offset = file.pos;
    if (file.status & O.APPEND) offset = node.size; // wins even over pwrite's offset, as on Linux
    if (total > 0 && offset >= MAX_FILE_SIZE) return -E.EFBIG;
    total = Math.min(total, MAX_FILE_SIZE - offset);
    let done = 0;
    for (const [mem, ptr, len] of iovs) {
      if (done >= total) break;
      const n = Math.min(len, total - done);
      writeData(node, offset + done, mem, ptr, n);
      done += n;
    }
    if (done > 0) {
      if (offset + done > node.size) node.size = offset + done;
      node.mtime = node.ctime = nowNs();
    }
    if (usePos) file.pos = offset + done;
    return done;
  }

  lseek(fd, offset, whence) {
    const file = this.file(fd);
    if (!file) return -E.EBADF;
    let base;
    if (whence === 0) base = 0;
    else if (whence === 1) base = file.pos;
    else if (whence === 2) base = file.inode.type === TYPE.FILE ? file.inode.size : 0;
    else return -E.EINVAL;
    const result = base + offset;
    if (result < 0 || result > Number.MAX_SAFE_INTEGER) return -E.EINVAL;
    file.pos = result;
    return result;
  }

  ftruncate(fd, length) {
    const file = this.file(fd);
    if (!file) return -E.EBADF;
    if (file.access === O.RDONLY || file.inode.type !== TYPE.FILE || length < 0) return -E.EINVAL;
    if (length > MAX_FILE_SIZE) return -E.EFBIG;
    const node = file.inode;
    truncateData(node, length);
    node.size = length;
    node.mtime = node.ctime = nowNs();
    return 0;
  }

  fallocate(fd, offset, len) {
    const file = this.file(fd);
    if (!file) return -E.EBADF;
    if (offset < 0 || len <= 0) return -E.EINVAL;
    if (file.access === O.RDONLY) return -E.EBADF;
    const node = file.inode;
    if (node.type === TYPE.DIR) return -E.EISDIR;
    const end = offset + len;
    if (end > MAX_FILE_SIZE) return -E.EFBIG;
    if (end > node.size) {
      node.size = end;
      node.mtime = node.ctime = nowNs();
    }
    return 0;
  }

  fsync(fd) { return this.file(fd) ? 0 : -E.EBADF; }

  getfl(fd) {
    const file = this.file(fd);
    return file ? file.access | file.status : -E.EBADF;
  }

  setfl(fd, flags) {
    const file = this.file(fd);
    if (!file) return -E.EBADF;
    const changeable = O.APPEND | O.NONBLOCK;
    file.status = (file.status & ~changeable) | (flags & changeable);
    return 0;
  }

  // ---- metadata ----
  stat(node) {
    let size = 4096; let blocks = 0;
    if (node.type === TYPE.FILE) { size = node.size; blocks = Math.ceil(allocatedBytes(node) / 512); } else if (node.type === TYPE.SYMLINK) size = node.target.length;
    return { dev: 1, ino: node.ino, type: node.type, nlink: node.nlink, size, blocks,
      atime: node.atime, mtime: node.mtime, ctime: node.ctime };
  }

  fstat(fd) {
    const file = this.file(fd);
    return file ? this.stat(file.inode) : -E.EBADF;
  }

  fstatat(dirfd, path, flags) {
    if (flags & ~AT.SYMLINK_NOFOLLOW) return -E.EINVAL;
    const w = this.walkAt(dirfd, path, { follow: !(flags & AT.SYMLINK_NOFOLLOW) });
    return typeof w === 'number' ? w : this.stat(w.node);
  }

  /** times: null (both now) or [[sec BigInt, nsec], [sec, nsec]]. */
  setTimes(node, times) {
    times ??= [[0n, UTIME.NOW], [0n, UTIME.NOW]];
    const valid = ([, ns]) => ns === UTIME.NOW || ns === UTIME.OMIT || (ns >= 0 && ns < 1e9);
    if (!valid(times[0]) || !valid(times[1])) return -E.EINVAL;
    if (times[0][1] === UTIME.OMIT && times[1][1] === UTIME.OMIT) return 0;
    const now = nowNs();
    const value = ([sec, ns]) => (ns === UTIME.NOW ? now : sec * 1000000000n + BigInt(ns));
    if (times[0][1] !== UTIME.OMIT) node.atime = value(times[0]);
    if (times[1][1] !== UTIME.OMIT) node.mtime = value(times[1]);
    node.ctime = now;
    return 0;
  }

  utimensat(dirfd, path, times, flags) {
    if (flags & ~AT.SYMLINK_NOFOLLOW) return -E.EINVAL;
    const w = this.walkAt(dirfd, path, { follow: !(flags & AT.SYMLINK_NOFOLLOW) });
    return typeof w === 'number' ? w : this.setTimes(w.node, times);
  }

  futimens(fd, times) {
    const file = this.file(fd);
    return file ? this.setTimes(file.inode, times) : -E.EBADF;
  }

  // ---- namespace ----
  /** Checks that w.name can be created in w.dir: 0 or a negative errno. */
  canCreate(w) {
    if (w.last !== LAST.NORM) return -E.EEXIST;
    if (w.dir.dead) return -E.ENOENT;
    if (w.dir.entries.has(w.name)) return -E.EEXIST;
    return 0;
  }

  addEntry(dir, name, child) {
    dirInsert(dir, name, child);
    dir.mtime = dir.ctime = nowNs();
  }

  mkdirat(dirfd, path, mode) {
    const w = this.walkAt(dirfd, path, { parent: true });
    if (typeof w === 'number') return w;
    const rc = this.canCreate(w);
    if (rc < 0) return rc;
    const child = new Inode(this, TYPE.DIR, mode);
    child.nlink = 2;
    child.parent = w.dir;
    this.addEntry(w.dir, w.name, child);
    w.dir.nlink++;
    return 0;
  }

  unlinkat(dirfd, path, flags) {
    if (flags & ~AT.REMOVEDIR) return -E.EINVAL;
    const rmdir = Boolean(flags & AT.REMOVEDIR);
    const w = this.walkAt(dirfd, path, { parent: true });
    if (typeof w === 'number') return w;
    if (w.last === LAST.DOT) return rmdir ? -E.EINVAL : -E.EISDIR;
    if (w.last === LAST.DOTDOT) return rmdir ? -E.ENOTEMPTY : -E.EISDIR;
    if (w.last === LAST.ROOT) return rmdir ? -E.EBUSY : -E.EISDIR;
    const dir = w.dir;
    const entry = dir.dead ? undefined : dir.entries.get(w.name);
    if (!entry) return -E.ENOENT;
    const child = entry.inode;
    const now = nowNs();
    if (rmdir) {
      if (child.type !== TYPE.DIR) return -E.ENOTDIR;
      if (child.entries.size > 0) return -E.ENOTEMPTY;
      child.dead = true;
      child.nlink = 0;
      child.ctime = now;
      dirRemove(dir, entry);
      dir.nlink--;
    } else {
      if (child.type === TYPE.DIR) return -E.EISDIR;
      if (w.trailing) return -E.ENOTDIR;
      dirRemove(dir, entry);
      child.nlink--;
      child.ctime = now;
    }
    dir.mtime = dir.ctime = now;
    return 0;
  }

  linkat(olddirfd, oldpath, newdirfd, newpath, flags) {
    if (flags & ~AT.SYMLINK_FOLLOW) return -E.EINVAL;
    const old = this.walkAt(olddirfd, oldpath, { follow: Boolean(flags & AT.SYMLINK_FOLLOW) });
    if (typeof old === 'number') return old;
    const target = old.node;
    const w = this.walkAt(newdirfd, newpath, { parent: true });
    if (typeof w === 'number') return w;
    const rc = this.canCreate(w); // EEXIST comes before EPERM, as on Linux
    if (rc < 0) return rc;
    if (w.trailing) return -E.ENOENT;
    if (target.type === TYPE.DIR) return -E.EPERM;
    if (target.nlink === 0) return -E.ENOENT;
    this.addEntry(w.dir, w.name, target);
    target.nlink++;
    target.ctime = w.dir.mtime;
    return 0;
  }

  symlinkat(target, dirfd, path) {
    if (target.length === 0) return -E.ENOENT;
    if (target.length >= PATH_MAX) return -E.ENAMETOOLONG;
    const w = this.walkAt(dirfd, path, { parent: true });
    if (typeof w === 'number') return w;
    const rc = this.canCreate(w);
    if (rc < 0) return rc;
    if (w.trailing) return -E.ENOENT;
    const link = new Inode(this, TYPE.SYMLINK, 0o777);
    link.target = target;
    link.nlink = 1;
    this.addEntry(w.dir, w.name, link);
    return 0;
  }

  /** Returns the target (a byte string, cut at `size`) or a negative errno. */
  readlinkat(dirfd, path, size) {
    if (size === 0) return -E.EINVAL;
    const w = this.walkAt(dirfd, path, {});
    if (typeof w === 'number') return w;
    if (w.node.type !== TYPE.SYMLINK) return -E.EINVAL;
    w.node.touchAtime();
    return w.node.target.slice(0, size);
  }

  renameat(olddirfd, oldpath, newdirfd, newpath) {
    const from = this.walkAt(olddirfd, oldpath, { parent: true });
    if (typeof from === 'number') return from;
    const to = this.walkAt(newdirfd, newpath, { parent: true });
    if (typeof to === 'number') return to;
    if (from.last !== LAST.NORM || to.last !== LAST.NORM) return -E.EBUSY;
    const odir = from.dir; const ndir = to.dir;
    const cross = odir !== ndir;
    if (odir.dead || ndir.dead) return -E.ENOENT;
    const se = odir.entries.get(from.name);
    if (!se) return -E.ENOENT;
    const src = se.inode;
    const srcDir = src.type === TYPE.DIR;
    if ((from.trailing || to.trailing) && !srcDir) return -E.ENOTDIR;
    const isAncestor = (a, b) => { for (let x = b; x; x = x.parent) if (x === a) return true; return false; };
    // Linux's order: subtree rules first, then types.
    if (srcDir && cross && isAncestor(src, ndir)) return -E.EINVAL;
    const te = ndir.entries.get(to.name);
    const tgt = te ? te.inode : null;
    const tgtDir = Boolean(tgt && tgt.type === TYPE.DIR);
    if (tgtDir && cross && isAncestor(tgt, odir)) return -E.ENOTEMPTY;
    if (tgt === src) return 0;
    if (srcDir && tgt && !tgtDir) return -E.ENOTDIR;
    if (!srcDir && tgtDir) return -E.EISDIR;
    if (tgtDir && tgt.entries.size > 0) return -E.ENOTEMPTY;
    const now = nowNs();
    if (te) te.inode = src; // the target's entry keeps its place (and readdir cookie)
    else dirInsert(ndir, to.name, src);
    dirRemove(odir, se);
    if (tgtDir) {
      tgt.dead = true;
      tgt.nlink = 0;
      tgt.ctime = now;
      ndir.nlink--;
    }
    if (srcDir && cross) {
      src.parent = ndir;
      odir.nlink--;
      ndir.nlink++;
    }
    src.ctime = now;
    if (tgt && !tgtDir) {
      tgt.nlink--;
      tgt.ctime = now;
    }
    odir.mtime = odir.ctime = now;
    ndir.mtime = ndir.ctime = now;
    return 0;
  }

  /** Up to `max` entries after `cookie` (newest first): [{ name, ino, type, next }], or a negative errno. */
  readdir(fd, cookie, max) {
    const file = this.file(fd);
    if (!file) return -E.EBADF;
    const dir = file.inode;
    if (dir.type !== TYPE.DIR) return -E.ENOTDIR;
    const out = [];
    if (!dir.dead) { // a removed directory lists nothing, as on Linux
      if (cookie < 1 && out.length < max) out.push({ name: '.', ino: dir.ino, type: TYPE.DIR, next: 1 });
      if (cookie < 2 && out.length < max) out.push({ name: '..', ino: (dir.parent || dir).ino, type: TYPE.DIR, next: 2 });
      // Newest first, as Linux's tmpfs and runtime/fs list: the entries older than the cookie's.
      const olderThan = cookie <= 2 ? Infinity : cookie;
      for (let i = firstAfter(dir, olderThan - 1); i > 0 && out.length < max;) {
        const e = dir.order[--i];
        if (!e.removed) out.push({ name: e.name, ino: e.inode.ino, type: e.inode.type, next: e.seq });
      }
    }
    dir.touchAtime();
    return out;
  }
}
