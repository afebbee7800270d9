// A headless browser (Chromium, Firefox or WebKit) that runs Spindle modules one after another: a server on 127.0.0.1 with
// cross-origin isolation serves the host, the modules and a job queue; each job's stdout/stderr
// go to the sinks the caller gives. `spindle run --browser` runs one job, `spindle bench` many.
// The server answers only the page of the browser it started (cli/local-server.js), and that
// page only once: the first claim of a job gets a token that every later claim must carry.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { ERROR_HEADER, READER_GONE } from '../host/platform/browser.js';
import { launchBrowser } from './browser-process.js';
import { browserLaunch } from './browsers.js';
import { isolation, sendFile } from './isolated-server.js';
import { startLocalServer } from './local-server.js';
import { escapeControls } from './terminal-text.js';
import { root } from './toolchain.js';
import { uniqueModule } from './unique-module.js';

const hostDir = join(root, 'host');

async function body(req) {
  const parts = [];
  for await (const part of req) parts.push(part);
  return Buffer.concat(parts);
}

/** What the page posts to /exit: { exitCode, trap? } or { error }; null when it is not that. */
function parseOutcome(bytes) {
  let outcome;
  try {
    outcome = JSON.parse(bytes);
  } catch {
    return null;
  }
  if (typeof outcome !== 'object' || outcome === null) return null;
  if (typeof outcome.error === 'string') return outcome;
  const trapOk = outcome.trap === undefined || outcome.trap === null || typeof outcome.trap === 'string';
  return Number.isInteger(outcome.exitCode) && outcome.exitCode >= 0 && trapOk ? outcome : null;
}

// How long a job may wait for the page while none runs (a live page asks for its next job at
// once): then the page never loaded, or died, and the run fails instead of hanging.
const claimTimeoutS = Number(process.env.SPINDLE_PAGE_CLAIM_TIMEOUT_S) || 15;

export class BrowserSession {
  #server; #browser; #jobs = []; #waitingPage = []; #running = new Map(); #nextId = 1;
  #failed = null; #pageToken = null; #claimTimer = null;

  /**
   * `optimizedFromStart`: V8 compiles the whole module with its optimizing tier before it runs
   * (`--no-liftoff`). Without it, a function entered once before tier-up (a benchmark's loop)
   * runs in baseline code to its end: wasm has no on-stack replacement. The benchmarks use it
   * so that Chromium, like Node, measures optimized code (docs/DESIGN.md); Firefox gets the
   * same from SpiderMonkey's optimizing compiler alone, WebKit the nearest JSC has (OMG at once,
   * cli/webkit.js). `jsFlags`: more V8 flags (spindle run --browser --compile=eager), Chromium
   * only. `browser`: 'chromium', 'firefox' or 'webkit' (cli/browsers.js).
   */
  static async open({ browser = 'chromium', optimizedFromStart = false, jsFlags = [] } = {}) {
    const session = new BrowserSession();
    await session.#start(browserLaunch(browser, { optimizedFromStart, jsFlags }));
    return session;
  }

  async #start(launch) {
    this.#server = await startLocalServer((req, res, path) => this.#route(req, res, path));
    // Ended with its whole tree and profile however the CLI ends (cli/browser-process.js).
    this.#browser = launchBrowser(launch, { url: this.#server.url, showStderr: Boolean(process.env.SPINDLE_DEBUG) });
    this.#browser.exited.then((why) => { if (why) this.#fail(`browser run failed: ${why}`); });
  }

  #fail(message) {
    this.#failed = message;
    this.#jobs.length = 0;
    for (const job of this.#running.values()) job.fail(new Error(message));
  }

  /** The page's first claim takes the token; every later one must show it. */
  #mayClaim(token) {
    if (this.#pageToken) return token === this.#pageToken;
    this.#pageToken = randomBytes(16).toString('base64url');
    return token === null;
  }

  #watchClaims() {
    clearTimeout(this.#claimTimer);
    const busy = [...this.#running.values()].some((job) => job.claimed);
    if (this.#jobs.length === 0 || busy) return;
    this.#claimTimer = setTimeout(() => this.#fail(`the browser's page did not start the run within ${claimTimeoutS} s` +
      ' (a slow machine can raise the limit with SPINDLE_PAGE_CLAIM_TIMEOUT_S)'), claimTimeoutS * 1000);
  }

  async #route(req, res, path) {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (process.env.SPINDLE_DEBUG) process.stderr.write(`[spindle] ${req.method} ${path}${url.search}\n`);
    const [, kind, id, rest] = /^\/(io|exit|wasm|preload)\/(\d+)(\/.*)?$/.exec(path) ?? [];
    const job = id && this.#running.get(Number(id));
    if (path === '/') return sendFile(res, join(hostDir, 'browser', 'run-page.html'));
    if (path === '/job') {
      if (!this.#mayClaim(url.searchParams.get('page'))) return res.writeHead(403, isolation).end();
      const next = this.#jobs.length ? this.#jobs.shift() : await new Promise((r) => this.#waitingPage.push(r));
      next.claimed = true;
      this.#watchClaims();
      const claim = { ...next.describe, page: this.#pageToken };
      return res.writeHead(200, { ...isolation, 'Content-Type': 'application/json' }).end(JSON.stringify(claim));
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
      const outcome = parseOutcome(await body(req));
      if (!outcome) return res.writeHead(400, isolation).end();
      res.writeHead(200, isolation).end();
      return job.finish(outcome);
    }
    if (rest === '/fd/1' || rest === '/fd/2') {
      // a sink that answers false has lost its reader (EPIPE): the page's write answers EPIPE
      const written = job.write(rest === '/fd/1' ? 1 : 2, await body(req)) !== false;
      return res.writeHead(written ? 200 : READER_GONE, isolation).end();
    }
    if (/^\/seek\/[12]$/.test(rest)) {
      // lseek of the CLI's stdout or stderr: {"at": offset}, null for EINVAL, {} for ESPIPE
      // (also where the job's runner gave no seekOutput)
      const offset = url.searchParams.get('offset');
      const whence = Number(url.searchParams.get('whence'));
      if (!/^-?\d+$/.test(offset ?? '') || ![0, 1, 2].includes(whence)) return res.writeHead(400, isolation).end();
      const at = job.seekOutput?.(Number(rest.slice('/seek/'.length)), BigInt(offset), whence);
      const answer = at === null ? 'null' : JSON.stringify(at === undefined ? {} : { at: String(at) });
      return res.writeHead(200, { ...isolation, 'Content-Type': 'application/json' }).end(answer);
    }
    const positioned = /^\/(pread|pwrite|truncate)\/([012])$/.exec(rest);
    if (positioned) {
      // pread/pwrite/ftruncate (to `offset`) of the CLI's fd: the bytes read or the count
      // written, or the error's code in a header (host/platform/browser.js); ESPIPE (EINVAL to
      // ftruncate: a pipe's answers) where the job's runner gave no calls
      const offset = url.searchParams.get('offset');
      const max = url.searchParams.get('max') ?? '0';
      if (!/^\d+$/.test(offset ?? '') || !/^\d+$/.test(max)) return res.writeHead(400, isolation).end();
      const fd = Number(positioned[2]);
      const call = positioned[1];
      const answer = call === 'pread' ? job.readStdioAt?.(fd, Number(max), Number(offset))
        : call === 'pwrite' ? job.writeStdioAt?.(fd, await body(req), Number(offset))
          : job.truncateStdio?.(fd, Number(offset));
      if (answer === undefined || typeof answer === 'string') {
        const error = answer ?? (call === 'truncate' ? 'EINVAL' : 'ESPIPE');
        return res.writeHead(200, { ...isolation, [ERROR_HEADER]: error }).end();
      }
      return res.writeHead(200, { ...isolation, 'Content-Type': 'application/octet-stream' })
        .end(typeof answer === 'number' ? String(answer) : answer);
    }
    if (/^\/stdio\/[012]$/.test(rest) && job.describeStdio) {
      const description = JSON.stringify(job.describeStdio(Number(rest.slice('/stdio/'.length))));
      return res.writeHead(200, { ...isolation, 'Content-Type': 'application/json' }).end(description);
    }
    if (rest === '/stdin') {
      // a request that gives up before input comes takes none: the next request gets it
      const gaveUp = new AbortController();
      res.on('close', () => { if (!res.writableFinished) gaveUp.abort(); });
      const pos = url.searchParams.get('pos'); // a stdin that is a file, read where the program is
      const data = await job.readStdin(Math.max(1, Number(url.searchParams.get('max')) || 65536), gaveUp.signal,
        pos === null || !/^\d+$/.test(pos) ? undefined : Number(pos));
      if (gaveUp.signal.aborted) return undefined;
      return res.writeHead(200, { ...isolation, 'Content-Type': 'application/octet-stream' }).end(data);
    }
    return res.writeHead(404, isolation).end();
  }

  /**
   * Runs one module to its end. `write(fd, bytes)` takes its output (false: the reader is
   * gone, and the program's write answers EPIPE), `readStdin(max, signal, position)` gives its
   * input (empty at end; when `signal` aborts, the request is gone and must take no input; a
   * position: read a stdin that is a file there); `describeStdio(fd)`: what the CLI's fd 0-2
   * is now (host/platform/stdio-description.js), for the program's fstat and /proc/self/fd;
   * `seekOutput(fd, offset, whence)`: lseek of its fd 1 or 2 (host/platform/node.js's
   * seekHostFile: the offset, null for EINVAL, undefined for ESPIPE);
   * `readStdioAt(fd, max, position)`, `writeStdioAt(fd, bytes, position)`: pread/pwrite of its
   * fd 0-2, `truncateStdio(fd, length)`: its ftruncate (host/platform/positioned-stdio.js: the
   * bytes, count or 0, or an error's code);
   * `preload`: packed files (host/files/preload.js) the page fetches once; `freshCompile`: the
   * page compiles the module anew, not with code V8 kept from an earlier run (cli/unique-module.js). Resolves
   * { exitCode, trap }; rejects if the module could not run or the browser or page failed.
   * Text from the page (trap, error) comes with its control characters escaped.
   */
  run(wasmPath, { args, env = {}, poolSize, maxThreads, waitForPool, preload, mounts, freshCompile, describeStdio, seekOutput, readStdioAt, writeStdioAt, truncateStdio, write, readStdin = async () => Buffer.alloc(0) }) {
    if (this.#failed) return Promise.reject(new Error(this.#failed));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const settled = () => { this.#running.delete(id); this.#watchClaims(); };
      const job = {
        wasm: freshCompile ? uniqueModule(readFileSync(wasmPath), `${process.pid}-${id}`) : readFileSync(wasmPath), write, readStdin, describeStdio, seekOutput, readStdioAt, writeStdioAt, truncateStdio, preload, claimed: false,
        // URLs relative to the page (host/browser/run-page.js)
        describe: { id, wasmUrl: `wasm/${id}`, preloadUrl: preload ? `preload/${id}` : undefined, options: { args, env, poolSize, maxThreads, waitForPool, mounts, stdioDescribed: Boolean(describeStdio) } },
        fail: (err) => { settled(); reject(err); },
        finish: (outcome) => {
          settled();
          if (outcome.error !== undefined) reject(new Error(escapeControls(outcome.error)));
          else if (outcome.crossOriginIsolated === false) reject(new Error('the page was not cross-origin isolated'));
          else resolve({ exitCode: outcome.exitCode, trap: outcome.trap == null ? undefined : escapeControls(outcome.trap) });
        },
      };
      this.#running.set(id, job);
      const page = this.#waitingPage.shift();
      if (page) page(job);
      else this.#jobs.push(job);
      this.#watchClaims();
    });
  }

  async close() {
    clearTimeout(this.#claimTimer);
    for (const page of this.#waitingPage.splice(0)) page({ describe: { done: true } });
    await this.#browser.stop();
    this.#server.close();
  }
}
