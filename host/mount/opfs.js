// The `opfs` mount backend (docs/OPFS.md): `--mount /PATH=opfs[:SUBDIR]`, or
// `mounts: [{ path, opfs: 'SUBDIR' }]` in the host API, in a browser. prepare() starts the I/O
// workers (host/mount/opfs-worker.js) on the coordinator; client() runs in each thread worker
// and sends each request to the I/O worker that must serve it (docs/MOUNTS.md section 3).
import { createMailboxes, SLOTS, submit } from './mailbox.js';
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
  for (let w = 0; w < n; w++) {
    const worker = new Worker(new URL('./opfs-worker.js', import.meta.url), { type: 'module', name: `spindle-opfs-${w}` });
    ready.push(new Promise((resolve, reject) => {
      worker.onmessage = (e) => {
        if (e.data.type === 'ready') resolve();
        else if (e.data.type === 'failed') reject(new Error(`mount ${spec.path}: ${e.data.message}`));
      };
      worker.onerror = (e) => reject(new Error(`mount ${spec.path}: OPFS I/O worker failed: ${e.message}`));
    }));
    const start = { type: 'start', w, mailboxes, subdir, generations };
    const transfer = [];
    if (w === 0) { start.ports = channels.map((c) => c.port1); transfer.push(...start.ports); }
    else { start.peerPort = channels[w - 1].port2; transfer.push(start.peerPort); }
    workers.push({ worker, start, transfer });
  }
  return {
    /** Hands the workers the program's memory and waits until each has its mount directory. */
    async start(memory) {
      for (const { worker, start, transfer } of workers) worker.postMessage({ ...start, memory }, transfer);
      await Promise.all(ready);
    },
    config: { mailboxes, n, rr: new SharedArrayBuffer(4), polling: new SharedArrayBuffer(4),
      pollers: spec.pollers ?? Math.floor((globalThis.navigator?.hardwareConcurrency || 2) / 4) },
    dispose() { for (const { worker } of workers) worker.terminate(); },
  };
}

function client(config, memory) {
  const rr = new Int32Array(config.rr);
  return (view, request) => {
    const op = view.getInt32(request + 4, true);
    let w = 0;
    if (op === OPEN) w = Atomics.add(rr, 0, 1) % config.n;
    else if (HANDLE_OPS.has(op)) w = Number(view.getBigUint64(request + 24, true) & 0xffn);
    if (w >= config.n) {
      view.setBigInt64(request + 16, -9n, true); // EBADF: not a handle of this mount
      return;
    }
    if (config.pollers > 0) submitPolling(config, w, memory, request);
    else submit(config.mailboxes, w, memory, request);
  };
}

// host/mount/mailbox.js's submit() (same ring), except that the caller polls its request's state
// for up to 0.2 ms before sleeping in Atomics.wait: a 1 MiB read is answered in ~60 us, about
// what a futex wake-up costs on a busy machine (docs/OPFS.md). At most `pollers` callers of the
// mount poll at once, so that polling does not take the cores the I/O workers need: by default a
// quarter of the cores (none on a 2-core machine, where it halved 2-thread reads).
function submitPolling(config, w, memory, request) {
  const { mailboxes } = config;
  const slots = new Int32Array(mailboxes.sab, w * SLOTS * 4, SLOTS);
  const i = Atomics.add(new Int32Array(mailboxes.counters), w, 1) & (SLOTS - 1);
  Atomics.store(slots, i, request);
  Atomics.notify(slots, i, 1);
  const mem = new Int32Array(memory.buffer);
  const at = request >>> 2;
  if (Atomics.load(mem, at) === 0) {
    const polling = new Int32Array(config.polling);
    if (Atomics.add(polling, 0, 1) < config.pollers) {
      const until = performance.now() + 0.2;
      while (Atomics.load(mem, at) === 0 && performance.now() < until) { /* poll */ }
    }
    Atomics.sub(polling, 0, 1);
  }
  while (Atomics.load(mem, at) === 0) Atomics.wait(mem, at, 0);
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
