// `spindle run --browser`: serves the module and Spindle's host from 127.0.0.1 with
// cross-origin isolation, opens it in headless Chromium, relays stdin/stdout/stderr between the
// terminal and the page's workers, and returns the program's exit code.
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { writeAllSync } from '../host/platform/node.js';
import { root } from './toolchain.js';

const chromium = process.env.SPINDLE_CHROMIUM || '/usr/bin/chromium';
const chromiumFlags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-dev-shm-usage', ...(process.env.SPINDLE_DEBUG ? ['--enable-logging=stderr', '--v=0'] : [])];
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};
const mimeTypes = { '.js': 'text/javascript', '.html': 'text/html', '.wasm': 'application/wasm', '.json': 'application/json' };

/** Standard input of the CLI, handed out on request: up to `max` bytes, empty at end of input. */
function stdinRelay() {
  const chunks = [];
  let ended = false;
  const waiting = [];
  const wake = () => { while (waiting.length) waiting.shift()(); };
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    process.stdin.on('data', (c) => { chunks.push(c); wake(); });
    process.stdin.on('end', () => { ended = true; wake(); });
    process.stdin.on('error', () => { ended = true; wake(); });
  };
  return async function read(max) {
    start();
    while (chunks.length === 0 && !ended) await new Promise((r) => waiting.push(r));
    if (chunks.length === 0) return Buffer.alloc(0);
    const head = chunks.shift();
    if (head.length > max) chunks.unshift(head.subarray(max));
    return head.subarray(0, max);
  };
}

async function body(req) {
  const parts = [];
  for await (const part of req) parts.push(part);
  return Buffer.concat(parts);
}

function serveFile(res, path) {
  if (!existsSync(path) || !statSync(path).isFile()) {
    res.writeHead(404, isolation).end();
    return;
  }
  res.writeHead(200, { ...isolation, 'Content-Type': mimeTypes[extname(path)] || 'application/octet-stream' });
  createReadStream(path).pipe(res);
}

export async function runInBrowser(opts) {
  const wasm = readFileSync(opts.wasm);
  const readStdin = stdinRelay();
  let finish;
  const outcome = new Promise((resolve) => { finish = resolve; });
  const hostDir = join(root, 'host');

  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (process.env.SPINDLE_DEBUG) process.stderr.write(`[spindle] ${req.method} ${req.url}\n`);
    try {
      if (url.pathname === '/') serveFile(res, join(hostDir, 'browser', 'run-page.html'));
      else if (url.pathname === '/app.wasm') res.writeHead(200, { ...isolation, 'Content-Type': 'application/wasm' }).end(wasm);
      else if (url.pathname === '/config') {
        res.writeHead(200, { ...isolation, 'Content-Type': 'application/json' })
          .end(JSON.stringify({ args: opts.args, env: opts.env, poolSize: opts.poolSize }));
      } else if (url.pathname === '/io/fd/1' || url.pathname === '/io/fd/2') {
        writeAllSync(url.pathname.endsWith('1') ? 1 : 2, await body(req));
        res.writeHead(200, isolation).end();
      } else if (url.pathname === '/io/stdin') {
        const data = await readStdin(Math.max(1, Number(url.searchParams.get('max')) || 65536));
        res.writeHead(200, { ...isolation, 'Content-Type': 'application/octet-stream' }).end(data);
      } else if (url.pathname === '/exit') {
        res.writeHead(200, isolation).end();
        finish(JSON.parse(await body(req)));
      } else if (url.pathname.startsWith('/host/')) {
        const path = normalize(join(hostDir, url.pathname.slice('/host/'.length)));
        if (!path.startsWith(hostDir)) res.writeHead(403, isolation).end();
        else serveFile(res, path);
      } else res.writeHead(404, isolation).end();
    } catch (err) {
      res.writeHead(500, isolation).end(String(err));
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const profile = mkdtempSync(join(tmpdir(), 'spindle-chromium-'));
  const browser = spawn(chromium, [...chromiumFlags, `--user-data-dir=${profile}`,
    `http://127.0.0.1:${server.address().port}/`],
  // Its own process group, so the zygote and renderers can be killed with it.
  { detached: true, stdio: ['ignore', 'ignore', process.env.SPINDLE_DEBUG ? 'inherit' : 'ignore'] });
  browser.on('exit', (code) => finish({ error: `chromium exited (code ${code}) before the program ended` }));
  browser.on('error', (err) => finish({ error: `cannot start ${chromium}: ${err.message}` }));

  const result = await outcome;
  browser.removeAllListeners('exit');
  const browserGone = new Promise((resolve) => browser.once('exit', resolve));
  try { process.kill(-browser.pid, 'SIGKILL'); } catch { /* already gone */ }
  await Promise.race([browserGone, new Promise((resolve) => setTimeout(resolve, 2000))]);
  server.closeAllConnections();
  server.close();
  process.stdin.destroy();
  try {
    rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
  } catch (err) {
    process.stderr.write(`spindle: warning: could not remove ${profile}: ${err.message}\n`);
  }
  if (result.error) throw new Error(`browser run failed: ${result.error}`);
  if (result.crossOriginIsolated === false) throw new Error('the page was not cross-origin isolated');
  if (result.trap) process.stderr.write(`spindle: ${result.trap}\n`);
  return result.exitCode;
}
