// What write() returned for is in the OPFS file however the program or its page ends (docs/MOUNTS.md,
// "Durability"; the host-directory half is tests/mount-crash.test.js), in headless Chromium and
// Firefox on persistent profiles (tests/opfs/harness.js). tests/mount/programs/crash_writer.c
// writes 4 KiB records with plain write() to /data/log on an OPFS mount, with neither fsync nor
// close, and prints "written N". It runs in a tab of its own (tests/opfs/crash-tab.html, opened
// by the test's page with window.open), and then: the whole browser is killed (SIGKILL to every
// process of it), the tab is reloaded, the tab is closed, the program ends by abort() or a trap
// (from main or a second thread), the host API's dispose() ends it, or the worker running its
// writing thread is terminated. Then the test's page (or, after the kill, a fresh browser on the
// same profile) reads the OPFS file with navigator.storage.getDirectory() and checks its size
// and every byte. While the program waits, the test's page reads the file too: what another
// page of the origin sees, and that the file is locked (the mount holds its sync access handle).
// SPINDLE_TEST_BROWSER=0 skips the file.
/* global window, location -- the functions given to page.evaluate run in the page */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cc, openTab, opfsSuite, root, skip } from './opfs/harness.js';
import { browserTitle, testBrowsers } from './lib/browsers.js';

const RECORD = 4096;
const { newProfile, openPage } = opfsSuite();

// ---- what the test's page does (each function runs in the page: only its arguments reach it) ----

/** Starts crash_writer ARGS in tab i on an OPFS mount of `subdir` at /data; its result goes to window.results[i]. */
function startWriter(page, i, wasm, args, subdir) {
  return page.evaluate(([n, url, argv, dir]) => {
    window.tabs[n].spindleRun(new URL(url, location.href).href, { args: ['crash_writer', ...argv], mounts: [{ path: '/data', opfs: dir }] })
      .then((r) => { window.results[n] = r; });
  }, [i, wasm, args, subdir]);
}

/**
 * Reads `subdir`/log from OPFS in the page and checks every record: resolves { size, bad (the
 * first record that differs, -1 if none), lock }. `lock` says whether the file could be opened
 * for writing (a writable, aborted at once): 'free', or the error's name, e.g.
 * NoModificationAllowedError while a sync access handle is open on it. With waitMs, a locked
 * file is tried again until then (a dead worker's lock is let go asynchronously), and
 * `lockWaitedMs` says how long it took.
 */
function readLog(page, subdir, records, waitMs = 0) {
  return page.evaluate(async ([dir, n, wait]) => {
    const fh = await (await (await navigator.storage.getDirectory()).getDirectoryHandle(dir)).getFileHandle('log');
    const bytes = new Uint8Array(await (await fh.getFile()).arrayBuffer());
    let bad = bytes.length === n * 4096 ? -1 : 0;
    for (let r = 0; r < n && bad < 0; r++) {
      const rec = bytes.subarray(r * 4096, (r + 1) * 4096);
      if (rec[4095] !== 10 || rec.subarray(0, 4095).some((b) => b !== 97 + (r % 26))) bad = r;
    }
    const since = Date.now();
    let lock;
    for (;;) {
      try {
        await (await fh.createWritable({ keepExistingData: true })).abort();
        lock = 'free';
      } catch (err) {
        lock = err.name;
      }
      if (lock === 'free' || Date.now() - since >= wait) break;
      await new Promise((resolve) => { setTimeout(resolve, 50); });
    }
    return { size: bytes.length, bad, lock, lockWaitedMs: Date.now() - since };
  }, [subdir, records, waitMs]);
}

/** Waits until tab i's program has printed "written N"; fails if it ended first. */
async function waitWritten(page, i, records) {
  await page.waitForFunction(([n, line]) => window.tabs[n].spindleOut?.includes(line) || window.results[n], [i, `written ${records}\n`], { timeout: 60000 });
  const early = await page.evaluate((n) => window.results[n], i);
  assert.equal(early, undefined, `the program ended before the test ended it: ${JSON.stringify(early)}`);
}

/** Waits for tab i's program's result { exitCode, trap, stdout, stderr } or { error }. */
async function resultOf(page, i) {
  await page.waitForFunction((n) => window.results[n], i, { timeout: 60000 });
  return page.evaluate((n) => window.results[n], i);
}

const closeTabs = (page) => page.evaluate(() => { for (const tab of window.tabs ?? []) tab.close(); });

function assertRecords(r, records, what) {
  assert.equal(r.size, records * RECORD, `${what}: bytes in the OPFS file`);
  assert.equal(r.bad, -1, `${what}: record ${r.bad} is not 4,095 x '${String.fromCharCode(97 + (r.bad % 26))}' + '\\n'`);
}

/** While the program waits: another page of the origin reads every record, and cannot open the file for writing. */
async function checkWhileRunning(page, subdir, records) {
  const r = await readLog(page, subdir, records);
  assertRecords(r, records, 'read by the test\'s page while the program runs');
  assert.equal(r.lock, 'NoModificationAllowedError', 'the mount holds the file\'s sync access handle while the program runs');
}

for (const browser of testBrowsers) {
  describe(`what write() returned for is in OPFS however the program ends, in ${browserTitle[browser]}`, { skip }, () => {
    let wasm;
    let b; // the test's page, on a profile of its own; each test's program runs in a new tab of it
    before(async () => {
      if (skip) return;
      [wasm, b] = await Promise.all([
        cc(join(root, 'tests', 'mount', 'programs', 'crash_writer.c'), 'crash_writer'),
        openPage(newProfile(), browser),
      ]);
    });
    after(() => b?.close());

    it('kill -9 of the whole browser: 3 records, 300 from a thread, 3 to an O_EXCL file', async (t) => {
      const profile = newProfile();
      const runs = [['kill-3', 3, ['wait', '/data/log', '3']], ['kill-300', 300, ['wait', '/data/log', '300', 'thread']],
        ['kill-excl', 3, ['wait', '/data/log', '3', 'excl']]];
      let k = await openPage(profile, browser);
      try {
        const tabs = [];
        for (const [subdir, , args] of runs) {
          tabs.push(await openTab(k.page));
          await startWriter(k.page, tabs.at(-1), wasm, args, subdir);
        }
        for (let i = 0; i < runs.length; i++) await waitWritten(k.page, tabs[i], runs[i][1]);
        for (const [subdir, records] of runs) await checkWhileRunning(k.page, subdir, records);
        assert.ok(await k.kill() > 0);
      } finally {
        await k.close().catch(() => {});
      }
      k = await openPage(profile, browser);
      try {
        for (const [subdir, records, args] of runs) {
          const r = await readLog(k.page, subdir, records, 5000);
          assertRecords(r, records, `${args.join(' ')}, then the browser killed`);
          assert.equal(r.lock, 'free');
        }
        t.diagnostic('another page of the origin, while the program ran: getFile() gave every record written; createWritable(): NoModificationAllowedError');
      } finally {
        await k.close();
      }
    });

    // A program in a new tab, ended by `end(tab)` (which resolves the program's result, if it has
    // one); then the test's page checks the file, and that nothing holds it any more.
    async function crashInTab(t, subdir, args, records, end) {
      const tab = await openTab(b.page);
      try {
        await startWriter(b.page, tab, wasm, args, subdir);
        const result = await end(tab);
        const r = await readLog(b.page, subdir, records, 5000);
        assertRecords(r, records, `${args.join(' ')}, ended`);
        assert.equal(r.lock, 'free', 'the file\'s sync access handle is let go once the program\'s workers are gone');
        t.diagnostic(`file free for writing ${r.lockWaitedMs} ms after the end`);
        return result;
      } finally {
        await closeTabs(b.page);
      }
    }

    // the program waits after "written N" while the tab is reloaded or closed
    const waitThen = (records, subdir, action) => async (tab) => {
      await waitWritten(b.page, tab, records);
      await checkWhileRunning(b.page, subdir, records);
      await b.page.evaluate(action, tab);
    };

    it('3 records, then the tab is reloaded', (t) => crashInTab(t, 'reload', ['wait', '/data/log', '3'], 3,
      waitThen(3, 'reload', (n) => { window.tabs[n].location.reload(); })));

    it('300 records (1.2 MB), then the tab is closed', (t) => crashInTab(t, 'close', ['wait', '/data/log', '300'], 300,
      waitThen(300, 'close', (n) => { window.tabs[n].close(); })));

    for (const [name, args] of [['abort()', ['abort', '/data/log', '3']], ['a trap (bad memory access)', ['trap', '/data/log', '3']],
      ['abort() in a second thread', ['abort', '/data/log', '3', 'thread']], ['abort(), to a file made with O_EXCL', ['abort', '/data/log', '3', 'excl']]]) {
      it(`3 records, then ${name}`, async (t) => {
        const r = await crashInTab(t, `end-${args.join('-').replaceAll('/', '')}`, args, 3, (tab) => resultOf(b.page, tab));
        assert.equal(r.error, undefined, r.error);
        assert.equal(r.stdout, 'written 3\n');
        assert.equal(r.exitCode, 134, JSON.stringify(r));
        assert.ok(r.trap, 'the program ended by a trap');
      });
    }

    it('3 records, then the host API\'s dispose() ends the running program', async (t) => {
      const r = await crashInTab(t, 'dispose', ['wait', '/data/log', '3'], 3, async (tab) => {
        await waitThen(3, 'dispose', (n) => { window.tabs[n].program.dispose(); })(tab);
        return resultOf(b.page, tab);
      });
      assert.equal(r.exitCode, 134);
      assert.match(r.trap, /disposed before the program ended/);
    });

    // The host gives a page no thread's worker, and a browser tells no one when a worker is
    // terminated, so the page's Worker is wrapped (crash-tab.html) to find the writing thread's.
    it('3 records from a second thread, then the worker running that thread is terminated', async (t) => {
      const tab = await openTab(b.page);
      try {
        await startWriter(b.page, tab, wasm, ['wait', '/data/log', '3', 'thread'], 'terminate');
        await waitWritten(b.page, tab, 3);
        const threads = await b.page.evaluate((n) => {
          const workers = window.tabs[n].startedWorkers.filter((w) => w.url.endsWith('/thread-worker.js'));
          workers.at(-1).worker.terminate(); // main's is the first, the second thread's the last
          return workers.length;
        }, tab);
        assert.equal(threads, 2, 'one worker for main, one for the writing thread');
        // the program itself goes on (main sleeps) and its mount keeps the file open
        const during = await readLog(b.page, 'terminate', 3);
        assertRecords(during, 3, 'thread worker terminated, tab open');
        assert.equal(during.lock, 'NoModificationAllowedError');
        await b.page.evaluate((n) => { window.tabs[n].close(); }, tab);
        const r = await readLog(b.page, 'terminate', 3, 5000);
        assertRecords(r, 3, 'thread worker terminated, then the tab closed');
        assert.equal(r.lock, 'free');
        t.diagnostic(`file free for writing ${r.lockWaitedMs} ms after the tab was closed`);
      } finally {
        await closeTabs(b.page);
      }
    });
  });
}
