// A dedicated worker that times each step of creating small files on raw OPFS (no Spindle):
// getFileHandle(create), createSyncAccessHandle, a 1 KiB write, flush, close, then getFile and
// removeEntry of the same files; the whole file with the previous handle's close overlapping the
// next getFileHandle, and 8 files at a time. Driven by bench/opfs/create-cost.js; answers per step the
// median and the total in ms.
import { median } from '../report/stats.js';

self.onmessage = async (e) => {
  const { files } = e.data;
  try {
    const root = await navigator.storage.getDirectory();
    const name = `create-cost-${Date.now()}`;
    const dir = await root.getDirectoryHandle(name, { create: true });
    const data = new Uint8Array(1024).fill(7);
    const steps = {};
    const time = async (step, fn) => {
      const t = performance.now();
      const r = await fn();
      (steps[step] ??= []).push(performance.now() - t);
      return r;
    };
    const start = performance.now();
    for (let i = 0; i < files; i++) {
      const fh = await time('getFileHandle_create', () => dir.getFileHandle(`f${i}`, { create: true }));
      const h = await time('createSyncAccessHandle', () => fh.createSyncAccessHandle());
      await time('write_1k', () => h.write(data, { at: 0 }));
      await time('flush', () => h.flush());
      await time('close', () => h.close());
    }
    const createAll = performance.now() - start;
    // the previous file's handle closed while the next file's getFileHandle is in flight (close
    // is synchronous: it can only overlap work the browser does elsewhere)
    let t = performance.now();
    let previous = null;
    for (let i = 0; i <= files; i++) {
      const next = i < files ? dir.getFileHandle(`o${i}`, { create: true }) : null;
      previous?.close();
      if (!next) break;
      previous = await (await next).createSyncAccessHandle();
      previous.write(data, { at: 0 });
      previous.flush();
    }
    const overlappedClose = performance.now() - t;
    // files created 8 at a time (Promise.all): does the browser serve handle opens concurrently?
    t = performance.now();
    for (let i = 0; i < files; i += 8) {
      await Promise.all(Array.from({ length: Math.min(8, files - i) }, async (_, k) => {
        const h = await (await dir.getFileHandle(`p${i + k}`, { create: true })).createSyncAccessHandle();
        h.write(data, { at: 0 });
        h.flush();
        h.close();
      }));
    }
    const eightAtATime = performance.now() - t;
    // the same bytes through createWritable() (a stream that replaces the file at close)
    for (let i = 0; i < files; i++) {
      const fh = await time('getFileHandle_create_w', () => dir.getFileHandle(`w${i}`, { create: true }));
      const w = await time('createWritable', () => fh.createWritable());
      await time('writable_write_1k', () => w.write(data));
      await time('writable_close', () => w.close());
    }
    // a handle kept open: a second open of an open file costs nothing, a reopen does
    for (let i = 0; i < Math.min(files, 50); i++) {
      const fh = await dir.getFileHandle(`f${i}`);
      const h = await time('reopen_sah', () => fh.createSyncAccessHandle());
      await time('reclose_sah', () => h.close());
    }
    for (let i = 0; i < files; i++) {
      const fh = await time('getFileHandle_existing', () => dir.getFileHandle(`f${i}`));
      await time('getFile', () => fh.getFile());
    }
    for (let i = 0; i < files; i++) await time('removeEntry', () => dir.removeEntry(`f${i}`));
    for (let i = 0; i < files; i++) await dir.removeEntry(`w${i}`);
    await root.removeEntry(name, { recursive: true });
    const result = { files, createAllMs: createAll, perFileMs: createAll / files,
      overlappedClosePerFileMs: overlappedClose / files, eightAtATimePerFileMs: eightAtATime / files };
    for (const [step, ms] of Object.entries(steps)) result[step] = { medianMs: median(ms), totalMs: ms.reduce((a, b) => a + b, 0) };
    self.postMessage({ result });
  } catch (err) {
    self.postMessage({ error: `${err.name}: ${err.message}` });
  }
};
