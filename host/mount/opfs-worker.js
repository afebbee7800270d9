// An OPFS I/O worker (docs/OPFS.md): a dedicated worker that holds the sync access handles of the
// files opened on it and serves its mailbox (host/mount/mailbox.js) one request at a time. It
// never runs wasm. Worker 0 also runs the namespace operations and, through MessagePorts to the
// other workers, asks them to let go of a file that is being removed or renamed.
import { OpfsBackend, mountRoot } from './opfs-backend.js';
import { SLOTS } from './mailbox.js';

self.onmessage = (e) => {
  const { type, w, memory, mailboxes, subdir, ports, peerPort, generations } = e.data;
  if (type !== 'start') return;
  let peers = null;
  if (ports) {
    // worker 0: a port to each other worker; broadcast waits for every worker's answer
    let next = 1;
    const waiting = new Map();
    for (const port of ports) {
      port.onmessage = (m) => { waiting.get(m.data.id)?.(); waiting.delete(m.data.id); };
    }
    peers = {
      broadcast: (msg) => Promise.all(ports.map((port) => new Promise((resolve) => {
        const id = next++;
        waiting.set(id, resolve);
        port.postMessage({ ...msg, id });
      }))),
    };
  }
  const backend = new OpfsBackend({ root: mountRoot(subdir), w, memory, peers, generations });
  if (peerPort) {
    // another worker: detach/settle on worker 0's request, then say so
    peerPort.onmessage = async (m) => {
      if (m.data.type === 'detach') await backend.detach(m.data);
      else if (m.data.type === 'settle') await backend.settle(m.data);
      peerPort.postMessage({ id: m.data.id });
    };
  }
  backend.root.then(() => self.postMessage({ type: 'ready', w }),
    (err) => self.postMessage({ type: 'failed', w, message: `OPFS mount root: ${err.name}: ${err.message}` }));
  serveSpinning(mailboxes, w, memory, (view, request) => backend.handle(view, request));
};

// host/mount/mailbox.js's serve() (same ring, same order, same answer), except that after each
// request it polls the ring for a short while before going back to Atomics.waitAsync: a thread
// reading a file sequentially sends its next request a few microseconds after the answer, and a
// waitAsync wake-up goes through this worker's event loop (tens of microseconds per request,
// measured: 1 MiB reads at 0.5-0.65x raw without the poll).
const SPIN_MS = Number(globalThis.SPINDLE_OPFS_SPIN_MS ?? 0.2);
async function serveSpinning(mailboxes, w, memory, handle) {
  const slots = new Int32Array(mailboxes.sab, w * SLOTS * 4, SLOTS);
  let head = 0;
  for (;;) {
    let request = Atomics.load(slots, head);
    if (request === 0) {
      const until = performance.now() + SPIN_MS;
      while ((request = Atomics.load(slots, head)) === 0 && performance.now() < until) { /* poll */ }
    }
    while (request === 0) {
      const r = Atomics.waitAsync(slots, head, 0);
      if (r.async) await r.value;
      request = Atomics.load(slots, head);
    }
    Atomics.store(slots, head, 0);
    head = (head + 1) & (SLOTS - 1);
    try {
      await handle(new DataView(memory.buffer), request);
    } catch {
      new DataView(memory.buffer).setBigInt64(request + 16, -5n, true); // EIO
    }
    const mem = new Int32Array(memory.buffer);
    Atomics.store(mem, request >>> 2, 1);
    Atomics.notify(mem, request >>> 2);
  }
}
