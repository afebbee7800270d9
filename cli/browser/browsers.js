// The browsers `spindle run --browser[=NAME]` and `spindle bench --browser[=NAME]` can use, and
// how each is launched: Chromium (the default, V8), Firefox (SpiderMonkey) and WebKit (WebKitGTK's
// JavaScriptCore, under a private Xvfb). Options that only V8 understands are refused for the
// others, or mapped where a SpiderMonkey preference or a JSC option means the same.
import { loadProfileCache } from './chromium-code-cache.js';
import { chromiumFlags, chromiumPath, v8FlagsSwitch } from './chromium.js';
import { firefoxArgs, firefoxPath, optimizedFromStartPrefs, writeFirefoxProfile } from './firefox.js';
import { optimizedFromStartOptions, webkitArgs, webkitEnv, webkitPackage, webkitPath } from './webkit.js';
import { xvfbPath } from './xvfb.js';
import { v8OnlyRefusal } from './browser-names.js';

const { existsSync } = process.getBuiltinModule('node:fs');

export { browserNames, parseBrowserName, parseBrowserNames, v8OnlyRefusal } from './browser-names.js';

/** Per browser: its binary, the variable that names another, and how to install it. */
const binaries = {
  chromium: [[chromiumPath, 'SPINDLE_CHROMIUM', '`sudo apt-get install chromium` (or scripts/setup.sh)']],
  firefox: [[firefoxPath, 'SPINDLE_FIREFOX', '`sudo apt-get install firefox-esr` (or scripts/setup.sh)']],
  webkit: [[webkitPath, 'SPINDLE_WEBKIT', `\`sudo apt-get install ${webkitPackage}\` (WebKitGTK's MiniBrowser; or scripts/setup.sh)`],
    [xvfbPath, 'SPINDLE_XVFB', '`sudo apt-get install xvfb` (or scripts/setup.sh)']],
};

/** Throws a one-line message saying how to get the browser (or its Xvfb) when a binary is missing. */
export function requireBrowser(name) {
  for (const [path, variable, hint] of binaries[name]) {
    if (!existsSync(path)) {
      const what = path === xvfbPath ? `Xvfb (which ${name} runs under)` : name;
      throw new Error(`${what} not found at ${path}: install it with ${hint}, or set ${variable} to its path`);
    }
  }
}

/**
 * What `spindle run --browser=NAME` cannot do in that browser, refused in one line before the
 * browser starts: V8's compile modes outside Chromium, and OPFS mounts in WebKitGTK, which has
 * no OPFS sync access handles (they fail with NotSupportedError there; Safari has them).
 */
export function refuseInBrowser(browser, { compilation = 'auto', mounts = [] } = {}) {
  if (browser !== 'chromium' && compilation !== 'auto') throw new Error(v8OnlyRefusal(`--compile=${compilation}`, browser));
  const opfs = mounts.find((m) => m.opfs !== undefined);
  if (browser === 'webkit' && opfs) {
    throw new Error(`--mount ${opfs.path}=opfs: Linux WebKit (WebKitGTK) has no OPFS sync access handles, which OPFS mounts need; use --browser=chromium or firefox`);
  }
}

/**
 * How to launch `name`: { name, path, profilePrefix, args(profile), prepareProfile(profile),
 * env?(profile), xvfb?, saveCachesTo? }. `optimizedFromStart`: the module is compiled by the optimizing tier
 * before it runs (V8's --no-liftoff; SpiderMonkey without its baseline compiler; JSC with OMG
 * only). `jsFlags`: more V8 flags, Chromium only. `profileCache`: Chromium only, a directory
 * whose HTTP and wasm code caches the fresh profile starts with and gives back to when the
 * browser has ended (saveCachesTo; cli/browser/chromium-code-cache.js).
 */
export function browserLaunch(name, { optimizedFromStart = false, jsFlags = [], profileCache = null } = {}) {
  requireBrowser(name);
  if (name !== 'chromium' && jsFlags.length) throw new Error(v8OnlyRefusal(jsFlags.join(' '), name));
  if (name === 'firefox') {
    const prefs = optimizedFromStart ? optimizedFromStartPrefs : {};
    return { name, path: firefoxPath, profilePrefix: 'spindle-firefox-', args: firefoxArgs, prepareProfile: (profile) => writeFirefoxProfile(profile, prefs) };
  }
  if (name === 'webkit') {
    const options = optimizedFromStart ? optimizedFromStartOptions : {};
    return { name, path: webkitPath, profilePrefix: 'spindle-webkit-', args: webkitArgs, prepareProfile: () => {}, env: (profile) => webkitEnv(profile, options), xvfb: true };
  }
  const flags = [...chromiumFlags, ...v8FlagsSwitch([...(optimizedFromStart ? ['--no-liftoff'] : []), ...jsFlags])];
  return { name, path: chromiumPath, profilePrefix: 'spindle-chromium-', args: (profile) => [...flags, `--user-data-dir=${profile}`],
    prepareProfile: (profile) => { if (profileCache) loadProfileCache(profileCache, profile); }, saveCachesTo: profileCache };
}
