// The `opfs` mount backend (docs/OPFS.md): `--mount /PATH=opfs[:SUBDIR]`, or
// `mounts: [{ path, opfs: 'SUBDIR' }]` in the host API, in a browser. prepare() starts the I/O
// workers (host/mount/opfs/opfs-worker.js) on the coordinator; client() runs in each thread worker
// and sends each request to the I/O worker that must serve it (docs/MOUNTS.md section 3).
import { ERRNO } from '../../abi/linux.js';
import { ioWorkerOf, MAX_IO_WORKERS, OP, REQ, setResult } from '../../abi/mount-request.js';
import { createGenerations } from '../../abi/opfs-generations.js';
import { createMailboxes, failWorker, looksIdle, submit } from '../mailbox.js';
import { createOwners } from './opfs-owners.js';

// The I/O workers' tunables (mount options of the same names; docs/OPFS.md): spinMs: after each
// answer a worker polls its ring this long before going back to Atomics.waitAsync (a thread
// reading a file sequentially sends its next request a few microseconds after the answer, and
// a waitAsync wake-up goes through the worker's event loop: 1 MiB reads at 0.5-0.65x raw without
// the poll); detachTimeoutMs: how long worker 0 waits for another worker to let go of a file
// being removed or renamed before that operation fails with EIO; debug: log unexpected OPFS
// errors on the workers' consoles.
const TUNABLES = { spinMs: 0.2, detachTimeoutMs: 10000, debug: false };

/** How many I/O workers a mount gets: files spread over them, so two files can be read at once. */
function workerCount(spec) {
  if (spec.workers) return Math.max(1, Math.min(MAX_IO_WORKERS, spec.workers | 0));
  const cores = globalThis.navigator?.hardwareConcurrency || 2;
  return Math.max(2, Math.min(4, cores));
}

function tunablesOf(spec) {
  const tunables = Object.fromEntries(Object.entries(TUNABLES).map(([k, v]) => [k, spec[k] ?? v]));
  for (const k of ['spinMs', 'detachTimeoutMs']) {
    if (typeof tunables[k] !== 'number' || !(tunables[k] >= 0) || tunables[k] === Infinity) {
      throw new Error(`mount ${spec.path}: ${k} must be a number of milliseconds >= 0, not ${tunables[k]}`);
    }
  }
  tunables.debug = Boolean(tunables.debug);
  return tunables;
}

async function prepare(spec) {
  if (typeof navigator === 'undefined' || !navigator.storage?.getDirectory) {
    throw new Error(`mount ${spec.path}: opfs needs a browser with the Origin Private File System (a secure context)`);
  }
  const subdir = String(spec.opfs ?? '');
  if (subdir.split('/').some((p) => p === '.' || p === '..')) {
    throw new Error(`mount ${spec.path}: opfs:${subdir}: no . or .. components`);
  }
  const n = workerCount(spec);
  const mailboxes = createMailboxes(n);
  const generations = createGenerations(); // inode generations, namespace epoch
  const owners = createOwners(); // which worker holds each open file's handle
  const tunables = tunablesOf(spec);
  const workers = [];
  const ready = [];
  const channels = Array.from({ length: n - 1 }, () => new MessageChannel());
  let memory = null;
  let disposed = false;
  // A worker that fails once it serves (an error event, or its serve loop threw: 'died') is
  // terminated and its ring answers EIO to every caller (mailbox.js): a clear error, never a hang.
  const serving = new Array(n).fill(false); // ready: from then on a failure is a death, not a failed start
  const died = (w, why) => {
    if (disposed || !serving[w]) return;
    workers[w].worker.terminate();
    failWorker(mailboxes, w, memory, `mount ${spec.path}: OPFS I/O worker ${w} of ${n} (spindle-opfs-${w}) ${why}`);
  };
  for (let w = 0; w < n; w++) {
    const worker = new Worker(new URL('./opfs-worker.js', import.meta.url), { type: 'module', name: `spindle-opfs-${w}` });
    ready.push(new Promise((resolve, reject) => {
      worker.onmessage = (e) => {
        if (e.data.type === 'ready') { serving[w] = true; resolve(); }
        else if (e.data.type === 'failed') reject(new Error(`mount ${spec.path}: ${e.data.message}`));
        else if (e.data.type === 'died') died(w, `failed: ${e.data.message}`);
      };
      worker.onerror = (e) => {
        reject(new Error(`mount ${spec.path}: OPFS I/O worker failed: ${e.message}`));
        died(w, `failed: ${e.message || 'error event'}`);
      };
    }));
    const start = { type: 'start', w, mailboxes, subdir, generations, owners, tunables, mountId: spec.mountId ?? 0 };
    const transfer = [];
    if (w === 0) { start.ports = channels.map((c) => c.port1); transfer.push(...start.ports); }
    else { start.peerPort = channels[w - 1].port2; transfer.push(start.peerPort); }
    workers.push({ worker, start, transfer });
  }
  spec.onIoWorkers?.(workers.map((x) => x.worker));
  return {
    /** Hands the workers the program's memory and waits until each has its mount directory. */
    async start(mem) {
      memory = mem;
      for (const { worker, start, transfer } of workers) worker.postMessage({ ...start, memory }, transfer);
      await Promise.all(ready);
    },
    config: { mailboxes, n, rr: new SharedArrayBuffer(4), polling: new SharedArrayBuffer(4),
      pollers: spec.pollers ?? Math.floor((globalThis.navigator?.hardwareConcurrency || 2) / 4) },
    dispose() {
      disposed = true;
      for (const { worker } of workers) worker.terminate();
    },
  };
}

// The caller polls its request's state for up to 0.2 ms before sleeping in Atomics.wait
// (mailbox.js submit's pollMs): a 1 MiB read is answered in ~60 us, about what a futex wake-up
// costs on a busy machine (docs/OPFS.md). At most `pollers` callers of the mount poll at once, so
// that polling does not take the cores the I/O workers need: by default a quarter of the cores
// (none on a 2-core machine, where it halved 2-thread reads).
//
// A STAT may be served by any worker (each keeps the file handles all of them found:
// opfs-handles.js): worker 0, where the namespace operations run, while it is idle (it polls its
// ring after each answer, so a thread's next stat is taken at once), else an idle other worker,
// so that stats from several threads do not queue behind one worker.
function statWorker(mailboxes) {
  for (let w = 0; w < mailboxes.n; w++) if (looksIdle(mailboxes, w)) return w;
  return 0;
}

function client(config, memory) {
  const rr = new Int32Array(config.rr);
  const options = config.pollers > 0
    ? { pollMs: 0.2, polling: new Int32Array(config.polling), pollers: config.pollers } : undefined;
  return (view, request) => {
    const w = view.getInt32(request + REQ.OP, true) === OP.STAT
      ? statWorker(config.mailboxes) : ioWorkerOf(view, request, config.n, rr);
    if (w < 0) setResult(view, request, -ERRNO.EBADF); // not a handle of this mount
    else submit(config.mailboxes, w, memory, request, options);
  };
}

export const opfsBackend = {
  /** docs/MOUNTS.md: prepare(spec, { memory, maxThreads }) -> { config, dispose } */
  async prepare(spec, ctx) {
    const p = await prepare(spec);
    try {
      await p.start(ctx.memory);
    } catch (err) {
      p.dispose();
      throw err;
    }
    return { config: p.config, dispose: p.dispose };
  },
  client,
};
