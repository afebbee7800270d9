// Starts a headless browser (Chromium, Firefox or WebKit, cli/browser/browsers.js) for the CLI so that it never
// outlives it: through cli/browser/browser-watchdog.js, which kills the browser's whole tree and removes its profile when the
// CLI stops it, is interrupted (cli/common/interrupt.js) or dies in any other way.
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { onInterrupt } from '../common/interrupt.js';

const { mkdtempSync, rmSync, writeFileSync } = process.getBuiltinModule('node:fs');

const watchdog = join(import.meta.dirname, 'browser-watchdog.js');
const STOP_WAIT_MS = 5000;

/**
 * Starts `browser` (a launch from cli/browser/browsers.js) with a fresh profile, opening `url`. Returns
 * { profile, exited, stop() }: `exited` resolves with a message when the browser ended by itself
 * (or could not start); `stop()` ends it (SIGKILL to its whole tree) and resolves when its
 * processes and profile are gone. `keptProfile`: a directory to use as the profile instead, which
 * stays (the tests' OPFS durability checks reopen it).
 */
export function launchBrowser(browser, { url, showStderr = false, profilePrefix = browser.profilePrefix, keptProfile = null } = {}) {
  const profile = keptProfile ?? mkdtempSync(join(tmpdir(), profilePrefix));
  browser.prepareProfile(profile);
  // Any local user can read a process's command line, so `url` and the server's secret in it
  // (cli/browser/local-server.js) stay out of it: the browser opens a file in the profile (mkdtemp makes it
  // the user's alone) that sends it on.
  const start = join(profile, 'start.html');
  const attribute = url.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
  writeFileSync(start, `<!doctype html><meta http-equiv="refresh" content="0;url=${attribute}">`);
  // `browser.env`: what the browser's environment adds; `browser.xvfb`: it needs a display of its own
  // `browser.saveCachesTo`: where the profile's caches go back when the browser has ended
  // (cli/browser/chromium-code-cache.js), before the profile is removed
  const flags = [...(keptProfile ? ['--keep-profile'] : []), ...(browser.xvfb ? ['--xvfb'] : []),
    ...(browser.saveCachesTo ? [`--save-caches=${browser.saveCachesTo}`] : [])];
  const child = spawn(process.execPath, [watchdog, ...flags, profile, browser.path, ...browser.args(profile), pathToFileURL(start).href],
    { detached: true, stdio: ['pipe', 'pipe', showStderr ? 'inherit' : 'ignore'], env: { ...process.env, ...browser.env?.(profile) } });
  const said = [];
  child.stdout.on('data', (c) => said.push(c));
  child.stdin.on('error', () => {}); // the watchdog may be gone already
  let stopping = false;
  let stopped = null;
  const gone = new Promise((resolve) => { child.once('close', resolve); child.once('error', resolve); });
  const exited = gone.then((code) => {
    const why = Buffer.concat(said).toString().trim();
    if (stopping) return null;
    return why || (typeof code === 'number' ? `${browser.name} exited (code ${code}) before the program ended` : `cannot start the browser watchdog: ${code?.message}`);
  });

  function stop() {
    stopping = true;
    stopped ??= (async () => {
      child.stdin.end(); // the watchdog's signal to end the browser
      await Promise.race([gone, new Promise((resolve) => { setTimeout(resolve, STOP_WAIT_MS).unref(); })]);
      try {
        rmSync(keptProfile ? start : profile, { recursive: true, force: true, maxRetries: 5 }); // normally gone already
      } catch (err) {
        process.stderr.write(`spindle: warning: could not remove ${profile}: ${err.message}\n`);
      }
    })();
    return stopped;
  }
  const forget = onInterrupt(stop);
  return { profile, exited, stop: () => { forget(); return stop(); } };
}
