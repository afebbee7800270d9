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
  const peers = ports
    ? peersOverPorts(ports, { timeoutMs: tunables.detachTimeoutMs, alive: (peer) => ringAlive(mailboxes, peer),
      onKnown: ({ path, fh, ino }) => backend.handles.set(path, fh, ino) })
    : null;
  // the other workers hand worker 0 the file handles they find (opfs-handles.js); a browser that
  // cannot send one leaves worker 0 to look the file up itself
  const tellWorker0 = (path, fh, ino) => {
    try { peerPort?.postMessage({ type: 'known', path, fh, ino }); } catch { /* not sendable */ }
  };
  // a request on a file another worker holds goes to that worker's ring (opfs-owners.js)
  const forward = (request, holder) => { enqueue(mailboxes, holder, memory, request); };
  backend = new OpfsBackend({ root: mountRoot(subdir), w, memory, peers, generations, owners, forward, tellWorker0,
    debug: tunables.debug, mountId });
  if (peerPort) answerPeers(peerPort, backend);
  backend.root.then(() => self.postMessage({ type: 'ready', w }),
    (err) => self.postMessage({ type: 'failed', w, message: `OPFS mount root: ${err.name}: ${err.message}` }));
  serve(mailboxes, w, memory, (view, request) => backend.handle(view, request), { pollMs: tunables.spinMs, waitAsync: true })
    .catch((err) => self.postMessage({ type: 'died', w, message: `serving its mailbox: ${err?.stack || err}` }));
};
