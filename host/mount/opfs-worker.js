// An OPFS I/O worker (docs/OPFS.md): a dedicated worker that holds the sync access handles of the
// files opened on it and serves its mailbox (host/mount/mailbox.js) one request at a time. It
// never runs wasm. Worker 0 also runs the namespace operations and, through MessagePorts to the
// other workers, asks them to let go of a file that is being removed or renamed. If its serve
// loop fails, its ring answers EIO (mailbox.js) and it tells the coordinator ('died').
import { OpfsBackend, mountRoot } from './opfs-backend.js';
import { serve } from './mailbox.js';

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
  // after each answer, poll the ring for SPIN_MS before going back to Atomics.waitAsync: a thread
  // reading a file sequentially sends its next request a few microseconds after the answer, and
  // a waitAsync wake-up goes through this worker's event loop (tens of microseconds per request,
  // measured: 1 MiB reads at 0.5-0.65x raw without the poll; docs/OPFS.md)
  serve(mailboxes, w, memory, (view, request) => backend.handle(view, request), { pollMs: SPIN_MS, waitAsync: true })
    .catch((err) => self.postMessage({ type: 'died', w, message: `serving its mailbox: ${err?.stack || err}` }));
};

const SPIN_MS = Number(globalThis.SPINDLE_OPFS_SPIN_MS ?? 0.2);
