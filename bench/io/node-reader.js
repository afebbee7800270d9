// A worker_threads reader for bench/io/hostdir.js: opens its file, waits at the shared start line
// with the other readers, then reads the whole file `passes` times in 1 MiB `readSync` calls
// (pread: explicit positions). Posts { bytes, start, end } (ms, performance.timeOrigin-based).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const { path, passes, chunk, line } = workerData; // line: Int32Array on a SharedArrayBuffer [ready, go]
const buf = Buffer.alloc(chunk);
const fd = openSync(path, 'r');
const size = fstatSync(fd).size;
Atomics.add(line, 0, 1);
Atomics.notify(line, 0);
Atomics.wait(line, 1, 0);
const start = performance.timeOrigin + performance.now();
let bytes = 0;
for (let p = 0; p < passes; p++) {
  for (let at = 0; at < size;) {
    const n = readSync(fd, buf, 0, chunk, at);
    if (n <= 0) break;
    at += n;
    bytes += n;
  }
}
const end = performance.timeOrigin + performance.now();
closeSync(fd);
parentPort.postMessage({ bytes, start, end });
