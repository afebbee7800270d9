// A headless browser (Chromium, or Firefox through tests/lib/page-driver.js) on a persistent
// profile (a directory that outlives it), for OPFS durability tests: open, do something, kill
// the whole browser with SIGKILL (no clean shutdown: a crash, as far as the browser is
// concerned), open again on the same profile and look.
import { readdirSync, readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { playwrightLaunch } from '../../cli/browser/chromium.js';
import { openDriven } from '../lib/page-driver.js';

// Our own descendants whose command line names this profile: the browser and its children.
function browserPids(profile) {
  const parentOf = new Map();
  const cmd = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      cmd.set(Number(entry), readFileSync(`/proc/${entry}/cmdline`, 'utf8'));
    } catch { /* gone */ }
  }
  const mine = (pid) => {
    for (let p = pid; p > 1; p = parentOf.get(p) ?? 0) if (p === process.pid) return true;
    return false;
  };
  return [...cmd.keys()].filter((pid) => pid !== process.pid && mine(pid) && cmd.get(pid).includes(profile));
}

/**
 * Opens the profile in `browser`; resolves { page, kill(), close() } (and Chromium's Playwright
 * `context`). Firefox, which Playwright cannot drive, gets a driven page (tests/lib/page-driver.js:
 * the server must route its requests) at `url`'s directory.
 */
export async function openProfile(profile, url, { browser = 'chromium' } = {}) {
  if (browser !== 'chromium') return openDriven(browser, profile, url.replace(/\/$/, ''));
  const context = await chromium.launchPersistentContext(profile, playwrightLaunch);
  const page = context.pages()[0] ?? await context.newPage();
  if (url) await page.goto(url);
  return {
    context,
    page,
    /** SIGKILL to the browser and every process of it (they are this process's children). */
    async kill() {
      const pids = browserPids(profile);
      if (pids.length === 0) throw new Error('no browser process found for the profile');
      for (const pid of pids) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
      await context.close().catch(() => {});
      return pids.length;
    },
    close: () => context.close(),
  };
}
