// The `opfs` mount backend (docs/OPFS.md): `--mount /PATH=opfs[:SUBDIR]`, or
// `mounts: [{ path, opfs: 'SUBDIR' }]` in the host API, in a browser. prepare() starts the I/O
// workers (host/mount/opfs-worker.js) on the coordinator; client() runs in each thread worker
// and sends each request to the I/O worker that must serve it (docs/MOUNTS.md section 3).
import { createMailboxes, failWorker, submit } from './mailbox.js';
import { GENERATION_SLOTS } from './opfs-backend.js';

const OPEN = 1;
const HANDLE_OPS = new Set([2, 3, 4, 5, 6, 7, 8, 17]); // CLOSE PREAD PWRITE FSTAT FTRUNCATE FSYNC READDIR FUTIMENS

/** How many I/O workers a mount gets: files spread over them, so two files can be read at once. */
function workerCount(spec) {
  if (spec.workers) return Math.max(1, Math.min(255, spec.workers | 0));
  const cores = globalThis.navigator?.hardwareConcurrency || 2;
  return Math.max(2, Math.min(4, cores));
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
  const generations = new SharedArrayBuffer((GENERATION_SLOTS + 1) * 4); // inode generations, epoch (opfs-backend.js)
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
    const start = { type: 'start', w, mailboxes, subdir, generations };
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
function client(config, memory) {
  const rr = new Int32Array(config.rr);
  const options = config.pollers > 0
    ? { pollMs: 0.2, polling: new Int32Array(config.polling), pollers: config.pollers } : undefined;
  return (view, request) => {
    const op = view.getInt32(request + 4, true);
    let w = 0;
    if (op === OPEN) w = Atomics.add(rr, 0, 1) % config.n;
    else if (HANDLE_OPS.has(op)) w = Number(view.getBigUint64(request + 24, true) & 0xffn);
    if (w >= config.n) {
      view.setBigInt64(request + 16, -9n, true); // EBADF: not a handle of this mount
      return;
    }
    submit(config.mailboxes, w, memory, request, options);
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
