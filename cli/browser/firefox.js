// The Firefox Spindle can run pages in, named once: where it is (SPINDLE_FIREFOX, else Debian's
// /usr/bin/firefox-esr) and what its fresh profile holds. Playwright cannot drive a stock Firefox,
// so the CLI launches it itself (cli/browser/browser-process.js) and the page reports back to the CLI's
// own server, as Chromium's does.
import { join } from 'node:path';

const { writeFileSync } = process.getBuiltinModule('node:fs');

export const firefoxPath = process.env.SPINDLE_FIREFOX || '/usr/bin/firefox-esr';

/**
 * Preferences of every profile: no first-run pages, telemetry, updates or background network
 * (the machine may be offline, and a run must not phone home), no session restore after a kill
 * (OPFS durability tests kill the browser). SharedArrayBuffer needs nothing here: the local
 * server sends COOP/COEP, and 127.0.0.1 is a secure context.
 */
const basePrefs = {
  'browser.shell.checkDefaultBrowser': false,
  'browser.startup.homepage_override.mstone': 'ignore',
  'browser.aboutwelcome.enabled': false,
  'startup.homepage_welcome_url': 'about:blank',
  'browser.sessionstore.resume_from_crash': false,
  'toolkit.startup.max_resumed_crashes': -1,
  'datareporting.policy.dataSubmissionEnabled': false,
  'datareporting.healthreport.uploadEnabled': false,
  'toolkit.telemetry.enabled': false,
  'toolkit.telemetry.reportingpolicy.firstRun': false,
  'app.update.enabled': false,
  'app.normandy.enabled': false,
  'extensions.update.enabled': false,
  'browser.safebrowsing.malware.enabled': false,
  'browser.safebrowsing.phishing.enabled': false,
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  'services.settings.server': 'http://127.0.0.1:9/',
};

/**
 * SpiderMonkey's counterpart of V8's --no-liftoff: without its baseline compiler, every wasm
 * function is compiled by the optimizing one (Ion) before the module runs.
 */
export const optimizedFromStartPrefs = { 'javascript.options.wasm_baselinejit': false };

/** Writes the profile's user.js: the base preferences and `extra`. */
export function writeFirefoxProfile(profile, extra = {}) {
  const lines = Object.entries({ ...basePrefs, ...extra }).map(([name, value]) => `user_pref(${JSON.stringify(name)}, ${JSON.stringify(value)});`);
  writeFileSync(join(profile, 'user.js'), `${lines.join('\n')}\n`);
}

/** Arguments of a headless launch on `profile`, a browser of its own (-no-remote). */
export const firefoxArgs = (profile) => ['-headless', '-no-remote', '-profile', profile];
