// Cached code in pages (docs/HOST.md, "Cached code in pages"; cli/browser/chromium-code-cache.js):
// `spindle run --browser` serves a module from a URL named by its bytes, to its own page only,
// with headers that let Chromium keep it, and keeps the profile's HTTP and wasm code caches in a
// per-user directory, so that a module's second run gets the code V8 cached in its first.
// SPINDLE_TEST_BROWSER=0 skips what needs Chromium.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MODULE_CACHE_CONTROL, PAGE_TOKEN_HEADER, serveModule } from '../cli/browser/browser-session.js';
import { chromiumPath } from '../cli/browser/chromium.js';
import { codeCacheState, MODULE_PATH, modulePath, openProfileCache, pagePorts, profileCacheDir, sha256Hex } from '../cli/browser/chromium-code-cache.js';
import { startLocalServer } from '../cli/browser/local-server.js';
import { uniqueModule } from '../cli/browser/unique-module.js';
import { withOptimizeHints } from '../cli/browser/optimize-hints.js';
import { entryKey } from '../cli/browser/superseded-code.js';
import { sections } from '../host/compile/wasm-binary.js';
import { exec } from './lib/exec.js';
import { probe } from './lib/http-probe.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const out = join(root, 'build', 'tests', 'page-code-cache');
const skipBrowser = process.env.SPINDLE_TEST_BROWSER === '0' ? 'SPINDLE_TEST_BROWSER=0'
  : existsSync(chromiumPath) ? false : `${chromiumPath} is not installed`;
const scratch = mkdtempSync(join(tmpdir(), 'spindle-page-cache-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => join(scratch, `cache-${++dirs}`);

describe('a module\'s stable URL on the page\'s server', () => {
  const token = 'the-page-token-0123456789abcdef';
  const bytes = Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
  const sha = sha256Hex(bytes);
  let server;
  before(async () => {
    server = await startLocalServer((req, res, path, open) => (open ? serveModule(req, res, path, { token, bytesOf: (s) => (s === sha ? bytes : null) })
      : res.writeHead(204).end()), { openPath: (path) => MODULE_PATH.test(path) });
  });
  after(() => server.close());
  const get = (path, headers = {}) => probe(`${server.origin}${path}`, { headers });

  it('is named by the SHA-256 of the bytes: the same for the same bytes, another for others', () => {
    assert.equal(modulePath(sha256Hex(Buffer.from(bytes))), modulePath(sha));
    assert.match(modulePath(sha), /^\/wasm\/[0-9a-f]{64}\.wasm$/);
    assert.notEqual(modulePath(sha256Hex(uniqueModule(bytes, 'another build'))), modulePath(sha));
  });

  it('is refused without the page\'s token, or with another, and answers nothing else outside the secret', async () => {
    assert.equal((await get(modulePath(sha))).status, 403, 'no token');
    assert.equal((await get(modulePath(sha), { [PAGE_TOKEN_HEADER]: 'x'.repeat(token.length) })).status, 403, 'another token');
    assert.equal((await get(modulePath(sha), { [PAGE_TOKEN_HEADER]: token.slice(1) })).status, 403, 'a shorter one');
    assert.equal((await get(`${modulePath(sha)}?x=1`, {})).status, 403, 'with a query');
    assert.equal((await get(modulePath('0'.repeat(64)), { [PAGE_TOKEN_HEADER]: token })).status, 404, 'a module no job runs');
    assert.equal((await get('/wasm/1', { [PAGE_TOKEN_HEADER]: token })).status, 404, 'the job path outside the secret');
    const foreign = await get(modulePath(sha), { [PAGE_TOKEN_HEADER]: token, Origin: 'http://attacker.example' });
    assert.equal(foreign.status, 403, 'another origin');
    const rebinding = await get(modulePath(sha), { [PAGE_TOKEN_HEADER]: token, Host: `attacker.example:${server.port}` });
    assert.equal(rebinding.status, 403, 'another Host');
  });

  it('is served with the token, cacheable for a year and immutable, with an ETag, the isolation headers and application/wasm', async () => {
    const r = await get(modulePath(sha), { [PAGE_TOKEN_HEADER]: token });
    assert.equal(r.status, 200);
    assert.equal(r.body, bytes.toString());
    assert.equal(r.headers['cache-control'], MODULE_CACHE_CONTROL);
    assert.match(r.headers['cache-control'], /max-age=31536000/);
    assert.match(r.headers['cache-control'], /immutable/);
    assert.equal(r.headers.etag, `"${sha}"`);
    assert.equal(r.headers['content-type'], 'application/wasm');
    assert.equal(r.headers['cross-origin-opener-policy'], 'same-origin');
    assert.equal(r.headers['cross-origin-embedder-policy'], 'require-corp');
    assert.equal(r.headers['cross-origin-resource-policy'], 'same-origin');
    const again = await get(modulePath(sha), { [PAGE_TOKEN_HEADER]: token, 'If-None-Match': `"${sha}"` });
    assert.equal(again.status, 304);
    assert.equal(again.body, '');
    assert.equal(again.headers['cache-control'], MODULE_CACHE_CONTROL);
  });
});

describe('the per-user page cache directory', () => {
  it('is $SPINDLE_CODE_CACHE_DIR/chromium-profile, else under $XDG_CACHE_HOME, or DIR/chromium-profile; none when off', () => {
    assert.equal(profileCacheDir(true, { SPINDLE_CODE_CACHE_DIR: '/c' }), '/c/chromium-profile');
    assert.equal(profileCacheDir(true, { XDG_CACHE_HOME: '/x' }), '/x/spindle/chromium-profile');
    assert.equal(profileCacheDir('/d', { SPINDLE_CODE_CACHE_DIR: '/c' }), '/d/chromium-profile');
    assert.equal(profileCacheDir(false, {}), null);
    assert.equal(profileCacheDir(true, { SPINDLE_CODE_CACHE: '0', XDG_CACHE_HOME: '/x' }), null);
  });

  it('is made 0700, and refused when others may write to it', () => {
    const dir = freshDir();
    const made = openProfileCache(dir, {});
    assert.equal(made.dir, join(dir, 'chromium-profile'));
    assert.equal(statSync(made.dir).mode & 0o777, 0o700);
    chmodSync(made.dir, 0o777);
    const refused = openProfileCache(dir, {});
    assert.equal(refused.dir, undefined);
    assert.match(refused.why, /writable by others \(mode 777\)/);
  });

  it('gives the page\'s server the same ports every time, eight of them, below the ephemeral ones', () => {
    assert.deepEqual(pagePorts(1000), pagePorts(1000));
    assert.equal(pagePorts(1000).length, 8);
    assert.ok(pagePorts(1000).every((p, i) => p === pagePorts(1000)[0] + i && p >= 20000 && p < 28000));
  });
});

// V8 caches only optimized code: the page gets hints that it optimize every function (--compile=auto).
describe('spindle run --browser with the page cache', { skip: skipBrowser }, () => {
  let wasm; let other;
  before(async () => {
    mkdirSync(out, { recursive: true });
    wasm = join(out, 'own_files.wasm');
    const r = await exec(spindle, ['cc', '-O2', join(root, 'bench', 'fs', 'own_files.c'), '-o', wasm]);
    assert.equal(r.code, 0, r.stderr);
    other = join(out, 'own_files-other.wasm');
    writeFileSync(other, uniqueModule(readFileSync(wasm), 'other bytes'));
  });

  /** `spindle run --browser` with `options`; { code, stdout, moduleUrl (the page compiled), log } */
  async function runPage(options, file = wasm, env = {}, threads = '1') {
    const r = await exec(spindle, ['run', '--browser', ...options, file, threads], {
      env: { ...process.env, SPINDLE_DEBUG: '1', XDG_CACHE_HOME: join(scratch, 'xdg'), SPINDLE_CODE_CACHE_DIR: '', ...env } });
    assert.equal(r.code, 0, r.stderr.split('\n').filter((l) => !l.startsWith('[spindle] GET') && !l.startsWith('[spindle] POST')).join('\n'));
    assert.match(r.stdout, /^RESULT \{"bench":"own_files"/);
    const moduleUrl = /code cache: browser: streamed from (\S+)/.exec(r.stderr)?.[1];
    return { ...r, moduleUrl, fetched: r.stderr.split('\n').filter((l) => /^\[spindle\] GET \/wasm\/[0-9a-f]{64}\.wasm$/.test(l)).length };
  }
  const keptEntries = (dir) => Object.keys(codeCacheState(join(dir, 'chromium-profile', 'saved')));

  // (the hint is kept in the code cache's directory, as Node's runs keep it)
  it('starts as many threads\' workers beside the page\'s compile as the module\'s last runs used, and keeps what this run used', async () => {
    const dir = freshDir();
    const started = (r) => Number(/threads' workers started early: (\d+)/.exec(r.stderr)?.[1]);
    const cores = availableParallelism();
    const first = await runPage([`--code-cache=${dir}`], wasm, {}, '2');
    assert.match(first.stderr, /no runs of the module known here/);
    assert.equal(started(first), cores > 1 ? 2 : 0);
    assert.match(first.stdout, /"threads":2,.*"mismatches":0/);
    const second = await runPage([`--code-cache=${dir}`], wasm, {}, '1');
    assert.match(second.stderr, /its last runs here used 2\)/);
    assert.equal(started(second), Math.min(2, cores));
    const third = await runPage([`--code-cache=${dir}`, '--max-threads=1'], wasm, {}, '1');
    assert.match(third.stderr, /its last runs here used 1, 2\)/);
    assert.equal(started(third), 1, 'no more than --max-threads');
  });

  it('keeps the code V8 cached in a module\'s first run, and its second run compiles from the same URL without fetching it', async () => {
    const dir = freshDir();
    // (the first run waits for V8's first cached code, which TurboFan on a loaded 2-core machine
    // has taken longer than the default 2 s to make: a CI run where other suites' browsers ran)
    const first = await runPage([`--code-cache=${dir}`], wasm, { SPINDLE_PAGE_CACHE_WAIT_MS: '10000' });
    assert.match(first.moduleUrl, /^http:\/\/127\.0\.0\.1:\d+\/wasm\/[0-9a-f]{64}\.wasm$/);
    assert.equal(new URL(first.moduleUrl).pathname, modulePath(sha256Hex(withOptimizeHints(readFileSync(wasm)).bytes)));
    assert.equal(first.fetched, 1);
    assert.match(first.stderr, /page code cache: V8 stored code/);
    const cacheDir = join(dir, 'chromium-profile');
    assert.equal(statSync(cacheDir).mode & 0o777, 0o700);
    assert.ok(keptEntries(dir).length > 0, 'no entry in the kept wasm code cache after the first run');
    const second = await runPage([`--code-cache=${dir}`]);
    assert.equal(second.moduleUrl, first.moduleUrl, 'the same bytes had another URL (or origin) on the second run');
    assert.equal(second.fetched, 0, 'the second run fetched the module: its code cannot be the one cached for the first response');
    const third = await runPage([`--code-cache=${dir}`], other);
    assert.notEqual(third.moduleUrl, first.moduleUrl, 'other bytes had the same URL');
    assert.equal(new URL(third.moduleUrl).origin, new URL(first.moduleUrl).origin);
  });

  /** The sizes of the code entries (keyed by a SHA-256) in the saved wasm code cache of `dir`. */
  const keptCode = (dir) => {
    const folder = join(dir, 'chromium-profile', 'saved', 'Default', 'Code Cache', 'wasm');
    return readdirSync(folder).filter((n) => n.endsWith('_0')).map((n) => readFileSync(join(folder, n)))
      .filter((bytes) => /^[0-9A-F]{64}$/.test(entryKey(bytes)?.key ?? '')).map((bytes) => bytes.length);
  };

  it('serves the module with hints to optimize every function, so that a first run leaves the code of all of them, in one copy', async () => {
    const bytes = readFileSync(wasm);
    const code = sections(bytes).find((s) => s.id === 10);
    const hinted = freshDir();
    // (a loaded CI machine's TurboFan can take over the 2 s a user's first run waits)
    const first = await runPage([`--code-cache=${hinted}`], wasm, { SPINDLE_PAGE_CACHE_WAIT_MS: '10000' });
    assert.equal(new URL(first.moduleUrl).pathname, modulePath(sha256Hex(withOptimizeHints(bytes).bytes)));
    assert.match(first.stderr, /page code cache: V8 stored code/);
    const hintedCode = keptCode(hinted);
    assert.equal(hintedCode.length, 1, `copies of the module's code kept: ${hintedCode}`);
    // V8's own tier-up, without the hints (--compile=lazy serves the module as it is)
    const lazy = freshDir();
    const own = await runPage([`--code-cache=${lazy}`, '--compile=lazy']);
    assert.equal(new URL(own.moduleUrl).pathname, modulePath(sha256Hex(bytes)));
    const ownCode = keptCode(lazy).reduce((a, b) => Math.max(a, b), 0);
    assert.ok(hintedCode[0] > 2 * (code.end - code.start), `${hintedCode[0]} bytes of code kept for ${code.end - code.start} of wasm`);
    assert.ok(hintedCode[0] > 2 * ownCode, `${hintedCode[0]} bytes of code kept with the hints, ${ownCode} without`);
  });

  it('keeps nothing with --code-cache=off or SPINDLE_CODE_CACHE=0: the page compiles from the job\'s URL', async () => {
    const xdg = join(scratch, 'xdg-off');
    for (const [options, env] of [[['--code-cache=off'], {}], [[], { SPINDLE_CODE_CACHE: '0' }]]) {
      const r = await runPage(options, wasm, { XDG_CACHE_HOME: xdg, ...env });
      assert.match(r.stderr, /page code cache: off/);
      assert.doesNotMatch(r.moduleUrl, /\/wasm\/[0-9a-f]{64}\.wasm$/);
      assert.equal(existsSync(join(xdg, 'spindle', 'chromium-profile')), false, `${options} ${JSON.stringify(env)} made a page cache`);
    }
  });

  it('runs without the cache where its directory is writable by others, and puts nothing there', async () => {
    const dir = freshDir();
    mkdirSync(join(dir, 'chromium-profile'), { recursive: true });
    chmodSync(join(dir, 'chromium-profile'), 0o777);
    const r = await runPage([`--code-cache=${dir}`]);
    assert.match(r.stderr, /page code cache: off: .*writable by others/);
    assert.deepEqual(readdirSync(join(dir, 'chromium-profile')), []);
  });

  it('takes the next port when the first is in use, and two runs at once both work', async () => {
    const dir = freshDir();
    const [first, second] = pagePorts();
    const squatter = createServer((req, res) => res.writeHead(418).end());
    await new Promise((resolve, reject) => { squatter.once('error', reject); squatter.listen(first, '127.0.0.1', resolve); });
    try {
      const [a, b] = await Promise.all([runPage([`--code-cache=${dir}`]), runPage([`--code-cache=${dir}`])]);
      const ports = [a, b].map((r) => Number(new URL(r.moduleUrl).port)).sort();
      assert.ok(!ports.includes(first), 'a run used the port another server holds');
      assert.ok(ports.includes(second), `neither run took the next port: ${ports}`);
      assert.notEqual(ports[0], ports[1]);
    } finally {
      squatter.close();
    }
  });
});
