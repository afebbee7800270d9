// The detach protocol of the OPFS backend (docs/OPFS.md). OPFS refuses to remove or move a file
// while any sync access handle on it is open (NoModificationAllowedError), so worker 0, which
// runs the namespace operations, first asks every worker to *detach* the file: its handles are
// closed (an unlinked file's open descriptions first copy its bytes into JavaScript memory) and
// requests on them wait. Once the operation is done or has failed, worker 0 asks every worker to
// *settle*: an unlinked file's descriptions then live on in their copy (readable and writable
// until closed, as on Linux), a renamed file's reopen at the new name, and after a failure every
// description reopens where it was, so a failed unlink or rename changes nothing. Worker 0
// reaches the others over MessagePorts; like the mailboxes (mailbox.js), a worker that died is not
// asked and one that does not answer in time fails the operation with EIO: never a hang.
import { ERRNO as E } from '../../abi/linux.js';
import { Errno } from './opfs-errors.js';
import { MemoryFile } from './opfs-memory-file.js';
import { splitPath } from './opfs-paths.js';

/** Waits until a rename that moves the open file has settled (and its handle is reopened). */
export async function ready(o) {
  while (o.pending) await o.pending;
}

/** Lets go of the sync access handles of `opens` on `path` (a file, or all under a directory). */
export async function detach(opens, { kind, path, to }) {
  for (const o of [...opens.values()]) {
    const under = o.path === path || o.path.startsWith(`${path}/`);
    if (!under || o.kind !== 'file') continue;
    await ready(o);
    if (!o.sah) continue;
    if (kind === 'unlink') { // the bytes it keeps if the unlink is done
      const size = o.sah.getSize();
      const bytes = new Uint8Array(Math.max(size, 64));
      o.sah.read(bytes.subarray(0, size), { at: 0 });
      o.detached = new MemoryFile(bytes, size);
    }
    o.sah.flush(); o.sah.close(); o.sah = null;
    o.pending = new Promise((resolve) => { o.settled = resolve; });
    o.moving = { from: path, to: kind === 'unlink' ? null : to };
  }
}

/**
 * After the unlink or move of `path` (ok: it was done): an unlinked file's descriptions keep
 * their copy; the others reopen their handles at the new place, or, if the operation failed, at
 * the old one (a copy that nothing used, since requests waited, is dropped). reattach(o) opens
 * o's handle at o.path.
 */
export async function settle(opens, { path, ok }, reattach) {
  const reopening = [];
  for (const o of opens.values()) {
    if (!o.moving || o.moving.from !== path) continue;
    const { from, to } = o.moving;
    o.moving = null;
    const wake = o.settled;
    o.settled = null;
    if (ok && to === null) {
      o.fh = null;
      o.path = `${o.path}\0unlinked`;
      o.pending = null;
    } else {
      o.detached = null;
      if (ok) o.path = to + o.path.slice(from.length);
      o.pending = reattach(o).finally(() => { o.pending = null; });
      reopening.push(o.pending);
    }
    wake();
  }
  await Promise.all(reopening);
}

/**
 * Reopens o's sync access handle at o.path; if that fails, o becomes an empty unlinked file.
 * walker: the worker's PathWalker; attach(o, fileHandle) opens the handle.
 */
export async function reattach(o, walker, attach, debug) {
  const parts = splitPath(o.path);
  try {
    const dir = await walker.dirOf(parts.slice(0, -1));
    const fh = await dir.getFileHandle(parts.at(-1));
    // Chromium lets go of a closed handle's lock a moment later (seen after a move onto a file
    // whose handle was just closed): retry for up to a second
    for (let attempt = 0; ; attempt++) {
      try {
        await attach(o, fh);
        break;
      } catch (err) {
        if (err.name !== 'NoModificationAllowedError' || attempt >= 200) throw err;
        await new Promise((r) => setTimeout(r, 5));
      }
    }
  } catch (err) {
    if (debug) console.error('opfs reattach', o.path, err);
    o.sah = null;
    o.detached = new MemoryFile(); // lost track of it: an empty unlinked file
  }
}

/**
 * Worker 0: { broadcast(msg) } that sends msg ({ type: 'detach' | 'settle', ... }) to every other
 * worker (ports[i] reaches worker i + 1) and resolves once each has done it. A worker for which
 * alive(w) is false (its mailbox ring failed) is skipped; one that answers with an error, or not
 * within timeoutMs, rejects with Errno(EIO). The other workers' notes of file handles they
 * found ({ type: 'known', path, fh, ino }) go to onKnown(msg, from: the worker's index).
 */
export function peersOverPorts(ports, { timeoutMs, alive = () => true, onKnown = () => {} }) {
  let next = 1;
  const waiting = new Map();
  ports.forEach((port, i) => {
    port.onmessage = (m) => {
      if (m.data.type === 'known') { onKnown(m.data, i + 1); return; }
      const answer = waiting.get(m.data.id);
      waiting.delete(m.data.id);
      answer?.(m.data.error);
    };
  });
  const ask = (port, w, msg) => new Promise((resolve, reject) => {
    const id = next++;
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Errno(E.EIO, `OPFS I/O worker ${w} did not answer '${msg.type}' within ${timeoutMs} ms`));
    }, timeoutMs);
    waiting.set(id, (error) => {
      clearTimeout(timer);
      if (error) reject(new Errno(E.EIO, `OPFS I/O worker ${w} failed '${msg.type}': ${error}`));
      else resolve();
    });
    port.postMessage({ ...msg, id });
  });
  return {
    broadcast: (msg) => Promise.all(ports.map((port, i) => (alive(i + 1) ? ask(port, i + 1, msg) : null))),
  };
}

/**
 * Another worker: detaches and settles on worker 0's request (over `port`), then answers; notes
 * of file handles found elsewhere ({ type: 'known' }) go to onKnown, unanswered. One
 * request at a time, in order: a settle that follows a detach worker 0 gave up waiting for must
 * not overtake it, or what that detach closes would wait for a settle that already went by.
 */
export function answerPeers(port, backend, onKnown = () => {}) {
  let previous = Promise.resolve();
  const answer = async (m) => {
    let error = null;
    try {
      if (m.data.type === 'detach') await backend.detach(m.data);
      else if (m.data.type === 'settle') await backend.settle(m.data);
      else error = `unknown request '${m.data.type}'`;
    } catch (err) {
      error = String(err?.message ?? err);
    }
    port.postMessage({ id: m.data.id, error });
  };
  port.onmessage = (m) => {
    if (m.data.type === 'known') onKnown(m.data);
    else previous = previous.then(() => answer(m));
  };
}
