// The files API of a program (docs/FILES.md), on the coordinator: every call becomes a request
// that the hidden service thread (runtime/wasi/files_api_service.c) runs with the runtime's own
// spindle_fs_* calls, one at a time, in order; every call returns a promise, and the calling
// thread never blocks. Writes are copied once, from the caller's bytes straight into the file's
// chunks in linear memory; reads once, from the chunks into the Uint8Array returned.
import { importsFromSpindle } from '../compile/module-info.js';
import { BOX, MAILBOX_BYTES, MODE_KEEP, OP, PATHS_AT, PATH_MAX, splitNs, STATE, TIMES_AT } from './mailbox.js';
import { piecesFit } from './pieces.js';

const encoder = new TextEncoder();
// Linux numbering, as the runtime's results (runtime/include/spindle/fs.h)
const CODES = { 1: 'EPERM', 2: 'ENOENT', 5: 'EIO', 9: 'EBADF', 12: 'ENOMEM', 13: 'EACCES', 16: 'EBUSY',
  17: 'EEXIST', 18: 'EXDEV', 20: 'ENOTDIR', 21: 'EISDIR', 22: 'EINVAL', 24: 'EMFILE', 27: 'EFBIG',
  28: 'ENOSPC', 31: 'EMLINK', 36: 'ENAMETOOLONG', 38: 'ENOSYS', 39: 'ENOTEMPTY', 40: 'ELOOP', 95: 'ENOTSUP' };
const S_IFMT = 0o170000;
const TYPES = { 0o040000: 'directory', 0o100000: 'file', 0o120000: 'symlink' };
const DT_TYPES = { 4: 'directory', 8: 'file', 10: 'symlink' };
const SYSCALLS = { [OP.READ]: 'open', [OP.WRITE]: 'open', [OP.STAT]: 'stat', [OP.READDIR]: 'scandir',
  [OP.MKDIR]: 'mkdir', [OP.UNLINK]: 'unlink', [OP.RMDIR]: 'rmdir', [OP.RENAME]: 'rename', [OP.SYMLINK]: 'symlink',
  [OP.RESTORE_ATTRS]: 'lutimes' };

/** An Error like Node's fs errors: code ('ENOENT'...), errno, syscall, path. */
export function filesError(code, syscall, path, detail) {
  const err = new Error(`${code}: ${detail ?? syscall} '${path}'`);
  Object.assign(err, { code, errno: Number(Object.keys(CODES).find((k) => CODES[k] === code) ?? 0), syscall, path });
  return err;
}

function pathBytes(path, syscall) {
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw filesError('EINVAL', syscall, path, `${syscall}: the path must be absolute (start with '/')`);
  }
  const bytes = encoder.encode(path);
  if (bytes.includes(0)) throw filesError('EINVAL', syscall, path, `${syscall}: the path contains a NUL`);
  if (bytes.length >= PATH_MAX) throw filesError('ENAMETOOLONG', syscall, path.slice(0, 64) + '...');
  return bytes;
}

/** A symlink's target: any bytes but NUL, relative or absolute, as symlink(2) takes them. */
function targetBytes(target, path) {
  const bytes = typeof target === 'string' ? encoder.encode(target) : target;
  if (!(bytes instanceof Uint8Array) || bytes.length === 0 || bytes.includes(0)) {
    throw filesError('EINVAL', 'symlink', path, 'symlink: the target must be a non-empty string or Uint8Array without NUL');
  }
  if (bytes.length >= PATH_MAX) throw filesError('ENAMETOOLONG', 'symlink', path);
  return bytes;
}

function toBytes(data) {
  if (typeof data === 'string') return encoder.encode(data);
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer || data instanceof SharedArrayBuffer) return new Uint8Array(data);
  throw new TypeError('writeFile: data must be a string, an ArrayBuffer or a typed array');
}

function statObject(stat) {
  const type = TYPES[stat.mode & S_IFMT] ?? 'other';
  return { type, mode: stat.mode & 0o7777, size: stat.size, ino: stat.ino, nlink: stat.nlink,
    atimeMs: stat.atimeMs, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs,
    isFile: () => type === 'file', isDirectory: () => type === 'directory' };
}

/**
 * The coordinator's side. `enabled`: the host asked for the service (the module must link
 * runtime/wasi, i.e. spindle cc --fs=spindle). Returns { mailbox, api, onMessage, releaseMain, fail }.
 */
export function createFilesClient({ module, memory, enabled }) {
  const linked = importsFromSpindle(module, 'files_wait');
  const mailbox = enabled && linked ? new SharedArrayBuffer(MAILBOX_BYTES) : null;
  const box = mailbox && new Int32Array(mailbox);
  const boxBytes = mailbox && new Uint8Array(mailbox);
  const size64 = mailbox && new BigInt64Array(mailbox, 0, 4);
  const times64 = mailbox && new BigInt64Array(mailbox, TIMES_AT, 6);
  const queue = [];
  let current = null;
  let failure = null;

  function pump() {
    if (current || failure || queue.length === 0) return;
    current = queue.shift();
    box[BOX.OP] = current.op;
    box[BOX.MODE] = current.mode ?? 0;
    size64[BOX.SIZE64] = BigInt(current.data?.length ?? 0);
    boxBytes.set(current.path, PATHS_AT);
    box[BOX.PATH_LEN] = current.path.length;
    boxBytes.set(current.path2 ?? [], PATHS_AT + PATH_MAX);
    box[BOX.PATH2_LEN] = current.path2?.length ?? 0;
    (current.times ?? [0n, 0n, 0n]).forEach((ns, i) => times64.set(splitNs(ns), i * 2));
    Atomics.store(box, BOX.STATE, STATE.REQUEST);
    Atomics.notify(box, BOX.STATE);
  }

  // path2: rename's new path; target: symlink's; times: [atime, mtime, ctime] in BigInt ns
  function request(op, path, { path2, target, mode, data, times } = {}) {
    const syscall = SYSCALLS[op] ?? 'files';
    return new Promise((resolve, reject) => {
      if (!mailbox) {
        throw filesError('ENOTSUP', syscall, path, linked
          ? 'the program was created without its files API (files: false)'
          : 'this module has no Spindle filesystem (build it with spindle cc --fs=spindle)');
      }
      if (failure) throw failure;
      const second = target !== undefined ? targetBytes(target, path) : path2 !== undefined ? pathBytes(path2, syscall) : undefined;
      const item = { op, path: pathBytes(path, syscall), path2: second, mode, data, times, at: 0, resolve, reject, name: path };
      queue.push(item);
      pump();
    });
  }

  function onMessage(msg) {
    if (msg.type === 'files-fill') {
      const mem = new Uint8Array(memory.buffer);
      const { pieces } = msg;
      // (the service checked them; this thread does not take a worker's word for what to write)
      const bytes = current?.op === OP.WRITE && pieces instanceof Uint32Array ? piecesFit(pieces, memory.buffer) : -1;
      const fits = bytes >= 0 && current.at + bytes <= current.data.length;
      for (let i = 0; fits && i < pieces.length; i += 2) {
        mem.set(current.data.subarray(current.at, current.at + pieces[i + 1]), pieces[i]);
        current.at += pieces[i + 1];
      }
      Atomics.store(box, BOX.STATE, STATE.FILLED);
      Atomics.notify(box, BOX.STATE);
    } else if (msg.type === 'files-done') {
      if (!current) return; // (an answer nobody asked for)
      const done = current;
      current = null;
      if (msg.result < 0) {
        done.reject(filesError(CODES[-msg.result] ?? `E${-msg.result}`, SYSCALLS[done.op], done.name));
      } else {
        done.resolve(msg);
      }
      pump();
    } else if (msg.type === 'files-failed') {
      fail(msg.message);
    }
  }

  function fail(message) {
    if (failure) return;
    failure = new Error(`spindle files: ${message}`);
    for (const item of [current, ...queue.splice(0)]) item?.reject(failure);
    current = null;
  }

  const simple = (op) => (path, options) => request(op, path, options).then(() => undefined);

  async function mkdir(path, { recursive = false, mode = 0o755 } = {}) {
    if (!recursive) return simple(OP.MKDIR)(path, { mode });
    // Every level is queued at once, so requests made after this call run after all of them.
    const parts = path.split('/').filter(Boolean);
    const levels = parts.map((_, i) => `/${parts.slice(0, i + 1).join('/')}`);
    const results = await Promise.allSettled(levels.map((p) => request(OP.MKDIR, p, { mode })));
    const failed = results.find((r) => r.status === 'rejected' && r.reason.code !== 'EEXIST');
    if (failed) throw failed.reason;
    if (levels.length && results.at(-1).status === 'rejected' && (await api.stat(path)).type !== 'directory') {
      throw results.at(-1).reason;
    }
    return undefined;
  }

  const api = {
    async readFile(path, encoding) {
      const { result, data } = await request(OP.READ, path);
      const bytes = data.subarray(0, result);
      return encoding ? new TextDecoder(encoding).decode(bytes) : bytes;
    },
    writeFile: (path, data, { mode = 0o644 } = {}) => simple(OP.WRITE)(path, { data: toBytes(data), mode }),
    async stat(path) {
      return statObject((await request(OP.STAT, path)).stat);
    },
    async readdir(path, { withFileTypes = false } = {}) {
      const { entries } = await request(OP.READDIR, path);
      return entries.map((e) => (withFileTypes ? { name: e.name, type: DT_TYPES[e.type] ?? 'other' } : e.name));
    },
    mkdir,
    unlink: simple(OP.UNLINK),
    rmdir: simple(OP.RMDIR),
    rename: (from, to) => simple(OP.RENAME)(from, { path2: to }),
    symlink: (target, path) => simple(OP.SYMLINK)(path, { target }),
  };

  return {
    mailbox,
    api,
    onMessage,
    fail,
    /** The pool slot whose worker runs the service thread, or -1 (not started). */
    serviceSlot: () => (box ? Atomics.load(box, BOX.SERVICE_SLOT) - 1 : -1),
    /**
     * Gives what `path` names (a symlink itself, not followed) the permission bits `mode`
     * (undefined: unchanged) and times [atime, mtime, ctime] in BigInt nanoseconds, ctime
     * included: how preloading keeps a host file's attributes.
     */
    restoreAttributes: (path, mode, times) => simple(OP.RESTORE_ATTRS)(path, { mode: mode ?? MODE_KEEP, times }),
    /** Lets main run once every request made so far is done (see files_api_service.c). */
    releaseMain: () => request(OP.RELEASE_MAIN, '/'),
  };
}
