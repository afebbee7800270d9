// A minimal stand-in for a Playwright page in a stock headless Firefox, for the OPFS tests:
// Firefox is started on a profile directory (-profile, -no-remote), opens
// tests/opfs/firefox-bridge.html, and that page runs the functions the test sends it over the
// test's own server (long-polled GET __bridge/next, POST __bridge/done). Offers what
// tests/opfs.test.js uses: evaluate(fn, arg), waitForFunction(fn, arg, { timeout }),
// addScriptTag({ type, url }).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const firefoxPath = process.env.SPINDLE_FIREFOX || '/usr/bin/firefox-esr';

// no first-run pages, updates, telemetry or crash-restore prompts (a durability test kills it)
const prefs = {
  'browser.shell.checkDefaultBrowser': false,
  'browser.sessionstore.resume_from_crash': false,
  'toolkit.startup.max_resumed_crashes': -1,
  'datareporting.policy.dataSubmissionEnabled': false,
  'toolkit.telemetry.enabled': false,
  'app.update.enabled': false,
  'browser.aboutwelcome.enabled': false,
};

/** The processes whose command line names `profile`. */
function pidsOf(profile) {
  return readdirSync('/proc').filter((e) => /^\d+$/.test(e)).filter((e) => {
    try { return readFileSync(`/proc/${e}/cmdline`, 'utf8').includes(profile); } catch { return false; }
  }).map(Number);
}

/** The server side: hands calls to the page and takes their answers. */
export function createBridge() {
  let nextId = 1;
  const queue = [];          // calls not yet taken by the page
  const waiters = [];        // the page's pending GET __bridge/next
  const answers = new Map(); // id -> { resolve, reject }
  const give = () => {
    while (queue.length && waiters.length) waiters.shift().end(JSON.stringify(queue.shift()));
  };
  return {
    /** Serves __bridge/* (true), else false: for serveIsolated's handler. */
    handle(req, res, path) {
      if (path === '/__bridge/next') {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
        waiters.push(res);
        give();
        return true;
      }
      if (path === '/__bridge/done' && req.method === 'POST') {
        let body = '';
        req.on('data', (d) => { body += d; });
        req.on('end', () => {
          const { id, value, error } = JSON.parse(body);
          const a = answers.get(id);
          answers.delete(id);
          if (error !== undefined) a?.reject(new Error(error)); else a?.resolve(value);
          res.writeHead(204).end();
        });
        return true;
      }
      return false;
    },
    evaluate(fn, arg) {
      const id = nextId++;
      const answer = new Promise((resolve, reject) => answers.set(id, { resolve, reject }));
      queue.push({ id, src: String(fn), arg });
      give();
      return answer;
    },
    /** Drops what the last browser left (its pending GETs). */
    reset() {
      for (const w of waiters.splice(0)) w.destroy();
      queue.length = 0;
    },
  };
}

/** Starts Firefox on `profile` at the bridge page; resolves { page, kill(), close() } as profile.js's. */
export async function openFirefox(profile, serverUrl, bridge) {
  writeFileSync(join(profile, 'user.js'), Object.entries(prefs)
    .map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});\n`).join(''));
  bridge.reset();
  const child = spawn(firefoxPath, ['-headless', '-no-remote', '-profile', profile,
    `${serverUrl}/tests/opfs/firefox-bridge.html`], { stdio: 'ignore', detached: true });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const page = {
    evaluate: (fn, arg) => bridge.evaluate(fn, arg),
    async waitForFunction(fn, arg, { timeout = 30000 } = {}) {
      const until = Date.now() + timeout;
      while (!(await bridge.evaluate(fn, arg))) {
        if (Date.now() > until) throw new Error(`waitForFunction: timed out after ${timeout} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    addScriptTag: ({ type, url }) => bridge.evaluate(([t, u]) => new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.type = t; s.src = u; s.onload = resolve; s.onerror = () => reject(new Error(`cannot load ${u}`));
      document.head.append(s);
    }), [type, url]),
  };
  await page.waitForFunction(() => true, null, { timeout: 60000 }); // the page is up
  // Firefox may start itself again outside the child's process group: its processes are also
  // found by the profile (a fresh temporary directory) on their command lines
  const stop = async (signal) => {
    try { process.kill(-child.pid, signal); } catch { /* gone */ }
    for (const pid of pidsOf(profile)) { try { process.kill(pid, signal); } catch { /* gone */ } }
    await exited;
  };
  return {
    page,
    /** SIGKILL to Firefox and every process of it (its own process group). */
    async kill() { await stop('SIGKILL'); return 1; },
    close: () => stop('SIGKILL'), // (nothing to save: tests start from a fresh profile)
  };
}
