// The OPFS backend's detach broadcast (host/mount/opfs/opfs-detach.js) fails like the mailboxes do:
// a worker that answers with an error, or not within the timeout, gives EIO, never a hang; a
// worker whose ring failed is not asked; a worker answers in order. A failed unlink leaves every
// open description on the file, a done one leaves them on their copy. Runs in Node: only
// MessagePorts and stand-ins for the sync access handles are involved.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERRNO } from '../host/abi/linux.js';
import { answerPeers, detach, peersOverPorts, ready, settle } from '../host/mount/opfs/opfs-detach.js';

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

describe('OPFS detach broadcast (host/mount/opfs/opfs-detach.js)', () => {
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

  it('answers one request at a time: a settle never overtakes a slow detach', async () => {
    const log = [];
    const slow = {
      detach: async (m) => {
        await new Promise((resolve) => { setTimeout(resolve, 200); });
        log.push(`detach ${m.path}`);
      },
      settle: async (m) => { log.push(`settle ${m.path}`); },
    };
    // worker 0 gives up on the detach after 50 ms, then settles (as an unlink that failed does)
    const { broadcaster, close } = peers([slow], { timeoutMs: 50 });
    try {
      await assert.rejects(broadcaster.broadcast({ type: 'detach', kind: 'unlink', path: 'a' }));
      await broadcaster.broadcast({ type: 'settle', path: 'a', ok: false }).catch(() => {});
      await new Promise((resolve) => { setTimeout(resolve, 300); });
      assert.deepEqual(log, ['detach a', 'settle a']);
    } finally {
      close();
    }
  });
});

/** An open file description of the backend (opfs-backend.js's Open) on `bytes`, with a stand-in handle. */
function openOn(path, bytes) {
  const o = { kind: 'file', path, fh: {}, detached: null, pending: null, settled: null, moving: null };
  o.sah = {
    getSize: () => bytes.length,
    read: (into, { at }) => { into.set(bytes.subarray(at, at + into.length)); return into.length; },
    flush: () => {},
    close: () => {},
  };
  return o;
}

describe('unlinking an open OPFS file is all or nothing (host/mount/opfs/opfs-detach.js)', () => {
  const bytes = new TextEncoder().encode('kept bytes');

  for (const ok of [false, true]) {
    it(ok ? 'a done unlink: the descriptions live on in their copy' : 'a failed unlink: every description goes back to the file', async () => {
      const opens = new Map([[1, openOn('d/a', bytes)], [2, openOn('d/b', bytes)]]);
      const [a, b] = opens.values();
      await detach(opens, { kind: 'unlink', path: 'd/a' });
      assert.equal(b.pending, null, 'another file is not touched');
      assert.equal(a.sah, null);
      let served = false;
      const request = ready(a).then(() => { served = true; }); // waits until settled
      await new Promise((resolve) => { setImmediate(resolve); });
      assert.equal(served, false);
      const reattached = [];
      await settle(opens, { path: 'd/a', ok }, async (o) => { reattached.push(o.path); o.sah = {}; });
      await request;
      if (ok) {
        assert.deepEqual(reattached, []);
        assert.equal(a.path, 'd/a\0unlinked');
        assert.deepEqual(a.detached.contents(), bytes);
      } else {
        assert.deepEqual(reattached, ['d/a']);
        assert.equal(a.path, 'd/a');
        assert.equal(a.detached, null);
      }
    });
  }
});
