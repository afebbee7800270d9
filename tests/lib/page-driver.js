// Drives a page in a browser that no driver library can reach (a stock Firefox: Playwright
// cannot, tests/lib/page-result.js), with the few calls of Playwright's page the OPFS tests use:
// evaluate, waitForFunction, addScriptTag. The browser is launched as spindle run --browser
// launches it (cli/browser/browser-process.js) on tests/lib/driver-page.html, which long-polls its
// server for functions to call; the server is a serveIsolated(driverRoutes, { onPost: driverPost }).
/* global document -- addScriptTag's function runs in the page */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from '../../cli/browser/browser-process.js';
import { browserLaunch } from '../../cli/browser/browsers.js';

export const driverRoutes = { '/driver': join(import.meta.dirname, 'driver-page.html') };

const channels = new Map();
let nextChannel = 1;

/** The server's POST hook: the page's requests for its next call and its results. */
export function driverPost(path, bytes) {
  const [, id, what] = /^\/driver\/(\d+)\/(next|result)$/.exec(path) ?? [];
  const channel = channels.get(Number(id));
  if (!channel) return undefined;
  if (what === 'next') return channel.calls.shift() ?? new Promise((resolve) => { channel.waiting = resolve; });
  const { id: callId, value, error } = JSON.parse(bytes);
  const call = channel.pending.get(callId);
  channel.pending.delete(callId);
  if (error !== undefined) call?.reject(new Error(error));
  else call?.resolve(value);
  return undefined;
}

/**
 * Opens `browser` on a profile directory that it keeps, at `baseUrl` (the server's, no trailing
 * /); resolves { page, kill(), close() } like tests/opfs/profile.js's openProfile: kill() and
 * close() both end the browser with SIGKILL to its whole tree, as a crash would.
 */
export async function openDriven(browser, profile, baseUrl) {
  const id = nextChannel++;
  const channel = { calls: [], waiting: null, pending: new Map(), nextCall: 1 };
  channels.set(id, channel);
  const launch = browserLaunch(browser);
  // a driven page may open a tab of its own with window.open (tests/opfs-crash.test.js), as
  // Playwright's Chromium lets it: Firefox's popup blocker would refuse it without a click
  const prepareProfile = launch.prepareProfile;
  launch.prepareProfile = (dir) => {
    prepareProfile(dir);
    if (browser === 'firefox') appendFileSync(join(dir, 'user.js'), 'user_pref("dom.disable_open_during_load", false);\n');
  };
  const launched = launchBrowser(launch, { url: `${baseUrl}/driver?channel=${id}`, keptProfile: profile });
  let ended = null;
  launched.exited.then((why) => { ended = why; for (const call of channel.pending.values()) call.reject(new Error(`${browser} ended: ${why}`)); });

  function evaluate(fn, arg) {
    if (ended) return Promise.reject(new Error(`${browser} ended: ${ended}`));
    return new Promise((resolve, reject) => {
      const call = { id: channel.nextCall++, source: String(fn), arg };
      channel.pending.set(call.id, { resolve, reject });
      if (channel.waiting) { channel.waiting(call); channel.waiting = null; } else channel.calls.push(call);
    });
  }
  async function waitForFunction(fn, arg, { timeout = 30000 } = {}) {
    const deadline = Date.now() + timeout;
    while (!(await evaluate(fn, arg))) {
      if (Date.now() > deadline) throw new Error(`waitForFunction: not true after ${timeout} ms: ${fn}`);
      await new Promise((resolve) => { setTimeout(resolve, 100); });
    }
  }
  const addScriptTag = ({ type, url }) => evaluate(({ t, u }) => new Promise((resolve, reject) => {
    const script = Object.assign(document.createElement('script'), { type: t, src: u, onload: resolve });
    script.onerror = () => reject(new Error(`cannot load ${u}`));
    document.head.append(script);
  }), { t: type, u: url });

  async function end() {
    await launched.stop();
    channels.delete(id);
    return 1;
  }
  return { page: { evaluate, waitForFunction, addScriptTag }, kill: end, close: end };
}
