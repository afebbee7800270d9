// An OPFS I/O worker (docs/OPFS.md): a dedicated worker that holds the sync access handles of the
// files opened on it and serves its mailbox (host/mount/mailbox.js) one request at a time; a
// request on a file another worker holds it passes on to that worker's ring. It never runs wasm. Worker 0 also runs the namespace operations and, through MessagePorts to the
// other workers, asks them to let go of a file that is being removed or renamed
// (opfs-detach.js). If its serve loop fails, its ring answers EIO (mailbox.js) and it tells the
// coordinator ('died'). Its tunables come in the start message (opfs.js).
import { OpfsBackend, mountRoot } from './opfs-backend.js';
import { answerPeers, peersOverPorts } from './opfs-detach.js';
import { enqueue, ringAlive, serve } from '../mailbox.js';

self.onmessage = (e) => {
  const { type, w, memory, mailboxes, subdir, ports, peerPort, generations, owners, tunables, mountId } = e.data;
  if (type !== 'start') return;
  // worker 0: a port to each other worker
  let backend = null;
  const known = (msg) => backend.handles.set(msg.path, msg.fh, msg.ino);
  // The file handles a worker finds go to every other worker (opfs-handles.js): to worker 0,
  // which passes them on. A browser that cannot send one leaves the others to look it up.
  const tell = (port, msg) => {
    try { port.postMessage(msg); } catch { /* not sendable */ }
  };
  const peers = ports
    ? peersOverPorts(ports, { timeoutMs: tunables.detachTimeoutMs, alive: (peer) => ringAlive(mailboxes, peer),
      onKnown: (msg, from) => {
        known(msg);
        ports.forEach((port, i) => { if (i + 1 !== from) tell(port, msg); });
      } })
    : null;
  const share = (path, fh, ino) => {
    const msg = { type: 'known', path, fh, ino };
    for (const port of ports ?? [peerPort]) tell(port, msg);
  };
  // a request on a file another worker holds goes to that worker's ring (opfs-owners.js)
  const forward = (request, holder) => { enqueue(mailboxes, holder, memory, request); };
  backend = new OpfsBackend({ root: mountRoot(subdir), w, memory, peers, generations, owners, forward, share,
    debug: tunables.debug, mountId });
  if (peerPort) answerPeers(peerPort, backend, known);
  backend.root.then(() => self.postMessage({ type: 'ready', w }),
    (err) => self.postMessage({ type: 'failed', w, message: `OPFS mount root: ${err.name}: ${err.message}` }));
  serve(mailboxes, w, memory, (view, request) => backend.handle(view, request), { pollMs: tunables.spinMs, waitAsync: true })
    .catch((err) => self.postMessage({ type: 'died', w, message: `serving its mailbox: ${err?.stack || err}` }));
};
