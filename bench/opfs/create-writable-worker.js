// A dedicated worker that compares two ways of writing a new small file on raw OPFS (no Spindle):
// a sync access handle (getFileHandle(create), createSyncAccessHandle, 1 KiB write, flush,
// close) against the handle-free createWritable() stream (getFileHandle(create), createWritable,
// 1 KiB write, close), each one file after another and `concurrency` files at a time
// (Promise.all). The ways take turns in rounds of `round` files (the order rotates each round),
// so load swings touch them alike. Driven by bench/opfs/create-cost.js --mode=writable; answers
// per way the median over rounds of ms per file.
import { median } from '../report/stats.js';

const data = new Uint8Array(1024).fill(7);

async function withSyncHandle(dir, name) {
  const h = await (await dir.getFileHandle(name, { create: true })).createSyncAccessHandle();
  h.write(data, { at: 0 });
  h.flush();
  h.close();
}

async function withWritable(dir, name) {
  const w = await (await dir.getFileHandle(name, { create: true })).createWritable();
  await w.write(data);
  await w.close(); // the bytes replace the file's here
}

const ways = (concurrency) => ({
  sah_sequential: { write: withSyncHandle, batch: 1 },
  writable_sequential: { write: withWritable, batch: 1 },
  [`sah_${concurrency}_at_once`]: { write: withSyncHandle, batch: concurrency },
  [`writable_${concurrency}_at_once`]: { write: withWritable, batch: concurrency },
});

// ms per file for `count` files written `batch` at a time
async function timeRound(dir, prefix, count, { write, batch }) {
  const t = performance.now();
  for (let i = 0; i < count; i += batch) {
    await Promise.all(Array.from({ length: Math.min(batch, count - i) }, (_, k) => write(dir, `${prefix}${i + k}`)));
  }
  return (performance.now() - t) / count;
}

self.onmessage = async (e) => {
  const { files, round = 25, concurrency = 8 } = e.data;
  try {
    const root = await navigator.storage.getDirectory();
    const dir = await root.getDirectoryHandle(`create-writable-${Date.now()}`, { create: true });
    const entries = Object.entries(ways(concurrency));
    const perFile = Object.fromEntries(entries.map(([name]) => [name, []]));
    const rounds = Math.max(1, Math.round(files / round));
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < entries.length; k++) {
        const [name, way] = entries[(r + k) % entries.length];
        self.postMessage({ step: `round ${r} of ${rounds}, ${name}` });
        perFile[name].push(await timeRound(dir, `${name}-${r}-`, round, way));
      }
    }
    // a written file reads back with its bytes, either way
    for (const [name] of entries) {
      const size = (await (await dir.getFileHandle(`${name}-0-0`)).getFile()).size;
      if (size !== data.length) throw new Error(`${name}: file has ${size} bytes, wrote ${data.length}`);
    }
    await root.removeEntry(dir.name, { recursive: true });
    const result = { files: rounds * round, round, concurrency };
    for (const [name, ms] of Object.entries(perFile)) result[name] = { medianMsPerFile: median(ms), rounds: ms };
    self.postMessage({ result });
  } catch (err) {
    self.postMessage({ error: `${err.name}: ${err.message}` });
  }
};
