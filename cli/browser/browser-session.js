// A headless browser (Chromium, Firefox or WebKit) that runs Spindle modules one after another: a server on 127.0.0.1 with
// cross-origin isolation serves the host, the modules and a job queue; each job's stdout/stderr
// go to the sinks the caller gives. `spindle run --browser` runs one job, `spindle bench` many.
// The server answers only the page of the browser it started (cli/browser/local-server.js), and that
// page only once: the first claim of a job gets a token that every later claim must carry.
// With a code cache (Chromium, cli/browser/chromium-code-cache.js), a module is served from a URL named
// by its bytes (/wasm/SHA-256.wasm, outside the secret path: the browser keys cached code by
// URL) to a request that carries that token in a header, with headers that let Chromium keep
// the response, and so the code it caches for it (docs/HOST.md, "Cached code in pages").
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { join, normalize } from 'node:path';
import { ERROR_HEADER, READER_GONE } from '../../host/platform/browser.js';
import { launchBrowser } from './browser-process.js';
import { browserLaunch } from './browsers.js';
import { awaitCodeCacheWrite, MODULE_PATH, modulePath, pagePorts, sha256Hex } from './chromium-code-cache.js';
import { offsetsInFile, withOptimizeHints } from './optimize-hints.js';
import { isolation, sendFile } from './isolated-server.js';
import { startLocalServer } from './local-server.js';
import { escapeControls, escapeIndentedLines } from '../common/terminal-text.js';
import { root } from '../common/toolchain.js';
import { uniqueModule } from './unique-module.js';
import { pageBundleFiles } from '../common/bundles.js';

const { readFileSync } = process.getBuiltinModule('node:fs');
// How long a module's first run with the optimize hints waits for V8 to cache its first code
// (a loaded machine's TurboFan may need longer: SPINDLE_PAGE_CACHE_WAIT_MS).
const HINTED_GRACE_MS = Number(process.env.SPINDLE_PAGE_CACHE_WAIT_MS) > 0 ? Number(process.env.SPINDLE_PAGE_CACHE_WAIT_MS) : 2000;

const hostDir = join(root, 'host');

async function body(req) {
  const parts = [];
  for await (const part of req) parts.push(part);
  return Buffer.concat(parts);
}

/** What the page posts to /exit: { exitCode, trap?, workersUsed? } or { error }; null when it is not that. */
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
  if (!Number.isInteger(outcome.exitCode) || outcome.exitCode < 0 || !trapOk) return null;
  // (a count for the thread hint, cli/run/thread-hint.js: anything else is no count)
  const used = outcome.workersUsed;
  return { ...outcome, workersUsed: Number.isInteger(used) && used >= 0 ? used : undefined };
}

// How a module at its stable URL may be kept (serveModule)
export const MODULE_CACHE_CONTROL = 'max-age=31536000, immutable';

// The request header that carries the page's token to a module's stable URL
export const PAGE_TOKEN_HEADER = 'spindle-page';

/** Whether `given` (a header's value) is `token`, compared in constant time. */
function sameToken(given, token) {
  if (typeof given !== 'string' || !token) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Answers a request for a module at its stable URL (`path`, /wasm/SHA-256.wasm): 403 unless it
 * carries `token` (the page's) in the PAGE_TOKEN_HEADER header, 404 unless `bytesOf(sha)` gives
 * the module's bytes (a job of it runs). Cacheable for a year and immutable (the URL names the
 * bytes): Chromium takes cached code only with the HTTP cache's response it was made for, and a
 * revalidated one (no-cache, answered 304) gave cached code to one more run only (docs/HOST.md,
 * "Cached code in pages"). So a later run takes the bytes from the profile's HTTP cache, which
 * is this user's alone, and no request reaches this check; one that does (a first run, an
 * evicted entry, a revalidation of the ETag) is checked as ever. The isolation headers stay.
 */
export function serveModule(req, res, path, { token, bytesOf }) {
  if (!sameToken(req.headers[PAGE_TOKEN_HEADER], token)) return res.writeHead(403, isolation).end();
  const sha = MODULE_PATH.exec(path)?.[1];
  const bytes = sha && bytesOf(sha);
  if (!bytes || (req.method !== 'GET' && req.method !== 'HEAD')) return res.writeHead(404, isolation).end();
  const headers = { ...isolation, 'Cache-Control': MODULE_CACHE_CONTROL, ETag: `"${sha}"` };
  const validators = (req.headers['if-none-match'] ?? '').split(',').map((v) => v.trim());
  if (validators.includes(`"${sha}"`)) return res.writeHead(304, headers).end();
  res.writeHead(200, { ...headers, 'Content-Type': 'application/wasm', 'Content-Length': bytes.length });
  return req.method === 'HEAD' ? res.end() : res.end(bytes);
}

// How long a job may wait for the page while none runs (a live page asks for its next job at
// once, a reloading one once it has loaded), counted from the page's last load: then the page
// never loaded, or died, and the run fails instead of hanging. Before the page's first request
// the browser is still starting, which took WebKitGTK over 15 s on 2 loaded cores (CI, beside
// the other browsers): the start gets four times as long.
const claimTimeoutS = Number(process.env.SPINDLE_PAGE_CLAIM_TIMEOUT_S) || 15;
const startTimeoutS = 4 * claimTimeoutS;

// A page that reloads after each job (freshPage) loads the host's ~60 modules again each time:
// within the session they come from the browser's cache, without a request each, and V8 keeps
// their compiled code. Their URLs are under this session's secret path, so no other run, and no
// edit of host/ made for a later run, ever meets them; a single run's page keeps them uncached.
const SESSION_CACHED = { 'Cache-Control': 'private, max-age=86400' };
// A module's URL on this server where a stack frame names it (`at f (URL:wasm-function[1]:0x2a)`
// or `at URL:wasm-function[1]:0x2a`): its stable URL or the job's.
const SERVED_MODULE_URL = /(?<=[( ])http:\/\/127\.0\.0\.1:\d+\/[^\s()]*(?=:wasm-function\[)/g;

export class BrowserSession {
  #server; #browser; #jobs = []; #waitingPage = []; #running = new Map(); #nextId = 1;
  #failed = null; #pageToken = null; #claimTimer = null; #pageSeen = false; #codeCache = null; #shaOf = new Map(); #freshPage = false; #pageBundles = new Map();
  #optimizeHints = false;

  /**
   * `optimizedFromStart`: V8 compiles the whole module with its optimizing tier before it runs
   * (`--no-liftoff`). Without it, a function entered once before tier-up (a benchmark's loop)
   * runs in baseline code to its end: wasm has no on-stack replacement. The benchmarks use it
   * so that Chromium, like Node, measures optimized code (docs/DESIGN.md); Firefox gets the
   * same from SpiderMonkey's optimizing compiler alone, WebKit the nearest JSC has (OMG at once,
   * cli/browser/webkit.js). `jsFlags`: more V8 flags (spindle run --browser --compile=eager), Chromium
   * only. `browser`: 'chromium', 'firefox' or 'webkit' (cli/browser/browsers.js). `codeCache`: Chromium
   * only, a per-user directory (cli/browser/chromium-code-cache.js) whose caches the profile starts with
   * and gives back to; modules then have stable URLs and the server asks for a stable port.
   * `freshPage`: the page reloads after each job, so that no job finds what an earlier one left
   * in the page (workers still running, module state, OPFS handles); tests/programs.test.js.
   * `optimizeHints`: with `codeCache`, modules are served with hints that V8 optimize every
   * function (cli/browser/optimize-hints.js; jsFlags must then hold --wasm-compilation-hints).
   */
  static async open({ browser = 'chromium', optimizedFromStart = false, jsFlags = [], codeCache = null, freshPage = false, optimizeHints = false } = {}) {
    const session = new BrowserSession();
    session.#codeCache = browser === 'chromium' ? codeCache : null;
    session.#optimizeHints = Boolean(session.#codeCache) && optimizeHints;
    session.#freshPage = freshPage;
    session.#pageBundles = pageBundleFiles(root);
    await session.#start(browserLaunch(browser, { optimizedFromStart, jsFlags, profileCache: session.#codeCache }));
    return session;
  }

  /** The origin of the page's server (its port is stable where the session keeps code). */
  get origin() { return this.#server.origin; }

  /** Why the session failed (its browser ended, its page did not start a job), or null: no job can run in it then. */
  get failed() { return this.#failed; }

  async #start(launch) {
    const cached = Boolean(this.#codeCache);
    this.#server = await startLocalServer((req, res, path, open) => (open ? this.#serveModule(req, res, path) : this.#route(req, res, path)),
      { openPath: (path) => cached && MODULE_PATH.test(path), ports: cached ? pagePorts() : [] });
    // Ended with its whole tree and profile however the CLI ends (cli/browser/browser-process.js).
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
    const [limitS, what] = this.#pageSeen ? [claimTimeoutS, 'the browser\'s page did not start the run'] : [startTimeoutS, 'the browser did not open the run\'s page'];
    this.#claimTimer = setTimeout(() => this.#fail(`${what} within ${limitS} s` +
      ' (a slow machine can raise the limit with SPINDLE_PAGE_CLAIM_TIMEOUT_S)'), limitS * 1000);
  }

  // A module at its stable URL (serveModule): to this page, while a job of that module runs
  #serveModule(req, res, path) {
    if (process.env.SPINDLE_DEBUG) process.stderr.write(`[spindle] ${req.method} ${path}\n`);
    return serveModule(req, res, path, { token: this.#pageToken,
      bytesOf: (sha) => [...this.#running.values()].find((j) => j.claimed && j.wasmSha === sha)?.wasm ?? null });
  }

  async #route(req, res, path) {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (process.env.SPINDLE_DEBUG) process.stderr.write(`[spindle] ${req.method} ${path}${url.search}\n`);
    const [, kind, id, rest] = /^\/(io|exit|wasm|preload)\/(\d+)(\/.*)?$/.exec(path) ?? [];
    const job = id && this.#running.get(Number(id));
    if (path === '/') {
      this.#pageSeen = true;
      this.#watchClaims(); // (the page loads: its claim's limit counts from here)
      return sendFile(res, join(hostDir, 'browser', 'run-page.html'));
    }
    if (path === '/job') {
      if (!this.#mayClaim(url.searchParams.get('page'))) return res.writeHead(403, isolation).end();
      const next = this.#jobs.length ? this.#jobs.shift() : await new Promise((r) => this.#waitingPage.push(r));
      next.claimed = true;
      this.#watchClaims();
      const claim = { ...next.describe, page: this.#pageToken, ...(this.#freshPage && !next.describe.done && { reload: true }) };
      return res.writeHead(200, { ...isolation, 'Content-Type': 'application/json' }).end(JSON.stringify(claim));
    }
    if (path.startsWith('/host/')) {
      // (the page's and its workers' bundles where they are current: cli/common/bundles.js, PAGE_BUNDLES)
      const bundle = this.#pageBundles.get(path);
      const file = bundle ?? normalize(join(hostDir, path.slice('/host/'.length)));
      return bundle || file.startsWith(hostDir) ? sendFile(res, file, this.#freshPage ? SESSION_CACHED : {}) : res.writeHead(403, isolation).end();
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
   * page compiles the module anew, not with code V8 kept from an earlier run (cli/browser/unique-module.js);
   * `threadWorkers`: threads' workers the page starts beside the compile (cli/run/thread-hint.js),
   * which main waits for with `waitForThreadWorkers`. Resolves { exitCode, trap, workersUsed }
   * (how many thread workers ran a thread, or undefined); rejects if the module could not run or the browser or page failed.
   * Text from the page (trap, error) comes with its control characters escaped.
   */
  run(wasmPath, { args, env = {}, poolSize, maxThreads, waitForPool, threadWorkers = 0, waitForThreadWorkers = false, preload, mounts, freshCompile, describeStdio, seekOutput, readStdioAt, writeStdioAt, truncateStdio, write, readStdin = async () => Buffer.alloc(0) }) {
    if (this.#failed) return Promise.reject(new Error(this.#failed));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const settled = () => { this.#running.delete(id); this.#watchClaims(); };
      const { bytes: wasm, inserted } = freshCompile ? { bytes: uniqueModule(readFileSync(wasmPath), `${process.pid}-${id}`), inserted: null }
        : this.#served(readFileSync(wasmPath));
      // A trap's frames name the module by its file and offsets in it, not by the URL and the
      // bytes served (which a hint section moves); each on a line of its own.
      const text = (value) => escapeIndentedLines(offsetsInFile(String(value), inserted)
        .replace(SERVED_MODULE_URL, () => wasmPath));
      // a module whose code the browser may keep has a URL of its own bytes (a fresh compile's
      // bytes are new each time: it keeps the job's URL, which nothing caches)
      const wasmSha = this.#codeCache && !freshCompile ? sha256Hex(wasm) : null;
      if (wasmSha) this.#shaOf.set(wasmPath, wasmSha);
      const job = {
        wasm, wasmSha, write, readStdin, describeStdio, seekOutput, readStdioAt, writeStdioAt, truncateStdio, preload, claimed: false,
        // URLs relative to the page (host/browser/run-page.js); the stable one, from the origin
        describe: { id, wasmUrl: wasmSha ? modulePath(wasmSha) : `wasm/${id}`, preloadUrl: preload ? `preload/${id}` : undefined,
          options: { args, env, poolSize, maxThreads, waitForPool, threadWorkers, waitForThreadWorkers, mounts, stdioDescribed: Boolean(describeStdio) } },
        fail: (err) => { settled(); reject(err); },
        finish: (outcome) => {
          settled();
          if (process.env.SPINDLE_DEBUG && typeof outcome.compile === 'object' && outcome.compile) {
            const { ms, codeCache } = outcome.compile;
            process.stderr.write(`[spindle] page's compile: ${Number(ms).toFixed(1)} ms; code cache: ${escapeControls(String(codeCache))}\n`);
          }
          if (outcome.error !== undefined) reject(new Error(text(outcome.error)));
          else if (outcome.crossOriginIsolated === false) reject(new Error('the page was not cross-origin isolated'));
          else resolve({ exitCode: outcome.exitCode, trap: outcome.trap == null ? undefined : text(outcome.trap), workersUsed: outcome.workersUsed });
        },
      };
      this.#running.set(id, job);
      const page = this.#waitingPage.shift();
      if (page) page(job);
      else this.#jobs.push(job);
      this.#watchClaims();
    });
  }

  /** A module as the page gets it, { bytes, inserted }: with the optimize hints where the session serves them. */
  #served(bytes) {
    return this.#optimizeHints ? withOptimizeHints(bytes) : { bytes, inserted: null };
  }

  /**
   * After a run of `wasmPath` in a session with a code cache: waits for V8's cached code of it to
   * reach the profile (cli/browser/chromium-code-cache.js, awaitCodeCacheWrite), so that closing the
   * browser keeps it. Resolves { waitedMs, written }, or null without a code cache. With the
   * optimize hints, V8 is compiling every function when a short program ends: the first run
   * waits longer for its first code.
   */
  async awaitCodeCache(wasmPath) {
    if (!this.#codeCache || this.#failed) return null;
    this.#shaOf.set(wasmPath, this.#shaOf.get(wasmPath) ?? sha256Hex(this.#served(readFileSync(wasmPath)).bytes));
    return awaitCodeCacheWrite(this.#browser.profile, this.#codeCache, { sha256: this.#shaOf.get(wasmPath), port: this.#server.port,
      ...(this.#optimizeHints ? { graceMs: HINTED_GRACE_MS, maxMs: Math.max(2000, HINTED_GRACE_MS) } : {}) });
  }

  async close() {
    clearTimeout(this.#claimTimer);
    for (const page of this.#waitingPage.splice(0)) page({ describe: { done: true } });
    await this.#browser.stop();
    this.#server.close();
  }
}
