// The hosts a bench series runs on, and their names in labels, targets and charts. Chromium's
// series keep the host id `browser` they had before Firefox joined (stored results, the io-opfs
// suite and the targets use it); Firefox's are `firefox`, WebKit's `webkit`.
export const browserHosts = { chromium: 'browser', firefox: 'firefox', webkit: 'webkit' };

const titles = { node: 'Node', browser: 'Chromium', firefox: 'Firefox', webkit: 'WebKit', native: 'native' };

/**
 * The title of `host` in a results object's `machine`. Before `--browser=chromium,firefox`, a
 * `--browser=firefox` run named its Firefox series `browser` and said so in machine.browser.
 */
export function hostTitle(host, machine = {}) {
  if (host === 'browser' && machine.browser === 'firefox') return titles.firefox;
  return titles[host] ?? host;
}

/** The browser's version number in its `--version` line ("Mozilla Firefox 153.7.0esr" -> "153.7.0esr", "WebKitGTK 2.50.6" -> "2.50.6"). */
export const versionNumber = (line) => line?.match(/\d+(\.\w+)*/)?.[0] ?? null;
