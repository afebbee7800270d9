// A headless Chromium that runs Spindle modules one after another: a server on 127.0.0.1 with
// cross-origin isolation serves the host, the modules and a job queue; each job's stdout/stderr
// go to the sinks the caller gives. `spindle run --browser` runs one job, `spindle bench` many.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, normalize } from 'node:path';
import { READER_GONE } from '../host/platform/browser.js';
import { launchBrowser } from './browser-process.js';
import { chromiumFlags, chromiumPath, v8FlagsSwitch } from './chromium.js';
import { isolation, sendFile } from './isolated-server.js';
import { root } from './toolchain.js';

const hostDir = join(root, 'host');

async function body(req) {
  const parts = [];
  for await (const part of req) parts.push(part);
  return Buffer.concat(parts);
}

export const optimizedFromStartFlags = ['--no-liftoff'];

export class BrowserSession {
  #server; #browser; #jobs = []; #waitingPage = []; #running = new Map(); #nextId = 1;
  #failed = null;

  /**
   * `optimizedFromStart`: V8 compiles the whole module with its optimizing tier before it runs
   * (`--no-liftoff`). Without it, a function entered once before tier-up (a benchmark's loop)
   * runs in baseline code to its end: wasm has no on-stack replacement. The benchmarks use it
   * so that Chromium, like Node, measures optimized code (docs/DESIGN.md). `jsFlags`: more V8
   * flags (spindle run --browser --compile=eager).
   */
  static async open({ optimizedFromStart = false, jsFlags = [] } = {}) {
    const session = new BrowserSession();
    const flags = [...(optimizedFromStart ? optimizedFromStartFlags : []), ...jsFlags];
    await session.#start(v8FlagsSwitch(flags));
    return session;
  }

  async #start(extraFlags) {
    this.#server = createServer((req, res) => this.#route(req, res).catch((err) => {
      if (!res.headersSent) res.writeHead(500, isolation);
      res.end(String(err));
    }));
    await new Promise((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    // Ended with its whole tree and profile however the CLI ends (cli/browser-process.js).
    this.#browser = launchBrowser(chromiumPath, [...chromiumFlags, ...extraFlags, `http://127.0.0.1:${this.#server.address().port}/`],
      { showStderr: Boolean(process.env.SPINDLE_DEBUG) });
    this.#browser.exited.then((why) => { if (why) this.#fail(why); });
  }

  #fail(message) {
    this.#failed = message;
    for (const job of this.#running.values()) job.finish({ error: message });
  }

  async #route(req, res) {
    const url = new URL(req.url, 'http://127.0.0.1');
    const path = url.pathname;
    if (process.env.SPINDLE_DEBUG) process.stderr.write(`[spindle] ${req.method} ${req.url}\n`);
    const [, kind, id, rest] = /^\/(io|exit|wasm|preload)\/(\d+)(\/.*)?$/.exec(path) ?? [];
    const job = id && this.#running.get(Number(id));
    if (path === '/') return sendFile(res, join(hostDir, 'browser', 'run-page.html'));
    if (path === '/job') {
      const next = this.#jobs.length ? this.#jobs.shift() : await new Promise((r) => this.#waitingPage.push(r));
      return res.writeHead(200, { ...isolation, 'Content-Type': 'application/json' }).end(JSON.stringify(next.describe));
    }
    if (path.startsWith('/host/')) {
      const file = normalize(join(hostDir, path.slice('/host/'.length)));
      return file.startsWith(hostDir) ? sendFile(res, file) : res.writeHead(403, isolation).end();
    }
    if (!job) return res.writeHead(404, isolation).end();
    if (kind === 'wasm') return res.writeHead(200, { ...isolation, 'Content-Type': 'application/wasm' }).end(job.wasm);
    if (kind === 'preload' && job.preload) {
      return res.writeHead(200, { ...isolation, 'Content-Type': 'application/octet-stream' }).end(job.preload);
    }
    if (kind === 'exit') {
      res.writeHead(200, isolation).end();
      return job.finish(JSON.parse(await body(req)));
    }
    if (rest === '/fd/1' || rest === '/fd/2') {
      // a sink that answers false has lost its reader (EPIPE): the page's write answers EPIPE
      const written = job.write(rest === '/fd/1' ? 1 : 2, await body(req)) !== false;
      return res.writeHead(written ? 200 : READER_GONE, isolation).end();
    }
    if (rest === '/stdin') {
      const data = await job.readStdin(Math.max(1, Number(url.searchParams.get('max')) || 65536));
      return res.writeHead(200, { ...isolation, 'Content-Type': 'application/octet-stream' }).end(data);
    }
    return res.writeHead(404, isolation).end();
  }

  /**
   * Runs one module to its end. `write(fd, bytes)` takes its output (false: the reader is
   * gone, and the program's write answers EPIPE), `readStdin(max)` gives its
   * input (empty at end); `preload`: packed files (host/files/preload.js) the page fetches once.
   * Resolves { exitCode, trap }; rejects if the browser or page failed.
   */
  run(wasmPath, { args, env = {}, poolSize, waitForPool, preload, mounts, write, readStdin = async () => Buffer.alloc(0) }) {
    if (this.#failed) return Promise.reject(new Error(`browser run failed: ${this.#failed}`));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const job = {
        wasm: readFileSync(wasmPath), write, readStdin, preload,
        describe: { id, wasmUrl: `/wasm/${id}`, preloadUrl: preload ? `/preload/${id}` : undefined, options: { args, env, poolSize, waitForPool, mounts } },
        finish: (outcome) => {
          this.#running.delete(id);
          if (outcome.error) reject(new Error(`browser run failed: ${outcome.error}`));
          else if (outcome.crossOriginIsolated === false) reject(new Error('the page was not cross-origin isolated'));
          else resolve({ exitCode: outcome.exitCode, trap: outcome.trap });
        },
      };
      this.#running.set(id, job);
      const page = this.#waitingPage.shift();
      if (page) page(job);
      else this.#jobs.push(job);
    });
  }

  async close() {
    for (const page of this.#waitingPage.splice(0)) page({ describe: { done: true } });
    await this.#browser.stop();
    this.#server.closeAllConnections();
    this.#server.close();
  }
}
