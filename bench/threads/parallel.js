// Do two threads run at once in each host? Runs spin_alternate.c (a compute loop on 1 thread, then
// the same work on 2, in one process) natively, in Node, Chromium and Firefox through `spindle run`,
// and a plain page of 2 Web Workers spinning in JS (no Spindle code) in both browsers, launched
// with Spindle's own flags and launcher: the page tells Spindle's fault from the browser's. Hosts
// take turns, round by round; each run waits for a quiet second first (the cores under 25% busy),
// as other sessions' load takes the second core from any host (docs/PERFORMANCE.md, "Two threads
// in Chromium"). Prints each run's 2-thread speed-up and each host's median.
// usage: node bench/threads/parallel.js [rounds=7] [passes=5] [work=200000000]
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { launchBrowser } from '../../cli/browser/browser-process.js';
import { browserLaunch } from '../../cli/browser/browsers.js';
import { serveIsolated } from '../../cli/browser/isolated-server.js';
import { clang } from '../../cli/common/toolchain.js';

const root = join(import.meta.dirname, '..', '..');
const [rounds, passes, work] = [7, 5, 200000000].map((fallback, i) => Number(process.argv[2 + i] ?? fallback));
// (work is a C long in wasm32: 32 bits)
if (!(Number.isInteger(rounds) && rounds >= 1 && Number.isInteger(passes) && passes >= 1 && passes <= 101 &&
  Number.isInteger(work) && work >= 2 && work < 2 ** 31)) {
  console.error('usage: node bench/threads/parallel.js [rounds >= 1] [passes 1-101] [work 2 to 2^31-1]');
  process.exit(2);
}
const out = join(root, 'build', 'bench', 'threads');
mkdirSync(out, { recursive: true });
const source = join(import.meta.dirname, 'spin_alternate.c');
const wasm = join(out, 'spin_alternate.wasm');
const native = join(out, 'spin_alternate.native');

function mustRun(command, args) {
  const r = spawnSync(command, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${r.stderr}`);
  return r.stdout;
}
mustRun(process.execPath, [join(root, 'bin', 'spindle'), 'cc', '-O2', source, '-o', wasm]);
mustRun(clang, ['-O2', '-pthread', source, '-o', native]);

const speedupOf = (stdout) => JSON.parse(/RESULT (\{.*\})/.exec(stdout)[1]).speedup;
const spindleRun = (...options) => () => speedupOf(mustRun(process.execPath,
  [join(root, 'bin', 'spindle'), 'run', ...options, '--wait-for-pool', wasm, String(passes), String(work)]));

// The plain page: two workers, each told how many iterations to spin; one worker does the whole
// work, then both do half, `passes` times; the page posts the medians' ratio.
const spinWorker = `onmessage = (e) => {
  let x = 1;
  for (let i = 0; i < e.data; i++) { x = (Math.imul(x, 1664525) + 1013904223) | 0; x ^= x >>> 13; }
  postMessage(x);
};`;
const plainPage = `<!doctype html><script type="module">
const workers = [0, 1].map(() => new Worker(URL.createObjectURL(new Blob([${JSON.stringify(spinWorker)}]))));
const spin = (w, n) => new Promise((done) => { w.onmessage = done; w.postMessage(n); });
const pass = async (threads, work) => {
  const start = performance.now();
  await Promise.all(workers.slice(0, threads).map((w) => spin(w, work / threads)));
  return performance.now() - start;
};
const median = (list) => list.sort((a, b) => a - b)[list.length >> 1];
await pass(2, ${work / 10});
const one = [], two = [];
for (let i = 0; i < ${passes}; i++) { one.push(await pass(1, ${work})); two.push(await pass(2, ${work})); }
await fetch('result', { method: 'POST', body: JSON.stringify(median(one) / median(two)) });
</script>`;
const plainPagePath = join(out, 'parallel-page.html');
writeFileSync(plainPagePath, plainPage);

async function plainPageRun(browserName) {
  let report;
  const reported = new Promise((resolve) => { report = resolve; });
  const server = await serveIsolated({ '/': plainPagePath }, { onPost: (_, bytes) => { report(JSON.parse(bytes)); } });
  const browser = launchBrowser(browserLaunch(browserName), { url: `${server.url}/` });
  try {
    return await Promise.race([reported, browser.exited.then((why) => { throw new Error(why ?? `${browserName} ended`); })]);
  } finally {
    await browser.stop();
    await server.close();
  }
}

/** Resolves when both cores were under 25% busy over one second (false after `maxSeconds`). */
async function quietSecond(maxSeconds = 120) {
  const sample = () => {
    const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    return { idle: ticks[3] + ticks[4], total: ticks.slice(0, 7).reduce((a, b) => a + b, 0) };
  };
  for (let waited = 0; waited < maxSeconds; waited++) {
    const before = sample();
    await sleep(1000);
    const after = sample();
    if (1 - (after.idle - before.idle) / (after.total - before.total) < 0.25) return true;
  }
  return false;
}

const hosts = {
  native: () => speedupOf(mustRun(native, [String(passes), String(work)])),
  node: spindleRun(),
  chromium: spindleRun('--browser'),
  firefox: spindleRun('--browser=firefox'),
  'plain page, chromium': () => plainPageRun('chromium'),
  'plain page, firefox': () => plainPageRun('firefox'),
};
const results = Object.fromEntries(Object.keys(hosts).map((name) => [name, []]));
const names = Object.keys(hosts);
for (let round = 0; round < rounds; round++) {
  for (let i = 0; i < names.length; i++) {
    const name = names[(round + i) % names.length]; // a different host first each round
    const quiet = await quietSecond();
    const speedup = await hosts[name]();
    results[name].push(speedup);
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
    console.log(`round ${round + 1} ${name}: x${speedup.toFixed(2)} (load ${load}${quiet ? '' : ', no quiet second came'})`);
  }
}
const median = (list) => [...list].sort((a, b) => a - b)[list.length >> 1];
for (const [name, list] of Object.entries(results)) console.log(`${name}: median x${median(list).toFixed(2)} of ${list.length}`);
