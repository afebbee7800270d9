// What the OPFS test files share (tests/opfs.test.js, tests/opfs-crash.test.js,
// tests/opfs-sqlite-crash.test.js): the page server (Firefox's pages are driven through it,
// tests/lib/page-driver.js), profile directories that outlive a browser (so a killed browser's
// OPFS can be read back), pages with bench/opfs/run-page.js, tabs with tests/opfs/crash-tab.html,
// and the C programs built once per file for every browser.
/* global window -- the functions given to page.evaluate run in the page */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { serveIsolated } from '../../cli/browser/isolated-server.js';
import { exec } from '../lib/exec.js';
import { driverPost, driverRoutes } from '../lib/page-driver.js';
import { openProfile } from './profile.js';

export const root = join(import.meta.dirname, '..', '..');
export const spindle = join(root, 'bin', 'spindle');
export const out = join(root, 'build', 'tests', 'opfs');
export const skip = process.env.SPINDLE_TEST_BROWSER === '0' ? 'SPINDLE_TEST_BROWSER=0' : false;

const built = new Map(); // name -> Promise of its URL: each browser's tests use the same build

/** Builds `src` with spindle cc (once per name); resolves the wasm's URL on the test server. */
export function cc(src, name, extra = []) {
  if (!built.has(name)) {
    built.set(name, (async () => {
      mkdirSync(out, { recursive: true });
      const r = await exec(spindle, ['cc', '-O1', ...extra, src, '-o', join(out, `${name}.wasm`)]);
      assert.equal(r.code, 0, `spindle cc ${src}:\n${r.stderr}`);
      return `build/tests/opfs/${name}.wasm`;
    })());
  }
  return built.get(name);
}

/** page.evaluate of bench/opfs/run-page.js's spindleRun: resolves { exitCode, trap, stdout, stderr } or { error }. */
export function spindleRun(page, url, options) {
  return page.evaluate(([u, o]) => window.spindleRun(u, o), [url, options]);
}

/**
 * Opens a tab on tests/opfs/crash-tab.html from the test's page; resolves its index in the page's
 * window.tabs (tests/opfs-crash.test.js, tests/opfs-sqlite-crash.test.js).
 */
export function openTab(page) {
  return page.evaluate(() => new Promise((resolve, reject) => {
    window.tabs ??= [];
    window.results ??= [];
    const tab = window.open('tests/opfs/crash-tab.html');
    if (!tab) { reject(new Error('window.open gave no tab (a popup blocker?)')); return; }
    const i = window.tabs.push(tab) - 1;
    const since = Date.now();
    const check = () => {
      if (tab.spindleReady) resolve(i);
      else if (Date.now() - since > 30000) reject(new Error('the tab did not load in 30 s'));
      else setTimeout(check, 20);
    };
    check();
  }));
}

/**
 * Starts the server before the file's tests and stops it after them, closing the browsers a
 * test left open and removing the profiles made meanwhile. Returns { newProfile(),
 * openPage(profile, browser), runPage(profile, browser) }.
 */
export function opfsSuite() {
  let server = null;
  const profiles = [];
  // A test that times out never reaches its `finally`: its browser would keep the file's process
  // (and CI) alive after the failure.
  const open = new Set();
  before(async () => {
    if (skip) return;
    server = await serveIsolated(driverRoutes, { onPost: driverPost });
  });
  after(async () => {
    await Promise.all([...open].map((b) => b.close().catch(() => {})));
    server?.close();
    for (const p of profiles) rmSync(p, { recursive: true, force: true });
  });
  async function openPage(profile, browser) {
    const b = await openProfile(profile, `${server.url}/`, { browser });
    open.add(b);
    const close = b.close.bind(b);
    b.close = () => { open.delete(b); return close(); };
    return b;
  }
  return {
    newProfile() {
      const p = mkdtempSync(join(tmpdir(), 'spindle-opfs-test-'));
      profiles.push(p);
      return p;
    },
    /** Opens the profile in `browser` (tests/opfs/profile.js) at the server's empty page. */
    openPage,
    /** The same, with bench/opfs/run-page.js loaded (window.spindleRun, window.spindleOut). */
    async runPage(profile, browser) {
      const b = await openPage(profile, browser);
      await b.page.addScriptTag({ type: 'module', url: 'bench/opfs/run-page.js' });
      await b.page.waitForFunction(() => window.spindleReady, null, { timeout: 30000 });
      return b;
    },
  };
}
