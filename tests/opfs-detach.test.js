// The OPFS backend's detach broadcast (host/mount/opfs-detach.js) fails like the mailboxes do:
// a worker that answers with an error, or not within the timeout, gives EIO, never a hang; a
// worker whose ring failed is not asked. Runs in Node: only MessagePorts are involved.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERRNO } from '../host/abi/linux.js';
import { answerPeers, peersOverPorts } from '../host/mount/opfs-detach.js';

// Worker 0's ports to n peers, each peer served by `backend` (or left silent when null).
function peers(backends, options) {
  const channels = backends.map(() => new MessageChannel());
  channels.forEach((c, i) => { if (backends[i]) answerPeers(c.port2, backends[i]); });
  const broadcaster = peersOverPorts(channels.map((c) => c.port1), options);
  const close = () => channels.forEach((c) => { c.port1.close(); c.port2.close(); });
  return { broadcaster, close };
}

const recording = (log, w) => ({
  detach: async (m) => { log.push(`${w} detach ${m.path}`); },
  settle: async (m) => { log.push(`${w} settle ${m.path}`); },
});

describe('OPFS detach broadcast (host/mount/opfs-detach.js)', () => {
  it('resolves once every live worker has done it', async () => {
    const log = [];
    const { broadcaster, close } = peers([recording(log, 1), recording(log, 2)], { timeoutMs: 5000 });
    try {
      await broadcaster.broadcast({ type: 'detach', kind: 'unlink', path: 'a' });
      await broadcaster.broadcast({ type: 'settle', path: 'a', ok: true });
      assert.deepEqual(log.sort(), ['1 detach a', '1 settle a', '2 detach a', '2 settle a']);
    } finally {
      close();
    }
  });

  it('a silent worker gives EIO after the timeout', async () => {
    const log = [];
    const { broadcaster, close } = peers([recording(log, 1), null], { timeoutMs: 100 });
    try {
      const started = Date.now();
      await assert.rejects(broadcaster.broadcast({ type: 'detach', kind: 'unlink', path: 'a' }),
        (err) => err.code === ERRNO.EIO && /worker 2 did not answer 'detach' within 100 ms/.test(err.message));
      assert.ok(Date.now() - started < 5000);
    } finally {
      close();
    }
  });

  it('a worker that fails to detach gives EIO with its reason', async () => {
    const failing = { detach: async () => { throw new Error('handle busy'); }, settle: async () => {} };
    const { broadcaster, close } = peers([failing], { timeoutMs: 5000 });
    try {
      await assert.rejects(broadcaster.broadcast({ type: 'detach', kind: 'unlink', path: 'a' }),
        (err) => err.code === ERRNO.EIO && /worker 1 failed 'detach': handle busy/.test(err.message));
    } finally {
      close();
    }
  });

  it('a worker whose ring failed is not asked', async () => {
    const log = [];
    const { broadcaster, close } = peers([null, recording(log, 2)], { timeoutMs: 100, alive: (w) => w !== 1 });
    try {
      await broadcaster.broadcast({ type: 'detach', kind: 'unlink', path: 'a' });
      assert.deepEqual(log, ['2 detach a']);
    } finally {
      close();
    }
  });
});
