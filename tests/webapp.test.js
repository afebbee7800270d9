// A web app ships Spindle with its usual tools (issue 23, item 6; docs/HOST.md, "A web app"):
// - `npm pack ./host` gives the spindle-host package: an exports map, types, and only the host's
//   run-time files (no CLI page, tests, benchmarks or C);
// - the tarball installs into a fresh project, where Node imports it by name and runs a program;
// - Vite (the repository's pinned devDependency, so nothing is downloaded) builds tests/webapp/
//   (index.html, main.js importing `spindle-host` and the program's .wasm as an asset URL), and
//   the built folder, served cross-origin isolated, runs the threaded C program with an OPFS
//   mount in headless Chromium and, where it is installed, Firefox; the page posts its output
//   and exit code back to the server.
// SPINDLE_TEST_BROWSER=0 skips the browsers.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { build } from 'vite';
import { launchBrowser } from '../cli/browser/browser-process.js';
import { chromiumFlags, chromiumPath } from '../cli/browser/chromium.js';
import { sendFile } from '../cli/browser/isolated-server.js';
import { startLocalServer } from '../cli/browser/local-server.js';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const appSources = join(root, 'tests', 'webapp');
const firefoxPath = process.env.SPINDLE_FIREFOX || '/usr/bin/firefox-esr';
const skipBrowsers = process.env.SPINDLE_TEST_BROWSER === '0' ? 'SPINDLE_TEST_BROWSER=0' : false;
const expectedOutput = [0, 1, 2, 3].map((i) => `thread ${i} wrote this\n`).join('');

let work; // a temporary folder: the tarball and the project
let project;
let tarball;

async function run(cmd, args, cwd) {
  const r = await exec(cmd, args, { cwd });
  assert.equal(r.code, 0, `${cmd} ${args.join(' ')}:\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'spindle-webapp-'));
  project = join(work, 'app');
  mkdirSync(project);
  // the documented command (README.md, docs/HOST.md), from the repository root: `./host` is the
  // folder, where a bare `host` would be the registry's package of that name
  tarball = join(work, (await run('npm', ['pack', './host', '--silent', '--pack-destination', work], root)).trim());
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'webapp', private: true, type: 'module' }));
  // the package has no dependencies, so the install needs no registry
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], project);
  for (const file of ['index.html', 'main.js', 'vite.config.js']) cpSync(join(appSources, file), join(project, file));
  const cc = await exec(join(root, 'bin', 'spindle'), ['cc', '-O1', join(appSources, 'app.c'), '-o', join(project, 'app.wasm')]);
  assert.equal(cc.code, 0, cc.stderr);
});
after(() => { if (work) rmSync(work, { recursive: true, force: true }); });

describe('the spindle-host npm package', () => {
  it('holds an exports map, types and only the host\'s run-time files', async () => {
    const files = (await run('tar', ['tzf', tarball], work)).trim().split('\n').map((f) => f.replace(/^package\//, ''));
    for (const file of ['package.json', 'index.js', 'index.d.ts', 'program/thread-worker.js', 'program/browser-workers.js',
      'threads/control.js', 'compile/compilation.js', 'wasi/imports.js', 'mount/opfs/opfs-worker.js', 'code-cache/compile-cached.js']) {
      assert.ok(files.includes(file), `${file} is missing from the tarball`);
    }
    const stray = files.filter((f) => /^browser\/|test|bench|\.(c|cpp|h|html)$/.test(f));
    assert.deepEqual(stray, [], 'the tarball holds files that are not the host\'s');
    const pkg = JSON.parse(readFileSync(join(project, 'node_modules', 'spindle-host', 'package.json'), 'utf8'));
    assert.deepEqual(pkg.exports['.'], { types: './index.d.ts', default: './index.js' });
    assert.equal(pkg.private, undefined);
  });

  it('runs a program in Node when imported by name from the installed package', async () => {
    const data = join(work, 'data');
    mkdirSync(data);
    writeFileSync(join(project, 'node-main.js'), `import { readFileSync } from 'node:fs';
      import { run } from 'spindle-host';
      const { exitCode, trap } = await run(readFileSync('app.wasm'), { args: ['app'], mounts: [{ path: '/data', hostDir: ${JSON.stringify(data)} }] });
      if (trap) console.error(trap);
      process.exitCode = exitCode;`);
    const r = await exec(process.execPath, ['node-main.js'], { cwd: project });
    assert.deepEqual([r.code, r.stdout, r.stderr], [7, expectedOutput, '']);
    assert.equal(readFileSync(join(data, 't2.txt'), 'utf8'), 'thread 2 wrote this\n');
  });
});

/**
 * Starts `name` headless on the page at `url`; returns { stop() }. Hook for the lead: once the
 * `firefox` branch is merged, cli/browser/browsers.js is its one launcher for both browsers (and
 * launchBrowser takes what it returns); until then Chromium and Firefox start here, each
 * through cli/browser/browser-process.js's watchdog so neither outlives the test.
 */
async function openBrowser(name, url) {
  if (existsSync(join(root, 'cli', 'browser', 'browsers.js'))) {
    const { browserLaunch } = await import('../cli/browser/browsers.js');
    return launchBrowser(browserLaunch(name), { url });
  }
  if (name === 'chromium') return launchBrowser(chromiumPath, chromiumFlags, { url });
  const profile = mkdtempSync(join(work, 'firefox-profile-'));
  writeFileSync(join(profile, 'user.js'), 'user_pref("browser.shell.checkDefaultBrowser", false);\n');
  return launchBrowser(firefoxPath, ['-headless', '-no-remote', '-profile', profile], { url, profilePrefix: 'spindle-firefox-' });
}

/**
 * Serves the built app in `dist` cross-origin isolated, as a static host does: its hashed assets
 * (Vite's assets/NAME-HASH.EXT) cacheable for a year and immutable, which lets Chromium keep a
 * module's compiled code for the next visit (tests/webapp/README.md). Returns { url, served
 * (the paths of the requests it answered), visit(name, open, settle?) (opens the page with
 * `open(url)`, a started browser, and resolves what the page posted), close() }.
 */
async function serveBuiltApp(dist) {
  const served = [];
  let report = () => {};
  const server = await startLocalServer(async (req, res, path) => {
    served.push(path);
    if (path === '/result' && req.method === 'POST') {
      const body = [];
      for await (const chunk of req) body.push(chunk);
      report(JSON.parse(Buffer.concat(body).toString()));
      return res.writeHead(204).end();
    }
    const file = join(dist, path === '/' ? 'index.html' : path);
    if (!file.startsWith(dist)) return sendFile(res, null);
    return sendFile(res, file, path.startsWith('/assets/') ? { 'Cache-Control': 'public, max-age=31536000, immutable' } : {});
  });
  // `settle`: waited for after the page posted, before its browser is stopped
  async function visit(name, open, settle = async () => {}) {
    const posted = new Promise((resolve) => { report = resolve; });
    const browser = await open(server.url);
    let timer;
    try {
      const result = await Promise.race([
        posted,
        browser.exited.then((why) => ({ error: why })),
        new Promise((resolve) => { timer = setTimeout(() => resolve({ error: `${name}: no result in 60 s` }), 60000); }),
      ]);
      await settle();
      return result;
    } finally {
      clearTimeout(timer);
      await browser.stop();
    }
  }
  return { url: server.url, served, visit, close: server.close };
}

/** Serves the built app cross-origin isolated, opens it in `name`; resolves what the page posted. */
async function runBuiltApp(dist, name) {
  const app = await serveBuiltApp(dist);
  try {
    return await app.visit(name, (url) => openBrowser(name, url));
  } finally {
    app.close();
  }
}

/** The entry files of a Chromium profile's wasm code cache. */
function wasmCodeCacheEntries(profile) {
  try {
    return readdirSync(join(profile, 'Default', 'Code Cache', 'wasm')).filter((n) => /^[0-9a-f]{16}_\d$/.test(n));
  } catch {
    return [];
  }
}

describe('a web app built by Vite with the package', { skip: skipBrowsers }, () => {
  let dist;
  before(async () => {
    dist = join(project, 'dist');
    await build({ root: project, logLevel: 'error' });
  });

  it('has the program, the thread worker and the OPFS worker as assets of the build', () => {
    const assets = readdirSync(join(dist, 'assets'));
    for (const asset of [/^app-.*\.wasm$/, /^thread-worker-.*\.js$/, /^opfs-worker-.*\.js$/]) {
      assert.ok(assets.some((a) => asset.test(a)), `no ${asset} in ${assets.join(' ')}`);
    }
  });

  // Chromium keeps a module's optimized code for the next visit when the page compiles it with
  // WebAssembly.compileStreaming (the host does, for a URL) from a response it may keep (docs/HOST.md,
  // "Cached code in pages"). The app's program is too short for V8 to optimize any of it in a
  // user's browser, so this profile's V8 optimizes every function at its first call and caches at
  // once (V8's flags, given here only); the same profile then visits the page again.
  it('gets a second visit the code Chromium cached on the first, in one profile', { skip: existsSync(chromiumPath) ? false : `${chromiumPath} is not installed` }, async () => {
    const { browserLaunch } = await import('../cli/browser/browsers.js');
    const profile = mkdtempSync(join(tmpdir(), 'spindle-webapp-profile-'));
    const app = await serveBuiltApp(dist);
    const launch = browserLaunch('chromium', { jsFlags: ['--wasm-tiering-budget=1', '--wasm-caching-timeout-ms=0'] });
    const open = (url) => launchBrowser(launch, { url, keptProfile: profile });
    const moduleRequests = () => app.served.filter((p) => /^\/assets\/app-.*\.wasm$/.test(p)).length;
    try {
      // (the code reaches the profile's cache a moment after V8 made it)
      const cached = async () => {
        for (let waited = 0; wasmCodeCacheEntries(profile).length === 0 && waited < 5000; waited += 100) await new Promise((r) => { setTimeout(r, 100); });
      };
      assert.deepEqual(await app.visit('chromium', open, cached), { output: expectedOutput, exitCode: 7, trap: null });
      assert.equal(moduleRequests(), 1);
      assert.ok(wasmCodeCacheEntries(profile).length > 0, 'the first visit left no code in the profile\'s wasm code cache');
      assert.deepEqual(await app.visit('chromium', open), { output: expectedOutput, exitCode: 7, trap: null });
      // the second visit's module came from the HTTP cache, the response the cached code belongs to
      assert.equal(moduleRequests(), 1, 'the second visit fetched the module again');
    } finally {
      app.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  const browsers = [['chromium', chromiumPath], ['firefox', firefoxPath]];
  for (const [name, path] of browsers) {
    const skip = existsSync(path) ? false : `${path} is not installed`;
    it(`runs the threaded program with an OPFS mount in ${name}`, { skip }, async () => {
      const result = await runBuiltApp(dist, name);
      assert.deepEqual(result, { output: expectedOutput, exitCode: 7, trap: null });
    });
  }
});
