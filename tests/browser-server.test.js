// Attacks on the local HTTP servers Spindle starts (issue 21): the one `spindle run --browser`
// and `spindle bench --browser` serve their page from (cli/browser/browser-session.js), and the static one
// the tests' and benchmarks' Playwright pages use (cli/browser/isolated-server.js). Each attack is one that
// another local process, a page of another origin or a DNS-rebinding page can make.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromiumArgs } from '../cli/browser/chromium.js';
import { serveIsolated } from '../cli/browser/isolated-server.js';
import { exec } from './lib/exec.js';
import { listeningPorts, probe } from './lib/http-probe.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const out = join(root, 'build', 'tests', 'browser-server');
const skipBrowser = process.env.SPINDLE_TEST_BROWSER === '0';
const foreignOrigin = 'http://attacker.example';
const apiToken = 'API_TOKEN=do-not-leak-7f3a';

/**
 * Starts `spindle run --browser` on tests/browser-server/read_line.c with its own TMPDIR (where
 * the browser's profile goes), as the user `uid` when given; `printed(text)` resolves once
 * stdout has `text` (`ready`: the program waits for input), `port()` is the port its server
 * listens on, `finished` resolves { code, stdout, stderr }.
 */
function startRun(wasm, temp, env = {}, uid = null) {
  const command = [spindle, 'run', '--browser', `--env=${apiToken}`, wasm];
  const asUser = uid === null ? [] : ['setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups'];
  const [program, ...args] = [...asUser, ...command];
  const child = spawn(program, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: temp, ...env } });
  const stdout = []; const stderr = [];
  child.stderr.on('data', (c) => stderr.push(c));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60000);
  const finished = new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(stdout).toString(), stderr: Buffer.concat(stderr).toString() });
    });
  });
  const watchers = [];
  const check = () => {
    const text = Buffer.concat(stdout).toString();
    for (const w of watchers.filter((x) => text.includes(x.text))) watchers.splice(watchers.indexOf(w), 1)[0].resolve();
  };
  child.stdout.on('data', (c) => { stdout.push(c); check(); });
  const printed = (text) => new Promise((resolve) => { watchers.push({ text, resolve }); check(); });
  return { child, finished, printed, ready: printed('ready\n'), port: () => listeningPorts(child.pid)[0] };
}

/** The address the CLI gave its browser, as a process that can read the profile would learn it. */
function launchedUrl(temp, port) {
  for (const dir of readdirSync(temp).filter((d) => d.startsWith('spindle-chromium-'))) {
    try {
      return /url=([^"]+)"/.exec(readFileSync(join(temp, dir, 'start.html'), 'utf8'))[1];
    } catch { /* not this one */ }
  }
  return `http://127.0.0.1:${port}/`; // a server without a secret: its page is at /
}

describe('the server of spindle run --browser', { skip: skipBrowser }, () => {
  let wasm; let temp;
  before(async () => {
    mkdirSync(out, { recursive: true });
    temp = mkdtempSync(join(tmpdir(), 'spindle-bs-')); // short: Chromium's socket path under it has a length limit
    wasm = join(out, 'read_line.wasm');
    const r = await exec(spindle, ['cc', '-O2', join(root, 'tests', 'browser-server', 'read_line.c'), '-o', wasm]);
    assert.equal(r.code, 0, r.stderr);
  });
  after(() => rmSync(temp, { recursive: true, force: true }));

  it('answers nothing without the run\'s secret: no job, page, module, output, exit or stdin', async () => {
    const run = startRun(wasm, temp);
    await run.ready;
    const origin = `http://127.0.0.1:${run.port()}`;
    const job = await probe(`${origin}/job`, { timeoutMs: 2000 });
    assert.equal(job.status, 404, 'GET /job without the secret');
    for (const path of ['/', '/wasm/1', '/host/index.js', '/io/1/stdin?max=100']) {
      assert.equal((await probe(`${origin}${path}`, { timeoutMs: 1000 })).status, 404, `GET ${path}`);
    }
    const injected = await probe(`${origin}/io/1/fd/1`, { method: 'POST', body: 'INJECTED\n' });
    assert.equal(injected.status, 404, 'a write to the terminal');
    const exit = await probe(`${origin}/exit/1`, { method: 'POST', body: JSON.stringify({ exitCode: 42, trap: 'owned' }) });
    assert.equal(exit.status, 404, 'an exit');
    run.child.stdin.end('hello\n');
    const r = await run.finished;
    assert.deepEqual(r, { code: 0, stdout: 'ready\ngot: hello\n', stderr: '' });
  });

  it('with the secret, refuses another Host, another origin, a second job claim; a stdin request that gives up takes no input', async () => {
    const run = startRun(wasm, temp);
    await run.ready;
    const page = launchedUrl(temp, run.port());
    const pageUrl = new URL(page);
    const refused = [
      ['a DNS-rebinding page (another Host)', { headers: { Host: `attacker.example:${pageUrl.port}` } }],
      ['another Host on the port', { headers: { Host: `127.0.0.2:${pageUrl.port}` } }],
      ['a page of another origin', { headers: { Origin: foreignOrigin } }],
      ['a cross-site request without Origin', { headers: { 'Sec-Fetch-Site': 'cross-site' } }],
    ];
    for (const [who, options] of refused) {
      const r = await probe(`${page}job`, { ...options, timeoutMs: 2000 });
      assert.equal(r.status, 403, who);
      assert.equal(r.headers['access-control-allow-origin'], undefined, who);
    }
    const second = await probe(`${page}job`, { timeoutMs: 2000 });
    assert.equal(second.status, 403, 'a second claim of the job');
    assert.ok(!JSON.stringify(second).includes('do-not-leak'));
    const badExit = await probe(`${page}exit/1`, { method: 'POST', body: '{not json' });
    assert.equal(badExit.status, 400, 'an exit that is not JSON');
    // waiting behind the program's own request; then the program asks for its next line
    const givenUp = await probe(`${page}io/1/stdin?max=100`, { timeoutMs: 500 });
    assert.equal(givenUp.status, 'no answer');
    // the line comes after the server saw the give-up (its connection's close): no server can
    // tell a request that gives up at the very moment input arrives from one that took it
    await new Promise((resolve) => { setTimeout(resolve, 300); });
    run.child.stdin.write('hello\n');
    await run.printed('got: hello\n');
    run.child.stdin.end('world\n');
    const r = await run.finished;
    assert.deepEqual(r, { code: 0, stdout: 'ready\ngot: hello\ngot: world\n', stderr: '' });
  });

  it('prints trap text posted to /exit with its control characters escaped, a frame\'s line break kept', async () => {
    const run = startRun(wasm, temp);
    await run.ready;
    const page = launchedUrl(temp, run.port());
    const trap = 'thread 1: trap\x1b]0;title\x07\x1b[2J\rforged line\n\u202eevil\x7f\n    at f (x:wasm-function[1]:0x2a)\x1b[2J';
    const posted = await probe(`${page}exit/1`, { method: 'POST', body: JSON.stringify({ exitCode: 3, trap }) });
    assert.equal(posted.status, 200);
    const r = await run.finished;
    assert.equal(r.code, 3);
    assert.equal(r.stderr, 'spindle: thread 1: trap\\x1b]0;title\\x07\\x1b[2J\\rforged line\\n\\u202eevil\\x7f\n    at f (x:wasm-function[1]:0x2a)\\x1b[2J\n');
  });

  it('fails with a clear message when the page never claims its job, and no poller takes it', async () => {
    const fake = join(temp, 'never-claims.sh');
    writeFileSync(fake, '#!/bin/sh\nexec sleep 60\n');
    chmodSync(fake, 0o755);
    const started = Date.now();
    const run = startRun(wasm, temp, { SPINDLE_CHROMIUM: fake, SPINDLE_PAGE_CLAIM_TIMEOUT_S: '2' });
    let port;
    while (!(port = run.port()) && Date.now() - started < 10000) await new Promise((resolve) => { setTimeout(resolve, 50); });
    const stolen = await probe(`http://127.0.0.1:${port}/job`, { timeoutMs: 1000 });
    assert.notEqual(stolen.status, 200, 'a process polling for the port took the job');
    const r = await run.finished;
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^spindle: the browser did not open the run's page within 8 s \(a slow machine can raise the limit with SPINDLE_PAGE_CLAIM_TIMEOUT_S\)\n$/);
    assert.ok(Date.now() - started < 20000, `took ${Date.now() - started} ms`);
  });

  // A browser that starts slowly (a loaded machine) still runs the job; a page that loaded and
  // never claims fails after the claim's own limit, counted from its load.
  for (const { claims, delayMs, expect } of [
    { claims: true, delayMs: 4000, expect: { code: 7, stderr: /^$/ } },
    { claims: false, delayMs: 0, expect: { code: 1, stderr: /^spindle: the browser's page did not start the run within 2 s / } },
  ]) {
    it(`a browser that opens the page after ${delayMs} ms and ${claims ? 'claims the job runs it' : 'never claims fails'}`, async () => {
      const fake = join(temp, `slow-start-${claims}.cjs`);
      writeFileSync(fake, `#!${process.execPath}
const page = /url=([^"]+)"/.exec(require('node:fs').readFileSync(new URL(process.argv.at(-1)), 'utf8'))[1].replaceAll('&amp;', '&');
const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });
(async () => {
  await sleep(${delayMs});
  await (await fetch(page)).text();
  if (${claims}) {
    const job = await (await fetch(new URL('job', page))).json();
    await fetch(new URL('exit/' + job.id, page), { method: 'POST', body: JSON.stringify({ exitCode: 7, crossOriginIsolated: true }) });
  }
  await sleep(60000);
})();
`);
      chmodSync(fake, 0o755);
      const started = Date.now();
      const r = await startRun(wasm, temp, { SPINDLE_CHROMIUM: fake, SPINDLE_PAGE_CLAIM_TIMEOUT_S: '2' }).finished;
      assert.equal(r.code, expect.code, r.stderr);
      assert.match(r.stderr, expect.stderr);
      assert.ok(Date.now() - started < 20000, `took ${Date.now() - started} ms`);
    });
  }

  it('prints one line for a module it cannot run, as Node does', async () => {
    const randomBytes = join(out, 'random-bytes.wasm');
    writeFileSync(randomBytes, Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 7919 + 13) % 256)));
    const notThreaded = join(out, 'not-threaded.wasm');
    writeFileSync(notThreaded, Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
    for (const file of [randomBytes, notThreaded]) {
      const node = await exec(spindle, ['run', file]);
      const browser = await exec(spindle, ['run', '--browser', file]);
      assert.equal(node.code, 1);
      assert.match(node.stderr, /^spindle: [^\n]+\n$/);
      assert.deepEqual({ code: browser.code, stderr: browser.stderr }, { code: node.code, stderr: node.stderr });
    }
  });
});

describe('the static server of the Playwright pages (serveIsolated)', () => {
  let server;
  before(async () => { server = await serveIsolated(); });
  after(() => server.close());
  const origin = () => new URL(server.url).origin;

  it('serves under its secret only', async () => {
    assert.equal((await probe(`${server.url}/host/index.js`)).status, 200);
    assert.notEqual(server.url, origin(), 'the url has a secret path');
    assert.equal((await probe(`${origin()}/host/index.js`)).status, 404);
    assert.equal((await probe(`${origin()}/`)).status, 404);
  });

  it('refuses another Host, another origin and cross-site requests, and sends no CORS headers', async () => {
    const port = new URL(server.url).port;
    for (const headers of [{ Host: `attacker.example:${port}` }, { Host: `127.0.0.1:${Number(port) + 1}` },
      { Origin: foreignOrigin }, { 'Sec-Fetch-Site': 'cross-site' }, { 'Sec-Fetch-Site': 'same-site' }]) {
      const r = await probe(`${server.url}/host/index.js`, { headers });
      assert.equal(r.status, 403, JSON.stringify(headers));
      assert.equal(r.headers['access-control-allow-origin'], undefined);
    }
    const frame = { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'iframe' };
    assert.equal((await probe(`${server.url}/host/index.js`, { headers: frame })).status, 403, 'a frame of another site');
    // the CLI's start file (a file: page) sends its browser on with a top-level navigation
    const startFile = { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document' };
    for (const headers of [{ Host: `localhost:${port}` }, { Origin: origin() }, { 'Sec-Fetch-Site': 'same-origin' }, { 'Sec-Fetch-Site': 'none' }, startFile]) {
      assert.equal((await probe(`${server.url}/host/index.js`, { headers })).status, 200, JSON.stringify(headers));
    }
  });
});

/** The Seccomp mode (2: a filter) and user namespace of each Chromium renderer under `temp`. */
function renderers(temp) {
  return readdirSync('/proc').filter((pid) => /^\d+$/.test(pid)).flatMap((pid) => {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmdline.includes(temp) || !cmdline.includes('--type=renderer')) return [];
      const seccomp = Number(/^Seccomp:\s+(\d)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
      return [{ seccomp, userNamespace: readlinkSync(`/proc/${pid}/ns/user`), browserUi: /(^|[\s\0])--top-chrome-webui([\s\0]|$)/.test(cmdline) }];
    } catch {
      return []; // gone meanwhile
    }
  });
}

// Headless Chromium builds browser UI a page run never shows (the omnibox popup's WebUI, a
// renderer of its own that took a core for the run's first seconds): cli/browser/chromium.js.
describe('Chromium\'s own UI', { skip: skipBrowser }, () => {
  it('gets no renderer of its own while a program runs', async () => {
    const temp = mkdtempSync(join(tmpdir(), 'spindle-bs-'));
    try {
      const wasm = join(temp, 'read_line.wasm');
      const r = await exec(spindle, ['cc', '-O2', join(root, 'tests', 'browser-server', 'read_line.c'), '-o', wasm]);
      assert.equal(r.code, 0, r.stderr);
      const run = startRun(wasm, temp);
      await run.ready;
      await new Promise((resolve) => { setTimeout(resolve, 2000); }); // the UI came within ~2 s of the start
      const found = renderers(temp);
      run.child.stdin.end('hello\n');
      assert.equal((await run.finished).code, 0);
      assert.ok(found.length > 0, 'a renderer runs');
      assert.deepEqual(found.filter((x) => x.browserUi), [], 'a renderer of the browser\'s UI (--top-chrome-webui)');
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });
});

describe('Chromium\'s sandbox', () => {
  it('is turned off only when the CLI runs as root', () => {
    assert.equal(chromiumArgs.includes('--no-sandbox'), process.getuid() === 0);
  });

  // as root, the run goes as the unprivileged user nobody (65534), whom setpriv lets it become
  const asRoot = process.getuid() === 0;
  const noSetpriv = asRoot && spawnSync('setpriv', ['--version']).error;
  it('is on for a run as another user than root: its renderers are under seccomp, in a user namespace of their own',
    { skip: skipBrowser || (noSetpriv && 'no setpriv to run as a user other than root') }, async () => {
      const temp = mkdtempSync(join(tmpdir(), 'spindle-bs-'));
      try {
        const wasm = join(temp, 'read_line.wasm');
        const r = await exec(spindle, ['cc', '-O2', join(root, 'tests', 'browser-server', 'read_line.c'), '-o', wasm]);
        assert.equal(r.code, 0, r.stderr);
        if (asRoot) chownSync(temp, 65534, 65534);
        const run = startRun(wasm, temp, { HOME: temp }, asRoot ? 65534 : null);
        await run.ready;
        const found = renderers(temp);
        run.child.stdin.end('hello\n');
        assert.deepEqual(await run.finished, { code: 0, stdout: 'ready\ngot: hello\n', stderr: '' });
        assert.ok(found.length > 0, 'a renderer runs');
        for (const renderer of found) {
          assert.equal(renderer.seccomp, 2, 'a seccomp filter');
          assert.notEqual(renderer.userNamespace, readlinkSync('/proc/self/ns/user'));
        }
      } finally {
        rmSync(temp, { recursive: true, force: true });
      }
    });
});
