// SQLite crash trials on an OPFS mount (docs/MOUNTS.md "Durability", docs/OPFS.md): the trials of
// tests/sqlite-crash.test.js with the page in place of the process. The writer of
// tests/real/sqlite_crash.c commits transactions on /d/test.db (/d = opfs:sqlite-crash-MODE) in a
// tab of its own (tests/opfs/crash-tab.html), and that tab is reloaded, or closed, at a random
// moment: a random delay from the program's start (aimed at its open, where it recovers from the
// last trial), a random delay after its "start" line, or at once after a random "committed N" line
// (the tab hands each piece of stdout to the test's page as it comes). Then a fresh page (the
// reloaded tab, or another tab that was open all along, at once after the close) waits until the
// gone page's sync access handles let go of the files, and runs the wasm build's `check`:
// integrity_check "ok", the table exactly the state after some commit M, M at least the last
// commit the test's page saw printed. Then the next trial's writer continues the same database and
// must print "start M". The check runs on the live files (and so recovers from
// the reload: rolls back a hot journal, replays a WAL), or, in some trials, on a copy made in OPFS,
// leaving the recovery to the next writer, whose own reload may land in it. Every third trial the
// page also reads the files as the reload left them and hands the bytes to Node, where the Linux
// build checks them and must print the same lines. The trials are half rollback journal, half WAL
// (exclusive locking: sqlite_crash.c says why), in Chromium and Firefox on persistent profiles;
// 12 per browser, 100 with SPINDLE_TEST_LONG=1; the seed is printed, SPINDLE_CRASH_SEED=N repeats a
// run. A gone page's handles let go of the files tens of ms after the reload or close (the test
// prints how long): a program that opens one before gets EBUSY and is run again, which the last
// test makes happen by holding the database. SPINDLE_TEST_BROWSER=0 skips the file.
/* global window, location, Worker -- the functions given to page.evaluate run in the page */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openTab, opfsSuite, root, skip } from './opfs/harness.js';
import { browserTitle, testBrowsers } from './lib/browsers.js';
import { buildCrashPrograms, checkNative, crashSeed as seed, median, parseCheck, planEnd, prng } from './real/sqlite-crash-trials.js';

const trials = process.env.SPINDLE_TEST_LONG === '1' ? 100 : 12; // per browser, half each mode
const LOCK_WAIT_MS = 10000; // how long a gone page's handles may hold the files
const { newProfile, openPage } = opfsSuite();

let programs; // { wasm, native, url: the wasm's URL on the test server }
let scratch;
before(async () => {
  if (skip) return;
  scratch = mkdtempSync(join(tmpdir(), 'spindle-opfs-sqlite-crash-'));
  programs = await buildCrashPrograms();
  programs.url = relative(root, programs.wasm);
});
after(() => { if (scratch) rmSync(scratch, { recursive: true, force: true }); });

// ---- what the test's page does (each function runs in the page: only its arguments reach it) ----

/**
 * Gives the test's page window.lockedFiles(dir): resolves the names of the files of OPFS
 * directory `dir` (created if missing) that a sync access handle holds, found by opening one on
 * each (and closing it) in a worker. Not a writable: in Firefox 153 ESR, createWritable() on a file
 * removed meanwhile (a dying page's journal) fails with NotFoundError and keeps a lock on the
 * name, so that no new file there gets a sync access handle while the page lives.
 */
function installLockProbe(page) {
  return page.evaluate(() => {
    const source = `onmessage = async ({ data: { id, dir } }) => {
      const locked = [];
      try {
        const d = await (await navigator.storage.getDirectory()).getDirectoryHandle(dir, { create: true });
        for await (const [name, h] of d.entries()) {
          if (h.kind !== 'file') continue;
          try {
            (await h.createSyncAccessHandle()).close();
          } catch (err) {
            if (err.name !== 'NotFoundError') locked.push(err.name === 'NoModificationAllowedError' ? name : name + ': ' + err.name);
          }
        }
      } catch (err) {
        locked.push(dir + ': ' + err.name);
      }
      postMessage({ id, locked });
    };`;
    const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
    const waiting = new Map();
    let next = 0;
    worker.onmessage = ({ data }) => { waiting.get(data.id)(data.locked); waiting.delete(data.id); };
    window.lockedFiles = (dir) => new Promise((resolve) => {
      waiting.set(++next, resolve);
      worker.postMessage({ id: next, dir });
    });
  });
}

/**
 * Runs sqlite_crash ARGS in tab i on /d = opfs:`subdir` and, as `plan` says ({ how: 'reload' |
 * 'close', after: 'spawn' | 'start', ms } or { how, commits: k }; {} runs it to its end), reloads
 * or closes the tab. Resolves { how (null if the program ended first), result (then its
 * { exitCode, stdout, stderr } or { error }), start, startMs, last, commits } from the stdout the
 * test's page saw, and lockedMs: how long after the reload or close the test's page still found a
 * file of `subdir` locked (0: never), probing again and again at once.
 * The timers are the tab's: the test's page is a background tab, whose timers a browser may slow
 * to one a second.
 */
function runInTab(page, i, url, args, subdir, plan) {
  return page.evaluate(([n, u, argv, dir, p]) => new Promise((resolve) => {
    const tab = window.tabs[n];
    const t0 = performance.now();
    const seen = { start: null, startMs: null, last: null, commits: 0 };
    let pending = '';
    let done = false;
    let timer = null;
    const finish = async (how, result = null) => {
      if (done) return;
      done = true;
      tab.clearTimeout(timer);
      tab.clearTimeout(safety);
      tab.onStdout = null; // what comes after the reload was asked for is not counted as seen
      let lockedMs = 0;
      if (how) {
        tab.stale = true; // (the fresh page has no such property)
        if (how === 'reload') tab.location.reload();
        else tab.close();
        const t1 = performance.now();
        // (over 10 s: the fresh page's wait fails the trial)
        while ((await window.lockedFiles(dir)).length > 0 && lockedMs < 10000) lockedMs = performance.now() - t1;
      }
      resolve({ ...seen, how, result, lockedMs });
    };
    const end = () => finish(p.how);
    const safety = tab.setTimeout(() => finish(p.how ?? 'reload'), 90000); // the writer ends itself after 60 s
    if (p.after === 'spawn') timer = tab.setTimeout(end, p.ms);
    tab.onStdout = (text) => {
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) {
        let m;
        if ((m = /^start (\d+)$/.exec(line))) {
          seen.start = Number(m[1]);
          seen.startMs = performance.now() - t0;
          if (p.after === 'start') timer = tab.setTimeout(end, p.ms);
        } else if ((m = /^committed (\d+)$/.exec(line))) {
          seen.last = Number(m[1]);
          if (++seen.commits === p.commits) end();
        }
      }
    };
    tab.spindleRun(new URL(u, location.href).href, { args: ['sqlite_crash', ...argv], mounts: [{ path: '/d', opfs: dir }] })
      .then((r) => finish(null, r));
  }), [i, url, args, subdir, plan]);
}

/**
 * Waits until no sync access handle holds a file of OPFS directory `subdir` (created if missing):
 * one of a page just reloaded or closed is let go a little later. Resolves { files: { name:
 * size }, locked (probes that found one held) }.
 */
function filesOnceFree(page, i, subdir, waitMs) {
  return page.evaluate(async ([n, dir, wait]) => {
    const t0 = performance.now();
    let locked = 0;
    for (let held; (held = await window.lockedFiles(dir)).length > 0; locked++) {
      if (performance.now() - t0 > wait) throw new Error(`${dir}: ${held.join(', ')} still locked after ${Math.round(performance.now() - t0)} ms`);
      await new Promise((resolve) => { window.tabs[n].setTimeout(resolve, 5); });
    }
    const files = {};
    const d = await (await navigator.storage.getDirectory()).getDirectoryHandle(dir);
    for await (const [name, h] of d.entries()) {
      if (h.kind === 'file') files[name] = (await h.getFile()).size;
    }
    return { files, locked };
  }, [i, subdir, waitMs]);
}

/** The files of OPFS directory `subdir`, base64: { name: bytes }. */
function readFiles(page, subdir) {
  return page.evaluate(async (dir) => {
    const d = await (await navigator.storage.getDirectory()).getDirectoryHandle(dir);
    const out = {};
    for await (const [name, h] of d.entries()) {
      if (h.kind !== 'file') continue;
      const bytes = new Uint8Array(await (await h.getFile()).arrayBuffer());
      let text = '';
      for (let at = 0; at < bytes.length; at += 0x8000) text += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
      out[name] = btoa(text);
    }
    return out;
  }, subdir);
}

/** Makes OPFS directory `to` a copy of the files of `from` (what was in `to` goes). */
function copyFiles(page, from, to) {
  return page.evaluate(async ([src, dst]) => {
    const opfs = await navigator.storage.getDirectory();
    const s = await opfs.getDirectoryHandle(src);
    const d = await opfs.getDirectoryHandle(dst, { create: true });
    const old = [];
    for await (const name of d.keys()) old.push(name); // (a directory may change under an iterator)
    for (const name of old) await d.removeEntry(name, { recursive: true });
    for await (const [name, h] of s.entries()) {
      if (h.kind !== 'file') continue;
      const w = await (await d.getFileHandle(name, { create: true })).createWritable();
      await w.write(await h.getFile());
      await w.close();
    }
  }, [from, to]);
}

// ---- the trials ----

// A run that failed because a file was still locked (the mount answers EBUSY to its open) before
// it printed anything: one that had printed would have lost what it did, so it fails the trial
const busy = (r) => !r.how && r.start === null && r.commits === 0 && /\(errno \d+: Device or resource busy\)$/m.test(r.result?.stdout ?? '');

/**
 * runInTab, again while the program fails with EBUSY (a handle let go late: the lock probe's own
 * writable, or the last program's handles in this page) for up to LOCK_WAIT_MS.
 */
async function runRetrying(page, i, args, subdir, plan, stats) {
  const t0 = Date.now();
  for (;;) {
    const r = await runInTab(page, i, programs.url, args, subdir, plan);
    if (!busy(r) || Date.now() - t0 > LOCK_WAIT_MS) return r;
    stats.busyRetries++;
    await new Promise((resolve) => { setTimeout(resolve, 20); });
  }
}

/** The wasm build's check of /d/test.db on opfs:`subdir` in tab i: { max, lines }. */
async function checkInTab(page, i, subdir, stats, what) {
  await filesOnceFree(page, i, subdir, LOCK_WAIT_MS);
  const r = await runRetrying(page, i, ['check', '/d/test.db'], subdir, {}, stats);
  assert.ok(r.result, `${what}: the wasm check did not end in 90 s`);
  const { exitCode, stdout = '', stderr = '', error } = r.result;
  return parseCheck({ code: exitCode, stdout, stderr: error ? `${error}\n${stderr}` : stderr }, `${what}: wasm check in a fresh page`);
}

/** How long files stayed locked after each end: "3 of 5, median 12 ms, max 40 ms". */
function locked(ms) {
  const held = ms.filter((x) => x > 0);
  return `${held.length} of ${ms.length}` + (held.length ? `, median ${median(held).toFixed(0)} ms, max ${Math.max(...held).toFixed(0)} ms` : '');
}

async function runTrials(t, page, browser, mode, count, rand) {
  const dir = `sqlite-crash-${mode}`;
  const copy = `${dir}-copy`;
  const stats = { how: { reload: 0, close: 0 }, plans: { spawn: 0, start: 0, commits: 0 }, commits: 0, nativeChecks: 0,
    writerRecovered: 0, leftover: 0, printedBehind: 0, busyRetries: 0, locked: 0, lockedAfter: { reload: [], close: [] }, startTimes: [] };
  const tab = await openTab(page); // where the checks run, and the writers that are reloaded
  let known = 0; // the highest commit the last check found
  let printed = 0; // the last commit the test's page saw printed
  let startMs = 800; // how long the latest writer took to print "start", to aim early reloads at
  const t0 = performance.now();
  let plan = null;
  for (let i = 0; i <= count; i++) {
    if (i > 0) {
      const checking = `${browserTitle[browser]} ${mode}, after trial ${i - 1} (seed ${seed}, plan ${JSON.stringify(plan)})`;
      // the files as the reload left them (a page reloaded this moment may hold them a little longer)
      const free = await filesOnceFree(page, tab, dir, LOCK_WAIT_MS);
      if (free.locked) stats.locked++;
      if (free.files['test.db-journal'] !== undefined || free.files['test.db-wal'] > 0) stats.leftover++;
      const last = i === count;
      let native = null;
      if (last || i % 3 === 0) {
        const snap = join(scratch, `${browser}-${mode}-${i}`);
        mkdirSync(snap);
        for (const [name, b64] of Object.entries(await readFiles(page, dir))) writeFileSync(join(snap, name), Buffer.from(b64, 'base64'));
        native = await checkNative(programs.native, snap);
        rmSync(snap, { recursive: true });
        stats.nativeChecks++;
      }
      // in some trials the check reads a copy, and the next writer recovers the files itself
      const recoverInWriter = !last && rand() < 0.4;
      if (recoverInWriter) {
        await filesOnceFree(page, tab, copy, LOCK_WAIT_MS); // (the last check on the copy may hold them still)
        await copyFiles(page, dir, copy);
        stats.writerRecovered++;
      }
      const c = await checkInTab(page, tab, recoverInWriter ? copy : dir, stats, checking);
      if (native) assert.deepEqual(c.lines, native.lines, `${checking}: the Linux build's check of the same bytes disagrees`);
      assert.ok(c.max >= printed, `${checking}: commit ${printed} was printed, the database holds up to ${c.max} (files ${JSON.stringify(free.files)})`);
      stats.printedBehind += c.max - printed;
      known = c.max;
      if (last) break;
    }
    plan = { ...planEnd(rand, startMs, { maxCommits: 30, maxMs: 400 }), how: rand() < 0.7 ? 'reload' : 'close' };
    // A tab to close is a new one: the next check runs at once in this one, open all along, while
    // the closed tab's handles may still hold the files. (The writer's tab is the last opened, in
    // front: a browser may slow a background tab's timers, which time the plan.)
    const writerTab = plan.how === 'close' ? await openTab(page) : tab;
    const w = await runRetrying(page, writerTab, ['write', '/d/test.db', mode, '1000000'], dir, plan, stats);
    const context = `${browserTitle[browser]} ${mode} trial ${i} (seed ${seed}, plan ${JSON.stringify(plan)})`;
    assert.ok(w.how, `${context}: the writer ended by itself: ${JSON.stringify(w.result)}`);
    assert.ok(plan.after === 'spawn' || w.start !== null, `${context}: ended before it opened the database`);
    assert.ok(!plan.commits || w.commits >= plan.commits, `${context}: ended after ${w.commits} commits`);
    // its own recovery found what the check found
    if (w.start !== null) assert.equal(w.start, known, `${context}: the writer started at ${w.start}, the check found ${known}`);
    if (w.startMs !== null) { startMs = w.startMs; stats.startTimes.push(w.startMs); }
    stats.how[w.how]++;
    stats.lockedAfter[w.how].push(w.lockedMs);
    stats.plans[plan.after ?? 'commits']++;
    stats.commits += w.commits;
    printed = w.last ?? known;
    if (w.how === 'reload') await page.waitForFunction((n) => !window.tabs[n].stale && window.tabs[n].spindleReady, tab, { timeout: 30000, polling: 20 });
  }
  await page.evaluate((n) => { window.tabs[n].close(); }, tab);
  t.diagnostic(`${browserTitle[browser]} ${mode}: ${count} trials (seed ${seed}) in ${((performance.now() - t0) / 1000).toFixed(1)} s: ` +
    `${stats.how.reload} reloads, ${stats.how.close} closes; ends ${JSON.stringify(stats.plans)}; ${stats.commits} printed commits found, ` +
    `last commit ${known}; ${stats.leftover} ends left a journal or WAL; ${stats.writerRecovered} recovered by the next writer; ` +
    `${stats.nativeChecks} Linux checks of the copied files agreed; commits in the file but not seen printed: ${stats.printedBehind}; ` +
    `files still locked after the ${Object.entries(stats.lockedAfter).map(([how, ms]) => `${how}: ${locked(ms)}`).join(', ')}; ` +
    `the fresh page found them locked after ${stats.locked} ends, ${stats.busyRetries} runs again after EBUSY; ` +
    `"start" after ${median(stats.startTimes).toFixed(0)} ms (median)`);
}

for (const [b, browser] of testBrowsers.entries()) {
  describe(`SQLite on OPFS, the tab reloaded or closed at random moments, in ${browserTitle[browser]} (${trials} trials, seed ${seed})`, { skip }, () => {
    let k; // the test's page, on a profile of its own; the programs run in tabs it opens
    before(async () => {
      if (skip) return;
      k = await openPage(newProfile(), browser);
      await installLockProbe(k.page);
    });
    after(() => k?.close());

    it('rollback journal (journal_mode=DELETE): every printed commit is there, the database is whole', (t) =>
      runTrials(t, k.page, browser, 'delete', trials / 2, prng(seed + 2 * b)));

    it('WAL (locking_mode=EXCLUSIVE): every printed commit is there, the database is whole', (t) =>
      runTrials(t, k.page, browser, 'wal', trials / 2, prng(seed + 2 * b + 1)));

    // what the trials do when a gone page's handle still holds a file, made to happen: the
    // test's page holds a writable on the database, which keeps a sync access handle off it
    it('a locked database: the open fails with EBUSY, and the run goes through once the lock is let go', async (t) => {
      const dir = 'sqlite-crash-locked';
      const tab = await openTab(k.page);
      try {
        const w = await runInTab(k.page, tab, programs.url, ['write', '/d/test.db', 'delete', '3'], dir, {});
        assert.equal(w.result?.exitCode, 0, JSON.stringify(w.result));
        await filesOnceFree(k.page, tab, dir, LOCK_WAIT_MS); // (the writer's own handles, let go late)
        await k.page.evaluate(async (d) => {
          const fh = await (await (await navigator.storage.getDirectory()).getDirectoryHandle(d)).getFileHandle('test.db');
          window.heldWritable = await fh.createWritable({ keepExistingData: true });
        }, dir);
        const held = await runInTab(k.page, tab, programs.url, ['check', '/d/test.db'], dir, {});
        assert.ok(busy(held), `the check of a locked database: ${JSON.stringify(held.result)}`);
        // let go while the retries go on
        await k.page.evaluate((n) => { window.tabs[n].setTimeout(() => window.heldWritable.abort(), 2000); }, tab);
        const stats = { busyRetries: 0 };
        const r = await runRetrying(k.page, tab, ['check', '/d/test.db'], dir, {}, stats);
        assert.ok(stats.busyRetries > 0, 'the check ran again');
        assert.equal(parseCheck({ code: r.result?.exitCode, ...r.result }, 'the check once the lock was let go').max, 3);
        t.diagnostic(`${held.result.stdout.trim()}; ran ${stats.busyRetries + 1} times`);
      } finally {
        await k.page.evaluate((n) => {
          window.tabs[n].close();
          window.heldWritable?.abort().catch(() => {}); // (aborted already, unless the test failed first)
        }, tab);
      }
    });
  });
}
