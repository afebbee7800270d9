// The npm WASI host baseline in headless Chromium: a server on 127.0.0.1 with cross-origin
// isolation (to its own pages only, under a secret path: cli/browser/local-server.js) serves page.html,
// its workers, the npm packages' browser builds and the module; each run gets a Chromium of its
// own (so a fresh memfs volume and fresh workers), started plainly as cli/browser/browser-session.js
// does (no DevTools protocol attached), and the page POSTs its outcome back. Used by
// `spindle bench --browser`; alone:
//   node bench/npm-wasi/run-browser.mjs [--c-main=main|worker] app.wasm [args...]
import { readFileSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isolation, sendFile } from '../../cli/browser/isolated-server.js';
import { browserLaunch } from '../../cli/browser/browsers.js';
import { launchBrowser } from '../../cli/browser/browser-process.js';
import { startLocalServer } from '../../cli/browser/local-server.js';
import { escapeControls } from '../../cli/common/terminal-text.js';

const root = join(fileURLToPath(import.meta.url), '..', '..', '..');
// What the page may load: itself, the packages it imports, and the host's module-info.js.
const served = ['bench/npm-wasi/', 'node_modules/@tybys/wasm-util/', 'node_modules/@emnapi/wasi-threads/',
  'node_modules/@napi-rs/wasm-runtime/', 'host/compile/module-info.js'];
const RUN_TIMEOUT_MS = 120000;

export class NpmWasiBrowser {
  #server; #runs = new Map(); #nextId = 1; #browser = 'chromium';

  /** `browser`: 'chromium' or 'firefox' (cli/browser/browsers.js), the one the Spindle series run in. */
  static async open({ browser = 'chromium' } = {}) {
    const session = new NpmWasiBrowser();
    session.#browser = browser;
    session.#server = await startLocalServer((req, res, path) => session.#route(req, res, decodeURIComponent(path).slice(1)));
    return session;
  }

  #route(req, res, path) {
    const [, kind, id] = /^(wasm|result)\/(\d+)$/.exec(path) ?? [];
    const run = id && this.#runs.get(Number(id));
    if (run && kind === 'wasm') return res.writeHead(200, { ...isolation, 'Content-Type': 'application/wasm' }).end(run.wasm);
    if (run && kind === 'result') {
      const parts = [];
      req.on('data', (c) => parts.push(c));
      req.on('end', () => {
        let outcome;
        try {
          outcome = JSON.parse(Buffer.concat(parts).toString());
        } catch {
          return res.writeHead(400, isolation).end();
        }
        res.writeHead(200, isolation).end();
        return run.finish(outcome);
      });
      return undefined;
    }
    const file = normalize(join(root, path));
    const allowed = served.some((p) => path.startsWith(p)) && file.startsWith(root + sep);
    return sendFile(res, allowed ? file : null);
  }

  /** Runs one module; resolves { stdout, stderr, exitCode, na?, trap? }. */
  async run(wasmPath, { cMain = 'worker', args = [] } = {}) {
    const id = this.#nextId++;
    const base = this.#server.url;
    const query = new URLSearchParams({ cMain, wasm: `${base}wasm/${id}`, report: `${base}result/${id}`,
      args: JSON.stringify([wasmPath.split('/').pop(), ...args]) });
    const url = `${base}bench/npm-wasi/page.html?${query}`;
    let browser; let timer;
    try {
      return await new Promise((resolve, reject) => {
        this.#runs.set(id, { wasm: readFileSync(wasmPath), finish: resolve });
        // ended with its whole tree and profile however the CLI ends (cli/browser/browser-process.js)
        browser = launchBrowser(browserLaunch(this.#browser, { optimizedFromStart: true }), { url, profilePrefix: 'spindle-npm-wasi-' });
        browser.exited.then((why) => { if (why) reject(new Error(`${why} (before the page reported)`)); });
        timer = setTimeout(() => reject(new Error(`no outcome after ${RUN_TIMEOUT_MS / 1000} s`)), RUN_TIMEOUT_MS);
      }).then((outcome) => {
        if (outcome.crossOriginIsolated === false) throw new Error('the page was not cross-origin isolated');
        return outcome;
      });
    } finally {
      clearTimeout(timer);
      this.#runs.delete(id);
      await browser?.stop();
    }
  }

  async close() {
    this.#server?.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  let cMain = 'main';
  if (argv[0]?.startsWith('--c-main=')) cMain = argv.shift().slice('--c-main='.length);
  const session = await NpmWasiBrowser.open();
  try {
    const r = await session.run(argv[0], { cMain, args: argv.slice(1) });
    process.stdout.write(r.stdout);
    process.stderr.write(r.stderr);
    if (r.na) process.stdout.write(`NA ${r.na}\n`);
    if (r.trap) process.stderr.write(`trap: ${escapeControls(r.trap)}\n`);
    process.exitCode = r.na ? 3 : r.exitCode;
  } finally {
    await session.close();
  }
}
