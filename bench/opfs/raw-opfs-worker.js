// A dedicated worker that measures raw OPFS (the Origin Private File System) through
// FileSystemSyncAccessHandle, with no Spindle in between: the ceilings Spindle's OPFS mount is
// compared with (bench/opfs/raw-opfs.js drives it). Also probes what this browser supports.
// Every request is { id, op, ...args } and is answered { id, result } or { id, error }.
import { median } from '../report/stats.js';

const MiB = 1 << 20;
const now = () => performance.now();

async function benchDir() {
  const root = await navigator.storage.getDirectory();
  return root.getDirectoryHandle('spindle-raw-bench', { create: true });
}

// A chunk to write: a view on a SharedArrayBuffer (as a wasm memory would be) or a plain one.
function makeChunk(size, shared) {
  const buf = shared ? new SharedArrayBuffer(size) : new ArrayBuffer(size);
  const view = new Uint8Array(buf);
  for (let i = 0; i < size; i++) view[i] = (i * 31 + 7) & 255;
  return view;
}

const ops = {
  async probe() {
    const dir = await benchDir();
    const facts = { userAgent: navigator.userAgent, crossOriginIsolated: self.crossOriginIsolated };
    const fh = await dir.getFileHandle('probe.bin', { create: true });
    const h = await fh.createSyncAccessHandle();
    try {
      // write and read straight from/to a view on shared memory
      const sab = new Uint8Array(new SharedArrayBuffer(8192));
      sab.set([1, 2, 3, 4, 5], 100);
      try {
        const n = h.write(sab.subarray(100, 105), { at: 0 });
        const back = new Uint8Array(new SharedArrayBuffer(16));
        const m = h.read(back.subarray(3, 8), { at: 0 });
        facts.sharedArrayBufferViews = n === 5 && m === 5 && back[3] === 1 && back[7] === 5;
      } catch (e) {
        facts.sharedArrayBufferViews = false;
        facts.sharedArrayBufferError = `${e.name}: ${e.message}`;
      }
      // a DataView on shared memory
      try {
        const dv = new DataView(new SharedArrayBuffer(8), 0, 4);
        facts.dataViewOnShared = h.write(dv, { at: 0 }) === 4;
      } catch (e) { facts.dataViewOnShared = `${e.name}: ${e.message}`; }
      // growing a file by writing past its end leaves a hole of zeros
      h.truncate(0);
      h.write(new Uint8Array([9]), { at: 10000 });
      const hole = new Uint8Array(4);
      h.read(hole, { at: 5000 });
      facts.writePastEndGrows = h.getSize() === 10001 && hole.every((b) => b === 0);
      // a read past the end returns 0
      facts.readPastEnd = h.read(new Uint8Array(4), { at: 20000 });
      // a second handle on the same file while this one is open
      try {
        const h2 = await fh.createSyncAccessHandle();
        h2.close();
        facts.secondExclusiveHandle = 'allowed';
      } catch (e) { facts.secondExclusiveHandle = e.name; }
      // does getFile() work while a sync handle is open?
      try { await fh.getFile(); facts.getFileWhileOpen = 'allowed'; } catch (e) { facts.getFileWhileOpen = e.name; }
      // can the file be removed while open?
      try { await dir.removeEntry('probe.bin'); facts.removeWhileOpen = 'allowed'; } catch (e) { facts.removeWhileOpen = e.name; }
      // write after close
    } finally {
      h.close();
    }
    try { h.write(new Uint8Array(1), { at: 0 }); facts.writeAfterClose = 'allowed'; } catch (e) { facts.writeAfterClose = e.name; }
    // readwrite-unsafe: several handles on one file at once
    {
      const f = await dir.getFileHandle('unsafe.bin', { create: true });
      try {
        const a = await f.createSyncAccessHandle({ mode: 'readwrite-unsafe' });
        const b = await f.createSyncAccessHandle({ mode: 'readwrite-unsafe' });
        a.write(new Uint8Array([42]), { at: 0 });
        const got = new Uint8Array(1);
        b.read(got, { at: 0 });
        facts.readwriteUnsafe = got[0] === 42 ? 'two handles, each sees the other\'s writes' : 'two handles, not coherent';
        try {
          const c = await f.createSyncAccessHandle();
          c.close();
          facts.exclusiveBesideUnsafe = 'allowed';
        } catch (e) { facts.exclusiveBesideUnsafe = e.name; }
        try {
          const w = await f.createWritable();
          await w.close();
          facts.writableBesideUnsafe = 'allowed';
        } catch (e) { facts.writableBesideUnsafe = e.name; }
        a.close(); b.close();
        const ro = await f.createSyncAccessHandle({ mode: 'read-only' });
        try { ro.write(new Uint8Array(1), { at: 0 }); facts.readOnlyWrite = 'allowed'; } catch (e) { facts.readOnlyWrite = e.name; }
        const ro2 = await f.createSyncAccessHandle({ mode: 'read-only' });
        facts.readOnlyMode = 'two read-only handles at once';
        ro.close(); ro2.close();
      } catch (e) { facts.readwriteUnsafe = `${e.name}: ${e.message}`; }
    }
    // move(): rename in place and into another directory
    {
      const f = await dir.getFileHandle('move-a.bin', { create: true });
      facts.moveExists = typeof f.move === 'function';
      if (facts.moveExists) {
        try {
          await f.move('move-b.bin');
          const sub = await dir.getDirectoryHandle('sub', { create: true });
          await f.move(sub, 'move-c.bin');
          await sub.getFileHandle('move-c.bin');
          facts.moveFile = 'rename and move between directories work';
          // onto an existing file?
          await dir.getFileHandle('move-d.bin', { create: true });
          try { await f.move(dir, 'move-d.bin'); facts.moveOntoExisting = 'replaces'; } catch (e) { facts.moveOntoExisting = e.name; }
          // while a sync handle is open?
          const h3 = await f.createSyncAccessHandle();
          try { await f.move(dir, 'move-e.bin'); facts.moveWhileOpen = 'allowed'; } catch (e) { facts.moveWhileOpen = e.name; }
          h3.close();
        } catch (e) { facts.moveFile = `${e.name}: ${e.message}`; }
        try {
          const d = await dir.getDirectoryHandle('mvdir', { create: true });
          await d.getFileHandle('inner', { create: true });
          await d.move(dir, 'mvdir2');
          await (await dir.getDirectoryHandle('mvdir2')).getFileHandle('inner');
          facts.moveDirectory = 'works (contents go along)';
        } catch (e) { facts.moveDirectory = `${e.name}: ${e.message}`; }
      }
    }
    // remove() on a handle, removeEntry of a non-empty directory, errors
    {
      facts.handleRemoveExists = typeof fh.remove === 'function';
      const d = await dir.getDirectoryHandle('full', { create: true });
      await d.getFileHandle('x', { create: true });
      try { await dir.removeEntry('full'); facts.removeNonEmpty = 'allowed'; } catch (e) { facts.removeNonEmpty = e.name; }
      try { await dir.getFileHandle('full'); } catch (e) { facts.fileHandleOnDirectory = e.name; }
      try { await dir.getDirectoryHandle('unsafe.bin'); } catch (e) { facts.directoryHandleOnFile = e.name; }
      try { await dir.getFileHandle('nope'); } catch (e) { facts.missing = e.name; }
      try { await dir.getFileHandle('a/b', { create: true }); } catch (e) { facts.slashInName = e.name; }
      try { await dir.getFileHandle('..', { create: true }); } catch (e) { facts.dotDotName = e.name; }
      try { await dir.getFileHandle('x'.repeat(300), { create: true }); facts.longName = 'allowed'; } catch (e) { facts.longName = e.name; }
      const big = 'y'.repeat(255);
      try { await dir.getFileHandle(big, { create: true }); facts.name255 = 'allowed'; await dir.removeEntry(big); } catch (e) { facts.name255 = e.name; }
      try { await dir.removeEntry('full', { recursive: true }); facts.removeRecursive = 'allowed'; } catch (e) { facts.removeRecursive = e.name; }
    }
    try {
      const est = await navigator.storage.estimate();
      facts.quota = est.quota; facts.usage = est.usage;
      facts.persisted = await navigator.storage.persisted();
    } catch (e) { facts.estimate = e.name; }
    await clean();
    return facts;
  },

  // Median costs in microseconds of the small operations the mount is made of.
  async costs({ reps = 200 } = {}) {
    const dir = await benchDir();
    const fh = await dir.getFileHandle('costs.bin', { create: true });
    const t = { open: [], close: [], write4k: [], read4k: [], flushAfter4k: [], getSize: [], getFileHandle: [], truncate: [], openUnsafe: [] };
    for (let i = 0; i < reps; i++) {
      let s = now(); const h = await fh.createSyncAccessHandle(); t.open.push(now() - s);
      s = now(); h.close(); t.close.push(now() - s);
      s = now(); const u = await fh.createSyncAccessHandle({ mode: 'readwrite-unsafe' }); t.openUnsafe.push(now() - s);
      u.close();
      s = now(); await dir.getFileHandle('costs.bin'); t.getFileHandle.push(now() - s);
    }
    const h = await fh.createSyncAccessHandle();
    const chunk = makeChunk(4096, true);
    for (let i = 0; i < reps * 5; i++) {
      let s = now(); h.write(chunk, { at: (i % 256) * 4096 }); t.write4k.push(now() - s);
      s = now(); h.read(chunk, { at: (i % 256) * 4096 }); t.read4k.push(now() - s);
      s = now(); h.getSize(); t.getSize.push(now() - s);
    }
    for (let i = 0; i < Math.min(reps, 100); i++) {
      h.write(chunk, { at: i * 4096 });
      const s = now(); h.flush(); t.flushAfter4k.push(now() - s);
    }
    for (let i = 0; i < reps; i++) { const s = now(); h.truncate(4096 * (i % 7)); t.truncate.push(now() - s); }
    // appending 4 KiB at a time (the file grows: capacity is asked of the browser process)
    h.truncate(0);
    t.append4k = [];
    for (let i = 0; i < reps * 5; i++) { const s = now(); h.write(chunk, { at: i * 4096 }); t.append4k.push(now() - s); }
    t.write1m = []; t.read1m = [];
    const big = makeChunk(MiB, true);
    for (let i = 0; i < 20; i++) {
      let s = now(); h.write(big, { at: (i % 4) * MiB }); t.write1m.push(now() - s);
      s = now(); h.read(big, { at: (i % 4) * MiB }); t.read1m.push(now() - s);
    }
    h.close();
    await clean();
    const us = {};
    for (const [k, v] of Object.entries(t)) us[k] = Math.round(median(v) * 1000 * 10) / 10;
    us.timerResolutionUs = timerResolution();
    return us;
  },

  // Sequential write then read of `mib` MiB in `chunk`-byte calls; MB/s (MiB/s).
  async sequential({ mib = 64, chunk = 4096, shared = true, name = 'seq.bin', readPasses = 4 } = {}) {
    const dir = await benchDir();
    const fh = await dir.getFileHandle(name, { create: true });
    const h = await fh.createSyncAccessHandle();
    h.truncate(0); h.flush();
    const buf = makeChunk(chunk, shared);
    const total = mib * MiB;
    let s = now();
    for (let at = 0; at < total; at += chunk) h.write(buf, { at });
    h.flush();
    const writeMs = now() - s;
    s = now();
    let sum = 0;
    for (let p = 0; p < readPasses; p++) for (let at = 0; at < total; at += chunk) sum += h.read(buf, { at });
    const readMs = now() - s;
    h.close();
    if (sum !== total * readPasses) throw new Error(`read ${sum} of ${total * readPasses} bytes`);
    return { writeMiBps: (mib / writeMs) * 1000, readMiBps: ((mib * readPasses) / readMs) * 1000, writeMs, readMs };
  },

  // Writes a file for `read`.
  async prepare({ name, mib }) {
    const dir = await benchDir();
    const h = await (await dir.getFileHandle(name, { create: true })).createSyncAccessHandle();
    const buf = makeChunk(MiB, true);
    h.truncate(0);
    for (let i = 0; i < mib; i++) h.write(buf, { at: i * MiB });
    h.flush(); h.close();
    return { bytes: mib * MiB };
  },

  // Reads a whole file in `chunk`-byte calls; started at `startAt` (performance.timeOrigin + now),
  // so that two workers begin together.
  async read({ name, chunk = MiB, startAt, passes = 1 }) {
    const dir = await benchDir();
    const h = await (await dir.getFileHandle(name)).createSyncAccessHandle();
    const buf = makeChunk(chunk, true);
    const size = h.getSize();
    if (startAt) while (performance.timeOrigin + now() < startAt) { /* spin to the common start */ }
    const s = now();
    let sum = 0;
    for (let p = 0; p < passes; p++) for (let at = 0; at < size; at += chunk) sum += h.read(buf, { at });
    const ms = now() - s;
    h.close();
    return { bytes: sum, ms, start: performance.timeOrigin + s, end: performance.timeOrigin + s + ms };
  },

  // Creates `count` files of `size` bytes each: getFileHandle(create) + createSyncAccessHandle +
  // write + close (and flush when asked); files per second.
  async smallFiles({ count = 1000, size = 1024, flush = false } = {}) {
    const root = await benchDir();
    const dir = await root.getDirectoryHandle('small', { create: true });
    const buf = makeChunk(size, true);
    const s = now();
    for (let i = 0; i < count; i++) {
      const h = await (await dir.getFileHandle(`f${i}`, { create: true })).createSyncAccessHandle();
      h.write(buf, { at: 0 });
      if (flush) h.flush();
      h.close();
    }
    const ms = now() - s;
    await root.removeEntry('small', { recursive: true });
    return { filesPerSecond: (count / ms) * 1000, ms };
  },

  async clean() { await clean(); return true; },
};

function timerResolution() {
  let min = Infinity;
  for (let i = 0; i < 100; i++) {
    const a = now(); let b = now();
    while (b === a) b = now();
    min = Math.min(min, b - a);
  }
  return Math.round(min * 1000 * 10) / 10;
}

async function clean() {
  const root = await navigator.storage.getDirectory();
  try { await root.removeEntry('spindle-raw-bench', { recursive: true }); } catch { /* none */ }
}

self.onmessage = async (e) => {
  const { id, op, args } = e.data;
  try {
    self.postMessage({ id, result: await ops[op](args) });
  } catch (err) {
    self.postMessage({ id, error: `${err.name}: ${err.message}\n${err.stack}` });
  }
};
self.postMessage({ ready: true });
