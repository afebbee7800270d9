// The page of a napi-rs addon run in a browser (run.js opens it): as napi-rs's generated
// `<name>.wasi-browser.js` does, the page's main thread owns the memfs volume of
// @napi-rs/wasm-runtime and answers the file calls that workers proxy to it (createOnMessage).
// Unlike that loader, the addon itself runs in a dedicated worker (addon-worker.mjs): its calls
// wait for rayon's threads, and a page's main thread may not wait. Its thread workers reach the
// volume through a MessagePort each (thread-worker.mjs says why). run.json says what to run;
// what the worker reports, with how many of the files it wrote are on the volume, becomes
// window.spindleResult (tests/lib/page-result.js reads it).
import { createOnMessage } from '@napi-rs/wasm-runtime';
import { memfs } from '@napi-rs/wasm-runtime/fs';

const report = (outcome) => { window.spindleResult ??= { crossOriginIsolated, ...outcome }; };
addEventListener('error', (e) => report({ error: String(e.error?.stack ?? e.message) }));
addEventListener('unhandledrejection', (e) => report({ error: String(e.reason?.stack ?? e.reason) }));

const { fs } = memfs();
for (const dir of ['/tmp', '/data']) fs.mkdirSync(dir);
const run = await (await fetch('run.json')).json();
// How many of the files the addon wrote are on this volume.
const onVolume = (dir) => (fs.existsSync(dir) ? fs.readdirSync(dir).length : 0);
const serveFs = createOnMessage(fs);
const worker = new Worker(new URL('addon-worker.js', import.meta.url), { type: 'module', name: 'napi-addon' });
worker.addEventListener('message', ({ data }) => {
  if (data?.__fs__) serveFs({ data });
  else if (data?.fsPort) data.fsPort.onmessage = serveFs;
  else if (data?.outcome) report({ ...data.outcome, onVolume: onVolume(`${run.dir}/out`) });
});
worker.addEventListener('error', (e) => report({ error: `addon worker: ${e.message}` }));
worker.postMessage({ ...run, wasm: new URL('addon.wasm', location.href).href });
