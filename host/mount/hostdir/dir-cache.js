// The directories a thread's host-directory mount calls work in, kept open (docs/MOUNTS.md,
// "Directories kept open"). Each path call runs on /proc/PID/fd/N/name, N the parent directory
// opened and checked to be where it was resolved (hostdir.js); opening and closing N on every
// call was two of its four system calls. Here N stays open, keyed by the directory's path
// relative to the mount's root, and is checked again on every use: its real path, read back from
// /proc/PID/fd/N, must still be exactly the expected host path. A directory renamed, removed or
// replaced (by the program or by another process) fails that check; its fd is closed and the
// path opened again. So nothing is trusted from an earlier call, only the fd is reused.
//
// The fds live in a handle table of their own (handle-table.js; never the one whose handles the
// module names), so the coordinator closes what threads kept when the program is disposed, and
// never one a call is using.
import { HandleError } from '../handle-table.js';
import { fdPath } from './proc-fd.js';

const { closeSync, constants: C, openSync, readlinkSync } = process.getBuiltinModule('node:fs');

// Linux's O_PATH (node:fs does not name it): the fd only names the directory, so a directory
// the program may search but not list is reached as Linux's own calls reach it.
const O_PATH = 0o10000000;

const realPath = (fd) => readlinkSync(fdPath(fd));

export class DirCache {
  #handles = new Map(); // relative path -> handle in the table, least recently used first
  #depth = 0; // runs in progress on this thread (RENAME and LINK run one inside another)
  #stale = []; // handles to close once no run is in progress (one may be in use by an outer run)

  /** table: a HandleTable for the kept fds; limit: how many this thread keeps open. */
  constructor(table, limit = 32) {
    this.table = table;
    this.limit = limit;
  }

  /**
   * Runs fn(fd) with fd the directory `key` (relative to the mount's root) whose real path is
   * `expected` right now, and returns its result; returns notThere(err) instead when the
   * directory cannot be opened (err: ENOENT, ENOTDIR, ELOOP for a final symlink, ...) or the
   * one opened is not at that path (err undefined: a symlink on the way, a rename meanwhile).
   */
  run(key, expected, fn, notThere) {
    this.#depth++;
    try {
      return this.#run(key, expected, fn, notThere);
    } finally {
      if (--this.#depth === 0) this.#closeStale();
    }
  }

  #run(key, expected, fn, notThere) {
    const kept = this.#handles.get(key);
    if (kept !== undefined) {
      const found = this.#use(kept, (fd) => realPath(fd) === expected && this.#touch(key, kept), fn);
      if (found) return found.result;
      // moved, removed or replaced since (or closed at dispose): open the path again
      this.#handles.delete(key);
      this.#stale.push(kept);
    }
    let fd;
    try {
      fd = openSync(expected, O_PATH | C.O_DIRECTORY | C.O_NOFOLLOW);
    } catch (err) {
      return notThere(err);
    }
    if (realPath(fd) !== expected) {
      closeSync(fd);
      return notThere();
    }
    let handle;
    try {
      handle = this.table.add(fd);
    } catch { // the table is full (thousands of threads): this call alone uses the fd
      try { return fn(fd); } finally { closeSync(fd); }
    }
    this.#handles.set(key, handle);
    if (this.#handles.size > this.limit) {
      const [oldestKey, oldest] = this.#handles.entries().next().value;
      this.#handles.delete(oldestKey);
      this.#stale.push(oldest);
    }
    return (this.#use(handle, () => true, fn) ?? { result: notThere() }).result;
  }

  // { result: fn(fd) } if the handle is live and check(fd) holds, null if not (a handle closed
  // by the coordinator meanwhile is not live). What fn throws goes through.
  #use(handle, check, fn) {
    let live = false;
    try {
      return this.table.use(handle, (fd) => {
        live = true;
        if (!check(fd)) return null;
        return { result: fn(fd) };
      });
    } catch (err) {
      if (!live && err instanceof HandleError) return null;
      throw err;
    }
  }

  // key's handle becomes the most recently used
  #touch(key, handle) {
    this.#handles.delete(key);
    this.#handles.set(key, handle);
    return true;
  }

  #closeStale() {
    for (const handle of this.#stale.splice(0)) {
      try { this.table.remove(handle, closeSync); } catch { /* closed at dispose already */ }
    }
  }
}
